// tmu::ieee on hand-derived cases: every expected pattern is worked out in the comment beside it.
// Encodings used throughout (sign | biased exponent | fraction):
//   binary16  1.0 = 0x3C00, 2.0 = 0x4000, 0.5 = 0x3800, 1.5 = 0x3E00, max 65504 = 0x7BFF,
//             smallest subnormal 2^-24 = 0x0001, smallest normal 2^-14 = 0x0400, inf = 0x7C00
//   binary32  1.0 = 0x3F800000, 2.0 = 0x40000000, 0.5 = 0x3F000000, max = 0x7F7FFFFF, inf = 0x7F800000
//   binary64  1.0 = 0x3FF0000000000000, 2.0 = 0x4000000000000000, 0.5 = 0x3FE0000000000000
//   bfloat16  1.0 = 0x3F80, 2.0 = 0x4000
#include <gtest/gtest.h>

#include "tmu/ieee.h"

namespace tmu::ieee {
namespace {

constexpr Flags kNone{};
constexpr Flags kInexact{.inexact = true};
constexpr Flags kInvalid{.invalid = true};
constexpr Flags kOverflow{.overflow = true, .inexact = true};
constexpr Flags kUnderflow{.underflow = true, .inexact = true};

Options with(Rounding r) {
  Options o;
  o.rounding = r;
  return o;
}

TEST(IeeeCases, UnpackPack) {
  EXPECT_EQ(unpack(kBinary16, 0x3C00), (Unpacked{false, Class::Normal, 0, 0x400}));  // 1.0: implicit bit 2^10
  EXPECT_EQ(unpack(kBinary16, 0x0001), (Unpacked{false, Class::Subnormal, -14, 1}));  // 1 * 2^(-14-10)
  EXPECT_EQ(unpack(kBinary16, 0x8000), (Unpacked{true, Class::Zero, -14, 0}));
  EXPECT_EQ(unpack(kBinary16, 0xFC00), (Unpacked{true, Class::Infinity, 16, 0}));
  EXPECT_EQ(unpack(kBinary16, 0x7E00), (Unpacked{false, Class::QuietNaN, 16, 0x200}));  // quiet bit = frac bit 9
  EXPECT_EQ(unpack(kBinary16, 0x7C01), (Unpacked{false, Class::SignalingNaN, 16, 1}));
  EXPECT_EQ(unpack(kBinary32, 0xC0490FDB), (Unpacked{true, Class::Normal, 1, 0xC90FDB}));  // -pi: 0x80 - 127 = 1
  EXPECT_EQ(unpack(kBinary64, 0x0010000000000000), (Unpacked{false, Class::Normal, -1022, uint64_t{1} << 52}));
  EXPECT_EQ(unpack(kBfloat16, 0x7F81), (Unpacked{false, Class::SignalingNaN, 128, 1}));
  // pack inverts unpack on every 16-bit pattern of both 16-bit formats.
  for (Format f : {kBinary16, kBfloat16})
    for (uint64_t x = 0; x < 0x10000; ++x) ASSERT_EQ(pack(f, unpack(f, x)), x) << x;
  EXPECT_EQ(pack(kBinary64, unpack(kBinary64, 0x7FF4000000000001)), 0x7FF4000000000001u);
}

TEST(IeeeCases, FormatConstants) {
  EXPECT_EQ(kBinary16.default_nan(), 0x7E00u);
  EXPECT_EQ(kBfloat16.default_nan(), 0x7FC0u);
  EXPECT_EQ(kBinary32.default_nan(), 0x7FC00000u);
  EXPECT_EQ(kBinary64.default_nan(), 0x7FF8000000000000u);
  EXPECT_EQ(kBinary16.max_finite(true), 0xFBFFu);
  EXPECT_EQ(kBinary32.emin(), -126);
  EXPECT_EQ(kBinary64.emax(), 1023);
  EXPECT_TRUE(is_nan(kBinary16, 0x7C01));
  EXPECT_TRUE(is_nan(kBinary16, 0xFE00));
  EXPECT_FALSE(is_nan(kBinary16, 0x7C00));
  EXPECT_FALSE(is_nan(kBfloat16, 0x7F7F));  // bfloat16 max finite
}

TEST(IeeeCases, OnePlusOneTimesOne) {  // 1 * 1 + 1 = 2 exactly, in every format
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x3C00, 0x3C00), (Result{0x4000, kNone}));
  EXPECT_EQ(fma(kBfloat16, 0x3F80, 0x3F80, 0x3F80), (Result{0x4000, kNone}));
  EXPECT_EQ(fma(kBinary32, 0x3F800000, 0x3F800000, 0x3F800000), (Result{0x40000000, kNone}));
  EXPECT_EQ(fma(kBinary64, 0x3FF0000000000000, 0x3FF0000000000000, 0x3FF0000000000000),
            (Result{0x4000000000000000, kNone}));
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x3C00, 0x3C00, 0x3F800000), (Result{0x40000000, kNone}));
}

