// Whole-dot-product properties of mvmul_element against an independent exact path (long double):
// wherever the inputs make every partial result exactly representable, the datapath must produce the
// exact answer - all four BF16 phases reproduce the full product, LoFi the product of the truncated
// mantissas, TF32/FP16 the product with SrcA's last mantissa bit dropped (SrcASrcB.md).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <initializer_list>

#include "test_fpu_support.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/rng.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using namespace tmu_test;

using Vec = std::array<uint32_t, 16>;

uint32_t run_phases(const Vec& a, const Vec& b, uint32_t dst, FpuMode mode,
                    std::initializer_list<uint32_t> phases) {
  for (uint32_t phase : phases) {
    mode.fidelity_phase = phase;
    dst = mvmul_element(a, b, dst, mode);
  }
  return dst;
}

struct Bf16Case {
  Vec a{}, b{};
  uint32_t ea = 0, eb = 0;
};

// All SrcA datums share one exponent and all SrcB datums another, so every nonzero product has the
// same exponent and no alignment inside a group drops bits; about one lane in eight is zero.
Bf16Case random_bf16_case(Rng& rng, uint32_t srcb_mantissa_mask = 0x7F) {
  Bf16Case c;
  c.ea = static_cast<uint32_t>(rng.between(100, 149));
  c.eb = static_cast<uint32_t>(rng.between(100, 149));
  for (unsigned k = 0; k < 16; ++k) {
    const bool zero = rng.chance(1, 8);
    c.a[k] = bf16_datum(rng.bits(1), zero ? 0 : c.ea, rng.bits(7));
    c.b[k] = bf16_datum(rng.bits(1), c.eb, rng.bits(7) & srcb_mantissa_mask);
  }
  return c;
}

long double dot(const Vec& a, const Vec& b, bool fp16, uint32_t srca_mantissa_keep = 0x3FF,
                uint32_t srcb_mantissa_keep = 0x3FF) {
  long double sum = 0;
  for (unsigned k = 0; k < 16; ++k) {
    const uint32_t a_kept = (a[k] & ~(0x3FFu << 8)) | (a[k] & (srca_mantissa_keep << 8));
    const uint32_t b_kept = (b[k] & ~(0x3FFu << 8)) | (b[k] & (srcb_mantissa_keep << 8));
    sum += src_value(a_kept, fp16) * src_value(b_kept, fp16);
  }
  return sum;
}

TEST(FpuExactProperties, Bf16AllFourPhasesIntoFp32DstAreExact) {
  Rng rng(42);
  for (int iter = 0; iter < 3000; ++iter) {
    const Bf16Case c = random_bf16_case(rng);
    // Start Dst at zero or at a value on the products' grid (2^-14 of one product's unit), small
    // enough for the running sum to stay within 24 bits.
    long double dst0 = 0;
    if (iter % 2) {
      const int unit = static_cast<int>(c.ea + c.eb) - 254 - 14;
      dst0 = std::ldexp(static_cast<long double>(rng.between(-(1 << 18), (1 << 18) - 1)), unit);
    }
    const long double expected = dst0 + dot(c.a, c.b, false);
    ASSERT_TRUE(exact_in_fp32(expected));
    for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
      FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, true, 0, arch};
      const uint32_t got = run_phases(c.a, c.b, dst32_phys_from_value(dst0), mode, {0, 1, 2, 3});
      ASSERT_EQ(got, dst32_phys_from_value(expected))
          << "iteration " << iter << " got " << dst32_value(got) << " want " << expected;
    }
  }
}

TEST(FpuExactProperties, LoFiIsTheExactProductOfTruncatedMantissas) {
  Rng rng(43);
  for (int iter = 0; iter < 3000; ++iter) {
    const Bf16Case c = random_bf16_case(rng);
    // Phase 0 sees the implicit one + top four SrcA bits and the implicit one + top six SrcB bits.
    const long double expected = dot(c.a, c.b, false, 0x3C0, 0x3F0);
    FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, true, 0};
    ASSERT_EQ(mvmul_element(c.a, c.b, 0, mode), dst32_phys_from_value(expected)) << "iteration " << iter;
  }
}

