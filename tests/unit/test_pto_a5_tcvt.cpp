// TCVT under the a5 profile against values worked by hand from include/pto/npu/a5/TCvt.hpp: the pair
// list (checked against TCVT.md's A5 column, written out here), the rounding type each mode selects
// (NONE and the unlisted ODDs: Z from a float to an integer, R otherwise), the default saturation per
// pair, ON's clamp against OFF's low bits, and the lanes refused under the assumption a5-ieee.
#include <fmt/format.h>

#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;
using enum RoundMode;

uint64_t a5_cvt(ElemType from, ElemType to, uint64_t v, RoundMode m = None,
                std::optional<SaturationMode> sat = std::nullopt, bool ieee = true) {
  Tile src = make_tile(from, 1, 32, Layout::RowMajor, 1, 1), dst = make_tile(to, 1, 32, Layout::RowMajor, 1, 1);
  set(src, 0, 0, v);
  const Tile* srcs[] = {&src};
  execute(Profile::A5, Op::TCVT, dst, srcs, OpParams{.round = m, .saturation = sat, .a5_ieee = ieee});
  return dst.at(0, 0);
}

constexpr auto kOn = SaturationMode::On;
constexpr auto kOff = SaturationMode::Off;

// TCVT.md, "Supported Conversions", the A5 column, restricted to tmu's element types.
bool documented(ElemType from, ElemType to) {
  const std::vector<std::pair<ElemType, std::vector<ElemType>>> table = {
      {F32, {F32, F16, BF16, I16, I32, I64, F8E4M3, F8E5M2}}, {F16, {F32, I32, I16, I8, U8}}, {BF16, {F32, I32, F16}},
      {F8E4M3, {F32}}, {F8E5M2, {F32}},
      {I16, {U8, F16, F32, U32, I32}},        {I32, {F32, I16, U16, I64, U8}}, {I64, {F32, I32}},
      {U8, {F16, U16}},                       {I8, {F16, I16, I32}},          {U32, {U8, U16, I16}}};
  for (const auto& [s, ds] : table)
    if (s == from)
      for (ElemType d : ds)
        if (d == to) return true;
  return false;
}

// Every documented pair runs (an exact value: 1, or 1.0), every other pair is refused by name.
TEST(PtoA5Tcvt, PairList) {
  auto one = [](ElemType t) -> uint64_t {
    if (t == F32) return 0x3F800000;
    if (t == F16) return 0x3C00;
    if (t == BF16) return 0x3F80;
    if (t == F8E4M3) return 0x38;
    if (t == F8E5M2) return 0x3C;
    return 1;
  };
  unsigned accepted = 0;
  for (ElemType from : kAllElemTypes)
    for (ElemType to : kAllElemTypes) {
      SCOPED_TRACE(fmt::format("{} -> {}", elem_name(from), elem_name(to)));
      if (documented(from, to)) {
        EXPECT_EQ(a5_cvt(from, to, one(from)), one(to));
        ++accepted;
      } else {
        expect_refusal([&] { a5_cvt(from, to, one(from)); }, ErrorKind::Unsupported,
                       {"no castData overload", std::string(elem_name(from)) + " to " + std::string(elem_name(to))});
      }
    }
  EXPECT_EQ(accepted, 38u);
}

TEST(PtoA5Tcvt, FloatToIntegerRounding) {
  const uint64_t k1_5 = 0x3FC00000, k2_5 = 0x40200000, kMinus2_5 = 0xC0200000;
  EXPECT_EQ(a5_cvt(F32, I32, k1_5, Rint), 2u);
  EXPECT_EQ(a5_cvt(F32, I32, k1_5, Floor), 1u);
  EXPECT_EQ(a5_cvt(F32, I32, k1_5, Ceil), 2u);
  EXPECT_EQ(a5_cvt(F32, I32, k1_5, Trunc), 1u);
  EXPECT_EQ(a5_cvt(F32, I32, k1_5, None), 1u);  // the default for float -> integer is Z
  EXPECT_EQ(a5_cvt(F32, I32, k1_5, Odd), 1u);   // O exists for f32 -> f16 only
  EXPECT_EQ(a5_cvt(F32, I32, k2_5, Rint), 2u);  // a tie to even
  EXPECT_EQ(a5_cvt(F32, I32, k2_5, Round), 3u); // a tie away from zero
  EXPECT_EQ(a5_cvt(F32, I32, kMinus2_5, Rint), 0xFFFFFFFEu);
  EXPECT_EQ(a5_cvt(F32, I32, kMinus2_5, Round), 0xFFFFFFFDu);
  EXPECT_EQ(a5_cvt(F32, I32, kMinus2_5, Floor), 0xFFFFFFFDu);
  EXPECT_EQ(a5_cvt(F32, I32, kMinus2_5, Ceil), 0xFFFFFFFEu);
  EXPECT_EQ(a5_cvt(F32, I64, 0x53800000, Rint), uint64_t{1} << 40);
  EXPECT_EQ(a5_cvt(F32, I64, 0xBFC00000, Rint), 0xFFFFFFFFFFFFFFFEu);  // -1.5 -> -2
  EXPECT_EQ(a5_cvt(BF16, I32, 0x4020, Rint), 2u);                      // bf16 2.5
  EXPECT_EQ(a5_cvt(F16, I32, 0x4100, Round), 3u);                      // f16 2.5
}

