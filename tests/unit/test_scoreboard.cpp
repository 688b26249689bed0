// The lock-step scoreboard: a correct fake-RTL stream passes; each kind of corrupted observation gives
// exactly one mismatch with the right location and decoded values. Expected values are worked out by
// hand from the Src/Dst bit diagrams (Bits32.lua) and the instruction pages.
#include "test_scoreboard_harness.h"
#include "tmu/error.h"
#include "tmu/rng.h"

namespace tmu::tensix {
namespace {

using namespace test;  // the harness: Bench, Src/Dst rows, BF16 patterns, contains

// Dst16 BF16 layout (sign 15, mantissa 14:8, exponent 7:0): 1.5 is mantissa 0x40, exponent 127.
constexpr uint16_t kDst16OneAndHalf = 0x407F;

TEST(Scoreboard, CorrectFakeRtlStreamPassesAndFinalStateMatches) {
  ScoreboardOptions o;
  o.test_name = "mixed_stream";
  Bench b(o);
  Rng rng(7);
  auto random_row = [&] {
    test::Row16 r;
    for (auto& v : r) v = bf16(rng.between(120, 133), rng.bits(7), rng.bits(1));
    return r;
  };
  b.sb.set_addr_mod(0, 1, AddrModAB{0, false, false, 8, false, false}, AddrModDst{8, false, false, false, 0, false}, {});
  b.rtl.ThreadConfig[0].ADDR_MOD_AB_SEC[1] = AddrModAB{0, false, false, 8, false, false};
  b.rtl.ThreadConfig[0].ADDR_MOD_DST_SEC[1] = AddrModDst{8, false, false, false, 0, false};
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, random_row(), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, random_row(), DataFormat::BF16);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  b.gpr(1, 1, 40);

  const char* stream[][2] = {
      {"0", "ZEROACC Mode=3"},
      {"0", "MVMUL DstRow=0 AddrMod=1"},
      {"0", "MVMUL DstRow=0 AddrMod=1"},
      {"1", "SETDMAREG ResultHalfReg=4 NewValue=0x1234"},
      {"1", "ADDDMAREG LeftReg=1 RightReg=2 ResultReg=3"},
      {"0", "ELWADD DstRow=0 AddDst=1"},
      {"0", "MOVA2D DstRow=32 SrcRow=4"},
      {"0", "ELWMUL DstRow=8 FlipSrcA=1 FlipSrcB=1"},
  };
  for (const auto& [thread, text] : stream) {
    const auto found = b.step(static_cast<unsigned>(std::stoi(thread)), text);
    EXPECT_TRUE(found.empty()) << text << "\n" << (found.empty() ? "" : found[0].report);
  }
  EXPECT_EQ(b.sb.retired(), 8u);
  EXPECT_EQ(b.sb.mismatch_count(), 0u);
  // The ELWMUL flips handed both banks back to the unpackers.
  EXPECT_EQ(b.sb.model().SrcA[0].AllowedClient, SrcClient::Unpackers);
  EXPECT_TRUE(b.sb.final_compare(b.rtl).empty()) << b.sb.report_text();
}

TEST(Scoreboard, OneFlippedBitInABf16ResultIsOneMismatchWithLocationAndValues) {
  ScoreboardOptions o;
  o.test_name = "mvmul_bf16";
  o.seed = 1234;
  o.replay_command_template = "tmu_tb --test {test} --seed {seed} --stop-at {cycle}";
  Bench b(o);
  // SrcB row i = [1.5, 0, ...], SrcA row 0 = 1.0: every Dst element is 1.5 * 1.0 = 1.5 exactly.
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  ASSERT_TRUE(b.step(0, "ZEROACC Mode=3").empty());
  const auto found = b.step(0, "MVMUL DstRow=0", [](Observation& obs) {
    test::find_dst_row(obs, 3)->values[5] ^= 0x0100;  // mantissa LSB: 1.5 -> 1.5078125
  });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  const Mismatch& m = found[0];
  EXPECT_EQ(m.kind, MismatchKind::ValueDiffers);
  EXPECT_EQ(m.where.target, Target::Dst);
  EXPECT_EQ(m.where.row, 3u);
  EXPECT_EQ(m.where.col, 5u);
  EXPECT_EQ(m.expected, kDst16OneAndHalf);
  EXPECT_EQ(m.actual, 0x417Fu);
  EXPECT_EQ(m.expected_text, "0x407f (BF16 1.5)");
  EXPECT_EQ(m.actual_text, "0x417f (BF16 1.5078125)");
  EXPECT_EQ(m.thread, 0u);
  EXPECT_EQ(m.cycle, 103u);
  EXPECT_EQ(m.disassembly, "MVMUL DstRow=0 AddrMod=0 BroadcastSrcBRow=0 FlipSrcA=0 FlipSrcB=0");
  EXPECT_EQ(m.replay_command, "tmu_tb --test mvmul_bf16 --seed 1234 --stop-at 103");
  EXPECT_TRUE(contains(m.report, "test 'mvmul_bf16' seed 1234")) << m.report;
  EXPECT_TRUE(contains(m.report, "Dst16b row 3 col 5 (DstBits row 3)")) << m.report;
  EXPECT_TRUE(contains(m.report, "bit 8 (mask 0x0100)")) << m.report;
  EXPECT_TRUE(contains(m.report, "ZEROACC")) << "previous instructions are listed\n" << m.report;
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->fidelity_phase, 0u);
  EXPECT_TRUE(contains(m.datapath->operation, "MVMUL element (i=3, j=5)"));
  EXPECT_TRUE(m.datapath->recompute_matches_model);
  EXPECT_EQ(b.sb.mismatch_count(), 1u);
}