// x + 1 * 2^-p with x = 1 or 1 + ulp: half an ulp of 1 (ulp = 2^(1-p)) lands exactly on a tie.
// 1 + 2^-p: between 1 (even) and 1 + ulp (odd) -> 1. (1 + ulp) + 2^-p: between 1 + ulp (odd) and
// 1 + 2 ulp (even) -> 1 + 2 ulp. 2^-p: binary16 2^-11 = (15-11)<<10 = 0x1000; binary32 2^-24 =
// (127-24)<<23 = 0x33800000; binary64 2^-53 = (1023-53)<<52 = 0x3CA0000000000000.
TEST(IeeeCases, TiesToEven) {
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x1000, 0x3C00), (Result{0x3C00, kInexact}));
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x1000, 0x3C01), (Result{0x3C02, kInexact}));
  EXPECT_EQ(fma(kBinary32, 0x3F800000, 0x33800000, 0x3F800000), (Result{0x3F800000, kInexact}));
  EXPECT_EQ(fma(kBinary32, 0x3F800000, 0x33800000, 0x3F800001), (Result{0x3F800002, kInexact}));
  EXPECT_EQ(fma(kBinary64, 0x3FF0000000000000, 0x3CA0000000000000, 0x3FF0000000000000),
            (Result{0x3FF0000000000000, kInexact}));
  EXPECT_EQ(fma(kBinary64, 0x3FF0000000000000, 0x3CA0000000000000, 0x3FF0000000000001),
            (Result{0x3FF0000000000002, kInexact}));
  // The other modes on 1 + 2^-11 (binary16): RUP -> 0x3C01, RDN and RTZ -> 0x3C00; negated
  // (-1 * 2^-11 - 1): RUP and RTZ -> -1 = 0xBC00, RDN -> 0xBC01.
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x1000, 0x3C00, with(Rounding::TowardPositive)).bits, 0x3C01u);
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x1000, 0x3C00, with(Rounding::TowardNegative)).bits, 0x3C00u);
  EXPECT_EQ(fma(kBinary16, 0xBC00, 0x1000, 0xBC00, with(Rounding::TowardZero)).bits, 0xBC00u);
  EXPECT_EQ(fma(kBinary16, 0xBC00, 0x1000, 0xBC00, with(Rounding::TowardNegative)).bits, 0xBC01u);
  EXPECT_EQ(fma(kBinary16, 0xBC00, 0x1000, 0xBC00, with(Rounding::TowardPositive)).bits, 0xBC00u);
  // A tie made by the product alone: (1 + 2^-10) * 1.5 = 1.5 + 3 * 2^-11 = 1.5 + 1.5 ulp, between
  // 1.5 + 1 ulp (0x3E01, odd) and 1.5 + 2 ulp (0x3E02) -> 0x3E02.
  EXPECT_EQ(mul(kBinary16, 0x3C01, 0x3E00), (Result{0x3E02, kInexact}));
  // bfloat16 to nearest: 0x3F808000 is 1 + 2^-8, half an ulp of 1 in bfloat16 -> 0x3F80;
  // 0x3F818000 is (1 + 2^-7) + 2^-8 -> 0x3F82.
  EXPECT_EQ(convert(kBinary32, kBfloat16, 0x3F808000), (Result{0x3F80, kInexact}));
  EXPECT_EQ(convert(kBinary32, kBfloat16, 0x3F818000), (Result{0x3F82, kInexact}));
}

