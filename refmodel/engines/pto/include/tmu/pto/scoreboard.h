// The PTO scoreboard behind tmu::EngineScoreboard (docs/scoreboard.md, "PTO"): tiles declared as a
// program declares them, loaded with what the testbench drives into its design, operations run on
// the model under one profile, and the design's tiles compared lane by lane.
//
//   declare  "NAME TYPE ROWSxCOLS [row_major|col_major] [valid=VRxVC]" (a `.tile` line's words)
//   location "NAME" (every lane, row by row), "NAME R" (row R) or "NAME R C" (element (R, C) alone);
//            whatever the layout, lane k of a location is element (k / cols, k % cols) of it
//   words    lanes packed little-endian by their width into 32-bit words (lane 0 in the low bits
//            of word 0; four i8, two f16 or one f32 lane a word; a 64-bit lane in two words, low
//            word first); bits past the last lane of the last word are zero
//   execute  an operation line of the program format: "TADD c a b", "TCMP p a b cmp=LT"
#pragma once

#include <memory>

#include "tmu/engine.h"
#include "tmu/pto/types.h"

namespace tmu::pto {

// A scoreboard with no tiles, running operations under `p`.
std::unique_ptr<EngineScoreboard> make_scoreboard(Profile p);

}  // namespace tmu::pto
