// `tmu run` programs: assembly lines plus directives that set up state (docs/program-format.md).
// Parsing and execution are one pass, so an error names the line that caused it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/program_error.h"
#include "tmu/tensix/state.h"

namespace tmu::tensix {

// ProgramError (tmu/program_error.h): a malformed line, an unknown name, a value out of range, a
// stall that nothing in a one-thread program can ever release, or an instruction the model refuses.
// The last is a ProgramRefusal, which keeps the refusal's kind and the model's own message, so that a
// caller (the Python Machine) can report it as that kind rather than as malformed input.
struct ProgramRefusal : ProgramError {
  ProgramRefusal(const std::string& file, int line, const Error& e)
      : ProgramError(file, line, e.what()), kind(e.kind()), message(e.message()) {}
  ErrorKind kind;
  std::string message;
};

struct ProgramOptions {
  Arch arch = Arch::Blackhole;   // default; a leading `.arch` directive overrides it
  std::ostream* trace = nullptr; // when set, one line per retired instruction
  // When set, the run starts from this state instead of the reset state (the Python Machine runs
  // program text on its own state); its arch replaces `arch`, and an `.arch` naming another is refused.
  const TensixState* initial = nullptr;
};

struct ProgramRun {
  TensixState state;
  uint64_t instructions = 0;
  uint64_t matrix_unit_cycles = 0;  // sum of issue cycles of Matrix Unit instructions
  uint64_t scalar_unit_cycles = 0;  // sum of Scalar Unit instruction cycles
};

ProgramRun run_program(std::istream& in, const std::string& file, const ProgramOptions& options);

// One line of a program applied to `state` in place for `thread`, which a `.thread` line changes: how
// the generic scoreboard takes its declarations and operations in the program's own syntax. Returns
// the instruction the line executed, nullopt for a directive. Throws tmu::Error (BadInput) with the
// reason for a malformed line, a stall or `.arch`/`.repeat` (whole-program directives), and the
// model's own tmu::Error for an instruction it refuses.
std::optional<Insn> run_program_line(TensixState& state, unsigned& thread, std::string_view line);

}  // namespace tmu::tensix
