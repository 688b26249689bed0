// tmu::pto integer lanes against values derived by hand from the CPU simulator's C++
// (include/pto/cpu/ElementOp.h, TAbs.hpp, TDiv.hpp, TPow.hpp): each comment is the derivation.
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

TEST(PtoInteger, AddSubMulWrap) {
  EXPECT_EQ(cpu(Op::TADD, I8, 0x7F, 0x01), 0x80u);              // 127 + 1 = 128 -> int8_t -128
  EXPECT_EQ(cpu(Op::TADD, U16, 0xFFFF, 2), 0x0001u);             // 65537 mod 65536
  EXPECT_EQ(cpu(Op::TADD, I32, 0x7FFFFFFF, 1), 0x80000000u);     // two's-complement wrap
  EXPECT_EQ(cpu(Op::TADD, U64, ~0ull, 1), 0u);
  EXPECT_EQ(cpu(Op::TSUB, U8, 0, 1), 0xFFu);                     // 0 - 1 = -1 -> 255
  EXPECT_EQ(cpu(Op::TSUB, I64, 0x8000000000000000ull, 1), 0x7FFFFFFFFFFFFFFFull);
  EXPECT_EQ(cpu(Op::TMUL, I16, 0x0100, 0x0100), 0x0000u);        // 256 * 256 = 65536 -> 0
  EXPECT_EQ(cpu(Op::TMUL, I16, 0xFFFD, 5), 0xFFF1u);             // -3 * 5 = -15
  EXPECT_EQ(cpu(Op::TMUL, U16, 0xFFFF, 0xFFFF), 0x0001u);        // (2^16 - 1)^2 = 2^32 - 2^17 + 1 -> 1
  EXPECT_EQ(cpu(Op::TADDC, U8, 200, 100, 1), 0x2Du);             // 301 mod 256 = 45
  EXPECT_EQ(cpu(Op::TSUBC, I16, 1, 3, 5), 3u);                   // 1 - 3 + 5
  EXPECT_EQ(cpu(Op::TSUBC, I32, 0x80000000, 1, 0), 0x7FFFFFFFu);
}

TEST(PtoInteger, DivisionTruncates) {
  EXPECT_EQ(cpu(Op::TDIV, I32, 0xFFFFFFF9, 2), 0xFFFFFFFDu);     // -7 / 2 = -3 (toward zero)
  EXPECT_EQ(cpu(Op::TDIV, U32, 0xFFFFFFF9, 2), 0x7FFFFFFCu);     // 4294967289 / 2 = 2147483644
  EXPECT_EQ(cpu(Op::TDIV, I8, 0x80, 0xFF), 0x80u);               // promoted: -128 / -1 = 128 -> -128
  EXPECT_EQ(cpu(Op::TDIV, I16, 0x8000, 0xFFFF), 0x8000u);        // the same at 16 bits
  EXPECT_EQ(cpu(Op::TRECIP, I32, 1), 1u);                        // TDIVS(dst, 1, src): 1 / src in int
  EXPECT_EQ(cpu(Op::TRECIP, I32, 0xFFFFFFFF), 0xFFFFFFFFu);      // 1 / -1
  EXPECT_EQ(cpu(Op::TRECIP, I32, 2), 0u);                        // 1 / 2 = 0
}

