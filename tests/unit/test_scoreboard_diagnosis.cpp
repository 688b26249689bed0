// The scoreboard's datapath diagnosis: for a wrong MVMUL/ELW* element it names the stage whose single
// perturbation explains the RTL's value. Each case's expected and "RTL" values are worked out by hand
// from the fidelity-slice and rounding rules (SrcASrcB.md, MVMUL.md; datapath.h's stage descriptions).
#include <algorithm>

#include "test_scoreboard_harness.h"

namespace tmu::tensix {
namespace {

using namespace test;  // the harness: Bench, Src/Dst rows, BF16 patterns, contains

// SrcA rows 0 and 1 are all 1.0; every SrcB row is `srcb`. Element (i, j) = srcb[0] + srcb[1].
void load_two_products(Bench& b, const test::Row16& srcb) {
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, r < 2 ? filled(kOne) : filled(0), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, srcb, DataFormat::BF16);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
}

// SrcB row 0 lanes: 1.0, `second`, then zeros; with SrcA rows 0 and 1 all 1.0, element (i, j) is
// 1.0 * 1.0 + 1.0 * second (the first two products).
void load_two_products(Bench& b, uint32_t second) {
  test::Row16 srcb = filled(0);
  srcb[0] = kOne;
  srcb[1] = second;
  load_two_products(b, srcb);
}

// Runs MVMUL DstRow=0 with element (2, 4) reported as `rtl_value` and returns its one mismatch.
Mismatch mvmul_with_element(Bench& b, uint16_t rtl_value, const std::function<void(Observation&)>& extra = {}) {
  const auto found = b.step(0, "MVMUL DstRow=0", [&](Observation& obs) {
    test::find_dst_row(obs, 2)->values[4] = rtl_value;
    if (extra) extra(obs);
  });
  EXPECT_EQ(found.size(), 1u) << b.sb.report_text();
  return found.empty() ? Mismatch{} : found[0];
}

TEST(ScoreboardDiagnosis, RoundingBitFlipIsNamedFinalRounding) {
  Bench b;
  // 1 + 2^-9: at the BF16 width (7 mantissa bits) the dropped bits are 2^-9 = a quarter ulp, so the
  // model rounds down to 1.0 (Dst16 0x007f). An RTL that rounds up gives 1.0078125 (0x017f).
  load_two_products(b, bf16(118, 0));  // 2^-9
  const Mismatch m = mvmul_with_element(b, 0x017F);
  EXPECT_EQ(m.expected, 0x007Fu);
  EXPECT_EQ(m.actual_text, "0x017f (BF16 1.0078125)");
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
  EXPECT_TRUE(contains(m.datapath->explanation, "final rounding")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->explanation, "went down")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->explanation, "(rounded up)")) << m.datapath->explanation;
  EXPECT_FALSE(contains(m.datapath->explanation, "exact tie")) << m.datapath->explanation;
  EXPECT_TRUE(m.datapath->recompute_matches_model);
  EXPECT_TRUE(contains(m.report, "diagnosis   [accum_normalize]")) << m.report;
}

TEST(ScoreboardDiagnosis, ExactTieRoundedToEvenIsNamedFinalRoundingAndTie) {
  Bench b;
  // 1 + 2^-8 is exactly half a BF16 ulp above 1.0: ties away from zero gives 1.0078125 (0x017f); an
  // RTL rounding ties to even gives 1.0 (0x007f).
  load_two_products(b, bf16(119, 0));  // 2^-8
  const Mismatch m = mvmul_with_element(b, 0x007F);
  EXPECT_EQ(m.expected, 0x017Fu);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
  EXPECT_TRUE(contains(m.datapath->explanation, "went up")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->explanation, "(truncated)")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->explanation, "exact tie")) << m.datapath->explanation;
}

TEST(ScoreboardDiagnosis, MissingProductIsNamedFidelitySliceWithItsWeight) {
  Bench b;
  // 1.0 * 1.0 + 0.5 * 1.0 = 1.5 (0x407f); without product k=1 the RTL would give 1.0 (0x007f).
  load_two_products(b, bf16(126, 0));  // 0.5
  const Mismatch m = mvmul_with_element(b, 0x007F);
  EXPECT_EQ(m.expected, 0x407Fu);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "fidelity_slice");
  EXPECT_TRUE(contains(m.datapath->explanation, "product k=1 is missing")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->explanation, "slice product 0.5")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->stage_values, "align_group_sum")) << m.datapath->stage_values;
}

