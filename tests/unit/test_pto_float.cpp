// tmu::pto f32, f16 and bf16 lanes. Expected patterns are worked out by hand in the comments (the
// rounding of each exact result to the format, RNE), or are the results the CPU simulator's own
// C++ gives with GCC on x86-64 for the NaN cases, where the host decides (0xFE00 for _Float16's
// inf - inf, the sign-set default NaN 0xFFC00000, -sNaN on _Float16 quieted to 0xFF00).
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

constexpr uint64_t kOne32 = 0x3F800000, kTwo32 = 0x40000000, kThree32 = 0x40400000;
constexpr uint64_t kInf32 = 0x7F800000, kNegInf32 = 0xFF800000, kNegZero32 = 0x80000000;
constexpr uint64_t kOne16 = 0x3C00, kInf16 = 0x7C00;

TEST(PtoFloat, AddRoundsToNearestEven) {
  // binary16: 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 1.0.
  EXPECT_EQ(cpu(Op::TADD, F16, kOne16, 0x1000), kOne16);
  // 1 + 1.5 * 2^-11 is above halfway: 1 + 2^-10 = 0x3C01.
  EXPECT_EQ(cpu(Op::TADD, F16, kOne16, 0x1200), 0x3C01u);
  // bfloat16: 1 = 0x3F80, 2^-8 = 0x3B80, 1.5 * 2^-8 = 0x3BC0; one ulp at 1 is 2^-7.
  EXPECT_EQ(cpu(Op::TADD, BF16, 0x3F80, 0x3B80), 0x3F80u);
  EXPECT_EQ(cpu(Op::TADD, BF16, 0x3F80, 0x3BC0), 0x3F81u);
  // Subnormals are kept: 2^-149 + 2^-149 = 2^-148.
  EXPECT_EQ(cpu(Op::TADD, F32, 1, 1), 2u);
  EXPECT_EQ(cpu(Op::TSUB, F32, kOne32, kOne32), 0u);               // x - x = +0 in RNE
  EXPECT_EQ(cpu(Op::TSUB, F32, kNegZero32, 0), kNegZero32);        // -0 - +0 = -0
}

TEST(PtoFloat, MulDiv) {
  EXPECT_EQ(cpu(Op::TMUL, F32, 0x3FC00000, 0x3FC00000), 0x40100000u);  // 1.5 * 1.5 = 2.25
  EXPECT_EQ(cpu(Op::TMUL, F32, 0x7F7FFFFF, kTwo32), kInf32);           // overflow to +inf
  // 1/3 = 0x1.555555...p-2: 24 bits 0xAAAAAA, the rest 0.101... > 1/2 rounds up: 0x3EAAAAAB.
  EXPECT_EQ(cpu(Op::TDIV, F32, kOne32, kThree32), 0x3EAAAAABu);
  // binary16: 1/3 = 0x1.554p-2 (11 bits 0x555, rest 0.0101... < 1/2): 0x3555.
  EXPECT_EQ(cpu(Op::TDIV, F16, kOne16, 0x4200), 0x3555u);
  // bfloat16: 1/3 = 0x1.54p-2 (8 bits 0xAA, rest 0.1010... > 1/2): 0x1.56p-2 = 0x3EAB.
  EXPECT_EQ(cpu(Op::TDIV, BF16, 0x3F80, 0x4040), 0x3EABu);
  EXPECT_EQ(cpu(Op::TDIV, F32, kOne32, 0), kInf32);                    // TDiv.hpp has no zero check
  EXPECT_EQ(cpu(Op::TDIV, F32, 0xBF800000, 0), kNegInf32);
  EXPECT_EQ(cpu(Op::TDIV, F32, kOne32, kNegZero32), kNegInf32);
  EXPECT_EQ(cpu(Op::TRECIP, F32, 0x40800000), 0x3E800000u);           // 1 / 4 = 0.25
  EXPECT_EQ(cpu(Op::TRECIP, F16, 0x4200), 0x3555u);                    // 1 / 3 as above
}

