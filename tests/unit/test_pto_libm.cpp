// tmu::pto TEXP, TLOG and TPOW, which the CPU simulator computes through host libm: values worked by
// hand (C's Annex F special cases, exact powers, roundings derived in the comments), the refusals,
// integer lanes, and random f32 and bf16 tiles against MPFR (test_pto_mpfr_lanes.h).
#include <string>

#include "test_ieee_support.h"
#include "test_pto_mpfr_lanes.h"
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

constexpr uint64_t kZero32 = 0, kNegZero32 = 0x80000000, kOne32 = 0x3F800000, kTwo32 = 0x40000000;
constexpr uint64_t kInf32 = 0x7F800000, kNegInf32 = 0xFF800000, kDefaultNaN32 = 0xFFC00000;
constexpr uint64_t kMinusOne32 = 0xBF800000, kHalf32 = 0x3F000000, kQNaN32 = 0x7FC00001, kSNaN32 = 0x7FA00000;
constexpr uint64_t kThree32 = 0x40400000, kMinusThree32 = 0xC0400000, kMinusTwo32 = 0xC0000000;

TEST(PtoLibm, ExpHandValues) {
  EXPECT_EQ(cpu(Op::TEXP, F32, kZero32), kOne32);
  EXPECT_EQ(cpu(Op::TEXP, F32, kNegZero32), kOne32);
  EXPECT_EQ(cpu(Op::TEXP, F32, kNegInf32), kZero32);  // exp(-inf) = +0
  EXPECT_EQ(cpu(Op::TEXP, F32, kInf32), kInf32);
  // e = 2.71828182845...: f32 spacing in [2, 4) is 2^-22; e x 2^22 = 11401300.35 -> 11401300 =
  // 0xADF854, so fraction 0x2DF854 with exponent 1.
  EXPECT_EQ(cpu(Op::TEXP, F32, kOne32), 0x402DF854u);
  EXPECT_EQ(cpu(Op::TEXP, F32, 0x42B20000), kInf32);  // exp(89) = 4.49e38 > FLT_MAX = 3.40e38
  // exp(-100) = 3.72e-44 = 26.56 x 2^-149: the subnormal 27 x 2^-149.
  EXPECT_EQ(cpu(Op::TEXP, F32, 0xC2C80000), 0x1Bu);
  EXPECT_EQ(cpu(Op::TEXP, F32, 0xC2DC0000), kZero32);  // exp(-110) = 1.7e-48, below half of 2^-149
  EXPECT_EQ(cpu(Op::TEXP, F32, kSNaN32), 0x7FE00000u);  // a NaN operand comes back quieted
  // f16: e to 11 bits is 1392 x 2^-9 = 2.71875 (e x 2^9 = 1391.76), fraction 1392 - 1024 = 0x170.
  EXPECT_EQ(cpu(Op::TEXP, F16, 0x3C00), 0x4170u);
  // exp(11) = 59874.14; binary16 spacing is 32 there: 1871 x 32 = 59872 = 0x7B4F.
  EXPECT_EQ(cpu(Op::TEXP, F16, 0x4980), 0x7B4Fu);
  EXPECT_EQ(cpu(Op::TEXP, F16, 0x4A00), 0x7C00u);  // exp(12) = 162754.8 > 65504
  // exp(-17) = 4.14e-8: above half of the smallest subnormal 2^-24 = 5.96e-8, so 2^-24.
  EXPECT_EQ(cpu(Op::TEXP, F16, 0xCC40), 0x0001u);
  // Half TEXP is (half)expf((float)x): two roundings. x = 0x1F79 = 0.0072975158...: exp(x) =
  // 1.00732421875 - 1.4e-9, just under the binary16 midpoint 1.00732421875 between 0x3C07 and 0x3C08;
  // binary32 (spacing 2^-23 = 1.2e-7) rounds it onto the midpoint, and the tie goes to the even 0x3C08.
  // Rounded once, it would be 0x3C07.
  EXPECT_EQ(cpu(Op::TEXP, F16, 0x1F79), 0x3C08u);
  // bf16: e to 8 bits is 174 x 2^-6 = 2.71875 (e x 2^6 = 173.97), fraction 174 - 128 = 0x2E.
  EXPECT_EQ(cpu(Op::TEXP, BF16, 0x3F80), 0x402Eu);
  EXPECT_EQ(cpu(Op::TEXP, BF16, 0xFF80), 0u);
}

