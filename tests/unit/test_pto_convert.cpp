// tmu::pto TCVT against values worked by hand from the CPU simulator's TCvt.hpp: the rounding modes
// (which only act from a float type to an integer type), saturation's clamp in double and its cast
// back to the source type, the double rounding of 64-bit integers, and the casts C++ leaves
// undefined, which are refused.
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

uint64_t cvt(ElemType from, ElemType to, uint64_t v, RoundMode m = RoundMode::Rint,
             SaturationMode sat = SaturationMode::Off, Profile p = Profile::CpuSim) {
  Tile src = make_tile(from, 1, 32, Layout::RowMajor, 1, 1), dst = make_tile(to, 1, 32, Layout::RowMajor, 1, 1);
  set(src, 0, 0, v);
  const Tile* srcs[] = {&src};
  execute(p, Op::TCVT, dst, srcs, OpParams{.round = m, .saturation = sat});
  return dst.at(0, 0);
}
uint64_t sat(ElemType from, ElemType to, uint64_t v, RoundMode m = RoundMode::Rint) {
  return cvt(from, to, v, m, SaturationMode::On);
}

constexpr uint64_t k2_5 = 0x40200000, kMinus2_5 = 0xC0200000, k3_5 = 0x40600000;

TEST(PtoConvert, RoundingModesFromFloatToInteger) {
  using enum RoundMode;
  struct Row {
    RoundMode m;
    uint64_t for_2_5, for_minus_2_5, for_3_5;
  };
  const Row rows[] = {
      {Rint, 2, 0xFFFFFFFE, 4},             // ties to even
      {Round, 3, 0xFFFFFFFD, 4},            // ties away from zero
      {Floor, 2, 0xFFFFFFFD, 3},
      {Ceil, 3, 0xFFFFFFFE, 4},
      {Trunc, 2, 0xFFFFFFFE, 3},
      {None, 2, 0xFFFFFFFE, 3},             // no rounding step: the cast truncates
      {Odd, 3, 0xFFFFFFFD, 3},              // ties to the odd neighbour (floor 2 even -> 3; -3 odd; 3 odd)
  };
  for (const Row& r : rows) {
    EXPECT_EQ(cvt(F32, I32, k2_5, r.m), r.for_2_5) << static_cast<int>(r.m);
    EXPECT_EQ(cvt(F32, I32, kMinus2_5, r.m), r.for_minus_2_5) << static_cast<int>(r.m);
    EXPECT_EQ(cvt(F32, I32, k3_5, r.m), r.for_3_5) << static_cast<int>(r.m);
  }
  EXPECT_EQ(cvt(F16, U8, 0x4100), 2u);                      // f16 2.5, ties to even
  EXPECT_EQ(cvt(F32, I64, 0xDF000000, RoundMode::Trunc), 0x8000000000000000ull);  // -2^63 fits
}

TEST(PtoConvert, FloatToIntegerRanges) {
  EXPECT_EQ(cvt(F32, U8, 0xBF800000), 0xFFu);                 // -1: through int64_t, then modulo 256
  EXPECT_EQ(cvt(F32, U8, 0x43960000), 44u);                   // 300 - 256
  EXPECT_EQ(cvt(F32, I16, 0xC7000000), 0x8000u);              // -32768 fits
  expect_refusal([] { cvt(F32, I8, 0x43480000); }, ErrorKind::UndefinedBehaviour,
                 {"TCVT (f32, cpusim) lane (0, 0)", "the rounded value 200 does not fit i8", "undefined in C++"});
  expect_refusal([] { cvt(F32, U16, 0xBF800000); }, ErrorKind::UndefinedBehaviour,
                 {"the rounded value -1 does not fit u16"});
  expect_refusal([] { cvt(F32, I32, 0x7FC00000); }, ErrorKind::UndefinedBehaviour, {"a NaN does not fit i32"});
  expect_refusal([] { cvt(F16, I32, 0xFC00); }, ErrorKind::UndefinedBehaviour, {"an infinity does not fit i32"});
  expect_refusal([] { cvt(F32, U8, 0x5F000000); }, ErrorKind::UndefinedBehaviour,
                 {"the rounded value 9223372036854775808 does not fit i64"});  // 2^63 via int64_t
}

TEST(PtoConvert, SaturationClampsInDoubleAndCastsBack) {
  EXPECT_EQ(sat(F32, I16, 0x49742400), 0x7FFFu);    // 1e6 -> 32767
  EXPECT_EQ(sat(F32, I16, 0x7FC00000), 0x7FFFu);    // a NaN becomes the upper bound
  EXPECT_EQ(sat(F32, I16, 0xFF800000), 0x8000u);    // -inf -> -32768
  EXPECT_EQ(sat(F32, I32, 0xCF32D05E), 0x80000000u);  // -3e9 -> -2^31, exact in f32
  // 3e9 clamps to 2147483647, which is 2^31 once cast back to float: the cast to int32_t is undefined.
  expect_refusal([] { sat(F32, I32, 0x4F32D05E); }, ErrorKind::UndefinedBehaviour,
                 {"the rounded value 2147483648 does not fit i32"});
  EXPECT_EQ(sat(F16, I32, 0x7C00), 0xFFE0u);        // inf -> 65504 (F16_MAX bounds the half source)
  EXPECT_EQ(sat(I32, I8, 300), 0x7Fu);
  EXPECT_EQ(sat(I32, I8, 0xFFFFFED4), 0x80u);       // -300 -> -128
  EXPECT_EQ(sat(U32, I32, 0xFFFFFFFF), 0x7FFFFFFFu);
  // u64 -> i64: the bound min(2^64, 2^63) = 2^63 is a u64, and then wraps to INT64_MIN.
  EXPECT_EQ(sat(U64, I64, ~0ull), 0x8000000000000000ull);
  // i64 -> u64: INT64_MAX is 2^63 as a double; casting that back to int64_t is undefined.
  expect_refusal([] { sat(I64, U64, 0x7FFFFFFFFFFFFFFFull); }, ErrorKind::UndefinedBehaviour,
                 {"the saturation bound 9223372036854775808 does not fit i64"});
  // 2^53 + 1 goes through double: the clamp returns 2^53.
  EXPECT_EQ(sat(I64, U64, (1ull << 53) + 1), 1ull << 53);
  EXPECT_EQ(cvt(I64, U64, (1ull << 53) + 1), (1ull << 53) + 1);  // without saturation: the bits
}

