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
// Other arguments pass unchanged; any other plusarg is an error (tmu::Error BadInput naming it, with
// the nearest known plusarg when one is close), as is a plusarg without a value or a numeric plusarg
// whose value parse_unsigned refuses.
std::vector<std::string> translate_plusargs(const std::vector<std::string>& args);

// A count, cycle, seed or index from the command line: decimal digits only, at most `max`. A sign
// ("-5", which strtoull would wrap to 2^64 - 5 and run for ever), spaces, other characters, an empty
// text and a value above `max` are refused. unsigned_refusal gives the reason ("'-5' is negative ..."),
// empty when the text is accepted; parse_unsigned throws it as tmu::Error BadInput after `what` (the
// option or plusarg as the user spelled it).
std::string unsigned_refusal(const std::string& text, uint64_t max = UINT64_MAX);
uint64_t parse_unsigned(const std::string& what, const std::string& text, uint64_t max = UINT64_MAX);

// What a finished simulation found, and the verdict the console line, the JSON report and the exit
// status all take from it (one vocabulary: PASS, DONE, FAIL, ERROR).
struct RunFacts {
  bool checked = true;            // the scoreboard ran (not --no-check)
  bool finished = false;          // the testbench reached its end before --max-cycles
  bool testbench_error = false;   // a refused DPI call or a stimulus deadlock
  bool design_failed = false;     // the testbench's own failure flag (a mismatch it saw)
  uint64_t mismatches = 0, forbidden_stalls = 0;
  uint64_t first_failure_cycle = 0, max_cycles = 0, cycles = 0;
  std::string error_text;         // the testbench's reason for testbench_error, when it has one
};
struct Verdict {
  std::string word;               // PASS, DONE (unchecked), FAIL (the design) or ERROR (the testbench)
  int exit_status = 0;            // 0, 0, 1, 2
  std::string reason;             // empty on PASS and DONE
};
Verdict decide_verdict(const RunFacts& f);

// How much a run prints beside the seed and the verdict line, which it always prints: none (also
// no mismatch report: the JSON report has it), low (the mismatch report), medium (and the coverage
// table, the default), high (and every coverpoint's missed bins).
enum class Verbosity { None, Low, Medium, High };
std::optional<Verbosity> parse_verbosity(const std::string& text);  // any case; UVM_ prefix allowed

struct RunReport {
  std::string verdict;  // "PASS", "FAIL", "ERROR" or "DONE" (unchecked)
  std::string test, arch;
  uint64_t seed = 0, cycles = 0, mismatches = 0, forbidden_stalls = 0;
  uint64_t instrs = 0;            // asked for (--instrs)
  uint64_t issued = 0, retired = 0;  // how far the run got: a first mismatch ends it early
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
