// TCVT under the a2a3 profile against values worked by hand from include/pto/npu/a2a3/TCvt.hpp:
// the vconv suffix each mode selects per pair (and the pair's default for NONE and unlisted modes),
// the saturation in force (narrowing pairs OFF by default, every other pair ON whatever is asked),
// OFF's bit masking and the int32 step of the NonSatTorch paths, and the lanes whose result the
// sources leave open, which are refused.
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;
using enum RoundMode;

uint64_t npu_cvt(ElemType from, ElemType to, uint64_t v, RoundMode m = None,
                 std::optional<SaturationMode> sat = std::nullopt) {
  Tile src = make_tile(from, 1, 32, Layout::RowMajor, 1, 1), dst = make_tile(to, 1, 32, Layout::RowMajor, 1, 1);
  set(src, 0, 0, v);
  const Tile* srcs[] = {&src};
  execute(Profile::A2A3, Op::TCVT, dst, srcs, OpParams{.round = m, .saturation = sat});
  return dst.at(0, 0);
}

// f32 -> f16: 1 + 2^-11 is half an f16 ulp above 1 (a tie); 1 + 2^-12 a quarter; 1 + 3 * 2^-12
// three quarters.
TEST(PtoConvertA2A3, FloatToHalfBySuffix) {
  const uint64_t tie = 0x3F801000, quarter = 0x3F800800, three_quarters = 0x3F801800;
  EXPECT_EQ(npu_cvt(F32, F16, tie, Rint), 0x3C00u);   // to even: 1
  EXPECT_EQ(npu_cvt(F32, F16, tie, None), 0x3C00u);   // NONE is the pair's r
  EXPECT_EQ(npu_cvt(F32, F16, tie, Round), 0x3C01u);  // away: 1 + 2^-10
  EXPECT_EQ(npu_cvt(F32, F16, tie | 0x80000000, Round), 0xBC01u);
  EXPECT_EQ(npu_cvt(F32, F16, tie, Ceil), 0x3C01u);
  EXPECT_EQ(npu_cvt(F32, F16, tie, Floor), 0x3C00u);
  EXPECT_EQ(npu_cvt(F32, F16, tie | 0x80000000, Floor), 0xBC01u);
  EXPECT_EQ(npu_cvt(F32, F16, tie, Trunc), 0x3C00u);
  EXPECT_EQ(npu_cvt(F32, F16, quarter, Round), 0x3C00u);
  EXPECT_EQ(npu_cvt(F32, F16, three_quarters, Round), 0x3C01u);
  EXPECT_EQ(npu_cvt(F32, F16, 0x40000000, Odd), 0x4000u);   // exact: every suffix agrees
  EXPECT_EQ(npu_cvt(F32, F16, 0x33800000, Rint), 0x0001u);  // 2^-24, the smallest subnormal
  EXPECT_EQ(npu_cvt(F32, F16, 0x477FE000, Rint), 0x7BFFu);  // 65504
  EXPECT_EQ(npu_cvt(F32, F16, 0x80000000, Rint), 0x8000u);  // -0
  expect_refusal([&] { npu_cvt(F32, F16, tie, Odd); }, ErrorKind::Unsupported, {"inexact", "lane (0, 0)"});
  expect_refusal([] { npu_cvt(F32, F16, 0x477FEF00, Rint); }, ErrorKind::Unsupported, {"beyond the largest finite"});  // 65519
  expect_refusal([] { npu_cvt(F32, F16, 0x7F800000, Rint); }, ErrorKind::Unsupported, {"an infinity"});
  expect_refusal([] { npu_cvt(F32, F16, 0x7FC00000, Rint); }, ErrorKind::Unsupported, {"a NaN"});
  EXPECT_EQ(npu_cvt(F32, BF16, 0x3F808000, Round), 0x3F81u);  // bf16 tie at 1 + 2^-8: away
  EXPECT_EQ(npu_cvt(F32, BF16, 0x3F808000, Rint), 0x3F80u);
}