// The one rounding: (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46; minus 1 gives -2^-46 exactly, where a separate
// product rounding (to 1.0) would give 0. -2^-46 = 1 | (127-46)<<23 = 0xA8800000. binary64 likewise:
// (1 + 2^-52)^2 - (1 + 2^-51) = 2^-104 = (1023-104)<<52 = 0x3970000000000000.
TEST(IeeeCases, FusedNotTwoRoundings) {
  EXPECT_EQ(fma(kBinary32, 0x3F800001, 0x3F7FFFFE, 0xBF800000), (Result{0xA8800000, kNone}));
  EXPECT_EQ(fma(kBinary64, 0x3FF0000000000001, 0x3FF0000000000001, 0xBFF0000000000002),
            (Result{0x3970000000000000, kNone}));
}

// An addend far below the product: 1 * 1 + 2^-200 (2^-200 = (1023-200)<<52 = 0x3370000000000000)
// is 1 in RNE, 1 + 2^-52 in RUP; 1 * 1 - 2^-200 is 1 - 2^-53 = 0x3FEFFFFFFFFFFFFF in RTZ and RDN.
TEST(IeeeCases, FarAddendOnlyInexact) {
  constexpr uint64_t one = 0x3FF0000000000000, tiny = 0x3370000000000000;
  EXPECT_EQ(fma(kBinary64, one, one, tiny), (Result{one, kInexact}));
  EXPECT_EQ(fma(kBinary64, one, one, tiny, with(Rounding::TowardPositive)), (Result{one + 1, kInexact}));
  EXPECT_EQ(fma(kBinary64, one, one, tiny | (uint64_t{1} << 63), with(Rounding::TowardZero)),
            (Result{0x3FEFFFFFFFFFFFFF, kInexact}));
  EXPECT_EQ(fma(kBinary64, one, one, tiny | (uint64_t{1} << 63)), (Result{one, kInexact}));
}

// Subnormal results. 2^-24 * 0.5 = 2^-25: half the smallest subnormal, a tie between 0 (even) and
// 2^-24 -> +0, tiny and inexact. The negated product gives -0 (the sign of the exact value, not an
// exact zero). 2^-24 * 0.75 (0x3A00) is above the half -> 2^-24. RUP takes 2^-25 up to 2^-24.
TEST(IeeeCases, SmallestSubnormalTimesHalf) {
  EXPECT_EQ(fma(kBinary16, 0x0001, 0x3800, 0x0000), (Result{0x0000, kUnderflow}));
  EXPECT_EQ(fma(kBinary16, 0x0001, 0x3800, 0x8000), (Result{0x0000, kUnderflow}));
  EXPECT_EQ(fma(kBinary16, 0x8001, 0x3800, 0x0000), (Result{0x8000, kUnderflow}));
  EXPECT_EQ(fma(kBinary16, 0x0001, 0x3A00, 0x0000), (Result{0x0001, kUnderflow}));
  EXPECT_EQ(fma(kBinary16, 0x0001, 0x3800, 0x0000, with(Rounding::TowardPositive)), (Result{0x0001, kUnderflow}));
  EXPECT_EQ(fma(kBinary32, 0x00000001, 0x3F000000, 0x00000000), (Result{0x00000000, kUnderflow}));
  EXPECT_EQ(fma(kBinary64, 0x0000000000000001, 0x3FE0000000000000, 0x0000000000000000), (Result{0, kUnderflow}));
  // An exact subnormal result is tiny but exact: no underflow. 2^-14 * 0.5 = 2^-15 = 0x0200.
  EXPECT_EQ(mul(kBinary16, 0x0400, 0x3800), (Result{0x0200, kNone}));
}

