// GMPOOL's comparison order, SrcB exponent scaling and Dst packing. Hand-made cases come from
// GMPOOL.md; the BF16/TF32 columns with a 1.0 scale are also checked against an independent
// formulation - ttsim's, which keeps the running maximum as a raw FP32 pattern and compares in
// sign-magnitude total order with a strict ">".
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "test_fpu_support.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/rng.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using namespace tmu_test;

using Vec = std::array<uint32_t, 16>;
constexpr uint32_t kScaleOne = bf16_datum(0, 127, 0);

GmpoolDatum src(uint32_t datum, SrcStyle style = SrcStyle::BF16, uint32_t scale = kScaleOne) {
  return gmpool_read_and_scale_src(datum, style, scale);
}

TEST(FpuGmpool, ComparisonKeyOrdersNegativesBeforeZerosBeforePositives) {
  const GmpoolDatum minus_inf = src(bf16_datum(0, 127, 0), SrcStyle::BF16, bf16_datum(0, 0, 0));
  const GmpoolDatum ordered[] = {
      minus_inf,
      src(bf16_datum(1, 128, 0)),                          // -2
      src(bf16_datum(1, 127, 0)),                          // -1
      gmpool_read_dst(0x80000000u, GmpoolDstStyle::BF16),  // Dst -0
      src(bf16_datum(1, 0, 0)),                            // SrcA -0 reads as +0
      gmpool_read_dst(0, GmpoolDstStyle::BF16),            // Dst +0
      src(bf16_datum(0, 1, 0)),                            // smallest normal
      src(bf16_datum(0, 127, 0)),                          // 1
      src(bf16_datum(0, 127, 0x01)),                       // 1 + 2^-7
      src(bf16_datum(0, 128, 0)),                          // 2
  };
  for (size_t i = 1; i < std::size(ordered); ++i) {
    EXPECT_LT(gmpool_comparison_key(ordered[i - 1]), gmpool_comparison_key(ordered[i])) << i;
    EXPECT_TRUE(gmpool_candidate_wins(ordered[i], ordered[i - 1]));
    EXPECT_FALSE(gmpool_candidate_wins(ordered[i - 1], ordered[i]));
  }
  EXPECT_EQ(minus_inf, (GmpoolDatum{1, 0x1FF, 0x3FF}));
  EXPECT_EQ(src(bf16_datum(1, 0, 0x55)), GmpoolDatum{});
  // Equal values tie, and a tie goes to the candidate.
  const GmpoolDatum dst_minus_one = gmpool_read_dst(dst32_phys_from_value(-1.0L), GmpoolDstStyle::TF32);
  EXPECT_EQ(gmpool_comparison_key(dst_minus_one), gmpool_comparison_key(src(bf16_datum(1, 127, 0))));
  EXPECT_TRUE(gmpool_candidate_wins(src(bf16_datum(1, 127, 0)), dst_minus_one));
}

TEST(FpuGmpool, ReadAndScaleSrc) {
  // BF16 drops the three bits below its mantissa, TF32 keeps them.
  EXPECT_EQ(src(src_datum(1, 130, 0x3FF)), (GmpoolDatum{1, 130 + 127, 0x3F8}));
  EXPECT_EQ(src(src_datum(1, 130, 0x3FF), SrcStyle::TF32), (GmpoolDatum{1, 130 + 127, 0x3FF}));
  // Scaling by SrcB = 4.0 adds its exponent; writing back removes one bias: x4.
  const GmpoolDatum scaled = src(bf16_datum(0, 127, 0x40), SrcStyle::BF16, bf16_datum(1, 129, 0x7F));
  EXPECT_EQ(scaled, (GmpoolDatum{0, 127 + 129, 0x200}));
  EXPECT_EQ(gmpool_write_dst(scaled, GmpoolDstStyle::BF16), dst32_phys_from_value(6.0L));  // 1.5 x 4
  // FP16 adds the five-bit exponents; INT8 only checks that the scale is non-zero.
  EXPECT_EQ(src(fp16_datum(0, 20, 0x155), SrcStyle::FP16, fp16_datum(0, 15, 0)), (GmpoolDatum{0, 35, 0x155}));
  EXPECT_EQ(src(int8_datum(-77), SrcStyle::INT8, src_datum(0, 3, 0)), (GmpoolDatum{1, 0, 77}));
  EXPECT_EQ(src(int8_datum(-77), SrcStyle::INT8, 0), (GmpoolDatum{1, 0x1FF, 0x3FF}));
}