TEST(PtoInteger, RemainderFollowsTheDivisorFmodTheDividend) {
  // OP_REM: r = src0 % src1, then + src1 when the signs differ and r != 0.
  EXPECT_EQ(cpu(Op::TREM, I32, 0xFFFFFFF9, 2), 1u);              // -7 % 2 = -1; signs differ: -1 + 2 = 1
  EXPECT_EQ(cpu(Op::TREM, I32, 7, 0xFFFFFFFE), 0xFFFFFFFFu);     // 7 % -2 = 1; 1 + -2 = -1
  EXPECT_EQ(cpu(Op::TREM, I32, 0xFFFFFFFA, 3), 0u);              // -6 % 3 = 0: not corrected
  EXPECT_EQ(cpu(Op::TREM, I32, 0xFFFFFFF9, 0xFFFFFFFE), 0xFFFFFFFFu);  // -7 % -2 = -1, same signs
  EXPECT_EQ(cpu(Op::TREM, U8, 200, 7), 4u);                      // 200 - 28 * 7
  EXPECT_EQ(cpu(Op::TREM, I8, 0x80, 0xFF), 0u);                  // promoted: -128 % -1 = 0
  // OP_FMOD: C++'s %, the sign of the dividend.
  EXPECT_EQ(cpu(Op::TFMOD, I32, 0xFFFFFFF9, 2), 0xFFFFFFFFu);    // -7 % 2 = -1
  EXPECT_EQ(cpu(Op::TFMOD, I32, 7, 0xFFFFFFFE), 1u);             // 7 % -2 = 1
  EXPECT_EQ(cpu(Op::TFMOD, I64, 0xFFFFFFFFFFFFFFF9ull, 0xFFFFFFFFFFFFFFFEull), ~0ull);  // -7 % -2 = -1
}

TEST(PtoInteger, MinMaxAbsNegRelu) {
  EXPECT_EQ(cpu(Op::TMIN, I16, 0xFFFF, 1), 0xFFFFu);  // min(-1, 1) = -1
  EXPECT_EQ(cpu(Op::TMIN, U16, 0xFFFF, 1), 1u);       // min(65535, 1)
  EXPECT_EQ(cpu(Op::TMAX, I8, 0x80, 0x7F), 0x7Fu);    // max(-128, 127)
  EXPECT_EQ(cpu(Op::TMAX, U32, 0x80000000, 1), 0x80000000u);
  EXPECT_EQ(cpu(Op::TABS, I8, 0xFB), 5u);             // |-5|
  EXPECT_EQ(cpu(Op::TABS, I8, 0x80), 0x80u);          // -(-128) = 128 -> int8_t -128
  EXPECT_EQ(cpu(Op::TABS, I32, 0x80000000), 0x80000000u);
  EXPECT_EQ(cpu(Op::TNEG, I32, 0x80000000), 0x80000000u);
  EXPECT_EQ(cpu(Op::TNEG, U8, 1), 0xFFu);             // -1 -> 255
  EXPECT_EQ(cpu(Op::TNEG, I16, 5), 0xFFFBu);
  EXPECT_EQ(cpu(Op::TRELU, I16, 0xFFFB), 0u);         // max(-5, 0)
  EXPECT_EQ(cpu(Op::TRELU, I16, 5), 5u);
  EXPECT_EQ(cpu(Op::TRELU, U8, 0xFB), 0xFBu);         // unsigned: never below 0
}

TEST(PtoInteger, Prelu) {
  // src0 > 0 ? src0 : src0 * src1.
  EXPECT_EQ(cpu(Op::TPRELU, I32, 0xFFFFFFFD, 4), 0xFFFFFFF4u);  // -3 * 4 = -12
  EXPECT_EQ(cpu(Op::TPRELU, I32, 3, 4), 3u);
  EXPECT_EQ(cpu(Op::TPRELU, I32, 0, 4), 0u);                    // 0 > 0 is false: 0 * 4
}