TEST(FpuExactProperties, Bf16HiFi2IsExactWhenSrcBHasSixMantissaBits) {
  // SrcASrcB.md: phases 0 and 1 consume all of SrcA and SrcB's implicit one + top six bits.
  Rng rng(44);
  for (int iter = 0; iter < 2000; ++iter) {
    const Bf16Case c = random_bf16_case(rng, 0x7E);
    FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, true, 0};
    ASSERT_EQ(run_phases(c.a, c.b, 0, mode, {0, 1}), dst32_phys_from_value(dot(c.a, c.b, false))) << iter;
  }
}

// TF32 and FP16: full 10-bit mantissas, SrcA's last bit is never consumed. Four nonzero lanes keep
// the exact sum within FP32's 24 bits.
void check_ten_bit_mantissas(SrcStyle style, uint32_t seed) {
  const bool fp16 = style == SrcStyle::FP16;
  Rng rng(seed);
  for (int iter = 0; iter < 3000; ++iter) {
    Vec a{}, b{};
    const uint32_t ea = static_cast<uint32_t>(fp16 ? rng.between(8, 23) : rng.between(100, 149));
    const uint32_t eb = static_cast<uint32_t>(fp16 ? rng.between(8, 23) : rng.between(100, 149));
    for (unsigned n = 0; n < 4; ++n) {
      const unsigned k = rng.below(16);
      a[k] = src_datum(rng.bits(1), ea, rng.bits(10));
      b[k] = src_datum(rng.bits(1), eb, rng.bits(10));
    }
    const long double expected = dot(a, b, fp16, 0x3FE, 0x3FF);
    ASSERT_TRUE(exact_in_fp32(expected));
    FpuMode mode{style, style, true, 0};
    ASSERT_EQ(run_phases(a, b, 0, mode, {0, 1, 2, 3}), dst32_phys_from_value(expected))
        << "iteration " << iter;
  }
}

TEST(FpuExactProperties, Tf32AllFourPhasesDropOnlySrcALastBit) {
  check_ten_bit_mantissas(SrcStyle::TF32, 45);
}
TEST(FpuExactProperties, Fp16AllFourPhasesIntoFp32DstDropOnlySrcALastBit) {
  check_ten_bit_mantissas(SrcStyle::FP16, 46);
}

TEST(FpuExactProperties, ProductsAlignWithinTheirGroupOfEightOnly) {
  // 4096 * 1 + 1 * 1: as neighbours in one group the small product is shifted 12 places and rounded
  // away; in different groups it survives the (wider) accumulator alignment.
  Vec a{}, b{};
  a[0] = bf16_datum(0, 127 + 12, 0);
  b[0] = bf16_datum(0, 127, 0);
  a[1] = bf16_datum(0, 127, 0);
  b[1] = bf16_datum(0, 127, 0);
  FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, true, 0};
  EXPECT_EQ(dst32_value(mvmul_element(a, b, 0, mode)), 4096.0L);
  std::swap(a[1], a[8]);
  std::swap(b[1], b[8]);
  EXPECT_EQ(dst32_value(mvmul_element(a, b, 0, mode)), 4097.0L);
}

TEST(FpuExactProperties, ProductBelowTheSmallestExponentStillAlignsInItsGroup) {
  // 2^-127 (exponent 0) next to 2^-126 in one group: aligned one place right, not dropped as ELWMUL
  // would drop it: 2^-126 + 2^-127.
  Vec a{}, b{};
  a[0] = bf16_datum(0, 64, 0);
  b[0] = bf16_datum(0, 63, 0);
  a[1] = bf16_datum(0, 64, 0);
  b[1] = bf16_datum(0, 64, 0);
  FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, true, 0};
  EXPECT_EQ(dst32_value(mvmul_element(a, b, 0, mode)), std::ldexp(1.5L, -126));
  // Alone in its group it is below the smallest exponent and vanishes.
  a[1] = b[1] = 0;
  EXPECT_EQ(mvmul_element(a, b, 0, mode), 0u);
}

TEST(FpuExactProperties, Bf16DstSixteenOnes) {
  Vec ones;
  ones.fill(bf16_datum(0, 127, 0));
  FpuMode mode{SrcStyle::BF16, SrcStyle::BF16, false, 0};
  EXPECT_EQ(mvmul_element(ones, ones, 0, mode), dst16_phys_bf16(0, 131, 0));  // 16.0
  // Accumulating onto a stored BF16 Dst of -20.0 (1.01 x 2^4) gives -4.0.
  EXPECT_EQ(mvmul_element(ones, ones, dst16_phys_bf16(1, 131, 0x20), mode), dst16_phys_bf16(1, 129, 0));
}

}  // namespace