TEST(Scoreboard, MissingDstRowIsOneMismatch) {
  Bench b;
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  const auto found = b.step(0, "MVMUL DstRow=8", [](Observation& obs) {
    obs.dst.erase(obs.dst.begin() + 2);  // rows 8..15 in order: drop row 10
  });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::MissingWrite);
  EXPECT_EQ(found[0].where.target, Target::Dst);
  EXPECT_EQ(found[0].where.row, 10u);
  EXPECT_EQ(found[0].actual_text, "(not reported)");
  EXPECT_TRUE(contains(found[0].expected_text, "0x407f")) << found[0].expected_text;
}

TEST(Scoreboard, ExtraDstRowIsOneMismatch) {
  Bench b;
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  const auto found = b.step(0, "MVMUL DstRow=0", [](Observation& obs) {
    ObservedDstRow extra;
    extra.row = 100;
    extra.values.fill(kDst16OneAndHalf);
    extra.valid = true;
    obs.dst.push_back(extra);
  });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::ExtraWrite);
  EXPECT_EQ(found[0].where.row, 100u);
  EXPECT_TRUE(contains(found[0].where.text, "does not write"));
}

TEST(Scoreboard, WrongRwcIsOneMismatchNamingTheField) {
  Bench b;
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  b.sb.set_addr_mod(0, 2, AddrModAB{}, AddrModDst{8, false, false, false, 0, false}, {});
  b.rtl.ThreadConfig[0].ADDR_MOD_DST_SEC[2].DestIncr = 8;
  const auto found = b.step(0, "MVMUL DstRow=0 AddrMod=2", [](Observation& obs) { obs.rwcs->Dst = 16; });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::ValueDiffers);
  EXPECT_EQ(found[0].where.target, Target::Rwc);
  EXPECT_EQ(found[0].where.field, "Dst");
  EXPECT_EQ(found[0].where.text, "RWCs of thread 0: Dst: expected 8, actual 16");
}

TEST(Scoreboard, UnreportedRwcsOfAnInstructionThatWritesThemAreMissing) {
  Bench b;
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  const auto found = b.step(0, "MVMUL DstRow=0", [](Observation& obs) { obs.rwcs.reset(); });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::MissingWrite);
  EXPECT_EQ(found[0].where.target, Target::Rwc);
}

