// `tmu run` programs: assembly lines plus directives that set up state (docs/program-format.md).
// Parsing and execution are one pass, so an error names the line that caused it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

#include "tmu/exec.h"
#include "tmu/program_error.h"
#include "tmu/state.h"

namespace tmu {

// ProgramError (tmu/program_error.h): a malformed line, an unknown name, a value out of range, a
// stall that nothing in a one-thread program can ever release, or an instruction the model refuses.

struct ProgramOptions {
  Arch arch = Arch::Blackhole;   // default; a leading `.arch` directive overrides it
  std::ostream* trace = nullptr; // when set, one line per retired instruction
};

struct ProgramRun {
  TensixState state;
  uint64_t instructions = 0;
  uint64_t matrix_unit_cycles = 0;  // sum of issue cycles of Matrix Unit instructions
  uint64_t scalar_unit_cycles = 0;  // sum of Scalar Unit instruction cycles
};

ProgramRun run_program(std::istream& in, const std::string& file, const ProgramOptions& options);

}  // namespace tmu
