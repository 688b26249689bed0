// The pto-isa CPU simulator's 8-bit float helper types (include/pto/cpu/MXTypes.hpp, class MXType),
// whose conversions differ from the OCP ones of tmu/fp8.h (truncation, no specials, wrapped
// exponents; docs/spec-deltas.md "PTO: the 8-bit float types"). These reproduce that code bit for
// bit, with integers only.
#pragma once

#include <cstdint>

#include "tmu/fp8.h"

namespace tmu::pto {

// --- pto-isa CPU simulator (MXTypes.hpp, class MXType<EXP, MAN, BIAS, false>) ----------------------
// Decode, as `operator double()`: every exponent field above 0 is a normal number (so e4m3 S.1111.111
// reads as +-480 and e5m2 S.11111.xx as +-2^16 * 1.xx: no infinities, no NaNs); 0x80 reads as +0.
// The result is the binary64 bit pattern; each value is exact in binary32 too (cpusim_to_f32).
uint64_t cpusim_to_f64(fp8::Kind k, uint8_t bits);
uint32_t cpusim_to_f32(fp8::Kind k, uint8_t bits);
// Encode, as the `MXType(double)` constructor: the fraction is truncated (no rounding mode), both zeros
// give +0, binary64 subnormals give +0, the biased exponent is kept modulo 2^exp_bits (so overflow
// wraps, and infinities and NaNs land on exponent field bias: +-inf -> +-1.0), and the binade just
// below the smallest normal keeps its fraction unshifted (a value 1.f * 2^(emin-1) is written as the
// subnormal 0.f * 2^emin). A shift of 64 or more (magnitudes below 2^(-62 - bias)) is undefined in
// C++; this function takes what x86-64's shift instruction does (the count modulo 64), which is what
// GCC 12 -O0 builds give, but -O2 builds give other bytes (f32 0x0000fff1 -> e4m3 0x07 at -O0, 0x0f
// at -O2): callers that follow the simulator refuse those inputs (an engine's cpusim profile does).
uint8_t cpusim_from_f64(fp8::Kind k, uint64_t f64_bits);
// The simulator's TCVT from float passes through double (exact), so this is cpusim_from_f64 of the
// widened value.
uint8_t cpusim_from_f32(fp8::Kind k, uint32_t f32_bits);

}  // namespace tmu::pto