// Tininess: 63/64 (0x3BE0) * (65/64) 2^-14 (0x0410) = (1 - 2^-12) 2^-14, below 2^-14 so tiny before
// rounding. In the subnormal grid (2^-24) it lies 2^-26 under 2^-14 -> 2^-14 = 0x0400, inexact. At 11
// bits with an unbounded exponent it is 1.11111111111|1 * 2^-15, a tie rounding up to 2^-14: not
// tiny after rounding. So underflow with BeforeRounding only; under FZ, BeforeRounding flushes to +0
// (underflow, no inexact: Arm FPCR.AH = 0) and AfterRounding keeps 0x0400.
TEST(IeeeCases, TininessBeforeAndAfterRounding) {
  Options after, fz, fz_after;
  after.tininess = fz_after.tininess = Tininess::AfterRounding;
  fz.flush_to_zero = fz_after.flush_to_zero = true;
  EXPECT_EQ(mul(kBinary16, 0x3BE0, 0x0410), (Result{0x0400, kUnderflow}));
  EXPECT_EQ(mul(kBinary16, 0x3BE0, 0x0410, after), (Result{0x0400, kInexact}));
  EXPECT_EQ(mul(kBinary16, 0x3BE0, 0x0410, fz), (Result{0x0000, Flags{.underflow = true}}));
  EXPECT_EQ(mul(kBinary16, 0x3BE0, 0x0410, fz_after), (Result{0x0400, kInexact}));
  // 2^-14 * 0.5 = 2^-15, exact but tiny: FZ flushes it, raising underflow (and inexact with AfterRounding).
  EXPECT_EQ(mul(kBinary16, 0x0400, 0x3800, fz), (Result{0x0000, Flags{.underflow = true}}));
  EXPECT_EQ(mul(kBinary16, 0x0400, 0x3800, fz_after), (Result{0x0000, kUnderflow}));
}

// FZ inputs: a subnormal operand reads as a zero of its sign and raises input_denormal.
// binary32 2^-149 * 1 + 0 -> +0 + +0 = +0. 2^-100 (0x0D800000) * 2^-30 (0x30800000) = 2^-130:
// without FZ exactly the subnormal 2^19 * 2^-149 = 0x00080000; with FZ flushed, underflow only.
TEST(IeeeCases, FlushToZero) {
  Options fz;
  fz.flush_to_zero = true;
  EXPECT_EQ(fma(kBinary32, 0x00000001, 0x3F800000, 0x00000000, fz), (Result{0, Flags{.input_denormal = true}}));
  EXPECT_EQ(fma(kBinary32, 0x80000001, 0x3F800000, 0x80000000, fz),
            (Result{0x80000000, Flags{.input_denormal = true}}));  // -0 * 1 + -0 = -0
  EXPECT_EQ(fma(kBinary32, 0x0D800000, 0x30800000, 0, {}), (Result{0x00080000, kNone}));
  EXPECT_EQ(fma(kBinary32, 0x0D800000, 0x30800000, 0, fz), (Result{0, Flags{.underflow = true}}));
  EXPECT_EQ(fma(kBinary32, 0x8D800000, 0x30800000, 0, fz), (Result{0x80000000, Flags{.underflow = true}}));
  // The flag is raised even when a NaN decides the result (FPUnpack runs on every operand first).
  EXPECT_EQ(add(kBinary16, 0x0001, 0x7E00, fz), (Result{0x7E00, Flags{.input_denormal = true}}));
}

