// Tensix `tmu run` program text (docs/program-format.md): refused with a ProgramError at a line, or
// run to the end.
#include <sstream>

#include "fuzz.h"
#include "tmu/tensix/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = tmu::fuzz::as_text(data, size);
  std::istringstream in(text);
  tmu::fuzz::accepts([&] { tmu::tensix::run_program(in, "input.tmu", {}); }, tmu::fuzz::Refusal::ProgramErrorOnly,
                     "input.tmu", tmu::fuzz::line_count(text));
  return 0;
}
