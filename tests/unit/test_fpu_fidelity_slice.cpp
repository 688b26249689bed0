// Stage 1 (fidelity_slice): the mantissa slices each phase feeds the 5x7 multiplier, the multiplier
// itself, and the exponent the product gets. Expectations come from the ISA's own definitions:
// SrcAFidelityBits / SrcBFidelityBits in ELWMUL.md, which cut FP32 bit patterns with the masks
// 0xfff80000 / 0xfff83fff (SrcA) and 0xfffe0000 / 0xfffe1fff (SrcB).
#include <gtest/gtest.h>

#include <cmath>

#include "test_fpu_support.h"
#include "tmu/tensix/fpu/datapath.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using namespace tmu_test;

// ELWMUL.md SrcAFidelityBits / SrcBFidelityBits, evaluated on the FP32 pattern of a Src value. x is
// exactly representable as float (at most 11 significant bits), so the float arithmetic is exact.
float isa_srca_fidelity_bits(float x, uint32_t phase) {
  if ((phase & 1) == 0) return fp32_float(fp32_bits(x) & 0xfff80000u);
  return x - fp32_float(fp32_bits(x) & 0xfff83fffu);
}
float isa_srcb_fidelity_bits(float x, uint32_t phase) {
  if ((phase & 2) == 0) return fp32_float(fp32_bits(x) & 0xfffe0000u);
  return x - fp32_float(fp32_bits(x) & 0xfffe1fffu);
}

TEST(FpuFidelitySlice, MultiplierIsExactOnEvery5x7Pair) {
  for (uint32_t a = 0; a < 32; ++a) {
    for (uint32_t b = 0; b < 128; ++b) {
      ASSERT_EQ(slice_multiply(a, b), a * b) << a << " x " << b;
    }
  }
}

// The slice values, read back with the weights the phase's exponent adjustment gives them, are the
// ISA's fidelity bits of a value in [1, 2).
TEST(FpuFidelitySlice, SlicesAreTheIsaFidelityBitsForEverySignificand) {
  for (uint32_t mantissa = 0; mantissa < 1024; ++mantissa) {
    const uint32_t significand = 0x400 | mantissa;
    const float x = std::ldexp(static_cast<float>(significand), -10);
    for (uint32_t phase = 0; phase < 4; ++phase) {
      const int srca_weight = (phase & 1) ? -4 - 5 : -4;  // 1.xxxx, or the next five bits 2^-5 lower
      const int srcb_weight = (phase & 2) ? -6 - 7 : -6;  // 1.xxxxxx, or the low four bits placed at the top
      EXPECT_EQ(std::ldexp(static_cast<float>(srca_fidelity_slice(significand, phase)), srca_weight),
                isa_srca_fidelity_bits(x, phase))
          << "mantissa " << mantissa << " phase " << phase;
      EXPECT_EQ(std::ldexp(static_cast<float>(srcb_fidelity_slice(significand, phase)), srcb_weight),
                isa_srcb_fidelity_bits(x, phase))
          << "mantissa " << mantissa << " phase " << phase;
      EXPECT_LT(srca_fidelity_slice(significand, phase), 32u);
      EXPECT_LT(srcb_fidelity_slice(significand, phase), 128u);
    }
  }
}

TEST(FpuFidelitySlice, ExponentAdjustTable) {
  // bias removal (and FP16 -> FP32 rebias), then -5 for SrcA's low slice and -7 for SrcB's.
  const int32_t bf16[4] = {-127, -132, -134, -139};
  const int32_t fp16_dst16[4] = {-15, -20, -22, -27};
  const int32_t fp16_dst32[4] = {97, 92, 90, 85};
  for (uint32_t phase = 0; phase < 4; ++phase) {
    EXPECT_EQ(product_exponent_adjust(true, false, phase), bf16[phase]);
    EXPECT_EQ(product_exponent_adjust(true, true, phase), bf16[phase]);
    EXPECT_EQ(product_exponent_adjust(false, false, phase), fp16_dst16[phase]);
    EXPECT_EQ(product_exponent_adjust(false, true, phase), fp16_dst32[phase]);
    EXPECT_EQ(zero_product_exponent(bf16[phase]), 0);
    EXPECT_EQ(zero_product_exponent(fp16_dst32[phase]), fp16_dst32[phase]);
  }
}

struct StyleCase {
  SrcStyle a, b;
  bool dst32;
  uint32_t mantissa_step;  // 8 walks the BF16 mantissas, 1 every 10-bit mantissa
};

// Value of a product as the accumulator sees it: mantissa / 2^10 * 2^(exponent - bias).
long double product_value(const SliceProduct& p, int bias) {
  const long double v = std::ldexp(static_cast<long double>(p.mantissa), p.exponent - bias - 10);
  return p.sign ? -v : v;
}