TEST(ScoreboardDiagnosis, DstNotAccumulatedIsNamed) {
  Bench b;
  load_two_products(b, row_of(kOneAndHalf));  // each element: 1.5 (k=1 has a zero SrcB)
  std::array<uint16_t, kDstCols> two;
  two.fill(tmu_test::dst16_phys_bf16(0, 128, 0));  // 2.0
  b.dst16(2, two);
  // 2.0 + 1.5 = 3.5 = 1.75 * 2 (Dst16 0x6080); without Dst the RTL would write 1.5 (0x407f).
  const Mismatch m = mvmul_with_element(b, 0x407F);
  EXPECT_EQ(m.expected, 0x6080u);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
  EXPECT_EQ(m.datapath->explanation, "the Dst value was not accumulated (read as zero)");
}

TEST(ScoreboardDiagnosis, WrongFidelityPhaseIsNamed) {
  Bench b;
  // SrcA = 1 + 1/2 + 1/128 (BF16 mantissa 0b1000001, significand 0b1_1000001000), SrcB = 1.0.
  // Phase 0: SrcA's high slice (significand bits 10:6) 0b11000 x SrcB's 0b1000000 = 1536/1024 = 1.5
  // (Dst16 0x407f). Phase 1: SrcA's low slice (bits 5:1) 0b00100 x 0b1000000 = 256/1024 = 0.25, at
  // an exponent 5 lower: 2^-7 (Dst16 0x0078).
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, r == 0 ? filled(bf16(127, 0x41)) : filled(0), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, row_of(kOne), DataFormat::BF16);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  const Mismatch m = mvmul_with_element(b, 0x0078);
  EXPECT_EQ(m.expected, 0x407Fu);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->fidelity_phase, 0u);
  EXPECT_EQ(m.datapath->first_stage, "fidelity_slice");
  EXPECT_EQ(m.datapath->explanation, "the RTL multiplied fidelity phase 1's slices instead of phase 0's");
  EXPECT_TRUE(contains(m.datapath->srca_slice, "mantissa bits 9:6")) << m.datapath->srca_slice;
}

TEST(ScoreboardDiagnosis, ReportedStageValuesNameWhereTheRtlFirstDeparts) {
  Bench b;
  load_two_products(b, bf16(126, 0));  // 0.5: group 0 = 1.5 = exponent 127, mantissa 0x600 << 13
  const Mismatch m = mvmul_with_element(b, 0x007F, [](Observation& obs) {
    StageProbe p;
    p.dst_row = 2;
    p.col = 4;
    // The RTL's group 0 lost the 0.5 product: 1.0 = mantissa 0x400 << 13. Group 1 is all zeros.
    p.group_sums = std::array<fpu::AccTerm, 2>{fpu::AccTerm{0, 127, 0x400u << 13}, fpu::AccTerm{}};
    obs.probes.push_back(p);
  });
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "align_group_sum");
  EXPECT_TRUE(contains(m.datapath->probe_departure, "align_group_sum, group 0")) << m.datapath->probe_departure;
  EXPECT_TRUE(contains(m.datapath->probe_departure, "model sign 0 exponent 127 mantissa 0x00c00000"))
      << m.datapath->probe_departure;
}

TEST(ScoreboardDiagnosis, ElwsubWithoutNegationIsNamed) {
  Bench b;
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, filled(kOneAndHalf), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, filled(bf16(125, 0)), DataFormat::BF16);  // 0.25
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  // 1.5 - 0.25 = 1.25 (Dst16 0x207f); 1.5 + 0.25 = 1.75 (0x607f).
  const auto found = b.step(0, "ELWSUB DstRow=0", [](Observation& obs) { test::find_dst_row(obs, 1)->values[9] = 0x607F; });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].expected, 0x207Fu);
  ASSERT_TRUE(found[0].datapath.has_value());
  EXPECT_EQ(found[0].datapath->first_stage, "elw_adder");
  EXPECT_EQ(found[0].datapath->explanation, "SrcB's sign was not inverted (computed ELWADD)");
  EXPECT_TRUE(contains(found[0].datapath->operation, "ELWSUB element (i=1, j=9)"));
}