// f32 -> i32 saturates by default; f32 -> i16, f16 -> i8 / u8 / i16, i32 -> i16 and i64 -> i32
// run with saturation OFF unless asked.
TEST(PtoA5Tcvt, SaturationOnAndOff) {
  const uint64_t k3e9 = 0x4F32D05E, k40000 = 0x471C4000, kMinus40000 = 0xC71C4000;
  EXPECT_EQ(a5_cvt(F32, I32, k3e9, Rint), 0x7FFFFFFFu);
  EXPECT_EQ(a5_cvt(F32, I32, k3e9, Rint, kOn), 0x7FFFFFFFu);
  EXPECT_EQ(a5_cvt(F32, I32, k3e9, Rint, kOff), 0xB2D05E00u);  // 3000000000 mod 2^32
  EXPECT_EQ(a5_cvt(F32, I16, k40000, Rint), 0x9C40u);          // OFF by default: 40000 mod 2^16
  EXPECT_EQ(a5_cvt(F32, I16, k40000, Rint, kOn), 0x7FFFu);
  EXPECT_EQ(a5_cvt(F32, I16, kMinus40000, Rint, kOn), 0x8000u);
  EXPECT_EQ(a5_cvt(F32, I16, kMinus40000, Rint), 0x63C0u);     // -40000 + 65536 = 25536
  EXPECT_EQ(a5_cvt(F16, I8, 0x5CB0, Rint), 0x2Cu);             // 300 & 0xFF = 44
  EXPECT_EQ(a5_cvt(F16, I8, 0x5CB0, Rint, kOn), 0x7Fu);
  EXPECT_EQ(a5_cvt(F16, I8, 0xBC00, Rint), 0xFFu);             // -1 in range either way
  EXPECT_EQ(a5_cvt(F16, U8, 0xBC00, Rint), 0xFFu);             // -1: OFF keeps the low bits
  EXPECT_EQ(a5_cvt(F16, U8, 0xBC00, Rint, kOn), 0x00u);
  EXPECT_EQ(a5_cvt(F32, I32, 0x7F800000, Rint), 0x7FFFFFFFu);  // +inf clamps under ON
  EXPECT_EQ(a5_cvt(F32, I32, 0xFF800000, Rint), 0x80000000u);
  EXPECT_EQ(a5_cvt(F16, I32, 0x7C00, Rint), 0x7FFFFFFFu);
  expect_refusal([] { a5_cvt(F32, I32, 0x7F800000, Rint, kOff); }, ErrorKind::Unsupported,
                 {"an infinity with saturation OFF", "lane (0, 0)"});
  expect_refusal([] { a5_cvt(F32, I32, 0x7FC00000, Rint); }, ErrorKind::Unsupported, {"a NaN"});
}