TEST(PtoFloat, AddcAndSubcRoundAfterEachOperation) {
  // 2048 + 1 ties to 2048 (binary16 spacing 2 there); + 1 ties to 2048 again. One rounding of
  // 2050 would give 0x6801.
  EXPECT_EQ(cpu(Op::TADDC, F16, 0x6800, kOne16, kOne16), 0x6800u);
  // (1 - 1) + -0 = +0 + -0 = +0.
  EXPECT_EQ(cpu(Op::TSUBC, F32, kOne32, kOne32, kNegZero32), 0u);
  EXPECT_EQ(cpu(Op::TSUBC, F32, kThree32, kOne32, kOne32), kThree32);  // 3 - 1 + 1
}

TEST(PtoFloat, NaNsOnTheSimulatorsHost) {
  // Invalid operations: x86's default NaN has its sign set.
  EXPECT_EQ(cpu(Op::TSUB, F32, kInf32, kInf32), 0xFFC00000u);
  EXPECT_EQ(cpu(Op::TSUB, F16, kInf16, kInf16), 0xFE00u);
  EXPECT_EQ(cpu(Op::TADD, BF16, 0x7F80, 0xFF80), 0xFFC0u);
  EXPECT_EQ(cpu(Op::TDIV, F32, 0, 0), 0xFFC00000u);
  EXPECT_EQ(cpu(Op::TMUL, F32, kInf32, 0), 0xFFC00000u);
  // One NaN operand comes back quieted.
  EXPECT_EQ(cpu(Op::TADD, F32, 0x7FC00005, kOne32), 0x7FC00005u);
  EXPECT_EQ(cpu(Op::TADD, F32, kOne32, 0x7F800001), 0x7FC00001u);
  EXPECT_EQ(cpu(Op::TADD, F16, 0x7D00, kOne16), 0x7F00u);
  EXPECT_EQ(cpu(Op::TMUL, BF16, 0xFF81, 0x3F80), 0xFFC1u);
  EXPECT_EQ(cpu(Op::TADDC, F32, kOne32, kOne32, 0x7F800003), 0x7FC00003u);
  // Two NaNs in one host operation: the host's choice follows the compiler's operand order (GCC
  // returns src2's NaN from TADDC's (inf - inf) + NaN, and src0's from qNaN + sNaN in f32 TADD).
  expect_refusal([] { cpu(Op::TADD, F32, 0x7FC00005, 0x7F800001); }, ErrorKind::Unsupported,
                 {"TADD (f32, cpusim) lane (0, 0)", "two NaN operands", "operand order"});
  expect_refusal([] { cpu(Op::TADDC, F16, kInf16, 0xFC00, 0xFC8D); }, ErrorKind::Unsupported, {"two NaN operands"});
}

TEST(PtoFloat, MinMaxCopyAnOperand) {
  // std::min(a, b) = (b < a) ? b : a; std::max(a, b) = (a < b) ? b : a.
  EXPECT_EQ(cpu(Op::TMIN, F32, 0x7FC00000, kOne32), 0x7FC00000u);  // NaN src0 comes back
  EXPECT_EQ(cpu(Op::TMIN, F32, kOne32, 0x7FC00000), kOne32);       // NaN src1 is never taken
  EXPECT_EQ(cpu(Op::TMAX, F32, kOne32, 0x7F800001), kOne32);       // nor quieted
  EXPECT_EQ(cpu(Op::TMAX, F32, 0x7F800001, kOne32), 0x7F800001u);
  EXPECT_EQ(cpu(Op::TMIN, F32, 0, kNegZero32), 0u);                // equal zeros: src0
  EXPECT_EQ(cpu(Op::TMIN, F32, kNegZero32, 0), kNegZero32);
  EXPECT_EQ(cpu(Op::TMAX, F16, 0x8000, 0), 0x8000u);
  EXPECT_EQ(cpu(Op::TMAX, F16, 0xBC00, kOne16), kOne16);
  EXPECT_EQ(cpu(Op::TMIN, BF16, 0xBF80, 0x3F80), 0xBF80u);
}