TEST(PtoInteger, Power) {
  // TPow.hpp integer_pow: square and multiply in the element type.
  EXPECT_EQ(cpu(Op::TPOW, I32, 3, 4), 81u);
  EXPECT_EQ(cpu(Op::TPOW, I32, 2, 31), 0x80000000u);  // 2^31 wraps to INT_MIN
  EXPECT_EQ(cpu(Op::TPOW, I32, 2, 32), 0u);           // 2^32 mod 2^32
  EXPECT_EQ(cpu(Op::TPOW, U8, 3, 5), 243u);
  EXPECT_EQ(cpu(Op::TPOW, U8, 3, 6), 217u);           // 729 - 512
  EXPECT_EQ(cpu(Op::TPOW, I32, 0, 0), 1u);            // exponent 0 first: 0^0 = 1
  EXPECT_EQ(cpu(Op::TPOW, I32, 1, 0xFFFFFFFF), 1u);   // base 1 before the sign of the exponent
  EXPECT_EQ(cpu(Op::TPOW, I32, 2, 0xFFFFFFFF), 0u);   // negative exponent, base not -1: 0
  EXPECT_EQ(cpu(Op::TPOW, I32, 0xFFFFFFFF, 0xFFFFFFFD), 0xFFFFFFFFu);  // (-1)^-3 = -1
  EXPECT_EQ(cpu(Op::TPOW, I32, 0xFFFFFFFF, 0xFFFFFFFE), 1u);           // (-1)^-2 = 1
  // u64: exponent = static_cast<int64_t>(2^64 - 1) = -1, and `base == -1` holds for all ones.
  EXPECT_EQ(cpu(Op::TPOW, U64, ~0ull, ~0ull), ~0ull);
  EXPECT_EQ(cpu(Op::TPOW, U64, 2, ~0ull), 0u);
  EXPECT_EQ(cpu(Op::TPOW, I16, 0xFFFE, 3), 0xFFF8u);  // (-2)^3 = -8
}

// 3 has order 2^30 modulo 2^32, so 3^(2^32 - 1) = 3^(2^30 - 1) = 3^-1 = 0xAAAAAAAB (3 * 0xAAAAAAAB =
// 2^33 + 1). A2/A3's TPowICore reads the same u32 exponent as the int -1: 0.
TEST(PtoInteger, PowerA2A3ReadsOperandsAsInt) {
  EXPECT_EQ(cpu(Op::TPOW, U32, 3, 0xFFFFFFFF), 0xAAAAAAABu);
  EXPECT_EQ(npu(Op::TPOW, U32, 3, 0xFFFFFFFF), 0u);
  EXPECT_EQ(npu(Op::TPOW, I32, 3, 4), 81u);
  EXPECT_EQ(npu(Op::TPOW, I16, 0xFFFF, 5), 0xFFFFu);   // (-1)^5
  EXPECT_EQ(npu(Op::TPOW, U8, 3, 6), 217u);            // 729 mod 256
  EXPECT_EQ(npu(Op::TPOW, I8, 0, 0xFF), 0u);           // 0^-1: base 0 is tested before the sign
  EXPECT_EQ(npu(Op::TPOW, I32, 0, 0), 1u);
  expect_refusal([] { npu(Op::TPOW, F16, 0x3C00, 0x3C00); }, ErrorKind::Unsupported,
                 {"TPOW (a2a3)", "element type f16 is not accepted"});
  expect_refusal([] { npu(Op::TPOW, F32, 0x3F800000, 0x3F800000); }, ErrorKind::Unsupported,
                 {"not modelled yet for a2a3", "vln, vmul and vexp"});
}

TEST(PtoInteger, RefusedDivisions) {
  expect_refusal([] { cpu(Op::TDIV, I32, 5, 0); }, ErrorKind::UndefinedBehaviour,
                 {"TDIV (i32, cpusim) lane (0, 0)", "integer division by zero (src1 is 0)"});
  expect_refusal([] { cpu(Op::TDIV, I32, 0x80000000, 0xFFFFFFFF); }, ErrorKind::UndefinedBehaviour,
                 {"TDIV (i32, cpusim) lane (0, 0)", "most negative integer divided by -1 overflows"});
  expect_refusal([] { cpu(Op::TREM, I64, 0x8000000000000000ull, ~0ull); }, ErrorKind::UndefinedBehaviour,
                 {"TREM (i64, cpusim)", "most negative integer divided by -1"});
  expect_refusal([] { cpu(Op::TREM, U8, 3, 0); }, ErrorKind::UndefinedBehaviour, {"TREM", "division by zero"});
  expect_refusal([] { cpu(Op::TFMOD, I16, 3, 0); }, ErrorKind::UndefinedBehaviour, {"TFMOD", "division by zero"});
  expect_refusal([] { cpu(Op::TRECIP, I8, 0); }, ErrorKind::UndefinedBehaviour,
                 {"TRECIP (i8, cpusim)", "integer division by zero (src is 0)"});
}