TEST(PtoA5Tcvt, IntegerPairs) {
  EXPECT_EQ(a5_cvt(I32, I16, 70000), 0x1170u);  // OFF by default: 70000 mod 2^16
  EXPECT_EQ(a5_cvt(I32, I16, 70000, None, kOn), 0x7FFFu);
  EXPECT_EQ(a5_cvt(I32, I16, 0xFFFEEE90, None, kOn), 0x8000u);  // -70000
  EXPECT_EQ(a5_cvt(I32, U16, 0xFFFFFFFF), 0u);                  // ON by default
  EXPECT_EQ(a5_cvt(I32, U16, 0xFFFFFFFF, None, kOff), 0xFFFFu);
  EXPECT_EQ(a5_cvt(I32, U8, 300), 0xFFu);
  EXPECT_EQ(a5_cvt(I32, U8, 300, None, kOff), 44u);
  EXPECT_EQ(a5_cvt(I16, U8, 0xFFFF), 0u);
  EXPECT_EQ(a5_cvt(U32, I16, 0xFFFFFFFF), 0x7FFFu);
  EXPECT_EQ(a5_cvt(U32, I16, 0xFFFFFFFF, None, kOff), 0xFFFFu);
  EXPECT_EQ(a5_cvt(U32, U16, 0x12345), 0xFFFFu);
  EXPECT_EQ(a5_cvt(I64, I32, (uint64_t{1} << 32) + 5), 5u);  // OFF by default
  EXPECT_EQ(a5_cvt(I64, I32, (uint64_t{1} << 32) + 5, None, kOn), 0x7FFFFFFFu);
  EXPECT_EQ(a5_cvt(I8, I32, 0xFF), 0xFFFFFFFFu);  // sign extension
  EXPECT_EQ(a5_cvt(I8, I16, 0x80), 0xFF80u);
  EXPECT_EQ(a5_cvt(I32, I64, 0x80000000), 0xFFFFFFFF80000000u);
  EXPECT_EQ(a5_cvt(U8, U16, 0xFF), 0xFFu);
  EXPECT_EQ(a5_cvt(I16, I32, 0x8000), 0xFFFF8000u);
  EXPECT_EQ(a5_cvt(I16, U32, 5), 5u);
  expect_refusal([] { a5_cvt(I16, U32, 0xFFFF); }, ErrorKind::Unsupported, {"the negative value -1"});
}

TEST(PtoA5Tcvt, IntegerToFloat) {
  const uint64_t k2p24_1 = (1u << 24) + 1, k2p24_3 = (1u << 24) + 3;
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_1, Rint), 0x4B800000u);   // a tie to even: 2^24
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_1, None), 0x4B800000u);   // NONE is R
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_1, Odd), 0x4B800000u);    // so is ODD here
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_1, Round), 0x4B800001u);  // away: 2^24 + 2
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_1, Ceil), 0x4B800001u);
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_1, Floor), 0x4B800000u);
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_3, Rint), 0x4B800002u);   // 2^24 + 4 is the even one
  EXPECT_EQ(a5_cvt(I32, F32, k2p24_3, Trunc), 0x4B800001u);
  EXPECT_EQ(a5_cvt(I32, F32, (0u - k2p24_1) & 0xFFFFFFFF, Round), 0xCB800001u);
  EXPECT_EQ(a5_cvt(I64, F32, 0x7FFFFFFFFFFFFFFF, Rint), 0x5F000000u);  // 2^63
  EXPECT_EQ(a5_cvt(I64, F32, 0x7FFFFFFFFFFFFFFF, Trunc), 0x5EFFFFFFu);
  EXPECT_EQ(a5_cvt(I16, F16, 2049, Rint), 0x6800u);   // 2048
  EXPECT_EQ(a5_cvt(I16, F16, 2049, Round), 0x6801u);  // 2050
  EXPECT_EQ(a5_cvt(I8, F16, 0xFF), 0xBC00u);          // -1
  EXPECT_EQ(a5_cvt(U8, F16, 0xFF), 0x5BF8u);          // 255
  EXPECT_EQ(a5_cvt(I16, F32, 0x8000), 0xC7000000u);   // -32768
}

