// `tmu --engine pto run`: a text program that declares tiles, fills them and runs elementwise
// operations on them (docs/program-format.md, "PTO programs"). Every problem, a refused operation
// included, is a tmu::ProgramError ("FILE:LINE: reason"), and nothing after it runs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/pto/ops.h"
#include "tmu/pto/text.h"
#include "tmu/pto/tile.h"

namespace tmu::pto {

struct ProgramOptions {
  Profile profile = Profile::CpuSim;  // a `.profile` line overrides it
  std::ostream* trace = nullptr;      // each executed operation with its line
};

// One executed operation: the tiles by name, as the program wrote them.
struct ProgramStep {
  unsigned line = 0;
  Op op = Op::TADD;
  std::string dst;
  std::vector<std::string> srcs;
  OpParams params;
};

struct NamedTile {
  std::string name;
  Tile tile;
};

struct ProgramRun {
  Profile profile = Profile::CpuSim;
  std::vector<NamedTile> tiles;  // in declaration order, as the program left them
  std::vector<ProgramStep> steps;
  // The tiles each step read and wrote, before it ran (for callers that estimate cycles or replay):
  // sources then dst, in the order of `steps`.
  std::vector<std::vector<Tile>> operands;
};

ProgramRun run_program(std::istream& in, const std::string& path, const ProgramOptions& opts);

// The step's line as a program would write it: "TCMP p a b cmp=LT".
std::string step_text(const ProgramStep& s);

}  // namespace tmu::pto