TEST(PtoFloat, AbsNegRelu) {
  EXPECT_EQ(cpu(Op::TABS, F32, 0xBFC00000), 0x3FC00000u);   // |-1.5|
  EXPECT_EQ(cpu(Op::TABS, F32, kNegZero32), kNegZero32);    // -0 < 0 is false: -0 kept
  EXPECT_EQ(cpu(Op::TABS, F32, 0xFFC00001), 0xFFC00001u);   // NaN < 0 is false: unchanged
  EXPECT_EQ(cpu(Op::TNEG, F32, 0x7F800001), 0xFF800001u);   // float: the sign bit alone
  EXPECT_EQ(cpu(Op::TNEG, F16, 0x7D00), 0xFF00u);           // _Float16: through float, quieted
  EXPECT_EQ(cpu(Op::TNEG, F16, kOne16), 0xBC00u);
  EXPECT_EQ(cpu(Op::TNEG, BF16, 0), 0x8000u);
  EXPECT_EQ(cpu(Op::TRELU, F32, kNegZero32), kNegZero32);   // std::max(-0, 0): -0 < 0 false
  EXPECT_EQ(cpu(Op::TRELU, F32, 0xBF800000), 0u);
  EXPECT_EQ(cpu(Op::TRELU, F32, 0x7FC00000), 0x7FC00000u);
}

TEST(PtoFloat, Prelu) {
  EXPECT_EQ(cpu(Op::TPRELU, F32, 0xC0000000, 0x3F000000), 0xBF800000u);  // -2 * 0.5 = -1
  EXPECT_EQ(cpu(Op::TPRELU, F32, kThree32, 0x3F000000), kThree32);
  EXPECT_EQ(cpu(Op::TPRELU, F32, kNegZero32, 0x3F000000), kNegZero32);    // -0 > 0 false: -0 * 0.5
  EXPECT_EQ(cpu(Op::TPRELU, F16, 0xC000, 0x3800), 0xBC00u);               // -2 * 0.5 = -1
}

TEST(PtoFloat, FmodAndRem) {
  // fmod is exact with the dividend's sign: fmod(5.5, 2) = 1.5, fmod(-5.5, 2) = -1.5.
  EXPECT_EQ(cpu(Op::TFMOD, F32, 0x40B00000, kTwo32), 0x3FC00000u);
  EXPECT_EQ(cpu(Op::TFMOD, F32, 0xC0B00000, kTwo32), 0xBFC00000u);
  EXPECT_EQ(cpu(Op::TFMOD, F32, 0x40B00000, 0xC0000000), 0x3FC00000u);
  EXPECT_EQ(cpu(Op::TFMOD, F32, 0x7F000000, kThree32), kTwo32);  // 2^127 mod 3 = 2 (2^odd = 2 mod 3)
  EXPECT_EQ(cpu(Op::TFMOD, F16, 0x7BFF, 0x4200), 0x4000u);       // 65504 - 3 * 21834 = 2
  EXPECT_EQ(cpu(Op::TFMOD, BF16, 0x4120, 0x4080), 0x4000u);      // fmod(10, 4) = 2
  EXPECT_EQ(cpu(Op::TFMOD, F32, kOne32, kInf32), kOne32);        // fmod(x, inf) = x
  EXPECT_EQ(cpu(Op::TFMOD, F32, kInf32, kOne32), 0xFFC00000u);   // invalid: the host's default NaN
  // TREM: then + src1 when the signs differ and the remainder is not 0.
  EXPECT_EQ(cpu(Op::TREM, F32, 0xC0B00000, kTwo32), 0x3F000000u);      // -1.5 + 2 = 0.5
  EXPECT_EQ(cpu(Op::TREM, F32, 0x40B00000, 0xC0000000), 0xBF000000u);  // 1.5 - 2 = -0.5
  EXPECT_EQ(cpu(Op::TREM, F32, 0xC0800000, kTwo32), kNegZero32);       // fmod(-4, 2) = -0: not corrected
  EXPECT_EQ(cpu(Op::TREM, F32, 0x40C00000, 0xC0400000), 0u);           // fmod(6, -3) = +0
  // -2^-25 rem 1: fmod gives -2^-25, and -2^-25 + 1 is halfway between 1 - 2^-24 (odd) and 1 (even):
  // the float addition returns 1.0, the divisor itself.
  EXPECT_EQ(cpu(Op::TREM, F32, 0xB3000000, kOne32), kOne32);
  EXPECT_EQ(cpu(Op::TREM, F32, 0xB3800000, kOne32), 0x3F7FFFFFu);      // -2^-24 + 1 = 1 - 2^-24 exactly
}

