// Which single departure from matfp's arithmetic (kMatfpFpcr: one rounding to nearest even, no flush,
// the default NaN) reproduces a design's Z lane, for the AMX scoreboard's mismatch lines: a design
// that truncates, rounds the product before the sum, flushes subnormals or propagates NaN payloads
// gets the name of that, where a bare ulp count would leave the reader to guess.
#pragma once

#include <cstdint>
#include <string>

#include "tmu/ieee.h"

namespace tmu::amx {

// z_before +/- x * y (subtract: z -= x*y) with x and y in format xy, z and the result in format z.
// Returns "diagnosis [CLASS] what the design does" for every departure that gives `design` (joined
// by " or " when several do), or "" when none does. The classes: truncation, rounding (toward +inf or
// -inf), subnormal-flush, nan-propagation, unfused.
std::string diagnose_fma_lane(ieee::Format xy, ieee::Format z, bool subtract, uint64_t x, uint64_t y,
                              uint64_t z_before, uint64_t design);

}  // namespace tmu::amx
