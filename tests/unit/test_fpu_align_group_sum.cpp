// Stage 2 (align_group_sum): eight products aligned to their largest exponent, the shifted-out bits
// rounded to nearest with ties away from zero (the sign is applied after rounding the magnitude),
// then summed. Expected values use long double division and std::round (which rounds half away from
// zero), not the model's shift-and-add; those of align_product alone are worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "tmu/tensix/fpu/datapath.h"
#include "tmu/rng.h"

namespace {

using namespace tmu::tensix::fpu;

using Group = std::array<SliceProduct, kProductsPerGroup>;

Group zeros(int32_t exponent = 0) {
  Group g;
  g.fill(SliceProduct{0, exponent, 0});
  return g;
}

long double rounded_shift(uint32_t mantissa, uint32_t shift) {
  return std::round(std::ldexp(static_cast<long double>(mantissa), -static_cast<int>(shift)));
}

// Signed group sum in product units, as an AccTerm would hold it.
AccTerm term_of(long double sum, int32_t exponent) {
  AccTerm t;
  t.sign = sum < 0 ? 1 : 0;
  t.exponent = exponent;
  t.mantissa = static_cast<uint32_t>(std::fabs(sum)) << (kAccFractionBits - kProductFractionBits);
  return t;
}

TEST(FpuAlignGroupSum, TiesRoundAwayFromZeroAtEveryShift) {
  for (uint32_t shift = 1; shift <= 12; ++shift) {
    for (uint32_t k = 0; (k << shift) < 4096; ++k) {
      // An exact tie: k + 1/2 units after the shift.
      const uint32_t tie = (k << shift) | (1u << (shift - 1));
      if (tie >= 4096) continue;
      for (uint32_t sign = 0; sign < 2; ++sign) {
        Group g = zeros();
        g[0] = SliceProduct{0, 100, 1024};  // 1.0 at the group exponent
        g[5] = SliceProduct{sign, 100 - static_cast<int32_t>(shift), tie};
        const long double small = rounded_shift(tie, shift);
        EXPECT_EQ(small, k + 1.0L);  // the tie goes up in magnitude
        const AccTerm want = term_of(1024.0L + (sign ? -small : small), 100);
        EXPECT_EQ(align_group_sum(g), want) << "shift " << shift << " tie " << tie << " sign " << sign;
      }
    }
  }
}

TEST(FpuAlignGroupSum, RandomGroupsMatchRoundToNearestPerProduct) {
  tmu::Rng rng(1234);
  for (int iter = 0; iter < 20000; ++iter) {
    Group g;
    int32_t top = -1000;
    for (auto& p : g) {
      p.sign = rng.bits(1);
      p.exponent = rng.between(50, 69);
      p.mantissa = rng.bits(12);  // any 12-bit 5x7 product
      top = std::max(top, p.exponent);
    }
    long double sum = 0;
    for (const auto& p : g) {
      const long double aligned = rounded_shift(p.mantissa, static_cast<uint32_t>(top - p.exponent));
      sum += p.sign ? -aligned : aligned;
    }
    ASSERT_EQ(align_group_sum(g), term_of(sum, top)) << "iteration " << iter;
  }
}

TEST(FpuAlignGroupSum, LargeShiftsLoseTheProductWithoutOverflow) {
  Group g = zeros();
  g[0] = SliceProduct{0, 200, 1024};
  g[1] = SliceProduct{1, 200 - 13, 4095};  // 4095 / 8192 < 1/2: rounds to 0
  g[2] = SliceProduct{1, 200 - 12, 4095};  // 4095 / 4096 rounds to 1
  g[3] = SliceProduct{0, -300, 4095};      // 500 places down
  EXPECT_EQ(align_group_sum(g), term_of(1023, 200));
}

TEST(FpuAlignGroupSum, NegativeTotalIsSignAndMagnitude) {
  Group g = zeros();
  g[0] = SliceProduct{1, 10, 3000};
  g[7] = SliceProduct{0, 10, 1000};
  EXPECT_EQ(align_group_sum(g), term_of(-2000, 10));
}

TEST(FpuAlignGroupSum, GroupBelowTheSmallestExponentIsEmpty) {
  Group g = zeros();
  g[3] = SliceProduct{0, 0, 4095};
  g[4] = SliceProduct{1, -5, 100};
  EXPECT_EQ(align_group_sum(g), AccTerm{});
  // One product at exponent 1 keeps the group: the others are aligned to it.
  g[6] = SliceProduct{0, 1, 1024};
  EXPECT_EQ(align_group_sum(g), term_of(1024 + std::round(4095 / 2.0L) - std::round(100 / 64.0L), 1));
}

TEST(FpuAlignGroupSum, ZeroProductsKeepTheirClampedExponent) {
  // FP16 sources with FP32 Dst give zero products exponent 97; a group of them still reports it,
  // so Dst will be aligned to it.
  EXPECT_EQ(align_group_sum(zeros(97)), (AccTerm{0, 97, 0}));
  // Products that cancel exactly also keep the group exponent.
  Group g = zeros();
  g[0] = SliceProduct{0, 140, 2000};
  g[1] = SliceProduct{1, 140, 2000};
  EXPECT_EQ(align_group_sum(g), (AccTerm{0, 140, 0}));
}

// align_product, the one-product step (rtl/tmu_align_product.sv). Mantissas have 10 fraction bits
// (1.0 = 0x400) and at most 12 bits; "distance" is group exponent - product exponent.
TEST(FpuAlignProduct, DistanceZeroPassesTheProductThrough) {
  // 0xABC = 2748 at the group's own exponent: nothing to shift, the sign rides along.
  EXPECT_EQ(align_product({1, 100, 0xABC}, 100), (AlignedProduct{1, 0xABC}));
  EXPECT_EQ(align_product({0, -3, 4095}, -3), (AlignedProduct{0, 4095}));
}

TEST(FpuAlignProduct, DistanceOneHalvesAndRoundsTiesAway) {
  // 1536 / 2 = 768 exactly.
  EXPECT_EQ(align_product({0, 99, 1536}, 100), (AlignedProduct{0, 768}));
  // 1025 / 2 = 512.5, a tie: away from zero gives 513, for either sign (the magnitude is rounded).
  EXPECT_EQ(align_product({0, 99, 1025}, 100), (AlignedProduct{0, 513}));
  EXPECT_EQ(align_product({1, 99, 1025}, 100), (AlignedProduct{1, 513}));
}

TEST(FpuAlignProduct, ExactTieAndItsNeighboursAtDistanceFour) {
  // Distance 4 divides by 16: 24 / 16 = 1.5 (tie -> 2), 23 / 16 = 1.4375 (-> 1), 25 / 16 = 1.5625 (-> 2).
  EXPECT_EQ(align_product({1, 96, 24}, 100), (AlignedProduct{1, 2}));
  EXPECT_EQ(align_product({0, 96, 23}, 100), (AlignedProduct{0, 1}));
  EXPECT_EQ(align_product({0, 96, 25}, 100), (AlignedProduct{0, 2}));
  // 0x2C8 = 712: 712 / 16 = 44.5, a tie -> 45.
  EXPECT_EQ(align_product({0, 6, 0x2C8}, 10), (AlignedProduct{0, 45}));
}

TEST(FpuAlignProduct, DistancesBeyondTheMagnitudeWidthLeaveNothing) {
  // Distance 12 (the width): 4095 / 4096 and the tie 2048 / 4096 = 0.5 round to 1; 2047 / 4096 to 0.
  EXPECT_EQ(align_product({0, 88, 4095}, 100), (AlignedProduct{0, 1}));
  EXPECT_EQ(align_product({1, 88, 2048}, 100), (AlignedProduct{1, 1}));
  EXPECT_EQ(align_product({0, 88, 2047}, 100), (AlignedProduct{0, 0}));
  // Distance 13: 4095 / 8192 < 1/2 -> 0. 15 is the RTL's clamped shift, 16 a distance it clamps, 40
  // beyond the model's 32-bit shift guard, 1000 far beyond: all 0.
  for (const int32_t distance : {13, 15, 16, 40, 1000}) {
    EXPECT_EQ(align_product({1, 100 - distance, 4095}, 100), (AlignedProduct{1, 0})) << distance;
  }
}

TEST(FpuAlignProduct, ZeroProductStaysZero) {
  // A zero product (exponent clamped to 97, or at the group exponent) has nothing to round up.
  EXPECT_EQ(align_product({0, 97, 0}, 120), (AlignedProduct{0, 0}));
  EXPECT_EQ(align_product({0, 120, 0}, 120), (AlignedProduct{0, 0}));
  EXPECT_EQ(align_product({1, 119, 0}, 120), (AlignedProduct{1, 0}));
}

}  // namespace