TEST(FpuGmpool, DstReadWriteRoundTrips) {
  for (uint32_t v = 0; v < 0x10000; ++v) {
    ASSERT_EQ(gmpool_write_dst(gmpool_read_dst(v << 16, GmpoolDstStyle::BF16), GmpoolDstStyle::BF16), v << 16)
        << v;
    ASSERT_EQ(gmpool_write_dst(gmpool_read_dst(v << 16, GmpoolDstStyle::FP16), GmpoolDstStyle::FP16), v << 16)
        << v;
  }
  Rng rng(3);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t v = rng.bits(32);
    // TF32 keeps the top ten FP32 mantissa bits (physical bits 30:24 and 15:13).
    ASSERT_EQ(gmpool_write_dst(gmpool_read_dst(v, GmpoolDstStyle::TF32), GmpoolDstStyle::TF32),
              v & 0xFFFFE000u)
        << v;
    // INT32 writes back the sign and 13 magnitude bits.
    ASSERT_EQ(gmpool_write_dst(gmpool_read_dst(v, GmpoolDstStyle::INT32), GmpoolDstStyle::INT32),
              v & 0x80001FFFu)
        << v;
  }
}

// ttsim's formulation (BF16/TF32, scale 1.0, no argmax): the maximum as an FP32 pattern.
int32_t total_order(uint32_t x) {
  return (x & 0x80000000u) ? static_cast<int32_t>(x ^ 0x7FFFFFFFu) : static_cast<int32_t>(x);
}
uint32_t src_as_fp32(uint32_t datum, bool bf16) {
  const uint32_t exponent = datum & 0xFF;
  if (exponent == 0) return 0;
  const uint32_t mantissa = ((datum >> 8) & 0x3FF) & (bf16 ? 0x3F8u : 0x3FFu);
  return ((datum >> 18) << 31) | (exponent << 23) | (mantissa << 13);
}

uint32_t random_datum(Rng& rng) {
  switch (rng.below(6)) {
    case 0: return src_datum(rng.bits(1), 0, rng.bits(10));    // zero / denormal
    case 1: return src_datum(rng.bits(1), 255, rng.bits(10));  // "infinity"
    case 2: return src_datum(rng.bits(1), rng.between(120, 123), rng.bits(10));
    default: return src_datum(rng.bits(1), rng.bits(8), rng.bits(10));
  }
}

TEST(FpuGmpool, MatchesFp32TotalOrderFormulationForUnitScale) {
  Rng rng(4);
  Vec ones;
  ones.fill(kScaleOne);
  for (int iter = 0; iter < 20000; ++iter) {
    const bool tf32 = iter & 1, dst32 = iter & 2;
    const SrcStyle style = tf32 ? SrcStyle::TF32 : SrcStyle::BF16;
    Vec col;
    for (auto& d : col) d = random_datum(rng);
    uint32_t dst;
    switch (rng.below(4)) {
      case 0: dst = dst32 ? kGmpoolUndefinedDst32 : (kGmpoolUndefinedDst16 << 16); break;
      case 1: dst = rng.bits(1) << 31; break;  // +0 or -0
      default: dst = dst32 ? rng.bits(32) : (rng.bits(16) << 16); break;
    }
    // ttsim: Dst as an FP32 pattern (TF32-truncated, or BF16 in the high half).
    uint32_t best = dst32 ? (dst32_ieee_from_phys(dst) & 0xFFFFE000u)
                          : (static_cast<uint32_t>(dst32_ieee_from_phys(dst) >> 16) << 16);
    for (uint32_t d : col) {
      const uint32_t x = src_as_fp32(d, !tf32);
      if (total_order(x) > total_order(best)) best = x;
    }
    const uint32_t want =
        dst32 ? dst32_phys_from_ieee(best) : (uint32_t{dst16_phys_from_bf16_ieee(best >> 16)} << 16);
    ASSERT_EQ(gmpool_column(col, ones, dst, style, dst32, false), want) << "iteration " << iter;
  }
}

