// AMX `tmu --engine amx run` program text (docs/program-format.md, "AMX programs"): refused with a
// ProgramError at a line, or run to the end; then the lanes the run left in Z read back from the
// text they print as.
#include <sstream>

#include "fuzz.h"
#include "tmu/amx/program.h"
#include "tmu/amx/state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  const std::string text = as_text(data, size);
  std::istringstream in(text);
  tmu::amx::ProgramRun run;
  if (!accepts([&] { run = tmu::amx::run_program(in, "input.amx", {}); }, Refusal::ProgramErrorOnly, "input.amx",
               line_count(text)))
    return 0;
  // Z row 0 and the last row, every lane width, as `tmu run --values` prints them.
  for (const char* type : {"f16", "bf16", "f32", "f64", "raw64"}) {
    const tmu::amx::LaneType t = tmu::amx::parse_lane_type(type);
    for (const auto* row : {&run.state.z.front(), &run.state.z.back()}) {
      for (unsigned lane = 0; lane < 64 / t.bytes; ++lane) {
        const uint64_t bits = tmu::amx::get_lane(*row, t.bytes, lane);
        const std::string printed = must([&] { return tmu::amx::lane_to_text(t, bits); }, "lane_to_text threw");
        // A NaN prints as "nan" or "snan" without its payload (tmu/ieee_text.h), which is not read back
        // as the same bits; every other value must come back bit for bit.
        if (printed.find("nan") != std::string::npos) continue;
        const uint64_t back = must([&] { return tmu::amx::lane_from_text(t, printed); }, "lane_from_text refused its own text");
        require(back == bits, "lane round trip", printed);
      }
    }
  }
  return 0;
}