TEST(ScoreboardDiagnosis, SignOnlyDifferenceComesFirstAndOtherExplanationsAreListed) {
  Bench b;
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, filled(kOneAndHalf), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, filled(bf16(125, 0)), DataFormat::BF16);  // 0.25
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  // -1.25 (Dst16 sign bit 15 set: 0xa07f) is both "the sign only" and SrcB - SrcA.
  const auto found = b.step(0, "ELWSUB DstRow=0", [](Observation& obs) { test::find_dst_row(obs, 0)->values[0] = 0xA07F; });
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].datapath.has_value());
  EXPECT_EQ(found[0].actual_text, "0xa07f (BF16 -1.25)");
  EXPECT_EQ(found[0].datapath->first_stage, "accum_normalize");
  EXPECT_TRUE(contains(found[0].datapath->explanation, "differs only in the sign")) << found[0].datapath->explanation;
  ASSERT_EQ(found[0].datapath->also_consistent.size(), 1u);
  EXPECT_EQ(found[0].datapath->also_consistent[0], "[elw_adder] SrcA and SrcB swapped (SrcB - SrcA)");
}

// SrcA rows 0..7 are 1.0 (slice 0b10000 = 16); SrcB k=0 is 1.0 (slice 0b1000000 = 64), k=1..7 are
// 1.875 * 2^-9 (BF16 exponent 118, mantissa 0x70; significand bits 10:4 = 0b1111000 = 120). In units
// of 2^-10 (product 16 * 64 = 1024 is 1.0) each small product is 16 * 120 = 1920 at an exponent 9
// lower, aligned to 1920 / 2^9 = 3.75: rounded 4, truncated 3.
//   rounding:   group 0 = 1024 + 7 * 4 = 1052; the BF16 ulp at 1.0 is 8 units, 28 / 8 = 3.5 ulps, an
//               exact tie, away from zero: 1 + 4/128 = 1.03125 (mantissa 4, Dst16 0x047f).
//   truncating: group 0 = 1024 + 7 * 3 = 1045; 21 / 8 = 2.625 ulps, truncated to 2: 1 + 2/128 =
//               1.015625 (mantissa 2, Dst16 0x027f).
// Truncating only the group alignment (1045, then 2.625 rounded to 3) or only the accumulator's
// rounding (3.5 truncated to 3) both give 0x037f, so only the lost rounding bit explains 0x027f.
void load_seven_small_products(Bench& b) {
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, r < 8 ? filled(kOne) : filled(0), DataFormat::BF16);
    test::Row16 srcb = filled(0);
    srcb[0] = kOne;
    for (unsigned k = 1; k < 8; ++k) srcb[k] = bf16(118, 0x70);
    b.unpack(SrcOperand::SrcB, r, srcb, DataFormat::BF16);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
}

TEST(ScoreboardDiagnosis, TruncatingShiftRoundIsNamed) {
  Bench b;
  load_seven_small_products(b);
  const Mismatch m = mvmul_with_element(b, 0x027F);
  EXPECT_EQ(m.expected, 0x047Fu);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "shift_round");
  EXPECT_TRUE(contains(m.datapath->explanation, "truncates instead of rounding to nearest")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.report, "diagnosis   [shift_round]")) << m.report;
  // The one-stage truncations are tried too, and give the value the comment says.
  Bench fresh;
  load_seven_small_products(fresh);
  const Mismatch one = mvmul_with_element(fresh, 0x037F);
  ASSERT_TRUE(one.datapath.has_value());
  const std::vector<std::string>& also = one.datapath->also_consistent;
  EXPECT_NE(std::find(also.begin(), also.end(),
                      "[align_group_sum] group 0 aligns its products by truncation instead of rounding ties away"),
            also.end()) << one.report;
}

TEST(ScoreboardDiagnosis, SingleStoredBitFlipIsNamedStorage) {
  Bench b;
  load_two_products(b, bf16(126, 0));  // 0.5: the element is 1.5 (Dst16 0x407f)
  // Bit 10 (BF16 mantissa bit 2) flipped where the value is stored: 0x447f (1.53125). No stage
  // perturbation gives it: a missing or negated 0.5 gives 1.0 or 0.5, another phase 0.
  const Mismatch m = mvmul_with_element(b, 0x447F);
  EXPECT_EQ(m.expected, 0x407Fu);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "storage");
  EXPECT_TRUE(contains(m.datapath->explanation, "only bit 10 of the value differs")) << m.datapath->explanation;
  EXPECT_TRUE(contains(m.datapath->explanation, "DstBits row 2 col 4 bit 10 holds 1 where the datapath computed 0"))
      << m.datapath->explanation;
}

TEST(ScoreboardDiagnosis, ProductExponentBiasIsNamed) {
  Bench b;
  // 1.0 * 1.0 + 0.5 * 1.0 = 1.5 (Dst16 0x407f). Every product one binade up: 2.0 + 1.0 = 3.0 =
  // 1.5 * 2^1, exponent 128, mantissa 1000000b: Dst16 0x4080 (mantissa in bits 14:8, exponent 7:0).
  load_two_products(b, bf16(126, 0));
  const Mismatch m = mvmul_with_element(b, 0x4080);
  EXPECT_EQ(m.expected, 0x407Fu);
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "fidelity_slice");
  EXPECT_TRUE(contains(m.datapath->explanation, "every product's exponent is one too large: the exponent bias"))
      << m.datapath->explanation;
}

