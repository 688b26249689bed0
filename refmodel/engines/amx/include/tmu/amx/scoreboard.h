// The AMX scoreboard behind tmu::EngineScoreboard (docs/scoreboard.md, "AMX"): the model's X, Y and Z
// mirror what a testbench loads into its design, matfp operands run on the model as they run on the
// design, and the design's registers are compared lane by lane.
//
// Locations (words are 32-bit, byte i of a 64-byte row is byte i % 4 of word i / 4, little-endian):
//   "x", "y"      the whole pool, registers 0..7 in order: 128 words
//   "x N", "y N"  register N (0..7): 16 words
//   "z"           Z rows 0..63 in order: 1024 words
//   "z N"         Z row N (0..63): 16 words
//   "z N lane L", "x N lane L", "y N lane L"
//                 one lane of a row or register, in the lane type of the last operand (32-bit
//                 lanes before any): one word (a 16-bit lane in its low half), two for a 64-bit lane
// Operations: a 64-bit matfp operand ("0x0000100000000000") or the text assemble_matfp reads
// ("matfp f32 z+=x*y x=0x40 y=0x80"). declare() takes nothing: AMX's state is fixed.
#pragma once

#include <memory>

#include "tmu/amx/matfp.h"
#include "tmu/engine.h"

namespace tmu::amx {

// A scoreboard whose model starts from reset (every register zero) and runs as generation `v`.
std::unique_ptr<EngineScoreboard> make_scoreboard(Version v);

}  // namespace tmu::amx
