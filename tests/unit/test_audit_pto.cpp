// The PTO rows of the precision audit (tmu/pto/audit/pto.h): ULP distances and histogram buckets
// worked by hand from the formats' bit layouts, and the rows' verdicts on operations whose rounding
// is known from their definition (one rounding: correctly rounded; TADDC's two: not).
#include <gtest/gtest.h>

#include "tmu/pto/audit/pto.h"

namespace tmu::audit {
namespace {

using pto::ElemType;
using pto::Op;

TEST(AuditPto, UlpDistance) {
  const ieee::Format h = ieee::kBinary16, b = ieee::kBfloat16, s = ieee::kBinary32;
  EXPECT_EQ(ulp_distance(h, 0x3C00, 0x3C00), 0u);  // 1.0 against itself
  EXPECT_EQ(ulp_distance(h, 0x3C00, 0x3C01), 1u);  // 1.0 and 1 + 2^-10
  EXPECT_EQ(ulp_distance(h, 0x3C00, 0x3BFF), 1u);  // 1.0 and 1 - 2^-11 (across the binade)
  EXPECT_EQ(ulp_distance(h, 0x3C00, 0x4000), 1024u);  // [1, 2) holds 2^10 binary16 numbers
  EXPECT_EQ(ulp_distance(b, 0x3F80, 0x4000), 128u);   // bfloat16: 2^7
  EXPECT_EQ(ulp_distance(h, 0x0000, 0x8000), 0u);  // +0 and -0 are one number
  EXPECT_EQ(ulp_distance(h, 0x0001, 0x8001), 2u);  // +-2^-24, zero between them
  EXPECT_EQ(ulp_distance(h, 0x7BFF, 0x7C00), 1u);  // 65504 and +inf
  EXPECT_EQ(ulp_distance(s, 0x3F800000, 0xBF800000), 2u * 0x3F800000u);  // 1.0 and -1.0
}

TEST(AuditPto, Buckets) {
  const uint64_t d[] = {0, 1, 2, 3, 4, 5, 16, 17, 256, 257, 1u << 20};
  const unsigned want[] = {0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6};
  for (size_t i = 0; i < std::size(d); ++i) EXPECT_EQ(ulp_bucket(d[i]), want[i]) << d[i];
  EXPECT_STREQ(ulp_bucket_label(3), "3-4");
  EXPECT_STREQ(ulp_bucket_label(6), ">256");
}

TEST(AuditPto, Histogram) {
  UlpHistogram hist;
  for (uint64_t d : {0u, 0u, 1u, 3u, 300u}) hist.add(d);
  const std::array<uint64_t, kUlpBuckets> want{2, 1, 0, 1, 0, 0, 1};
  EXPECT_EQ(hist.counts, want);
  EXPECT_EQ(hist.lanes, 5u);
  EXPECT_EQ(hist.max, 300u);
  EXPECT_DOUBLE_EQ(hist.mean(), 304.0 / 5.0);
}

const PtoRow& find(const std::vector<PtoRow>& rows, Op op, ElemType t, PtoInputs d) {
  for (const PtoRow& r : rows)
    if (r.op == op && r.type == t && r.inputs == d) return r;
  throw std::logic_error("row missing");
}

TEST(AuditPto, RowsTellCorrectlyRoundedFromNot) {
  const ElemType types[] = {ElemType::F16, ElemType::BF16};
  const std::vector<PtoRow> rows = run_pto_rows(7, types, 1);
  // 20 float ops with a real-number definition x 2 types x 3 random operand sets, and the `every`
  // set for the 8 one-source ops (TABS TLOG TRECIP TRSQRT TSQRT TEXP TRELU TNEG) x 2 types.
  EXPECT_EQ(pto_float_ops().size(), 20u);
  EXPECT_EQ(rows.size(), 20u * 2 * 3 + 8 * 2);
  for (PtoInputs d : {PtoInputs::Moderate, PtoInputs::Wide, PtoInputs::Tiny}) {
    // One IEEE rounding per lane: correctly rounded wherever it is defined.
    for (Op op : {Op::TADD, Op::TMUL, Op::TDIV}) {
      const PtoRow& r = find(rows, op, ElemType::F16, d);
      EXPECT_FALSE(r.refused);
      EXPECT_EQ(r.hist.lanes + r.nan_both + r.nan_mismatch, 1024u);
      EXPECT_TRUE(r.correctly_rounded()) << pto::op_name(op) << " " << pto_inputs_name(d);
    }
  }
  // src0 + src1 rounded, then + src2 rounded: on 1024 moderate f16 lanes some sums land a unit off.
  const PtoRow& addc = find(rows, Op::TADDC, ElemType::F16, PtoInputs::Moderate);
  EXPECT_FALSE(addc.correctly_rounded());
  EXPECT_GE(addc.hist.max, 1u);
  // Every binary16 pattern through TSQRT, (T)std::sqrt((double)x): a square root rounded to 53 bits
  // and then to 11 is correctly rounded (53 >= 2 * 11 + 2), so no lane may be off; the negative
  // numbers and the NaNs give NaN on both sides.
  const PtoRow& sqrt_all = find(rows, Op::TSQRT, ElemType::F16, PtoInputs::Every);
  EXPECT_TRUE(sqrt_all.correctly_rounded());
  EXPECT_EQ(sqrt_all.hist.lanes + sqrt_all.nan_both, 65536u);
  // Non-NaN results: +0, -0 (sqrt(-0) = -0), the 1023 positive subnormals, the 30 x 1024 positive
  // normals and +inf.
  EXPECT_EQ(sqrt_all.hist.lanes, 1u + 1 + 1023 + 30 * 1024 + 1);
  // TRSQRT, (T)(1.0 / std::sqrt((double)x)), rounds three times, yet on every binary16 input the
  // result is the correctly rounded one (rSqrt(-0) = -inf included). TRELU keeps NaNs as NaNs.
  EXPECT_TRUE(find(rows, Op::TRSQRT, ElemType::F16, PtoInputs::Every).correctly_rounded());
  EXPECT_TRUE(find(rows, Op::TRELU, ElemType::BF16, PtoInputs::Every).correctly_rounded());
  // The CPU simulator has no bf16 TRSQRT: the row carries the engine's refusal.
  const PtoRow& rsqrt = find(rows, Op::TRSQRT, ElemType::BF16, PtoInputs::Moderate);
  ASSERT_TRUE(rsqrt.refused);
  EXPECT_NE(rsqrt.refused->find("TRSQRT"), std::string::npos);
  EXPECT_EQ(rsqrt.hist.lanes, 0u);
}

// Under a5 a float lane is one IEEE operation rounded to nearest even (the a5-ieee assumption), so
// whatever a5 computes must be the correctly rounded result; the lanes outside the assumption
// (a subnormal operand, a tiny result) are counted as refused, never measured. Moderate operands
// (exponents -4..4) meet none of them; tiny ones (exponent fields 0..3) are mostly subnormal.
TEST(AuditPto, A5RowsMeasureTheLanesItModelsAndCountTheRest) {
  const ElemType types[] = {ElemType::F32};
  const std::vector<PtoRow> a5 = run_pto_rows(7, types, 1, pto::Profile::A5);
  const std::vector<PtoRow> cpusim = run_pto_rows(7, types, 1);
  for (Op op : {Op::TADD, Op::TMUL, Op::TDIV}) {
    const PtoRow& moderate = find(a5, op, ElemType::F32, PtoInputs::Moderate);
    ASSERT_FALSE(moderate.refused) << pto::op_name(op);
    EXPECT_EQ(moderate.refused_lanes, 0u);
    EXPECT_EQ(moderate.hist.lanes, 1024u);
    EXPECT_TRUE(moderate.correctly_rounded()) << pto::op_name(op);
    EXPECT_EQ(find(cpusim, op, ElemType::F32, PtoInputs::Tiny).refused_lanes, 0u);
    const PtoRow& wide = find(a5, op, ElemType::F32, PtoInputs::Wide);
    ASSERT_FALSE(wide.refused) << pto::op_name(op);
    EXPECT_EQ(wide.hist.lanes + wide.nan_both + wide.nan_mismatch + wide.refused_lanes, 1024u);
    EXPECT_EQ(wide.hist.max, 0u) << pto::op_name(op);
    if (op == Op::TMUL) continue;
    // Sums and quotients of two numbers near 2^-126 are often normal: those lanes are measured.
    const PtoRow& tiny = find(a5, op, ElemType::F32, PtoInputs::Tiny);
    ASSERT_FALSE(tiny.refused) << pto::op_name(op);
    EXPECT_GT(tiny.refused_lanes, 256u);
    EXPECT_EQ(tiny.hist.lanes + tiny.nan_both + tiny.nan_mismatch + tiny.refused_lanes, 1024u);
    EXPECT_EQ(tiny.hist.max, 0u) << pto::op_name(op);
  }
  // A product of two numbers near 2^-126 is tiny in every lane, so no lane is left to measure: the
  // row carries a5's refusal.
  const PtoRow& tiny_products = find(a5, Op::TMUL, ElemType::F32, PtoInputs::Tiny);
  ASSERT_TRUE(tiny_products.refused);
  EXPECT_NE(tiny_products.refused->find("a5-ieee"), std::string::npos);
  // An operation a5 does not model for floats at all stays refused as a row, with its reason.
  const PtoRow& exp = find(a5, Op::TEXP, ElemType::F32, PtoInputs::Moderate);
  ASSERT_TRUE(exp.refused);
  EXPECT_NE(exp.refused->find("a5"), std::string::npos);
}

}  // namespace
}  // namespace tmu::audit