TEST(PtoConvert, FloatToFloatIgnoresTheMode) {
  // 1 + 2^-11 is halfway between binary16's 1 and 1 + 2^-10: the cast rounds to even under every mode.
  for (RoundMode m : {RoundMode::Rint, RoundMode::Ceil, RoundMode::Floor, RoundMode::Trunc})
    EXPECT_EQ(cvt(F32, F16, 0x3F801000, m), 0x3C00u);
  EXPECT_EQ(cvt(F32, F16, 0x3F801800), 0x3C01u);   // 1 + 3 * 2^-12: above halfway
  EXPECT_EQ(cvt(F32, F16, 0x4788B800), 0x7C00u);   // 70000 overflows
  EXPECT_EQ(sat(F32, F16, 0x4788B800), 0x7BFFu);   // saturated: 65504
  EXPECT_EQ(sat(F32, F16, 0x7FC00000), 0x7BFFu);   // a NaN saturates to 65504 as well
  EXPECT_EQ(cvt(F32, BF16, 0x3F808000), 0x3F80u);  // 1 + 2^-8 ties to even
  EXPECT_EQ(cvt(F32, BF16, 0x3F80C000), 0x3F81u);
  EXPECT_EQ(cvt(F16, F32, 0x7D00), 0x7FE00000u);   // a signalling NaN is quieted, payload kept
  EXPECT_EQ(cvt(F32, F32, 0x7F800001), 0x7F800001u);  // a cast to its own type changes nothing
  EXPECT_EQ(sat(F32, F32, 0x7F800001), 0x7F7FFFFFu);  // ... but saturation makes a NaN FLT_MAX
  // bf16 -> f16 saturated: 2^127 clamps to 65504, which rounds to 65536 in bfloat16, which
  // overflows binary16.
  EXPECT_EQ(sat(BF16, F16, 0x7F00), 0x7C00u);
}

TEST(PtoConvert, IntegerToFloatGoesThroughDouble) {
  for (RoundMode m : {RoundMode::Floor, RoundMode::Ceil})
    EXPECT_EQ(cvt(I32, F32, 0x01000001, m), 0x4B800000u);  // 2^24 + 1 ties to 2^24 whatever the mode
  // 2^60 + 2^36 + 1: double keeps 2^60 + 2^36 (the 1 is far below its last place), which is then
  // halfway between two floats and ties to the even 2^60. One rounding would give 2^60 + 2^37.
  EXPECT_EQ(cvt(I64, F32, 0x1000001000000001ull), 0x5D800000u);
  EXPECT_EQ(cvt(U64, F16, 65519), 0x7BFFu);
  EXPECT_EQ(cvt(U64, F16, 70000), 0x7C00u);
  EXPECT_EQ(sat(U64, F16, 70000), 0x7BFFu);
  EXPECT_EQ(cvt(I8, F32, 0x80), 0xC3000000u);  // -128
  EXPECT_EQ(cvt(I32, I8, 0x12345680), 0x80u);   // integers narrow modulo 2^8
  EXPECT_EQ(cvt(I32, U16, 0xFFFFFFFF), 0xFFFFu);
  EXPECT_EQ(cvt(I8, U64, 0xFF), ~0ull);         // sign-extended
}

// TCVT(dst, src, mode) without a saturation argument: the simulator runs with OFF.
TEST(PtoConvert, SaturationLeftOutIsOff) {
  Tile src = make_tile(F32, 1, 32, Layout::RowMajor, 1, 1), dst = make_tile(F16, 1, 32, Layout::RowMajor, 1, 1);
  set(src, 0, 0, 0x4788B800);  // 70000
  const Tile* srcs[] = {&src};
  execute(Profile::CpuSim, Op::TCVT, dst, srcs, OpParams{.round = RoundMode::Rint});
  EXPECT_EQ(dst.at(0, 0), 0x7C00u);
}

TEST(PtoConvert, Refusals) {
  expect_refusal([] { cvt(U16, F32, 0, RoundMode::Rint, SaturationMode::Off, Profile::A2A3); },
                 ErrorKind::Unsupported, {"TCVT (a2a3)", "u16 to f32: TCvt.hpp has no vconv path"});
  Tile src = make_tile(F32, 1, 8), dst = make_tile(F16, 1, 16);
  const Tile* srcs[] = {&src};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TCVT, dst, srcs); }, ErrorKind::UndefinedBehaviour,
                 {"src is 1x8 but dst is 1x16", "same physical shape"});
  Tile wide = make_tile(F32, 1, 16, Layout::RowMajor, 1, 3);
  const Tile* w[] = {&wide};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TCVT, dst, w); }, ErrorKind::UndefinedBehaviour,
                 {"src's valid region 1x3 differs from dst's 1x16"});
}

}  // namespace
}  // namespace tmu::pto::test