// vconv_f322f32 rounds to an integral value in f32; ODD is not in its switch, so it is r.
TEST(PtoConvertA2A3, FloatToIntegralFloat) {
  const uint64_t k2_5 = 0x40200000, kMinus2_5 = 0xC0200000;
  EXPECT_EQ(npu_cvt(F32, F32, k2_5, Rint), 0x40000000u);       // 2
  EXPECT_EQ(npu_cvt(F32, F32, k2_5, None), 0x40000000u);
  EXPECT_EQ(npu_cvt(F32, F32, k2_5, Odd), 0x40000000u);
  EXPECT_EQ(npu_cvt(F32, F32, k2_5, Round), 0x40400000u);      // 3
  EXPECT_EQ(npu_cvt(F32, F32, kMinus2_5, Floor), 0xC0400000u); // -3
  EXPECT_EQ(npu_cvt(F32, F32, kMinus2_5, Ceil), 0xC0000000u);  // -2
  EXPECT_EQ(npu_cvt(F32, F32, 0xBF333333, Trunc), 0x80000000u);  // -0.7 -> -0
  EXPECT_EQ(npu_cvt(F32, F32, 0x4E800000, Rint), 0x4E800000u);   // 2^30: already integral
}

// Non-narrowing pairs run with saturation ON even when OFF is asked; NONE and ODD are z.
TEST(PtoConvertA2A3, FloatToInt32Saturates) {
  EXPECT_EQ(npu_cvt(F32, I32, 0x4F32D05E, Rint, SaturationMode::Off), 0x7FFFFFFFu);  // 3e9
  EXPECT_EQ(npu_cvt(F32, I32, 0xFF800000, Rint), 0x80000000u);                      // -inf
  EXPECT_EQ(npu_cvt(F32, I32, 0xC02CCCCD, None), 0xFFFFFFFEu);                      // -2.7 -> -2
  EXPECT_EQ(npu_cvt(F32, I32, 0x402CCCCD, Odd), 2u);                                // 2.7 -> 2
  EXPECT_EQ(npu_cvt(F32, I32, 0x40200000, Rint), 2u);
  EXPECT_EQ(npu_cvt(F32, I32, 0xC0200000, Round), 0xFFFFFFFDu);                     // -2.5 -> -3
  EXPECT_EQ(npu_cvt(F16, I32, 0x7C00, Rint), 0x7FFFFFFFu);                          // f16 inf
  EXPECT_EQ(npu_cvt(BF16, I32, 0xC040, Ceil), 0xFFFFFFFDu);                         // -3
  expect_refusal([] { npu_cvt(F32, I32, 0x7FC00000, Rint); }, ErrorKind::Unsupported, {"a NaN"});
}

// The narrowing pairs: OFF by default; OFF keeps the low bits (300.0 -> int8 44 is TCvt.hpp's own
// example), through int32 with saturation ON for f32 -> i16, f16 -> i16 and f16 -> i8.
TEST(PtoConvertA2A3, NarrowingPairs) {
  const uint64_t h300 = 0x5CB0, hm300 = 0xDCB0, h200 = 0x5A40, h_inf = 0x7C00, h_minf = 0xFC00;
  EXPECT_EQ(npu_cvt(F16, I8, h300, Rint), 44u);
  EXPECT_EQ(npu_cvt(F16, I8, h200, Rint), 0xC8u);  // 200 -> -56
  EXPECT_EQ(npu_cvt(F16, I8, h300, Rint, SaturationMode::On), 0x7Fu);
  EXPECT_EQ(npu_cvt(F16, I8, hm300, Rint, SaturationMode::On), 0x80u);
  EXPECT_EQ(npu_cvt(F16, I8, h_inf, Rint), 0xFFu);   // int32 max, low byte
  EXPECT_EQ(npu_cvt(F16, I8, h_minf, Rint), 0x00u);  // int32 min, low byte
  EXPECT_EQ(npu_cvt(F32, I16, 0x4788B840, Rint), 0x1170u);  // 70000.5 -> 70000 -> 4464
  EXPECT_EQ(npu_cvt(F32, I16, 0x4F32D05E, Rint), 0xFFFFu);  // 3e9 -> int32 max -> 0xFFFF
  EXPECT_EQ(npu_cvt(F32, I16, 0x4788B840, Rint, SaturationMode::On), 0x7FFFu);
  EXPECT_EQ(npu_cvt(F16, U8, h300, Rint), 44u);
  EXPECT_EQ(npu_cvt(F16, U8, 0xBC00, Rint), 0xFFu);  // -1 masked
  EXPECT_EQ(npu_cvt(F16, U8, 0xBC00, Rint, SaturationMode::On), 0u);
  EXPECT_EQ(npu_cvt(F16, U8, h300, Rint, SaturationMode::On), 0xFFu);
  expect_refusal([&] { npu_cvt(F16, U8, h_inf, Rint); }, ErrorKind::Unsupported, {"an infinity without saturation"});
  EXPECT_EQ(npu_cvt(I32, I16, 70000, None), 0x1170u);
  EXPECT_EQ(npu_cvt(I32, I16, 70000, None, SaturationMode::On), 0x7FFFu);
  EXPECT_EQ(npu_cvt(I32, I16, 0xFFFEEE90, None), 0xEE90u);  // -70000 mod 2^16
  EXPECT_EQ(npu_cvt(I32, I16, 0xFFFEEE90, None, SaturationMode::On), 0x8000u);
  EXPECT_EQ(npu_cvt(I64, I32, 0x100000005, None), 5u);
  EXPECT_EQ(npu_cvt(I64, I32, 0x100000005, None, SaturationMode::On), 0x7FFFFFFFu);
  EXPECT_EQ(npu_cvt(I32, I64, 0xFFFFFFFB, None), 0xFFFFFFFFFFFFFFFBu);  // -5
}