TEST(FpuGmpool, Fp16ColumnIntoFp16Dst) {
  Vec col, scale;
  scale.fill(fp16_datum(0, 15, 0));  // 1.0
  const long double values[16] = {-3, 0.5,  2,     -7, 1.75,  -0.0, 0,    1.5,
                                  -1, 0.25, 1.875, -2, 0.125, 1,    1.25, 0.75};
  for (unsigned i = 0; i < 16; ++i) {
    const long double v = values[i];
    if (v == 0) {
      col[i] = fp16_datum(std::signbit(v), 0, 0);
      continue;
    }
    const int e = std::ilogb(v);
    const uint32_t mantissa = static_cast<uint32_t>(std::ldexp(std::fabs(v), -e) * 1024 - 1024);
    col[i] = fp16_datum(v < 0, static_cast<uint32_t>(e + 15), mantissa);
  }
  // Max is 2.0 = FP16 exponent 16.
  EXPECT_EQ(gmpool_column(col, scale, kGmpoolUndefinedDst16 << 16, SrcStyle::FP16, false, false),
            uint32_t{dst16_phys_fp16(0, 16, 0)} << 16);
  // A stored 3.0 stays.
  EXPECT_EQ(
      gmpool_column(col, scale, uint32_t{dst16_phys_fp16(0, 16, 0x200)} << 16, SrcStyle::FP16, false, false),
      uint32_t{dst16_phys_fp16(0, 16, 0x200)} << 16);
}

TEST(FpuGmpool, Int8ColumnIntoInt32Dst) {
  Vec col, scale;
  scale.fill(src_datum(0, 1, 0));
  for (unsigned i = 0; i < 16; ++i) col[i] = int8_datum(static_cast<int32_t>(i * 37 % 601) - 300);
  int32_t best = -1000;
  for (unsigned i = 0; i < 16; ++i) best = std::max(best, static_cast<int32_t>(i * 37 % 601) - 300);
  EXPECT_EQ(gmpool_column(col, scale, dst32_phys_from_int(-1000), SrcStyle::INT8, true, false),
            dst32_phys_from_int(best));
  // A Dst of 10000 wins, but only 13 magnitude bits are written back.
  EXPECT_EQ(gmpool_column(col, scale, dst32_phys_from_int(10000), SrcStyle::INT8, true, false),
            dst32_phys_from_int(10000 & 0x1FFF));
}

TEST(FpuGmpool, ArgmaxRecordsTheTransformedIndexAndPhase) {
  Vec col, ones;
  ones.fill(kScaleOne);
  for (unsigned i = 0; i < 16; ++i) col[i] = bf16_datum(0, 126, i);  // all below 1.0
  col[2] = bf16_datum(0, 129, 0x20);                                 // 5.0 at row 2
  // Index phase (0 + 0x100) & 0xf00, row 2 transforms to 6: index 0x10 + 6.
  EXPECT_EQ(gmpool_column(col, ones, 0, SrcStyle::BF16, true, true), 0x20810000u | 0x100u | 0x16u);
  // TF32 with argmax returns the index only.
  EXPECT_EQ(gmpool_column(col, ones, 0x00000300u, SrcStyle::TF32, true, true), 0x400u | (0x40u + 6));
  // A winner outside the first eight rows keeps the index read from Dst (here a stored 1.0 beats
  // rows 0..7, so only row 12's 5.0 replaces it).
  col[2] = bf16_datum(0, 126, 0);
  col[12] = bf16_datum(0, 129, 0x20);
  EXPECT_EQ(gmpool_column(col, ones, 0x007F0005u, SrcStyle::BF16, true, true), 0x20810000u | 0x100u | 0x05u);
  // The other rows of the block: zero, or the advanced index phase with argmax and Dst32b.
  EXPECT_EQ(gmpool_other_row_value(0x12345u, true, true), 0x400u);
  EXPECT_EQ(gmpool_other_row_value(0x00F00u, true, true), 0u);
  EXPECT_EQ(gmpool_other_row_value(0x12345u, true, false), 0u);
  EXPECT_EQ(gmpool_other_row_value(0x12345u, false, true), 0u);
}

}  // namespace
