// `tmu --engine pto run`: a text program that declares tiles, fills them and runs elementwise
// operations on them (docs/program-format.md, "PTO programs"). Every problem, a refused operation
// included, is a tmu::ProgramError ("FILE:LINE: reason"), and nothing after it runs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
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
  bool a5_ieee = true;  // `.assume none` switches a5's float assumption off (OpParams::a5_ieee)
  std::vector<NamedTile> tiles;  // in declaration order, as the program left them
  std::vector<ProgramStep> steps;
  // The tiles each step read and wrote, before it ran (for callers that estimate cycles or replay):
  // sources then dst, in the order of `steps`.
  std::vector<std::vector<Tile>> operands;
};

ProgramRun run_program(std::istream& in, const std::string& path, const ProgramOptions& opts);

// The step's line as a program would write it: "TCMP p a b cmp=LT".
std::string step_text(const ProgramStep& s);

// The words of a `.tile` line after ".tile": NAME TYPE ROWSxCOLS [row_major|col_major] [valid=VRxVC],
// as a zero-filled tile. Shared with the scoreboard (tmu/pto/scoreboard.h), which declares tiles in
// the same words. Throws tmu::Error (BadInput) with the reason; names are not checked for clashes.
NamedTile tile_from_declaration(std::span<const std::string> words);
// The words of an operation line, OP DST SRC... [cmp=MODE] [round=MODE] [sat=on|off], as a step
// (line 0): the operation known, its parameters well-formed, the number of tiles right. Throws
// tmu::Error (BadInput) with the reason; the tiles are names only, looked up by the caller.
ProgramStep step_from_words(std::span<const std::string> words);

}  // namespace tmu::pto
