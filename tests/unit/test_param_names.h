// A gtest parameterised case's name from its description: every character other than a letter or a
// digit becomes '_' ("BFP partial block" -> BFP_partial_block), as gtest allows no other.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace tmu_test {

inline std::string case_name(std::string_view what) {
  std::string n(what);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

}  // namespace tmu_test
