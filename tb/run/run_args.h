// tmu_tb's command line as simulators spell it, and the run verdict as JSON (docs/cosim.md,
// "Run controls" and "The run report"). Plain C++: built and tested without Verilator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tmu::tb {

// The arguments with simulator-style plusargs rewritten to tmu_tb's options, in place:
//   +SEED=N, +ntb_random_seed=N, +seed=N        --seed N
//   +TEST=NAME, +UVM_TESTNAME=NAME               --test NAME
//   +INSTRS=N                                    --instrs N
//   +VERBOSITY=V, +UVM_VERBOSITY=UVM_V           --verbosity V (none low medium high, any case)
//   +ARCH=A                                      --arch A
// Other arguments pass unchanged; any other plusarg is an error (tmu::Error BadInput naming it), as
// is a plusarg without a value.
std::vector<std::string> translate_plusargs(const std::vector<std::string>& args);

// How much a run prints beside the seed and the verdict line, which it always prints: none (also
// no mismatch report: the JSON report has it), low (the mismatch report), medium (and the coverage
// table, the default), high (and every coverpoint's missed bins).
enum class Verbosity { None, Low, Medium, High };
std::optional<Verbosity> parse_verbosity(const std::string& text);  // any case; UVM_ prefix allowed

struct RunReport {
  std::string verdict;  // "PASS", "FAIL", "ERROR" or "DONE" (unchecked)
  std::string test, arch;
  uint64_t seed = 0, instrs = 0, retired = 0, cycles = 0, mismatches = 0, forbidden_stalls = 0;
  double wall_seconds = 0;
  int exit_status = 0;
  std::string replay;                      // the command that replays the run
  std::optional<uint64_t> first_failure_cycle;
  std::optional<std::string> waveform;     // the FST written around the failure
  std::string reason;                      // why it failed, empty on a pass
};

// Writes the report as one JSON object (format "tmu-tb-report 1"). Throws tmu::Error (BadInput)
// when the file cannot be written.
void write_report(const std::string& path, const RunReport& r);

}  // namespace tmu::tb
