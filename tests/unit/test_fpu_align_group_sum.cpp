// Stage 2 (align_group_sum): eight products aligned to their largest exponent, the shifted-out bits
// rounded to nearest with ties away from zero (the sign is applied after rounding the magnitude),
// then summed. Expected values use long double division and std::round (which rounds half away from
// zero), not the model's shift-and-add.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <random>

#include "tmu/fpu/datapath.h"

namespace {

using namespace tmu::fpu;

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
  std::mt19937 rng(1234);
  for (int iter = 0; iter < 20000; ++iter) {
    Group g;
    int32_t top = -1000;
    for (auto& p : g) {
      p.sign = rng() & 1;
      p.exponent = 50 + static_cast<int32_t>(rng() % 20);
      p.mantissa = rng() % 4096;  // any 12-bit 5x7 product
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

}  // namespace