// ELWMUL's one product goes through the same multiplier stage: 1.5 * 1.0 = 1.5 (Dst16 0x407f; at
// phase 0 SrcA's slice 1.1000b and SrcB's 1.000000b are both exact). Its exponent one too large
// gives 3.0 = 1.5 * 2^1 (0x4080), one too small 0.75 = 1.5 * 2^-1 (exponent 126: 0x407e).
TEST(ScoreboardDiagnosis, ElwmulProductExponentBiasIsNamed) {
  for (const auto& [rtl_value, side] : {std::pair<uint16_t, const char*>{0x4080, "large"}, {0x407E, "small"}}) {
    Bench b;
    for (unsigned r = 0; r < 16; ++r) {
      b.unpack(SrcOperand::SrcA, r, filled(kOneAndHalf), DataFormat::BF16);
      b.unpack(SrcOperand::SrcB, r, filled(kOne), DataFormat::BF16);
    }
    b.hand_over(SrcOperand::SrcA);
    b.hand_over(SrcOperand::SrcB);
    const auto found =
        b.step(0, "ELWMUL DstRow=0", [&](Observation& obs) { test::find_dst_row(obs, 1)->values[9] = rtl_value; });
    ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
    EXPECT_EQ(found[0].expected, 0x407Fu);
    ASSERT_TRUE(found[0].datapath.has_value());
    EXPECT_EQ(found[0].datapath->first_stage, "fidelity_slice") << found[0].report;
    EXPECT_TRUE(contains(found[0].datapath->explanation,
                         fmt::format("every product's exponent is one too {}: the exponent bias", side)))
        << found[0].datapath->explanation;
  }
}

// 1.0 * 1.0 + 0.25 * 1.0 = 1.25: exponent 127, mantissa 0100000b, Dst16 0x207f. No stage
// perturbation reproduces the values below (a missing product gives 1.0, a negated one 0.75, another
// phase 0, products one binade off 2.5 or 0.625), so the result's fields decide.
TEST(ScoreboardDiagnosis, NormalisationShiftOffByOneIsNamed) {
  {
    Bench b;
    load_two_products(b, bf16(125, 0));
    // One place too far left: the mantissa 0100000b becomes 1000000b at the same exponent, 1.5 (0x407f).
    const Mismatch m = mvmul_with_element(b, 0x407F);
    EXPECT_EQ(m.expected, 0x207Fu);
    ASSERT_TRUE(m.datapath.has_value());
    EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
    EXPECT_TRUE(contains(m.datapath->explanation, "the normalisation shift is one too large")) << m.datapath->explanation;
  }
  {
    Bench b;
    load_two_products(b, bf16(125, 0));
    // One place short: the implicit one lands in the mantissa's top bit, 1.0100000b >> 1 = 1010000b,
    // and the exponent is one higher: 1.625 * 2^1 = 3.25, Dst16 0x5080.
    const Mismatch m = mvmul_with_element(b, 0x5080);
    ASSERT_TRUE(m.datapath.has_value());
    EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
    EXPECT_TRUE(contains(m.datapath->explanation, "the normalisation shift is one too small")) << m.datapath->explanation;
  }
  {
    Bench b;
    load_two_products(b, bf16(125, 0));
    // The same mantissa two binades up: 5.0 (exponent 129), Dst16 0x2081.
    const Mismatch m = mvmul_with_element(b, 0x2081);
    ASSERT_TRUE(m.datapath.has_value());
    EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
    EXPECT_TRUE(contains(m.datapath->explanation, "the exponent is off by +2 with the sign and mantissa right"))
        << m.datapath->explanation;
  }
}

