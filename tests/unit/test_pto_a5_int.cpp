// The a5 integer lanes read from sequences of include/pto/npu/a5/: 64-bit TMUL (Int64Binary.hpp),
// integer TPOW (TPow.hpp's PowI), integer TRECIP (TDivS.hpp's scalar TSDiv_naive), float TRECIP (one
// vdiv of 1 by src), float TREM / TFMOD (TRem.hpp, TFMod.hpp), and the integer divisions left refused. Expected values worked by hand.
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

uint64_t a5(Op op, ElemType t, uint64_t a, uint64_t b = 0) { return lane(Profile::A5, op, t, a, b); }

// vmull of the low words plus vmula of the cross terms: (2^32 + 1)^2 = 2^64 + 2^33 + 1.
TEST(PtoA5Int, SixtyFourBitMultiplyIsModular) {
  EXPECT_EQ(a5(Op::TMUL, I64, 0x100000001ull, 0x100000001ull), 0x200000001ull);
  EXPECT_EQ(a5(Op::TMUL, I64, 0xFFFFFFFFFFFFFFFDull, 5), 0xFFFFFFFFFFFFFFF1ull);  // -3 * 5 = -15
  EXPECT_EQ(a5(Op::TMUL, U64, ~0ull, 2), ~0ull - 1);
  EXPECT_EQ(a5(Op::TMUL, U64, 1ull << 32, 1ull << 32), 0u);
}

// Square and multiply over every bit of the (widened) exponent, then exp == 0 or base == 1 -> 1 and,
// signed, exp < 0 with base != -1 -> 0.
TEST(PtoA5Int, IntegerPowers) {
  EXPECT_EQ(a5(Op::TPOW, U32, 3, 5), 243u);
  EXPECT_EQ(a5(Op::TPOW, I8, 3, 5), 0xF3u);    // 243 = -13 mod 256
  EXPECT_EQ(a5(Op::TPOW, I8, 2, 7), 0x80u);    // 128 wraps to -128
  EXPECT_EQ(a5(Op::TPOW, U8, 255, 2), 1u);     // 65025 = 254 * 256 + 1
  EXPECT_EQ(a5(Op::TPOW, I16, 7, 4), 2401u);
  EXPECT_EQ(a5(Op::TPOW, I32, 0, 0), 1u);
  EXPECT_EQ(a5(Op::TPOW, I32, 0, 3), 0u);
  EXPECT_EQ(a5(Op::TPOW, I32, 2, 0xFFFFFFFF), 0u);           // 2^-1
  EXPECT_EQ(a5(Op::TPOW, I32, 0xFFFFFFFF, 0xFFFFFFFD), 0xFFFFFFFFu);  // (-1)^-3
  EXPECT_EQ(a5(Op::TPOW, I32, 0xFFFFFFFF, 0xFFFFFFFE), 1u);           // (-1)^-2
  EXPECT_EQ(a5(Op::TPOW, I16, 1, 0xFFFB), 1u);                        // 1^-5
  // Every odd residue mod 2^32 has an order dividing 2^30 (the unit group is C2 x C(2^30)), so
  // 3^(2^31) = 1 and 3^(2^31 + 1) = 3. A2/A3's TPowICore reads the u32 exponent as a negative int: 0.
  EXPECT_EQ(a5(Op::TPOW, U32, 3, 0x80000000), 1u);
  EXPECT_EQ(a5(Op::TPOW, U32, 3, 0x80000001), 3u);
  EXPECT_EQ(a5(Op::TPOW, U32, 2, 0x80000000), 0u);
  EXPECT_EQ(npu(Op::TPOW, U32, 3, 0x80000000), 0u);
}

