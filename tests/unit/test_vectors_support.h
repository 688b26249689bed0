// Shared by the vector-file tests: a file held in a string, parsed as if read from `name`.
#pragma once

#include <sstream>
#include <string>

#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors::test {

inline VectorFile parse_text(const std::string& text, const std::string& name = "v.tmv") {
  std::istringstream in(text);
  return parse_vector_file(in, name);
}

}  // namespace tmu::tensix::vectors::test