// Integer to float: 2^24 + 1 is a tie between 2^24 and 2^24 + 2; 2^24 + 3 between 2^24 + 2 (odd
// significand) and 2^24 + 4 (even).
TEST(PtoConvertA2A3, IntegerToFloat) {
  EXPECT_EQ(npu_cvt(I64, F32, 16777217, Rint), 0x4B800000u);
  EXPECT_EQ(npu_cvt(I64, F32, 16777217, None), 0x4B800000u);  // the pair's default r
  EXPECT_EQ(npu_cvt(I64, F32, 16777217, Round), 0x4B800001u);
  EXPECT_EQ(npu_cvt(I64, F32, 16777217, Ceil), 0x4B800001u);
  EXPECT_EQ(npu_cvt(I32, F32, 16777219, Rint), 0x4B800002u);
  EXPECT_EQ(npu_cvt(I32, F32, 16777219, Round), 0x4B800002u);
  EXPECT_EQ(npu_cvt(I32, F32, 0xFEFFFFFD, Round), 0xCB800002u);  // -(2^24 + 3)
  EXPECT_EQ(npu_cvt(I32, F32, 16777218, Floor), 0x4B800001u);    // exact
  EXPECT_EQ(npu_cvt(I32, F32, 16777216, None), 0x4B800000u);     // no suffix: exact lanes only
  expect_refusal([] { npu_cvt(I32, F32, 16777217, None); }, ErrorKind::Unsupported, {"16777217"});
  EXPECT_EQ(npu_cvt(I16, F16, 2049, Floor), 0x6800u);  // 2048
  EXPECT_EQ(npu_cvt(I32, F16, 2048, Rint), 0x6800u);   // vconv_deq: exact lanes only
  expect_refusal([] { npu_cvt(I32, F16, 2049, Rint); }, ErrorKind::Unsupported, {"2049"});
  expect_refusal([] { npu_cvt(I32, F16, 70000, Rint); }, ErrorKind::Unsupported, {"70000"});
  EXPECT_EQ(npu_cvt(U8, F16, 255), 0x5BF8u);
  EXPECT_EQ(npu_cvt(I8, F16, 0x80), 0xD800u);     // -128
  EXPECT_EQ(npu_cvt(I16, F32, 0x8000), 0xC7000000u);  // -32768
  EXPECT_EQ(npu_cvt(F16, F32, 0x3C01), 0x3F802000u);
  EXPECT_EQ(npu_cvt(BF16, F32, 0xC049), 0xC0490000u);
}

TEST(PtoConvertA2A3, PairsWithoutAPath) {
  for (auto [from, to] : {std::pair{U16, F32}, {F16, BF16}, {U32, I32}, {F32, U8}, {I8, I32}, {F32, U32}})
    expect_refusal([from, to] { npu_cvt(from, to, 0); }, ErrorKind::Unsupported, {"has no vconv path"});
}

}  // namespace
}  // namespace tmu::pto::test