// The refusal names the first lane, in row-major order, that breaks the rule.
TEST(PtoInteger, RefusalNamesTheLane) {
  Tile a = make_tile(ElemType::I32, 4, 8), b = a, dst = a;
  for (auto& v : a.bits) v = 1;
  for (auto& v : b.bits) v = 1;
  set(b, 2, 5, 0);
  set(b, 3, 0, 0);
  const Tile before = dst;
  const Tile* srcs[] = {&a, &b};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TDIV, dst, srcs); }, ErrorKind::UndefinedBehaviour,
                 {"lane (2, 5)"});
  EXPECT_EQ(dst, before);  // nothing written
}

TEST(PtoInteger, A2A3TypeLists) {
  EXPECT_EQ(npu(Op::TADD, I16, 0x7FFF, 1), 0x8000u);
  EXPECT_EQ(npu(Op::TNEG, I32, 7), 0xFFFFFFF9u);  // TMULS(src, -1)
  EXPECT_EQ(npu(Op::TRELU, I32, 0xFFFFFFFF), 0u);
  // TAdd.hpp accepts int32, int16, half, float: not the 8-bit types the simulator runs.
  expect_refusal([] { npu(Op::TADD, I8, 1, 1); }, ErrorKind::Unsupported,
                 {"TADD (a2a3)", "element type i8 is not accepted", "accepts f32, f16, i16, i32"});
  expect_refusal([] { npu(Op::TDIV, I32, 1, 1); }, ErrorKind::Unsupported, {"accepts f32, f16"});
  expect_refusal([] { npu(Op::TADDC, I32, 1, 1, 1); }, ErrorKind::Unsupported,
                 {"TADDC (a2a3)", "no implementation"});
  // TRem.hpp's int32 path goes through f32; within its +-2^24 it gives the simulator's results.
  EXPECT_EQ(npu(Op::TREM, I32, 0xFFFFFFF9, 2), 1u);            // -7: floor(-3.5) = -4, -7 + 8
  EXPECT_EQ(npu(Op::TREM, I32, 7, 0xFFFFFFFE), 0xFFFFFFFFu);   // 7 - (-4) * (-2) = -1
  EXPECT_EQ(npu(Op::TREM, I32, 16777214, 3), 2u);              // 5592404.67 rounds to 5592404.5
  expect_refusal([] { npu(Op::TREM, I32, (1u << 24) + 1, 3); }, ErrorKind::UndefinedBehaviour,
                 {"TREM (i32, a2a3) lane (0, 0)", "MUST lie in [-2^24, 2^24]"});
  expect_refusal([] { npu(Op::TREM, I32, 5, 0); }, ErrorKind::UndefinedBehaviour, {"division by zero"});
  expect_refusal([] { npu(Op::TREM, I16, 5, 1); }, ErrorKind::Unsupported, {"accepts f32, i32"});
  EXPECT_EQ(npu(Op::TRECIP, I32, 0xFFFFFFFF), 0xFFFFFFFFu);    // TSDiv_naive: 1 / -1
  expect_refusal([] { npu(Op::TRECIP, I16, 0); }, ErrorKind::UndefinedBehaviour, {"division by zero"});
  expect_refusal([] { cpu(Op::TABS, U8, 1); }, ErrorKind::Unsupported,
                 {"TABS (cpusim)", "element type u8 is not accepted", "accepts f32, f16, bf16, i8, i16, i32"});
}

}  // namespace
}  // namespace tmu::pto::test