TEST(PtoLibm, LogHandValues) {
  EXPECT_EQ(cpu(Op::TLOG, F32, kOne32), kZero32);  // log(1) = +0
  EXPECT_EQ(cpu(Op::TLOG, F32, kZero32), kNegInf32);
  EXPECT_EQ(cpu(Op::TLOG, F32, kNegZero32), kNegInf32);
  EXPECT_EQ(cpu(Op::TLOG, F32, kInf32), kInf32);
  EXPECT_EQ(cpu(Op::TLOG, F32, kMinusOne32), kDefaultNaN32);  // invalid: x86's default NaN
  EXPECT_EQ(cpu(Op::TLOG, F32, kNegInf32), kDefaultNaN32);
  EXPECT_EQ(cpu(Op::TLOG, F32, 0x80000001), kDefaultNaN32);  // the smallest negative subnormal
  EXPECT_EQ(cpu(Op::TLOG, F32, 0xFFC00001), 0xFFC00001u);    // a quiet NaN operand, payload and sign kept
  // log 2 = 0.693147180...: f32 spacing in [0.5, 1) is 2^-24; x 2^24 = 11629079.7 -> 11629080 = 0xB17218.
  EXPECT_EQ(cpu(Op::TLOG, F32, kTwo32), 0x3F317218u);
  // log 10 = 2.302585093: spacing 2^-22 in [2, 4); x 2^22 = 9657741.87 -> 9657742 = 0x935D8E, so
  // fraction 0x135D8E with exponent 1.
  EXPECT_EQ(cpu(Op::TLOG, F32, 0x41200000), 0x40135D8Eu);
  // f16: log 2 x 2^11 = 1419.57 -> 1420 = 1024 + 0x18C, exponent -1.
  EXPECT_EQ(cpu(Op::TLOG, F16, 0x4000), 0x398Cu);
  EXPECT_EQ(cpu(Op::TLOG, F16, 0xBC00), 0xFE00u);  // the default NaN narrowed to binary16
  // bf16: log 2 x 2^8 = 177.44 -> 177 = 128 + 0x31, exponent -1.
  EXPECT_EQ(cpu(Op::TLOG, BF16, 0x4000), 0x3F31u);
  EXPECT_EQ(cpu(Op::TLOG, BF16, 0x8000), 0xFF80u);
}

