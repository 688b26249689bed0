// The Tensix engine's generic scoreboard (tmu::EngineScoreboard through the registry). Expected
// values are worked out by hand from the formats' definitions (Dst.md's DstBits layouts, the Src
// datum layout of SrcASrcB.md): BF16 1.5 is Src datum 0x2007F (mantissa 1000000b in bits 17:11,
// exponent 127 in 7:0), 1.75 is 0x3007F; their sum 3.25 = 1.101b x 2^1 is BF16 exponent 128,
// mantissa 1010000b, which the 16-bit Dst layout (sign 15, mantissa 14:8, exponent 7:0) stores as
// 0x5080, and the 32-bit view as 0x5080 in the high half over a zero low half.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tmu/engine.h"
#include "tmu/error.h"

namespace {

constexpr uint32_t kSrcBf16_1_5 = 0x2007F, kSrcBf16_1_75 = 0x3007F;

std::unique_ptr<tmu::EngineScoreboard> board(const std::string& variant = "blackhole") {
  tmu::register_builtin_engines();
  const tmu::Engine* e = tmu::find_engine("tensix");
  EXPECT_NE(e, nullptr);
  auto sb = e->scoreboards()->scoreboard(variant);
  EXPECT_NE(sb, nullptr);
  return sb;
}

// SrcA rows 0..15 of bank 0 hold 1.5 and SrcB's 1.75, both banks the Matrix Unit's, in BF16.
void load_operands(tmu::EngineScoreboard& sb) {
  sb.declare(".bank srca 0 owner=matrix format=BF16");
  sb.declare(".bank srcb 0 owner=matrix format=BF16");
  for (unsigned r = 0; r < 16; ++r) {
    sb.load("srca bank 0 row " + std::to_string(r), std::vector<uint32_t>(16, kSrcBf16_1_5));
    sb.load("srcb bank 0 row " + std::to_string(r), std::vector<uint32_t>(16, kSrcBf16_1_75));
  }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TensixEngineScoreboard, ElwaddIntoSixteenBitDstMatchesTheHandSum) {
  auto sb = board();
  load_operands(*sb);
  sb->execute("ELWADD DstRow=0");
  // Two lanes of 0x5080 per word, lane 0 in the low half.
  EXPECT_EQ(sb->read("dst row 0"), std::vector<uint32_t>(8, 0x50805080u));
  EXPECT_EQ(sb->read("dst row 7"), std::vector<uint32_t>(8, 0x50805080u));
  EXPECT_TRUE(sb->compare("dst row 0", std::vector<uint32_t>(8, 0x50805080u)).empty());
  EXPECT_EQ(sb->summary(), "");
}

TEST(TensixEngineScoreboard, AMismatchNamesTheElementTheOperationAndTheDifference) {
  auto sb = board();
  load_operands(*sb);
  sb->execute("ELWADD DstRow=0");
  std::vector<uint32_t> design(8, 0x50805080u);
  design[1] = 0x51805080u;  // column 3: mantissa 1010001b, 3.265625, one BF16 ulp (2^-6) above 3.25
  const auto lines = sb->compare("dst row 2", design);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(contains(lines[0], "Dst16b row 2 col 3")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "design 0x5180")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "model 0x5080")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "ELWADD")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "step 1")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "design 1 ulp farther from zero than the model")) << lines[0];
  EXPECT_TRUE(contains(sb->summary(), "all 1 mismatching lane is 1 ulp farther from zero")) << sb->summary();
  // The sum is exact in BF16, so one ulp more is the final rounding going up where nothing was dropped.
  EXPECT_TRUE(contains(lines[0], "; diagnosis [accum_normalize]")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "rounded up")) << lines[0];

  // Bit 0 of the stored element, the exponent's lowest bit in this layout: 6.5, twice the sum. No
  // stage of an addition of 1.5 and 1.75 yields it, so the diagnosis names storage and the bit.
  design[1] = 0x50815080u;
  const auto storage = sb->compare("dst row 2", design);
  ASSERT_EQ(storage.size(), 1u);
  EXPECT_TRUE(contains(storage[0], "diagnosis [storage]")) << storage[0];
  EXPECT_TRUE(contains(storage[0], "DstBits row 2 col 3 bit 0")) << storage[0];
}

