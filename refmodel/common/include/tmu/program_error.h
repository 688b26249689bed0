// What every engine's `tmu run` program interpreter throws: "file:line: reason", with the parts kept
// apart for callers that place the message themselves.
#pragma once

#include <stdexcept>
#include <string>

namespace tmu {

class ProgramError : public std::runtime_error {
 public:
  ProgramError(const std::string& file, int line, const std::string& reason);
  const std::string file;
  const int line;
  const std::string reason;
};

}  // namespace tmu
