// The two 8-bit float formats of the OCP 8-bit Floating Point Specification (OFP8), on bit patterns,
// with integers only (no host float: the results must not depend on the host).
//
//   e4m3: bias 7, no infinities, one NaN per sign (S.1111.111), max normal 1.75 * 2^8 = 448,
//         min normal 2^-6, min subnormal 2^-9.
//   e5m2: bias 15, IEEE-like: infinities S.11111.00, NaNs S.11111.{01,10,11}, max normal
//         1.75 * 2^15 = 57344, min normal 2^-14, min subnormal 2^-16.
//
// These are the OCP conversions (to_f32 / from_f32): what the format means and what a conforming
// converter does, with OCP's saturating and non-saturating overflow rules. An engine whose hardware or
// simulator converts otherwise keeps that beside its model (the PTO CPU simulator's: tmu/pto/fp8_cpusim.h).
#pragma once

#include <cstdint>

#include "tmu/ieee.h"

namespace tmu::fp8 {

enum class Kind : uint8_t { E4M3, E5M2 };

// OCP's two conversion modes for a value beyond the format's range.
//   Saturate:    anything out of range, infinities included, becomes the largest finite of its sign.
//   NonSaturate: an out-of-range result becomes infinity (e5m2) or NaN (e4m3, which has no infinity);
//                under a rounding toward zero (or away from the value's sign) it stays the largest
//                finite, as IEEE 754 overflow does. An infinite input stays infinite (NaN in e4m3).
// NaN inputs give NaN in both modes.
enum class Overflow : uint8_t { Saturate, NonSaturate };

struct Layout {
  unsigned exp_bits;
  unsigned frac_bits;
  int bias;
};
constexpr Layout layout(Kind k) { return k == Kind::E4M3 ? Layout{4, 3, 7} : Layout{5, 2, 15}; }

// The largest finite pattern of a sign (0x7E / 0x7B, sign in bit 7).
uint8_t max_finite(Kind k, bool sign);
// The NaN this model writes: e4m3 S.1111.111 (the only one); e5m2 S.11111.10 (quiet, payload 0; OCP
// leaves the choice open).
uint8_t nan(Kind k, bool sign);
bool is_nan(Kind k, uint8_t bits);
bool is_inf(Kind k, uint8_t bits);  // never true for e4m3

// Exact widening to binary32 (every 8-bit value is a binary32 value). An e5m2 NaN keeps its sign and
// its two fraction bits at the top of the binary32 fraction (IEEE widening, quiet bit to quiet bit);
// the e4m3 NaN becomes the quiet NaN of its sign with payload 0.
uint32_t to_f32(Kind k, uint8_t bits);

// Narrowing from binary32 under one of IEEE's four rounding directions, rounding once on the exact
// value (subnormal results included; a tiny value of either sign rounds to a zero of that sign).
uint8_t from_f32(Kind k, uint32_t f32_bits, ieee::Rounding rounding, Overflow overflow);

}  // namespace tmu::fp8