TEST(TensixEngineScoreboard, ThirtyTwoBitDstHoldsTheSumInItsHighHalf) {
  auto sb = board("wormhole");
  sb->declare(".config ALU_ACC_CTRL_Fp32_enabled=1");
  sb->declare(".config ALU_FORMAT_SPEC_REG0_SrcA=5 ALU_FORMAT_SPEC_REG1_SrcB=5");  // BF16's code
  load_operands(*sb);
  // The same instruction by its word, from the engine's own assembler ("0x........").
  sb->execute(".word " + tmu::find_engine("tensix")->words()->assemble("ELWADD DstRow=0", "wormhole", {}));
  EXPECT_EQ(sb->read("dst32 row 0"), std::vector<uint32_t>(16, 0x50800000u));
  std::vector<uint32_t> design(16, 0x50800000u);
  design[15] = 0x50800001u;  // the last FP32 mantissa bit: 1 ulp of FP32 farther from zero
  const auto lines = sb->compare("dst32 row 0", design);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(contains(lines[0], "Dst32b row 0 col 15")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "1 ulp farther from zero than the model")) << lines[0];
  // The low half of that element alone, through its DstBits row: Adj32(0) = 0, low half 8 rows on.
  std::vector<uint32_t> low_half(8, 0);
  low_half[7] = 0x00010000u;  // column 15 in the high half of word 7
  const auto half_lines = sb->compare("dst row 8", low_half);
  ASSERT_EQ(half_lines.size(), 1u);
  EXPECT_TRUE(contains(half_lines[0], "Dst32b row 0 col 15 (DstBits row 8, low half)")) << half_lines[0];
}

TEST(TensixEngineScoreboard, SrcAndGprLocationsRoundTripPerThread) {
  auto sb = board();
  std::vector<uint32_t> row(16);
  for (unsigned c = 0; c < 16; ++c) row[c] = 0x7FFFF - c;
  sb->load("srcb bank 1 row 63", row);
  EXPECT_EQ(sb->read("srcb bank 1 row 63"), row);
  row[4] ^= 1;
  const auto lines = sb->compare("srcb bank 1 row 63", row);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(contains(lines[0], "srcb bank 1 row 63 column 4")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "no operation executed yet")) << lines[0];

  sb->declare(".thread 2");
  sb->load("gpr 63", std::vector<uint32_t>{0xDEADBEEF});
  EXPECT_EQ(sb->read("gpr 63"), std::vector<uint32_t>{0xDEADBEEF});
  sb->declare(".thread 0");
  EXPECT_EQ(sb->read("gpr 63"), std::vector<uint32_t>{0});
  EXPECT_EQ(sb->compare("gpr 63", std::vector<uint32_t>{1}).size(), 1u);
}

TEST(TensixEngineScoreboard, RefusesWhatItCannotTakeNamingTheCallAndTheReason) {
  auto sb = board();
  const auto refused = [](auto&& call, const std::string& part) {
    try {
      call();
    } catch (const tmu::Error& e) {
      EXPECT_EQ(e.kind(), tmu::ErrorKind::BadInput) << e.what();
      EXPECT_TRUE(contains(e.what(), part)) << e.what();
      return;
    }
    ADD_FAILURE() << "not refused: " << part;
  };
  refused([&] { (void)sb->read("dst row 1024"); }, "row '1024' is not a number from 0 to 1023");
  refused([&] { (void)sb->read("dst32 row 512"); }, "from 0 to 511");
  refused([&] { (void)sb->read("srca bank 2 row 0"); }, "bank '2'");
  refused([&] { (void)sb->read("z 0"); }, "unknown Tensix location 'z 0'");
  refused([&] { sb->load("dst row 0", std::vector<uint32_t>(16, 0)); }, "takes 8 32-bit words, 16 given");
  refused([&] { sb->load("srca bank 0 row 0", std::vector<uint32_t>(16, 0x80000)); }, "wider than a 19-bit Src datum");
  refused([&] { sb->declare("ELWADD DstRow=0"); }, "is an instruction; operations go to execute");
  refused([&] { sb->declare(".word 0x28000000"); }, "is an instruction");
  refused([&] { sb->execute(".thread 1"); }, "is not an instruction");
  refused([&] { sb->declare(".arch wormhole"); }, "declare '.arch wormhole'");
  refused([&] { sb->declare(".config NO_SUCH_FIELD=1"); }, "has no field 'NO_SUCH_FIELD'");
  // A refused execute leaves the thread as it was.
  sb->declare(".thread 1");
  sb->load("gpr 0", std::vector<uint32_t>{7});
  refused([&] { sb->execute(".thread 0"); }, "is not an instruction");
  EXPECT_EQ(sb->read("gpr 0"), std::vector<uint32_t>{7});
}

TEST(TensixEngineScoreboard, AStallIsRefusedNotWaitedFor) {
  auto sb = board();
  // The banks belong to the unpackers: ELWADD would wait for them forever.
  try {
    sb->execute("ELWADD DstRow=0");
    ADD_FAILURE() << "a stalled ELWADD was taken";
  } catch (const tmu::Error& e) {
    EXPECT_TRUE(contains(e.what(), "stalls")) << e.what();
  }
}

}  // namespace
