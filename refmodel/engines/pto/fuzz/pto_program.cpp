// PTO `tmu --engine pto run` program text (docs/program-format.md, "PTO programs"): refused with a
// ProgramError at a line, or run to the end; then every executed step, printed as a program line,
// reads back to the same step, and the first lanes of every tile read back from their text.
#include <sstream>

#include "fuzz.h"
#include "tmu/pto/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  const std::string text = as_text(data, size);
  std::istringstream in(text);
  tmu::pto::ProgramRun run;
  if (!accepts([&] { run = tmu::pto::run_program(in, "input.pto", {}); }, Refusal::ProgramErrorOnly, "input.pto",
               line_count(text)))
    return 0;
  for (const tmu::pto::ProgramStep& s : run.steps) {
    const std::string line = tmu::pto::step_text(s);
    const auto w = words(line);
    const tmu::pto::ProgramStep back = must([&] { return tmu::pto::step_from_words(w); }, "step_text does not read back");
    require(back.op == s.op && back.dst == s.dst && back.srcs == s.srcs && back.params.cmp == s.params.cmp &&
                back.params.round == s.params.round && back.params.saturation == s.params.saturation,
            "step round trip", line);
  }
  for (const tmu::pto::NamedTile& t : run.tiles) {
    for (size_t i = 0; i < t.tile.bits.size() && i < 64; ++i) {
      const uint64_t bits = t.tile.bits[i];
      const std::string printed = must([&] { return tmu::pto::lane_to_text(t.tile.type, bits); }, "lane_to_text threw");
      // A NaN prints as "nan" or "snan" without its payload (tmu/ieee_text.h), which is not read back
      // as the same bits; every other value must come back bit for bit.
      if (printed.find("nan") != std::string::npos) continue;
      const uint64_t back = must([&] { return tmu::pto::lane_from_text(t.tile.type, printed); }, "lane_from_text refused its own text");
      require(back == bits, "lane round trip", printed);
    }
  }
  return 0;
}