TEST(PtoFloat, SqrtAndRsqrtThroughDouble) {
  EXPECT_EQ(cpu(Op::TSQRT, F32, kTwo32), 0x3FB504F3u);   // sqrt(2) = 1.41421354 nearest
  EXPECT_EQ(cpu(Op::TSQRT, F32, 0x40800000), kTwo32);   // sqrt(4) = 2
  EXPECT_EQ(cpu(Op::TSQRT, F16, 0x4000), 0x3DA8u);      // 1 + 424/1024 = 1.4140625 (0.41421 * 1024 = 424.1)
  EXPECT_EQ(cpu(Op::TSQRT, BF16, 0x4000), 0x3FB5u);     // 1 + 53/128 (0.41421 * 128 = 53.02)
  EXPECT_EQ(cpu(Op::TSQRT, F32, kNegZero32), kNegZero32);
  EXPECT_EQ(cpu(Op::TSQRT, F32, 0xBF800000), 0xFFC00000u);  // sqrt(-1): the host's default NaN
  EXPECT_EQ(cpu(Op::TSQRT, F32, kInf32), kInf32);
  EXPECT_EQ(cpu(Op::TSQRT, F32, 0x7F800001), 0x7FC00001u);  // a NaN comes back quieted
  EXPECT_EQ(cpu(Op::TRSQRT, F32, 0x40800000), 0x3F000000u);  // 1 / sqrt(4)
  EXPECT_EQ(cpu(Op::TRSQRT, F32, kTwo32), 0x3F3504F3u);      // 0.70710678 -> 0.707106769 (0.70710683 is farther)
  EXPECT_EQ(cpu(Op::TRSQRT, F32, 0), kInf32);                // TRSqrt.hpp has no zero check
  EXPECT_EQ(cpu(Op::TRSQRT, F32, kNegZero32), kNegInf32);    // sqrt(-0) = -0
  EXPECT_EQ(cpu(Op::TRSQRT, F16, 0x4400), 0x3800u);          // 1 / sqrt(4) = 0.5
}

// A2/A3's TFMOD and TREM round the quotient (vdiv), make it integral (vconv z, f), multiply back and
// subtract. 1e10 / 3 = 3333333333.33 rounds to 3333333248 (f32 spacing 256 there); times 3 is
// 9999999744, which rounds to 1e10 (spacing 1024): the remainder comes out 0, where the exact one is 1.
TEST(PtoFloat, A2A3RemaindersRoundTheQuotient) {
  constexpr uint64_t k1e10 = 0x501502F9, k5_5 = 0x40B00000, kMinus5_5 = 0xC0B00000, kMinus4 = 0xC0800000;
  EXPECT_EQ(cpu(Op::TFMOD, F32, k1e10, kThree32), kOne32);
  EXPECT_EQ(npu(Op::TFMOD, F32, k1e10, kThree32), 0u);
  EXPECT_EQ(npu(Op::TREM, F32, k1e10, kThree32), 0u);
  EXPECT_EQ(npu(Op::TFMOD, F32, k5_5, kTwo32), 0x3FC00000u);        // 5.5 - trunc(2.75) * 2 = 1.5
  EXPECT_EQ(npu(Op::TFMOD, F32, kMinus5_5, kTwo32), 0xBFC00000u);   // -5.5 - (-2) * 2 = -1.5
  EXPECT_EQ(npu(Op::TREM, F32, kMinus5_5, kTwo32), 0x3F000000u);    // -5.5 - floor(-2.75) * 2 = 0.5
  EXPECT_EQ(npu(Op::TREM, F32, k5_5, 0xC0000000), 0xBF000000u);     // 5.5 - (-3) * -2 = -0.5
  // -4 - (-2) * 2 is -4 - -4 = +0 in round to nearest; the simulator's fmod keeps -0.
  EXPECT_EQ(npu(Op::TFMOD, F32, kMinus4, kTwo32), 0u);
  EXPECT_EQ(npu(Op::TREM, F32, kMinus4, kTwo32), 0u);
  EXPECT_EQ(cpu(Op::TREM, F32, kMinus4, kTwo32), kNegZero32);
  expect_refusal([] { npu(Op::TREM, F32, kNegZero32, kTwo32); }, ErrorKind::Unsupported,
                 {"TREM (f32, a2a3) lane (0, 0)", "src0 is -0", "vconv"});
  expect_refusal([] { npu(Op::TFMOD, F32, kOne32, 0); }, ErrorKind::Unsupported, {"quotient src0 / src1 is not finite"});
  expect_refusal([] { npu(Op::TFMOD, F32, 0x7FC00000, kOne32); }, ErrorKind::Unsupported, {"do not say which NaN"});
  // TRECIP is TDIVS(dst, 1, src): vdiv, with no zero check on A2/A3.
  EXPECT_EQ(npu(Op::TRECIP, F32, 0x40800000), 0x3E800000u);
  EXPECT_EQ(npu(Op::TRECIP, F16, 0), 0x7C00u);
}