TEST(PtoLibm, PowAnnexFCases) {
  auto pow32 = [](uint64_t x, uint64_t y) { return cpu(Op::TPOW, F32, x, y); };
  EXPECT_EQ(pow32(kTwo32, 0x41200000), 0x44800000u);          // 2^10 = 1024
  EXPECT_EQ(pow32(kMinusTwo32, kThree32), 0xC1000000u);       // (-2)^3 = -8
  EXPECT_EQ(pow32(kMinusTwo32, kTwo32), 0x40800000u);         // (-2)^2 = 4
  EXPECT_EQ(pow32(kTwo32, kMinusOne32), kHalf32);             // 2^-1
  EXPECT_EQ(pow32(kTwo32, kHalf32), 0x3FB504F3u);             // sqrt 2 = 1.41421354 in f32
  EXPECT_EQ(pow32(0xC1000000, 0x3EAAAAAB), kDefaultNaN32);    // (-8)^(1/3): negative base, non-integer exponent
  // pow(x, ±0) = 1 and pow(+1, y) = 1, even for NaNs (the widening casts quiet a signalling NaN
  // before libm sees it, so glibc's exception for signalling NaNs never applies).
  EXPECT_EQ(pow32(kQNaN32, kZero32), kOne32);
  EXPECT_EQ(pow32(kSNaN32, kNegZero32), kOne32);
  EXPECT_EQ(pow32(kOne32, kQNaN32), kOne32);
  EXPECT_EQ(pow32(kOne32, kSNaN32), kOne32);
  EXPECT_EQ(pow32(kMinusOne32, kInf32), kOne32);     // pow(-1, ±inf) = 1
  EXPECT_EQ(pow32(kMinusOne32, kNegInf32), kOne32);
  EXPECT_EQ(pow32(kMinusOne32, kQNaN32), 0x7FC00001u);  // a NaN exponent, any other base: that NaN
  EXPECT_EQ(pow32(kTwo32, kSNaN32), 0x7FE00000u);
  EXPECT_EQ(pow32(kQNaN32, kTwo32), 0x7FC00001u);
  // glibc's pow returns x * x for a NaN base, negated when the base's sign is set and the exponent
  // is an odd integer: the sign is cleared then.
  EXPECT_EQ(pow32(0xFFC00001, kThree32), 0x7FC00001u);
  EXPECT_EQ(pow32(0xFFC00001, kTwo32), 0xFFC00001u);
  EXPECT_EQ(pow32(0xFFC00001, kHalf32), 0xFFC00001u);
  EXPECT_EQ(pow32(0xFFC00001, kInf32), 0xFFC00001u);
  // |x| < 1 and |x| > 1 against infinite exponents.
  EXPECT_EQ(pow32(kHalf32, kInf32), kZero32);
  EXPECT_EQ(pow32(kHalf32, kNegInf32), kInf32);
  EXPECT_EQ(pow32(0xBF000000, kNegInf32), kInf32);  // (-0.5)^-inf
  EXPECT_EQ(pow32(kTwo32, kInf32), kInf32);
  EXPECT_EQ(pow32(kMinusTwo32, kNegInf32), kZero32);
  EXPECT_EQ(pow32(kZero32, kInf32), kZero32);
  EXPECT_EQ(pow32(kNegZero32, kNegInf32), kInf32);
  // Zeros: the sign survives only an odd integer exponent.
  EXPECT_EQ(pow32(kNegZero32, kMinusThree32), kNegInf32);
  EXPECT_EQ(pow32(kNegZero32, kMinusTwo32), kInf32);
  EXPECT_EQ(pow32(kZero32, kMinusThree32), kInf32);
  EXPECT_EQ(pow32(kNegZero32, kThree32), kNegZero32);
  EXPECT_EQ(pow32(kNegZero32, kTwo32), kZero32);
  EXPECT_EQ(pow32(kNegZero32, kHalf32), kZero32);
  EXPECT_EQ(pow32(kNegZero32, 0xBF000000), kInf32);  // (-0)^-0.5
  // Infinities.
  EXPECT_EQ(pow32(kNegInf32, kThree32), kNegInf32);
  EXPECT_EQ(pow32(kNegInf32, kMinusThree32), kNegZero32);
  EXPECT_EQ(pow32(kNegInf32, kTwo32), kInf32);
  EXPECT_EQ(pow32(kNegInf32, kMinusTwo32), kZero32);
  EXPECT_EQ(pow32(kNegInf32, kHalf32), kInf32);
  EXPECT_EQ(pow32(kInf32, kMinusOne32), kZero32);
  EXPECT_EQ(pow32(kInf32, kHalf32), kInf32);
  // Overflow and underflow: 2^128 is past FLT_MAX; 2^-149 is the smallest subnormal; 2^-150, exact
  // in double, is half of it and ties to the even 0; the sign of (-2)^-149 stays.
  EXPECT_EQ(pow32(kTwo32, 0x43000000), kInf32);
  EXPECT_EQ(pow32(kTwo32, 0xC3150000), 0x1u);
  EXPECT_EQ(pow32(kTwo32, 0xC3160000), kZero32);
  EXPECT_EQ(pow32(kMinusTwo32, 0xC3150000), 0x80000001u);
  EXPECT_EQ(pow32(kMinusTwo32, 0x43000000), kInf32);       // (-2)^128 = 2^128: overflow, 128 is even
  EXPECT_EQ(pow32(kMinusTwo32, 0x42FE0000), 0xFF000000u);  // (-2)^127 = -2^127, a normal f32
  EXPECT_EQ(pow32(kMinusTwo32, 0x43010000), kNegInf32);    // (-2)^129: overflow, odd
}