TEST(Scoreboard, WrongGprIsOneMismatch) {
  Bench b;
  b.gpr(2, 1, 40);
  b.gpr(2, 2, 2);
  const auto found = b.step(2, "ADDDMAREG LeftReg=1 RightReg=2 ResultReg=3", [](Observation& obs) {
    obs.gprs.at(0).value = 41;
  });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].where.target, Target::Gpr);
  EXPECT_EQ(found[0].where.thread, 2u);
  EXPECT_EQ(found[0].where.index, 3u);
  EXPECT_EQ(found[0].expected_text, "0x0000002a (42)");
  EXPECT_EQ(found[0].actual_text, "0x00000029 (41)");
  EXPECT_FALSE(found[0].datapath.has_value());
  EXPECT_TRUE(contains(found[0].replay_program, ".gpr 1 0x00000028")) << found[0].replay_program;
}

TEST(Scoreboard, GprOfAnotherThreadIsAnExtraWrite) {
  Bench b;
  const auto found = b.step(0, "SETDMAREG ResultHalfReg=4 NewValue=7", [](Observation& obs) {
    obs.gprs.push_back(ObservedGpr{1, 2, 7});
  });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::ExtraWrite);
  EXPECT_EQ(found[0].where.thread, 1u);
  EXPECT_EQ(found[0].where.index, 2u);
}

TEST(Scoreboard, Fp32DstMismatchIsShownInTheDst32View) {
  Bench b;
  b.field(FieldScope::Config, "ALU_ACC_CTRL_Fp32_enabled", 1);
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, filled(kOneAndHalf), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, filled(bf16(125, 0)), DataFormat::BF16);  // 0.25
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
  // Dst32b rows 0..7 hold the high halves at DstBits rows 0..7 and the low halves at rows 8..15.
  const auto found = b.step(0, "ELWADD DstRow=0", [](Observation& obs) { test::find_dst_row(obs, 8)->values[0] ^= 1; });
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  const Mismatch& m = found[0];
  EXPECT_EQ(m.where.text, "Dst32b row 0 col 0 (DstBits row 8, low half)");
  // FP32 1.75 = 0x3FE00000 -> Dst32 layout: mantissa high 7 (0x60) at 30:24, exponent 0x7F at 23:16.
  EXPECT_EQ(m.expected, 0x607F0000u);
  EXPECT_EQ(m.actual, 0x607F0001u);
  EXPECT_EQ(m.expected_text, "0x607f0000 (FP32 1.75)");
  EXPECT_EQ(m.actual_text, "0x607f0001 (FP32 1.7500001192092896)");
  ASSERT_TRUE(m.datapath.has_value());
  EXPECT_EQ(m.datapath->first_stage, "accum_normalize");
}

TEST(Scoreboard, ZeroaccMayReportValidityOnly) {
  Bench b;
  b.dst16(5, std::array<uint16_t, kDstCols>{0x3F80});
  auto validity_only = [](Observation& obs) {
    for (auto& r : obs.dst) r.has_values = false;
  };
  EXPECT_TRUE(b.step(0, "ZEROACC Mode=0 Imm10=5", validity_only).empty()) << b.sb.report_text();
  EXPECT_FALSE(b.sb.model().Dst.RowValid[5]);
  // A row the RTL says is still valid is a validity mismatch.
  b.dst16(6, std::array<uint16_t, kDstCols>{0x3F80});
  const auto found = b.step(0, "ZEROACC Mode=0 Imm10=6", [](Observation& obs) { obs.dst.at(0).valid = true; });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].where.target, Target::DstValidity);
  EXPECT_EQ(found[0].where.row, 6u);
}

TEST(Scoreboard, RetiringWhatTheModelMustStallIsAMismatch) {
  Bench b;
  b.unpack(SrcOperand::SrcA, 0, filled(kOne), DataFormat::BF16);  // never handed over
  Observation obs;
  obs.word = assemble("MVMUL DstRow=0", Arch::Blackhole).word;
  const auto found = b.sb.retire(obs);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, MismatchKind::ModelStall);
  EXPECT_TRUE(contains(found[0].where.text, "SrcA bank 0 is held by the Unpackers")) << found[0].where.text;
}

