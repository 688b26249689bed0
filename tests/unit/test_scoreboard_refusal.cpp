// The scoreboard's checks of RTL refusals and of the packer's Dst read port. A refusal is agreement
// only when both sides refuse, for the same class, and the RTL reports nothing changed; the read port
// is compared with Dst as its layout is defined (Dst16b {16'b0, bits}, Dst32b {Adj32 row, 8 rows on},
// invalid rows 0). Expected lanes are written by hand from those rules.
#include "test_scoreboard_harness.h"
#include "tmu/error.h"

namespace tmu::tensix {
namespace {

using test::Bench;

Observation refused(uint32_t word, RtlVerdict verdict, unsigned thread = 0) {
  Observation o;
  o.thread = static_cast<uint8_t>(thread);
  o.word = word;
  o.verdict = verdict;
  return o;
}

TEST(ScoreboardRefusal, BothRefusingAnUnknownOpcodeAsADecodeErrorAgree) {
  Bench b;
  EXPECT_TRUE(b.sb.retire(refused(0xFF000000, RtlVerdict::DecodeError)).empty()) << b.sb.report_text();
  EXPECT_EQ(b.sb.mismatch_count(), 0u);
}

TEST(ScoreboardRefusal, TheWrongClassIsOneMismatchNamingBoth) {
  Bench b;
  const auto found = b.sb.retire(refused(0xFF000000, RtlVerdict::Unsupported));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, MismatchKind::RtlRefused);
  EXPECT_NE(found[0].where.text.find("\"unsupported\""), std::string::npos) << found[0].where.text;
  EXPECT_NE(found[0].where.text.find("DecodeError"), std::string::npos) << found[0].where.text;
}

TEST(ScoreboardRefusal, UndefinedAndUnsupportedEncodingsAgreeInTheirClass) {
  Bench b;
  // SHIFTXA Direction 0 has no defined result; SETDMAREG SetSignalsMode reads packer state tmu lacks.
  EXPECT_TRUE(b.sb.retire(refused(assemble("SHIFTXA Direction=0", Arch::Blackhole).word, RtlVerdict::Undefined)).empty())
      << b.sb.report_text();
  EXPECT_TRUE(b.sb.retire(refused(assemble("SETDMAREG SetSignalsMode=1", Arch::Blackhole).word, RtlVerdict::Unsupported))
                  .empty())
      << b.sb.report_text();
}

TEST(ScoreboardRefusal, RefusingAnInstructionTheModelExecutesIsOneMismatchAndChangesNothing) {
  Bench b;
  const Observation o = refused(assemble("SETRWC SrcA=1 SrcB=1", Arch::Blackhole).word, RtlVerdict::DecodeError);
  b.field(FieldScope::Rwc, "SrcA", 5);
  const auto found = b.sb.retire(o);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, MismatchKind::RtlRefused);
  EXPECT_EQ(b.sb.model().RWCs[0].SrcA, 5u) << "the model follows the RTL, which did nothing";
}

TEST(ScoreboardRefusal, ARefusedInstructionThatReportsAWriteIsAnExtraWrite) {
  Bench b;
  Observation o = refused(0xFF000000, RtlVerdict::DecodeError);
  o.dst.push_back(ObservedDstRow{3, {}, true, true});
  const auto found = b.sb.retire(o);
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].kind, MismatchKind::ExtraWrite);
}

TEST(ScoreboardRefusal, ARefusedInstructionReportingChangedRwcsDiffers) {
  Bench b;
  Observation o = refused(0xFF000000, RtlVerdict::DecodeError, 1);
  o.rwcs = Rwc{};
  o.rwcs->Dst = 8;
  const auto found = b.sb.retire(o);
  ASSERT_EQ(found.size(), 1u) << b.sb.report_text();
  EXPECT_EQ(found[0].where.target, Target::Rwc);
}

TEST(ScoreboardDstRead, SixteenBitWindowWithAnInvalidRow) {
  Bench b;
  std::array<uint16_t, kDstCols> row8{}, row10{};
  for (unsigned c = 0; c < kDstCols; ++c) {
    row8[c] = static_cast<uint16_t>(0x3F80 + c);
    row10[c] = static_cast<uint16_t>(0xC000 | c);
  }
  b.dst16(8, row8);
  b.dst16(10, row10);  // rows 9 and 11..15 stay invalid: they read as 0
  std::array<uint32_t, 8 * kDstCols> lanes{};
  for (unsigned c = 0; c < kDstCols; ++c) {
    lanes[0 * kDstCols + c] = 0x3F80u + c;
    lanes[2 * kDstCols + c] = 0xC000u | c;
  }
  EXPECT_TRUE(b.sb.compare_dst_read(8, false, lanes).empty()) << b.sb.report_text();
  lanes[1 * kDstCols + 4] = 0x1;  // row 9 is invalid
  const auto found = b.sb.compare_dst_read(8, false, lanes);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].expected, 0u);
  EXPECT_EQ(found[0].actual, 1u);
  EXPECT_NE(found[0].where.text.find("Dst16b row 9 col 4"), std::string::npos) << found[0].where.text;
  EXPECT_NE(found[0].where.text.find("invalid"), std::string::npos) << found[0].where.text;
}

TEST(ScoreboardDstRead, ThirtyTwoBitWindowJoinsTheHalvesOfTheAdj32Rows) {
  Bench b;
  // Dst32b row 9: Adj32(9) = ((9 & 0x1F8) << 1) | (9 & 0x207) = 16 | 1 = 17 holds the high half, row
  // 25 the low half. Rows 17 and 25 are preloaded as 16-bit rows (both valid).
  std::array<uint16_t, kDstCols> high{}, low{};
  for (unsigned c = 0; c < kDstCols; ++c) {
    high[c] = static_cast<uint16_t>(0x4000 + c);
    low[c] = static_cast<uint16_t>(0x0100 * c + 7);
  }
  b.dst16(17, high);
  b.dst16(25, low);
  std::array<uint32_t, 8 * kDstCols> lanes{};
  for (unsigned c = 0; c < kDstCols; ++c) lanes[1 * kDstCols + c] = (0x4000u + c) << 16 | (0x0100u * c + 7);
  EXPECT_TRUE(b.sb.compare_dst_read(8, true, lanes).empty()) << b.sb.report_text();
  lanes[1 * kDstCols + 15] ^= 0x2;  // a low-half bit
  EXPECT_EQ(b.sb.compare_dst_read(8, true, lanes).size(), 1u);
  EXPECT_THROW(b.sb.compare_dst_read(12, true, lanes), Error);   // not a window start
  EXPECT_THROW(b.sb.compare_dst_read(512, true, lanes), Error);  // beyond the 512 Dst32b rows
}

}  // namespace
}  // namespace tmu::tensix