// TSDiv_naive: 1 / src in C++ (truncating); by zero undefined.
TEST(PtoA5Int, IntegerReciprocal) {
  EXPECT_EQ(a5(Op::TRECIP, I32, 1), 1u);
  EXPECT_EQ(a5(Op::TRECIP, I32, 0xFFFFFFFF), 0xFFFFFFFFu);  // 1 / -1
  EXPECT_EQ(a5(Op::TRECIP, I16, 2), 0u);
  EXPECT_EQ(a5(Op::TRECIP, I16, 0xFFFE), 0u);               // 1 / -2 = -0.5 -> 0
  EXPECT_EQ(a5(Op::TRECIP, U16, 0xFFFF), 0u);
  expect_refusal([] { a5(Op::TRECIP, U32, 0); }, ErrorKind::UndefinedBehaviour, {"division by zero"});
  expect_refusal([] { a5(Op::TRECIP, I64, 1); }, ErrorKind::Unsupported, {"Int64DivScalar"});
}

// One vdiv of the broadcast 1 by src, under a5-ieee.
TEST(PtoA5Int, FloatReciprocal) {
  EXPECT_EQ(a5(Op::TRECIP, F32, 0x40800000), 0x3E800000u);  // 1/4
  EXPECT_EQ(a5(Op::TRECIP, F32, 0x40400000), 0x3EAAAAABu);  // 1/3 = 0.010101...b: ...1010|1010... rounds up
  EXPECT_EQ(a5(Op::TRECIP, F32, 0x80000000), 0xFF800000u);  // 1 / -0 = -inf
  EXPECT_EQ(a5(Op::TRECIP, F16, 0x4000), 0x3800u);          // 1/2
  expect_refusal([] { a5(Op::TRECIP, F32, 0x7F000000); }, ErrorKind::Unsupported, {"tiny"});  // 2^-127
}

TEST(PtoA5Int, IntegerDivisionStaysRefused) {
  for (Op op : {Op::TDIV, Op::TFMOD})
    expect_refusal([&] { a5(op, I32, 7, 2); }, ErrorKind::Unsupported, {"vdiv.md"});
  expect_refusal([] { a5(Op::TREM, I16, 7, 2); }, ErrorKind::Unsupported, {"vmod"});
  expect_refusal([] { a5(Op::TDIV, U64, 7, 2); }, ErrorKind::Unsupported, {"Int64Div.hpp"});
}

// TRem.hpp / TFMod.hpp in f32: vdiv, vtrc (F for TREM, Z for TFMOD), vmul, vsub, each rounded; TREM
// adds src1 where src1 x d < 0.
TEST(PtoA5Int, FloatRemainders) {
  constexpr uint64_t k7 = 0x40E00000, kMinus7 = 0xC0E00000, k2 = 0x40000000, kMinus2 = 0xC0000000;
  EXPECT_EQ(a5(Op::TFMOD, F32, k7, k2), 0x3F800000u);           // 3.5 -> 3, 7 - 6 = 1
  EXPECT_EQ(a5(Op::TFMOD, F32, kMinus7, k2), 0xBF800000u);      // -3.5 -> -3, -7 + 6 = -1
  EXPECT_EQ(a5(Op::TREM, F32, kMinus7, k2), 0x3F800000u);       // -3.5 -> -4, -7 + 8 = 1; 2 x 1 > 0
  EXPECT_EQ(a5(Op::TREM, F32, k7, kMinus2), 0xBF800000u);       // -3.5 -> -4, 7 - 8 = -1; -2 x -1 > 0
  // 1e10 / 3 rounds to 3333333248 (ulp 256), x 3 = 9999999744 rounds to 1e10 (ulp 1024): 1e10 - 1e10 = +0,
  // where fmod gives 1.
  EXPECT_EQ(a5(Op::TFMOD, F32, 0x501502F9, 0x40400000), 0u);
  EXPECT_EQ(a5(Op::TFMOD, F16, 0x4700, 0x4000), 0x3C00u);       // f16 7 fmod 2 = 1 through f32
  EXPECT_EQ(a5(Op::TREM, F16, 0xC700, 0x4000), 0x3C00u);        // f16 -7 rem 2 = 1
  expect_refusal([] { a5(Op::TREM, F32, 0, 0); }, ErrorKind::Unsupported, {"NaN"});  // 0 / 0
  expect_refusal([] { a5(Op::TFMOD, F32, 1, k2); }, ErrorKind::Unsupported, {"subnormal"});
}

}  // namespace
}  // namespace tmu::pto::test