TEST(Scoreboard, UndecodableWordIsAModelError) {
  Bench b;
  Observation obs;
  obs.word = 0xFF000000;
  const auto found = b.sb.retire(obs);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, MismatchKind::ModelError);
}

TEST(Scoreboard, UnpackerWritingABankTheMatrixUnitHoldsIsRefused) {
  Scoreboard sb;
  sb.hand_over_src_bank(SrcOperand::SrcB);  // bank 0 to the Matrix Unit, unpacker 1 now on bank 1
  sb.set_unpacker_bank(SrcOperand::SrcB, 0);
  EXPECT_THROW(sb.unpack_src_row(SrcOperand::SrcB, 0, filled(0), DataFormat::BF16), Error);
  EXPECT_THROW(sb.set_field(FieldScope::Rwc, "SrcA", 64), Error);  // 6 bits
  EXPECT_THROW(sb.set_field(FieldScope::Config, "NoSuchField", 1), Error);
}

TEST(Scoreboard, OneInstructionWithSeveralWrongElementsIsOneReport) {
  Bench b;
  // Every Dst element is 1.5 * 1.0 = 1.5 (0x407f); two elements come back with the mantissa LSB flipped.
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  ASSERT_TRUE(b.step(0, "ZEROACC Mode=3").empty());
  const auto found = b.step(0, "MVMUL DstRow=0", [](Observation& obs) {
    test::find_dst_row(obs, 3)->values[5] ^= 0x0100;
    test::find_dst_row(obs, 4)->values[6] ^= 0x0100;
  });
  ASSERT_EQ(found.size(), 2u) << b.sb.report_text();
  EXPECT_TRUE(contains(found[0].report, "==== tmu scoreboard MISMATCH #1")) << found[0].report;
  EXPECT_TRUE(contains(found[0].report, "this instruction: 2 locations differ")) << found[0].report;
  EXPECT_EQ(found[1].report, "  also       Dst16b row 4 col 6 (DstBits row 4): expected 0x407f (BF16 1.5), actual 0x417f (BF16 1.5078125)");
  const std::string text = b.sb.report_text();
  EXPECT_EQ(text.find("MISMATCH #2"), std::string::npos) << text;
  EXPECT_EQ(b.sb.mismatch_count(), 2u);
}

TEST(Scoreboard, FinalCompareFindsADifferentDstElementAndGpr) {
  Bench b;
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  ASSERT_TRUE(b.step(0, "MVMUL DstRow=0").empty());
  TensixState rtl = b.rtl;
  rtl.Dst.DstBits[2][7] = 0x3F7F;  // BF16 1.4921875
  rtl.GPRs[1][9] = 5;
  const auto found = b.sb.final_compare(rtl);
  ASSERT_EQ(found.size(), 2u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::FinalState);
  EXPECT_EQ(found[0].where.target, Target::Gpr);
  EXPECT_EQ(found[1].where.text, "Dst16b row 2 col 7 (DstBits row 2)");
  EXPECT_EQ(found[1].expected_text, "0x407f (BF16 1.5)");
  EXPECT_EQ(found[1].actual_text, "0x3f7f (BF16 1.4921875)");
}

TEST(Scoreboard, HistoryHoldsTheLastRetiredInstructions) {
  ScoreboardOptions o;
  o.history_depth = 2;
  Bench b(o);
  b.step(0, "SETDMAREG ResultHalfReg=2 NewValue=1");
  b.step(0, "SETDMAREG ResultHalfReg=2 NewValue=2");
  b.step(0, "SETDMAREG ResultHalfReg=2 NewValue=3");
  const auto found = b.step(0, "SETDMAREG ResultHalfReg=2 NewValue=4", [](Observation& obs) { obs.gprs.clear(); });
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(contains(found[0].report, "NewValue=1 ")) << found[0].report;
  EXPECT_TRUE(contains(found[0].report, "NewValue=2")) << found[0].report;
  EXPECT_TRUE(contains(found[0].report, "NewValue=3")) << found[0].report;
}

}  // namespace
}  // namespace tmu::tensix
