#include "tmu/tensix/fidelity.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace tmu::tensix {

std::optional<unsigned> fidelity_phases(std::string_view text) {
  static constexpr std::array<std::string_view, 4> kNames = {"lofi", "hifi2", "hifi3", "hifi4"};
  for (unsigned i = 0; i < kNames.size(); ++i) {
    const std::string_view name = kNames[i];
    const bool by_name = text.size() == name.size() &&
                         std::equal(text.begin(), text.end(), name.begin(), [](char a, char b) {
                           return std::tolower(static_cast<unsigned char>(a)) == b;
                         });
    if (by_name || (text.size() == 1 && text[0] == static_cast<char>('0' + i))) return i + 1;
  }
  return std::nullopt;
}

}  // namespace tmu::tensix