// max * 2 overflows: RNE and the mode pointing away from zero give inf, RTZ and the mode pointing
// toward zero give max. max + 16 (binary16 max = 65504, ulp 32, 16 = (15+4)<<10 = 0x4C00) is a tie
// between max (odd fraction 0x3FF) and 2^16 (even): 2^16 is beyond the range -> inf, overflow.
// max + 8 (0x4800) stays max.
TEST(IeeeCases, Overflow) {
  EXPECT_EQ(fma(kBinary16, 0x7BFF, 0x4000, 0x0000), (Result{0x7C00, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0x7BFF, 0x4000, 0x0000, with(Rounding::TowardZero)), (Result{0x7BFF, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0x7BFF, 0x4000, 0x0000, with(Rounding::TowardNegative)), (Result{0x7BFF, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0x7BFF, 0x4000, 0x0000, with(Rounding::TowardPositive)), (Result{0x7C00, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0xFBFF, 0x4000, 0x0000, with(Rounding::TowardNegative)), (Result{0xFC00, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0xFBFF, 0x4000, 0x0000, with(Rounding::TowardPositive)), (Result{0xFBFF, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0x7BFF, 0x3C00, 0x4C00), (Result{0x7C00, kOverflow}));
  EXPECT_EQ(fma(kBinary16, 0x7BFF, 0x3C00, 0x4800), (Result{0x7BFF, kInexact}));
  EXPECT_EQ(fma(kBinary32, 0x7F7FFFFF, 0x40000000, 0), (Result{0x7F800000, kOverflow}));
  EXPECT_EQ(mul(kBinary64, 0x7FEFFFFFFFFFFFFF, 0x4000000000000000), (Result{0x7FF0000000000000, kOverflow}));
  // 65520 = 1.11111111111b * 2^15 (binary32 (127+15)<<23 | 0x7FF000 = 0x477FF000): the same tie.
  EXPECT_EQ(convert(kBinary32, kBinary16, 0x477FF000), (Result{0x7C00, kOverflow}));
  EXPECT_EQ(convert(kBinary32, kBinary16, 0x477FE000), (Result{0x7BFF, kNone}));  // 65504 exactly
}

// Signs of zero (IEEE 754-2008 section 6.3): x*y + c with both zero takes their common sign if they
// agree, else +0 (-0 when rounding toward negative); an exact cancellation is +0 (-0 in RDN).
TEST(IeeeCases, SignedZeros) {
  const Options rdn = with(Rounding::TowardNegative);
  EXPECT_EQ(fma(kBinary16, 0x0000, 0x3C00, 0x8000).bits, 0x0000u);  // +0 + -0
  EXPECT_EQ(fma(kBinary16, 0x8000, 0x3C00, 0x8000).bits, 0x8000u);  // -0 + -0
  EXPECT_EQ(fma(kBinary16, 0x0000, 0xBC00, 0x8000).bits, 0x8000u);  // (+0)(-1) = -0, + -0
  EXPECT_EQ(fma(kBinary16, 0x8000, 0xBC00, 0x8000).bits, 0x0000u);  // (-0)(-1) = +0, + -0
  EXPECT_EQ(fma(kBinary16, 0x0000, 0x3C00, 0x0000).bits, 0x0000u);
  EXPECT_EQ(fma(kBinary16, 0x0000, 0x3C00, 0x8000, rdn).bits, 0x8000u);  // +0 + -0 in RDN
  EXPECT_EQ(fma(kBinary16, 0x0000, 0x3C00, 0x0000, rdn).bits, 0x0000u);  // +0 + +0 in RDN
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x3C00, 0xBC00), (Result{0x0000, kNone}));  // 1 - 1
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x3C00, 0xBC00, rdn), (Result{0x8000, kNone}));
  EXPECT_EQ(fma(kBinary16, 0xBC00, 0x3C00, 0x3C00).bits, 0x0000u);  // -1 + 1
  EXPECT_EQ(fma(kBinary16, 0x3C00, 0x3C00, 0x8000).bits, 0x3C00u);  // 1 + -0 = 1
  EXPECT_EQ(fma(kBinary16, 0x8000, 0x4000, 0x3C00).bits, 0x3C00u);  // -0 + 1 = 1
  EXPECT_EQ(fma(kBinary32, 0x80000000, 0x3F800000, 0x80000000).bits, 0x80000000u);
  EXPECT_EQ(fma(kBinary64, 0x8000000000000000, 0x3FF0000000000000, 0).bits, 0u);
  EXPECT_EQ(mul(kBinary16, 0x8000, 0x4500).bits, 0x8000u);  // -0 * 5
  EXPECT_EQ(mul(kBinary16, 0x8000, 0xC500).bits, 0x0000u);  // -0 * -5
  EXPECT_EQ(add(kBinary16, 0x8000, 0x8000).bits, 0x8000u);
  EXPECT_EQ(add(kBinary16, 0x0000, 0x8000).bits, 0x0000u);
  EXPECT_EQ(add(kBinary16, 0x0000, 0x8000, rdn).bits, 0x8000u);
  EXPECT_EQ(sub(kBinary16, 0x0000, 0x0000).bits, 0x0000u);  // +0 - +0
  EXPECT_EQ(sub(kBinary16, 0x0000, 0x0000, rdn).bits, 0x8000u);
  EXPECT_EQ(sub(kBinary16, 0x8000, 0x0000).bits, 0x8000u);  // -0 - +0 = -0 + -0
  EXPECT_EQ(sub(kBinary16, 0x3C00, 0x3C00, rdn).bits, 0x8000u);
}

// Invalid operations without NaN operands give the default NaN and raise invalid.
TEST(IeeeCases, InfinityTimesZeroAndInfinityMinusInfinity) {
  EXPECT_EQ(fma(kBinary16, 0x7C00, 0x0000, 0x3C00), (Result{0x7E00, kInvalid}));
  EXPECT_EQ(fma(kBinary16, 0x0000, 0xFC00, 0xFC00), (Result{0x7E00, kInvalid}));  // inf*0 wins over the sum
  EXPECT_EQ(fma(kBinary32, 0x7F800000, 0x3F800000, 0xFF800000), (Result{0x7FC00000, kInvalid}));  // inf - inf
  EXPECT_EQ(fma(kBinary64, 0x7FF0000000000000, 0x0000000000000000, 0), (Result{0x7FF8000000000000, kInvalid}));
  EXPECT_EQ(mul(kBinary16, 0x8000, 0x7C00), (Result{0x7E00, kInvalid}));
  EXPECT_EQ(add(kBinary16, 0x7C00, 0xFC00), (Result{0x7E00, kInvalid}));
  EXPECT_EQ(sub(kBinary16, 0xFC00, 0xFC00), (Result{0x7E00, kInvalid}));
  // Valid infinities: inf * 1 + inf, inf * -1 + 5, 2 * 3 - inf, inf - (-inf).
  EXPECT_EQ(fma(kBinary16, 0x7C00, 0x3C00, 0x7C00), (Result{0x7C00, kNone}));
  EXPECT_EQ(fma(kBinary16, 0x7C00, 0xBC00, 0x4500), (Result{0xFC00, kNone}));
  EXPECT_EQ(fma(kBinary16, 0x4000, 0x4200, 0xFC00), (Result{0xFC00, kNone}));
  EXPECT_EQ(sub(kBinary16, 0x7C00, 0xFC00), (Result{0x7C00, kNone}));
}

// NaN propagation (Arm FPProcessNaNs3 as FPMulAdd calls it: addend, then a, then b; every signalling
// NaN before any quiet one; FPProcessNaN sets the quiet bit, binary32 bit 22). binary32 operands:
//   qa = 0x7FC00001, qb = 0x7FC00002, qc = 0xFFC00003 (negative),
//   sa = 0x7F800011 -> quieted 0x7FC00011, sb = 0xFF800012 -> 0xFFC00012, sc = 0x7F800013 -> 0x7FC00013.
// With DN every NaN result is 0x7FC00000 and the flags stay as they are.
TEST(IeeeCases, NaNPropagationOrder) {
  constexpr uint64_t qa = 0x7FC00001, qb = 0x7FC00002, qc = 0xFFC00003;
  constexpr uint64_t sa = 0x7F800011, sb = 0xFF800012, sc = 0x7F800013;
  constexpr uint64_t one = 0x3F800000, inf = 0x7F800000, zero = 0;
  struct Case {
    uint64_t a, b, c, propagated;
    Flags flags;
  };
  const Case cases[] = {
      {qa, qb, qc, qc, kNone},            // all quiet: the addend
      {qa, qb, one, qa, kNone},           // then a
      {one, qb, one, qb, kNone},          // then b
      {qa, sb, qc, 0xFFC00012, kInvalid},  // a signalling b beats the quiet addend
      {sa, sb, qc, 0x7FC00011, kInvalid},  // a before b among signalling NaNs
      {sa, sb, sc, 0x7FC00013, kInvalid},  // the signalling addend first
      {qa, zero, inf, qa, kNone},         // a NaN product is not inf * 0
      // FPMulAdd's override: inf * 0 with a quiet NaN addend is the default NaN and invalid...
      {inf, zero, qc, 0x7FC00000, kInvalid},
      {zero, inf, qc, 0x7FC00000, kInvalid},
      // ...but a signalling addend is processed as usual.
      {inf, zero, sc, 0x7FC00013, kInvalid},
  };
  Options dn;
  dn.default_nan = true;
  for (const Case& k : cases) {
    EXPECT_EQ(fma(kBinary32, k.a, k.b, k.c), (Result{k.propagated, k.flags})) << std::hex << k.a << " " << k.b << " " << k.c;
    EXPECT_EQ(fma(kBinary32, k.a, k.b, k.c, dn), (Result{0x7FC00000, k.flags})) << std::hex << k.a << " " << k.b;
  }
  // Two-operand operations (FPProcessNaNs: a then b, signalling first).
  EXPECT_EQ(mul(kBinary32, qa, sb), (Result{0xFFC00012, kInvalid}));
  EXPECT_EQ(mul(kBinary32, sa, qb), (Result{0x7FC00011, kInvalid}));
  EXPECT_EQ(mul(kBinary32, sa, sb), (Result{0x7FC00011, kInvalid}));
  EXPECT_EQ(mul(kBinary32, qa, qb), (Result{qa, kNone}));
  EXPECT_EQ(mul(kBinary32, qa, qb, dn), (Result{0x7FC00000, kNone}));
  EXPECT_EQ(add(kBinary32, one, qb), (Result{qb, kNone}));
  EXPECT_EQ(sub(kBinary32, one, qc), (Result{qc, kNone}));  // the subtrahend NaN keeps its sign
  EXPECT_EQ(sub(kBinary32, qc, one), (Result{qc, kNone}));
  // Other formats: binary16 sNaN 0xFC01 -> 0xFE01 (quiet bit 9); binary64 0x7FF0000000000001 ->
  // 0x7FF8000000000001 (bit 51); bfloat16 0x7F81 -> 0x7FC1 (bit 6).
  EXPECT_EQ(mul(kBinary16, 0x3C00, 0xFC01), (Result{0xFE01, kInvalid}));
  EXPECT_EQ(fma(kBinary64, 0x7FF0000000000001, 0x3FF0000000000000, 0x3FF0000000000000),
            (Result{0x7FF8000000000001, kInvalid}));
  EXPECT_EQ(add(kBfloat16, 0x7F81, 0x3F80), (Result{0x7FC1, kInvalid}));
  EXPECT_EQ(add(kBfloat16, 0x7F81, 0x3F80, dn), (Result{0x7FC0, kInvalid}));
}

// Mixed binary16 x binary16 + binary32 (FPMulAddH's order, FPConvertNaN's payload move): a binary16
// NaN's 9 payload bits become the top of binary32's 22, i.e. shift left by 13.
//   0x7D23: sNaN, payload 0x123 -> 0x7FC00000 | 0x123 << 13 = 0x7FC00000 | 0x246000 = 0x7FE46000, invalid.
//   0xFE01: negative qNaN, payload 1 -> 0xFFC00000 | 0x2000 = 0xFFC02000.
// Conversions move payloads the same way: binary32 0x7FC02000 (payload 0x2000) -> binary16 payload
// 0x2000 >> 13 = 1 -> 0x7E01; binary64 payload 1 -> binary32 payload 1 >> 29 = 0 -> 0x7FC00000;
// binary16 0xFD55 (sNaN, payload 0x155) -> binary64 0xFFF8000000000000 | 0x155 << 42 = 0xFFFD540000000000.
TEST(IeeeCases, NaNAcrossFormats) {
  Options dn;
  dn.default_nan = true;
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x7D23, 0x3C00, 0x3F800000), (Result{0x7FE46000, kInvalid}));
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x7D23, 0x3C00, 0x7FC00005), (Result{0x7FE46000, kInvalid}));
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x3C00, 0xFE01, 0x3F800000), (Result{0xFFC02000, kNone}));
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x7E00, 0x3C00, 0xFF800001), (Result{0xFFC00001, kInvalid}));
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x7C00, 0x0000, 0x7FC00005), (Result{0x7FC00000, kInvalid}));
  EXPECT_EQ(fma_mixed(kBinary16, kBinary32, 0x7D23, 0x3C00, 0x3F800000, dn), (Result{0x7FC00000, kInvalid}));
  EXPECT_EQ(convert(kBinary32, kBinary16, 0x7FC02000), (Result{0x7E01, kNone}));
  EXPECT_EQ(convert(kBinary32, kBinary16, 0x7F802000), (Result{0x7E01, kInvalid}));
  EXPECT_EQ(convert(kBinary64, kBinary32, 0x7FF0000000000001), (Result{0x7FC00000, kInvalid}));
  EXPECT_EQ(convert(kBinary16, kBinary64, 0xFD55), (Result{0xFFFD540000000000, kInvalid}));
  EXPECT_EQ(convert(kBinary16, kBinary64, 0xFD55, dn), (Result{0x7FF8000000000000, kInvalid}));
}

