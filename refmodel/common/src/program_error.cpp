#include "tmu/program_error.h"

namespace tmu {

ProgramError::ProgramError(const std::string& f, int l, const std::string& r)
    : std::runtime_error(f + ":" + std::to_string(l) + ": " + r), file(f), line(l), reason(r) {}

}  // namespace tmu