// Every mantissa pair of the style, in every phase, against the ISA's fidelity-bits product.
void check_all_mantissa_pairs(const StyleCase& c) {
  const bool fp16 = c.a == SrcStyle::FP16;
  const int bias = (fp16 && !c.dst32) ? 15 : 127;
  const uint32_t ea = fp16 ? 17 : 130, eb = fp16 ? 12 : 120;
  for (uint32_t phase = 0; phase < 4; ++phase) {
    FpuMode mode{c.a, c.b, c.dst32, phase, Arch::Blackhole};
    for (uint32_t ma = 0; ma < 1024; ma += c.mantissa_step) {
      for (uint32_t mb = 0; mb < 1024; mb += c.mantissa_step) {
        const uint32_t sa = ma & 1, sb = (mb >> 3) & 1;  // vary the signs too
        const uint32_t a = src_datum(sa, ea, ma), b = src_datum(sb, eb, mb);
        const SliceProduct p = fidelity_slice_product(a, b, mode);
        // ISA: the fidelity bits of each operand's significand, scaled by its exponent.
        const float fa = isa_srca_fidelity_bits(std::ldexp(static_cast<float>(0x400 | ma), -10), phase);
        const float fb = isa_srcb_fidelity_bits(std::ldexp(static_cast<float>(0x400 | mb), -10), phase);
        const int src_bias = fp16 ? 15 : 127;
        long double expected =
            static_cast<long double>(fa) * fb * std::ldexp(1.0L, static_cast<int>(ea + eb) - 2 * src_bias);
        if (sa ^ sb) expected = -expected;
        ASSERT_EQ(product_value(p, bias), expected)
            << "phase " << phase << " ma " << ma << " mb " << mb << " dst32 " << c.dst32;
      }
    }
  }
}

TEST(FpuFidelitySlice, AllBf16MantissaPairsEveryPhase) {
  check_all_mantissa_pairs({SrcStyle::BF16, SrcStyle::BF16, true, 8});
  check_all_mantissa_pairs({SrcStyle::BF16, SrcStyle::BF16, false, 8});
}

TEST(FpuFidelitySlice, AllTf32MantissaPairsEveryPhase) {
  check_all_mantissa_pairs({SrcStyle::TF32, SrcStyle::TF32, true, 1});
}

TEST(FpuFidelitySlice, AllFp16MantissaPairsEveryPhaseBothDstWidths) {
  check_all_mantissa_pairs({SrcStyle::FP16, SrcStyle::FP16, false, 1});
  check_all_mantissa_pairs({SrcStyle::FP16, SrcStyle::FP16, true, 1});
}

TEST(FpuFidelitySlice, Bf16IgnoresTheLowThreeMantissaBits) {
  // A BF16-style datum with junk below its seven mantissa bits multiplies as if they were zero; the
  // same bits count for TF32 (ttsim masks non-TF32 operands to BF16).
  const uint32_t clean = bf16_datum(0, 127, 0x55), junk = clean | (0x5 << 8);
  const uint32_t b = tf32_datum(0, 127, 0x3FF);
  for (uint32_t phase = 0; phase < 4; ++phase) {
    FpuMode bf16{SrcStyle::BF16, SrcStyle::TF32, true, phase};
    const SliceProduct want = fidelity_slice_product(clean, b, bf16);
    const SliceProduct got = fidelity_slice_product(junk, b, bf16);
    EXPECT_EQ(got.mantissa, want.mantissa);
    EXPECT_EQ(got.exponent, want.exponent);
    // As SrcB, the BF16 style drops them as well.
    FpuMode bf16b{SrcStyle::TF32, SrcStyle::BF16, true, phase};
    EXPECT_EQ(fidelity_slice_product(b, junk, bf16b).mantissa,
              fidelity_slice_product(b, clean, bf16b).mantissa);
  }
  // TF32 SrcA phase 1 sees mantissa bits 5:1, so mantissa bit 2 (datum bit 10) matters there.
  FpuMode tf32{SrcStyle::TF32, SrcStyle::TF32, true, 1};
  EXPECT_NE(fidelity_slice_product(junk, b, tf32).mantissa, fidelity_slice_product(clean, b, tf32).mantissa);
}

TEST(FpuFidelitySlice, ZeroExponentIsZeroWithClampedExponent) {
  const uint32_t one = bf16_datum(0, 127, 0), denormal = bf16_datum(1, 0, 0x7F);
  FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, true, 3};
  const SliceProduct p = fidelity_slice_product(denormal, one, mode);
  EXPECT_EQ(p.mantissa, 0u);
  EXPECT_EQ(p.sign, 0u);  // a flushed -denormal loses its sign
  EXPECT_EQ(p.exponent, 0);
  // FP16 sources with FP32 Dst: a zero product still carries exponent 127 - 30 - 5 - 7 = 85.
  FpuMode fp16{SrcStyle::FP16, SrcStyle::FP16, true, 3};
  const SliceProduct z = fidelity_slice_product(fp16_datum(0, 15, 0), fp16_datum(0, 0, 5), fp16);
  EXPECT_EQ(z.mantissa, 0u);
  EXPECT_EQ(z.exponent, 85);
}

TEST(FpuFidelitySlice, Fp16IgnoresTheHighExponentBits) {
  // Exponent bits 7:5 are "0" in the FP16 layout; FP16 style reads only bits 4:0.
  FpuMode mode{SrcStyle::FP16, SrcStyle::FP16, false, 0};
  const uint32_t a = fp16_datum(0, 16, 0x200), b = fp16_datum(0, 15, 0);
  const SliceProduct clean = fidelity_slice_product(a, b, mode);
  const SliceProduct dirty = fidelity_slice_product(a | 0xE0, b | 0xA0, mode);
  EXPECT_EQ(dirty.exponent, clean.exponent);
  EXPECT_EQ(dirty.mantissa, clean.mantissa);
  EXPECT_EQ(clean.exponent, 16 + 15 - 15);
  EXPECT_EQ(clean.mantissa, 24u * 64u);  // 1.1000 x 1.000000
  // Only bits 7:5 set: the 5-bit exponent is zero, so the operand is zero.
  EXPECT_EQ(fidelity_slice_product(src_datum(0, 0x20, 0x200), b, mode).mantissa, 0u);
}

}  // namespace