TEST(PtoA5Tcvt, FloatToFloat) {
  const uint64_t tie = 0x3F801000;  // 1 + 2^-11: half an f16 ulp above 1
  EXPECT_EQ(a5_cvt(F32, F16, tie, Rint), 0x3C00u);
  EXPECT_EQ(a5_cvt(F32, F16, tie, None), 0x3C00u);
  EXPECT_EQ(a5_cvt(F32, F16, tie, Round), 0x3C01u);
  EXPECT_EQ(a5_cvt(F32, F16, tie | 0x80000000, Round), 0xBC01u);
  EXPECT_EQ(a5_cvt(F32, F16, tie | 0x80000000, Floor), 0xBC01u);
  EXPECT_EQ(a5_cvt(F32, F16, tie, Ceil), 0x3C01u);
  EXPECT_EQ(a5_cvt(F32, F16, 0x40000000, Odd), 0x4000u);  // exact under O
  expect_refusal([&] { a5_cvt(F32, F16, tie, Odd); }, ErrorKind::Unsupported, {"round-to-odd"});
  EXPECT_EQ(a5_cvt(F32, F16, 0x38800000, Rint), 0x0400u);  // 2^-14, f16's smallest normal
  // 2^-26, below f16's smallest subnormal 2^-24, and 2^-24 itself: tiny under the flush.
  expect_refusal([] { a5_cvt(F32, F16, 0x32800000, Rint); }, ErrorKind::Unsupported, {"tiny", "a5-ieee"});
  expect_refusal([] { a5_cvt(F32, F16, 0x33800000, Rint); }, ErrorKind::Unsupported, {"tiny", "a5-ieee"});
  expect_refusal([] { a5_cvt(F32, F16, 0x00000001, Rint); }, ErrorKind::Unsupported, {"subnormal operand"});
  // 65520 rounds past 65504: saturation ON (the default) does not say what it writes; OFF is IEEE.
  expect_refusal([] { a5_cvt(F32, F16, 0x477FF000, Rint); }, ErrorKind::Unsupported, {"saturation ON"});
  EXPECT_EQ(a5_cvt(F32, F16, 0x477FF000, Rint, kOff), 0x7C00u);
  EXPECT_EQ(a5_cvt(F32, F16, 0x477FF000, Trunc, kOff), 0x7BFFu);
  EXPECT_EQ(a5_cvt(F32, F16, 0x7F800000, Rint, kOff), 0x7C00u);
  expect_refusal([] { a5_cvt(F32, F16, 0x7F800000, Rint); }, ErrorKind::Unsupported, {"an infinity"});
  EXPECT_EQ(a5_cvt(F32, BF16, 0x3F808000, Rint), 0x3F80u);
  EXPECT_EQ(a5_cvt(F32, BF16, 0x3F808000, Round), 0x3F81u);
  EXPECT_EQ(a5_cvt(BF16, F16, 0x3F81, Rint), 0x3C08u);  // 1 + 2^-7, exact
  expect_refusal([] { a5_cvt(BF16, F16, 0x4780, Rint); }, ErrorKind::Unsupported, {"saturation ON"});  // 65536
  EXPECT_EQ(a5_cvt(BF16, F16, 0x4780, Rint, kOff), 0x7C00u);
  EXPECT_EQ(a5_cvt(F16, F32, 0x7C00), 0x7F800000u);  // widening: an infinity stays one
  EXPECT_EQ(a5_cvt(BF16, F32, 0xC040), 0xC0400000u);
  expect_refusal([] { a5_cvt(F16, F32, 0x0001); }, ErrorKind::Unsupported, {"subnormal operand"});
  expect_refusal([] { a5_cvt(F16, F32, 0x7E00); }, ErrorKind::Unsupported, {"a NaN"});
}

// vtrc: an integral f32, the sign of a zero kept; ODD and NONE are R.
TEST(PtoA5Tcvt, FloatToIntegralFloat) {
  EXPECT_EQ(a5_cvt(F32, F32, 0x40200000, Rint), 0x40000000u);   // 2.5 -> 2
  EXPECT_EQ(a5_cvt(F32, F32, 0x40200000, None), 0x40000000u);
  EXPECT_EQ(a5_cvt(F32, F32, 0x40200000, Odd), 0x40000000u);
  EXPECT_EQ(a5_cvt(F32, F32, 0x40200000, Round), 0x40400000u);  // 3
  EXPECT_EQ(a5_cvt(F32, F32, 0xC0200000, Floor), 0xC0400000u);  // -3
  EXPECT_EQ(a5_cvt(F32, F32, 0xBF333333, Trunc), 0x80000000u);  // -0.7 -> -0
  EXPECT_EQ(a5_cvt(F32, F32, 0x7F800000, Rint), 0x7F800000u);
}

// With a5-ieee off every pair with a float side is refused; integer pairs still run.
TEST(PtoA5Tcvt, AssumptionSwitchedOff) {
  expect_refusal([] { a5_cvt(F32, I32, 0x3FC00000, Rint, std::nullopt, false); }, ErrorKind::Unsupported,
                 {"f32 to i32", "a5-ieee, which is switched off"});
  expect_refusal([] { a5_cvt(I32, F32, 1, Rint, std::nullopt, false); }, ErrorKind::Unsupported,
                 {"a5-ieee, which is switched off"});
  EXPECT_EQ(a5_cvt(I32, I16, 70000, None, std::nullopt, false), 0x1170u);
}

}  // namespace
}  // namespace tmu::pto::test