TEST(PtoLibm, PowRoundings) {
  EXPECT_EQ(cpu(Op::TPOW, F16, 0x4000, 0x4900), 0x6400u);  // 2^10 = 1024
  EXPECT_EQ(cpu(Op::TPOW, F16, 0x4000, 0x4C00), 0x7C00u);  // 2^16 = 65536 > 65504
  EXPECT_EQ(cpu(Op::TPOW, F16, 0x4000, 0xCE00), 0x0001u);  // 2^-24
  EXPECT_EQ(cpu(Op::TPOW, F16, 0x4000, 0xCE40), 0x0000u);  // 2^-25: the tie goes to the even 0
  EXPECT_EQ(cpu(Op::TPOW, F16, 0xC800, 0x3555), 0xFE00u);  // (-8)^0.33325
  // Half TPOW is (half)(float)pow(...): 0.2403564453125 ^ 0.333251953125 = 0.62182617... lies within
  // 2^-24 of the binary16 midpoint 0.62182617187500 between 0x38F9 and 0x38FA, below it: binary32
  // rounds onto the midpoint, which ties to the even 0x38FA; rounded once it would be 0x38F9.
  EXPECT_EQ(cpu(Op::TPOW, F16, 0x33B1, 0x3555), 0x38FAu);
  EXPECT_EQ(cpu(Op::TPOW, BF16, 0x4000, 0x4120), 0x4480u);  // 2^10
}

TEST(PtoLibm, IntegerLanes) {
  // (T)std::exp((double)x) and (T)std::log((double)x), truncated toward zero.
  EXPECT_EQ(cpu(Op::TEXP, I32, 2), 7u);                        // e^2 = 7.389
  EXPECT_EQ(cpu(Op::TEXP, I32, 0xFFFFFFFB), 0u);               // e^-5 = 0.0067
  EXPECT_EQ(cpu(Op::TEXP, I32, 0), 1u);
  EXPECT_EQ(cpu(Op::TEXP, I32, 21), 1318815734u);              // e^21 = 1318815734.48
  EXPECT_EQ(cpu(Op::TEXP, U8, 5), 148u);                       // e^5 = 148.41
  EXPECT_EQ(cpu(Op::TLOG, I32, 1), 0u);
  EXPECT_EQ(cpu(Op::TLOG, I32, 100), 4u);                      // log 100 = 4.605
  EXPECT_EQ(cpu(Op::TLOG, U64, ~uint64_t{0}), 44u);            // log(2^64) = 44.36
  expect_refusal([] { cpu(Op::TEXP, I32, 22); }, ErrorKind::UndefinedBehaviour,
                 {"TEXP (i32, cpusim) lane (0, 0)", "the truncated value 3584912846 does not fit i32", "undefined"});
  expect_refusal([] { cpu(Op::TEXP, U8, 6); }, ErrorKind::UndefinedBehaviour, {"403 does not fit u8"});
  expect_refusal([] { cpu(Op::TEXP, I64, 1000); }, ErrorKind::UndefinedBehaviour, {"an infinity does not fit i64"});
  expect_refusal([] { cpu(Op::TEXP, I64, 100); }, ErrorKind::UndefinedBehaviour, {"above 2^64 does not fit i64"});
  expect_refusal([] { cpu(Op::TLOG, I32, 0); }, ErrorKind::UndefinedBehaviour, {"an infinity does not fit i32"});
  expect_refusal([] { cpu(Op::TLOG, I16, 0xFFFF); }, ErrorKind::UndefinedBehaviour, {"a NaN does not fit i16"});
}

TEST(PtoLibm, A2A3Refusals) {
  expect_refusal([] { npu(Op::TEXP, F32, kZero32); }, ErrorKind::Unsupported,
                 {"TEXP (a2a3)", "not modelled yet for a2a3", "vexp", "precision"});
  expect_refusal([] { npu(Op::TLOG, F16, 0x3C00); }, ErrorKind::Unsupported, {"TLOG (a2a3)", "vln"});
  expect_refusal([] { npu(Op::TPOW, F32, kTwo32, kTwo32); }, ErrorKind::Unsupported,
                 {"TPOW (a2a3)", "vln, vmul and vexp"});
  expect_refusal([] { npu(Op::TEXP, BF16, 0x3F80); }, ErrorKind::Unsupported, {"element type bf16 is not accepted"});
  expect_refusal([] { npu(Op::TLOG, I32, 1); }, ErrorKind::Unsupported, {"element type i32 is not accepted"});
  EXPECT_EQ(npu(Op::TPOW, I32, 3, 4), 81u);  // integer powers stay modelled
  expect_refusal([] { cpu(Op::TPOW, F32, kQNaN32, 0x7FC00002); }, ErrorKind::Unsupported, {"two NaN operands"});
}