// INT8 math: SrcA row 0 all +32 (magnitude bit 5, inside phase 0's SrcA slice, bits 7:5) and SrcB
// lane 0 +16 (bit 4, inside phase 0's SrcB slice, bits 9:4), the rest zero: element (i, j)'s dot is
// 32 * 16 = 512. Dst32b row 2 col 4 holds 2^31 - 2, so Dst + 512 = 2^31 + 510 saturates to
// 2^31 - 1. An adder without the clamp keeps the low 31 bits of the magnitude: 510.
// Dst32b row 2 lives in DstBits row 2 (the high half) and row 10 (the low half); a high half is the
// Dst16 form of the sign-magnitude word's top 16 bits taken as BF16 (sign 15, mantissa 14:8 from
// BF16 bits 6:0, exponent 7:0 from BF16 bits 14:7): 0x7fff for 0x7fff, 0x0000 for 0x0000.
TEST(ScoreboardDiagnosis, Int8SumWithoutSaturationIsNamed) {
  Bench b;
  b.field(FieldScope::Config, "ALU_ACC_CTRL_INT8_math_enabled", 1);
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, r == 0 ? filled(tmu_test::int8_datum(32)) : filled(0), DataFormat::INT8);
    b.unpack(SrcOperand::SrcB, r, row_of(tmu_test::int8_datum(16)), DataFormat::INT8);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  std::array<uint16_t, kDstCols> high{}, low{};
  high[4] = 0x7FFF;  // 2^31 - 2 = 0x7ffffffe
  low[4] = 0xFFFE;
  b.dst16(2, high);
  b.dst16(10, low);
  const auto found = b.step(0, "MVMUL DstRow=0", [&](Observation& obs) {
    test::find_dst_row(obs, 2)->values[4] = 0x0000;  // 510 = 0x000001fe
    test::find_dst_row(obs, 10)->values[4] = 0x01FE;
  });
  ASSERT_FALSE(found.empty()) << b.sb.report_text();
  const Mismatch& m = found[0];
  ASSERT_TRUE(m.datapath.has_value()) << m.report;
  EXPECT_EQ(m.datapath->first_stage, "int8_sat_acc") << m.report;
  EXPECT_TRUE(contains(m.datapath->explanation, "Dst 2147483646 + 512 = 2147484158 was not saturated at +/-(2^31 - 1)"))
      << m.datapath->explanation;
}

TEST(ScoreboardDiagnosis, GmpoolPlainVisitOrderIsNamed) {
  Bench b;
  b.field(FieldScope::Config, "ALU_ACC_CTRL_Fp32_enabled", 1);
  // Column 3: row 0 holds the maximum 5.0, every other row 0.5; SrcB (the scales) is 1.0. Dst row 0
  // is invalid, so it reads as all ones: the smallest value, index phase (0xf + 1) & 0xf = 0.
  // The hardware visits row 0 at step 4 and decodes the index from the step (argmax_index(step ^ 4)):
  // GMPOOL.md's transform of row 0, 0. A design whose visit table is plain meets row 0 at step 0 and
  // records transform(0 ^ 4) = 4. The index sits in the low half of Dst32b row 0 (DstBits row 8):
  // 0x0000 against 0x0004.
  for (unsigned r = 0; r < 16; ++r) {
    test::Row16 a = filled(bf16(126, 0));
    if (r == 0) a[3] = bf16(129, 0x20);
    b.unpack(SrcOperand::SrcA, r, a, DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, filled(kOne), DataFormat::BF16);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  const auto found = b.step(0, "GMPOOL DstRow=0 ArgMax=1 Dim16x16=1",
                            [](Observation& obs) { test::find_dst_row(obs, 8)->values[3] = 0x0004; });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].expected & 0xFFFFu, 0x0000u);
  EXPECT_EQ(found[0].actual & 0xFFFFu, 0x0004u);
  ASSERT_TRUE(found[0].datapath.has_value()) << found[0].report;
  EXPECT_EQ(found[0].datapath->first_stage, "gmpool_compare") << found[0].report;
  EXPECT_TRUE(contains(found[0].datapath->explanation, "plain order 0..15")) << found[0].datapath->explanation;
  EXPECT_TRUE(found[0].datapath->recompute_matches_model);
}

TEST(ScoreboardDiagnosis, OnlyDatapathInstructionsAreDiagnosed) {
  TensixState s;
  const uint32_t word = assemble("SETDMAREG ResultHalfReg=2 NewValue=1", Arch::Blackhole).word;
  EXPECT_FALSE(diagnose_datapath_element(s, 0, word, 0, 0, 1, 2).has_value());
  // An element the instruction does not write.
  s.SrcA[0].AllowedClient = s.SrcB[0].AllowedClient = SrcClient::MatrixUnit;
  const uint32_t mvmul = assemble("MVMUL DstRow=0", Arch::Blackhole).word;
  EXPECT_FALSE(diagnose_datapath_element(s, 0, mvmul, 40, 0, 1, 2).has_value());
  EXPECT_TRUE(diagnose_datapath_element(s, 0, mvmul, 7, 0, 1, 2).has_value());
}

}  // namespace
}  // namespace tmu::tensix