// Integers into formats, worked by hand: 2^53 + 1 lies halfway between 2^53 and 2^53 + 2 and ties
// to the even 2^53; 2^53 + 3 ties to 2^53 + 4; 2^64 - 1 rounds up to 2^64; binary16's 65519 rounds
// down to 65504 and 65520, halfway to 65536, overflows; -2^63 is exact.
TEST(IeeeCases, FromInteger) {
  EXPECT_EQ(from_integer(kBinary64, false, (1ull << 53) + 1).bits, 0x4340000000000000u);
  EXPECT_EQ(from_integer(kBinary64, false, (1ull << 53) + 3).bits, 0x4340000000000002u);
  EXPECT_EQ(from_integer(kBinary64, false, ~0ull).bits, 0x43F0000000000000u);
  EXPECT_EQ(from_integer(kBinary32, false, ~0ull).bits, 0x5F800000u);
  EXPECT_EQ(from_integer(kBinary32, true, 1ull << 63).bits, 0xDF000000u);
  EXPECT_EQ(from_integer(kBinary32, false, (1ull << 24) + 1).bits, 0x4B800000u);
  EXPECT_EQ(from_integer(kBinary16, false, 65519).bits, 0x7BFFu);
  EXPECT_EQ(from_integer(kBinary16, false, 65520), (Result{0x7C00, Flags{.overflow = true, .inexact = true}}));
  EXPECT_EQ(from_integer(kBinary16, true, 3).bits, 0xC200u);
  EXPECT_EQ(from_integer(kBfloat16, false, 257).bits, 0x4380u);  // 257 ties to 256
  EXPECT_EQ(from_integer(kBinary32, true, 0), (Result{0, Flags{}}));  // +0
  Options rz;
  rz.rounding = Rounding::TowardZero;
  EXPECT_EQ(from_integer(kBinary32, false, (1ull << 24) + 1, rz), (Result{0x4B800000, Flags{.inexact = true}}));
}

}  // namespace
}  // namespace tmu::ieee