// Random f32 and bf16 tiles (random layout and valid region) of TEXP, TLOG and TPOW against MPFR:
// each lane the simulator's expression, the libm value correctly rounded to binary64 and cast to
// the type. NaN results: a NaN operand quieted (with glibc's sign rule for pow), else the default
// NaN. Two NaN operands are not generated.
TEST(PtoLibm, RandomLanesAgainstMpfr) {
  MpfrLanes mp;
  const Enc e64(ieee::kBinary64);
  uint64_t lanes = 0, mismatches = 0;
  for (ElemType t : {F32, BF16}) {
    const Enc e(float_format(t));
    const uint64_t one = static_cast<uint64_t>(e.bias()) << e.f, default_nan = e.default_nan() | e.sign_bit();
    for (Op op : {Op::TEXP, Op::TLOG, Op::TPOW}) {
      ieee::test::Gen gen(derive_seed(derive_seed(0x11B3, std::string(elem_name(t))), std::string(op_name(op))));
      for (int n = 0; n < 60; ++n) {
        const Layout l = gen.coin() ? Layout::RowMajor : Layout::ColMajor;
        const unsigned vr = 1 + gen.rng().below(8), vc = 1 + gen.rng().below(16);
        Tile a = make_tile(t, 16, 16, l, vr, vc), b = a, dst = a;
        for (auto& v : a.bits) v = gen.operand(e);
        for (auto& v : b.bits) v = gen.rng().chance(1, 4) ? gen.normal(e, -3, 5) : gen.operand(e);
        for (auto& v : dst.bits) v = gen.raw(e);
        for (unsigned i = 0; i < a.bits.size(); ++i)
          if (e.nan(a.bits[i]) && e.nan(b.bits[i])) b.bits[i] = one;
        const Tile before = dst;
        const Tile* two[] = {&a, &b};
        execute(Profile::CpuSim, op, dst, std::span<const Tile* const>(two, op == Op::TPOW ? 2 : 1));
        for (unsigned r = 0; r < 16; ++r)
          for (unsigned c = 0; c < 16; ++c) {
            if (!dst.in_valid_region(r, c)) {
              mismatches += dst.at(r, c) != before.at(r, c);
              continue;
            }
            const uint64_t x = a.at(r, c), y = b.at(r, c);
            std::optional<uint64_t> d;
            uint64_t want = 0;
            if (op == Op::TPOW) {
              if (e.zero(y) || x == one) {  // pow(x, ±0) = pow(1, y) = 1, NaNs included
                want = one;
              } else if (e.nan(x) || e.nan(y)) {
                // The NaN operand quieted; a negative NaN x with an odd integer y goes through glibc's
                // -(x * x), which clears its sign.
                const bool flip = e.nan(x) && e.sign(x) && !e.nan(y) && mp.odd_integer(e, y);
                want = ((e.nan(x) ? x : y) | e.top_frac_bit()) ^ (flip ? e.sign_bit() : 0);
              } else {
                d = mp.binary(e, x, y, e64, mpfr_pow);
                want = d ? mp.cast(e64, *d, e) : default_nan;
              }
            } else if (e.nan(x)) {
              want = x | e.top_frac_bit();
            } else {
              d = mp.unary(e, x, e64, op == Op::TEXP ? mpfr_exp : mpfr_log);
              want = d ? mp.cast(e64, *d, e) : default_nan;
            }
            ++lanes;
            if (dst.at(r, c) != want && ++mismatches <= 10)
              ADD_FAILURE() << fmt::format("{} {} ({}, {}) x={:#x} y={:#x}: got {:#x}, want {:#x}", op_name(op),
                                           elem_name(t), r, c, x, y, dst.at(r, c), want);
          }
      }
    }
  }
  EXPECT_GT(lanes, 10'000u);
  EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace tmu::pto::test