TEST(PtoFloat, A2A3) {
  EXPECT_EQ(npu(Op::TADD, F32, kOne32, kTwo32), kThree32);
  EXPECT_EQ(npu(Op::TABS, F16, 0xBC00), kOne16);
  EXPECT_EQ(npu(Op::TNEG, F32, 0), kNegZero32);   // 0 * -1 = -0
  EXPECT_EQ(npu(Op::TNEG, F32, kOne32), 0xBF800000u);
  expect_refusal([] { npu(Op::TSUB, F32, kInf32, kInf32); }, ErrorKind::Unsupported,
                 {"TSUB (f32, a2a3) lane (0, 0)", "do not say which NaN"});
  expect_refusal([] { npu(Op::TNEG, F16, 0x7E00); }, ErrorKind::Unsupported, {"do not say which NaN"});
  expect_refusal([] { npu(Op::TABS, F32, kNegZero32); }, ErrorKind::Unsupported, {"vabs", "-0"});
  expect_refusal([] { npu(Op::TADD, BF16, 0x3F80, 0x3F80); }, ErrorKind::Unsupported,
                 {"element type bf16 is not accepted"});
}

TEST(PtoFloat, Refusals) {
  {  // pto_instr.hpp's TRECIP is TDIVS, which cpu/TBinSOps.hpp restricts to row-major tiles
    Tile src = make_tile(F32, 8, 8, Layout::ColMajor), dst = src;
    const Tile* one[] = {&src};
    expect_refusal([&] { execute(Profile::CpuSim, Op::TRECIP, dst, one); }, ErrorKind::Unsupported,
                   {"TRECIP (cpusim)", "row-major tiles only"});
  }
  expect_refusal([] { cpu(Op::TRECIP, F32, kNegZero32); }, ErrorKind::UndefinedBehaviour,
                 {"TRECIP (f32, cpusim) lane (0, 0)", "reciprocal of zero", "asserts"});
  expect_refusal([] { cpu(Op::TFMOD, F32, kOne32, 0); }, ErrorKind::UndefinedBehaviour,
                 {"TFMOD (f32, cpusim) lane (0, 0)", "remainder by zero", "asserts src1 != 0"});
  expect_refusal([] { cpu(Op::TREM, F16, kOne16, 0x8000); }, ErrorKind::UndefinedBehaviour, {"remainder by zero"});
  expect_refusal([] { cpu(Op::TRSQRT, BF16, 0x3F80); }, ErrorKind::Unsupported, {"element type bf16 is not accepted"});
  expect_refusal([] { npu(Op::TRSQRT, F32, kOne32); }, ErrorKind::Unsupported, {"not modelled yet for a2a3", "vrsqrt"});
  EXPECT_EQ(npu(Op::TSQRT, F16, 0x4000), 0x3DA8u);  // vsqrt: sqrt(2) in binary16, as the simulator's
  expect_refusal([] { npu(Op::TSQRT, F32, 0xBF800000); }, ErrorKind::Unsupported, {"do not say which NaN"});
}

}  // namespace
}  // namespace tmu::pto::test
