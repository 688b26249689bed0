// The PTO scoreboard (tmu/pto/scoreboard.h): declarations, lane packing into words, operations
// under a profile, mismatch lines and refusals. Expected values are worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tmu/error.h"
#include "tmu/pto/program.h"
#include "tmu/pto/scoreboard.h"

namespace {

using tmu::EngineScoreboard;
using tmu::pto::Profile;

constexpr uint32_t kOneHalf = 0x3FC00000;       // 1.5f
constexpr uint32_t kOneThreeQuarter = 0x3FE00000;  // 1.75f
constexpr uint32_t k3_25 = 0x40500000;          // 3.25f = 1.625 * 2^1

std::vector<uint32_t> fill(size_t n, uint32_t v) { return std::vector<uint32_t>(n, v); }

// The message of the tmu::Error f throws, checking its kind.
std::string error_of(const std::function<void()>& f, tmu::ErrorKind kind = tmu::ErrorKind::BadInput) {
  try {
    f();
  } catch (const tmu::Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.message();
  }
  ADD_FAILURE() << "no tmu::Error";
  return "";
}

// a = 1.5, b = 1.75 (1x8 f32: one 32-byte row, eight words), c declared.
std::unique_ptr<EngineScoreboard> f32_setup(Profile p = Profile::CpuSim) {
  auto sb = tmu::pto::make_scoreboard(p);
  sb->declare("a f32 1x8");
  sb->declare("b f32 1x8");
  sb->declare("c f32 1x8");
  sb->load("a", fill(8, kOneHalf));
  sb->load("b 0", fill(8, kOneThreeQuarter));
  return sb;
}

TEST(PtoScoreboard, F32AddInBothProfiles) {
  for (const Profile p : {Profile::CpuSim, Profile::A2A3}) {
    auto sb = f32_setup(p);
    sb->execute("TADD c a b");  // 1.5 + 1.75 = 3.25, exact
    EXPECT_EQ(sb->read("c"), fill(8, k3_25));
    EXPECT_TRUE(sb->compare("c 0", fill(8, k3_25)).empty());
  }
}

TEST(PtoScoreboard, MismatchLineNamesTheElementValuesAndOperation) {
  auto sb = f32_setup();
  sb->execute("TADD c a b");
  auto design = fill(8, k3_25);
  design[5] = 0x40500001;  // one ulp up: 3.25 + 2^-22, significand 0x1.a00002
  const auto lines = sb->compare("c", design);
  ASSERT_EQ(lines.size(), 1u);
  // The sources' lanes at (0, 5) follow the step: a holds 1.5, b 1.75.
  EXPECT_EQ(lines[0], "c (0, 5) f32: design 0x40500001 (0x1.a00002p+1) model 0x40500000 (3.25); after TADD c a b; step 1; "
                      "a 0x3fc00000 (1.5); b 0x3fe00000 (1.75); no other lane of c mismatches; design 1 ulp farther from zero than "
                      "the model");
  EXPECT_EQ(sb->summary(), "all 1 mismatching lane is 1 ulp farther from zero than the model: the design rounds away "
                           "from zero where the model rounds to nearest even");
}

TEST(PtoScoreboard, NarrowLanesPackFourToAWord) {
  auto sb = tmu::pto::make_scoreboard(Profile::CpuSim);
  sb->declare("x i8 1x32");
  sb->declare("y i8 1x32");
  // Word 0 holds lanes 0..3 from the low byte: 1, 2, -3 (0xfd), 4.
  std::vector<uint32_t> x(8, 0);
  x[0] = 0x04FD0201;
  sb->load("x", x);
  sb->load("y", fill(8, 0x02020202));  // every lane 2
  sb->execute("tmax x x y");            // dst may be a source; the op name in any case
  // max(1,2) = 2, max(2,2) = 2, max(-3,2) = 2, max(4,2) = 4; the other lanes max(0,2) = 2.
  auto want = fill(8, 0x02020202);
  want[0] = 0x04020202;
  EXPECT_EQ(sb->read("x"), want);
  want[0] = 0x02020202;
  const auto lines = sb->compare("x 0", want);
  ASSERT_EQ(lines.size(), 1u);
  // x as the operation read it (4), not as it left it.
  EXPECT_EQ(lines[0], "x (0, 3) i8: design 0x02 (2) model 0x04 (4); after TMAX x x y; step 1; x 0x04 (4); y 0x02 (2); "
                      "no other lane of x 0 mismatches");
  EXPECT_EQ(sb->summary(), "");  // integers: no float difference to share
}

TEST(PtoScoreboard, WideLanesTakeTwoWordsLowFirst) {
  auto sb = tmu::pto::make_scoreboard(Profile::CpuSim);
  sb->declare("q i64 2x4");
  const std::vector<uint32_t> row{1, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 1, 5, 0};  // 1, -1, 2^32, 5
  sb->load("q 1", row);
  EXPECT_EQ(sb->read("q 1"), row);
  EXPECT_EQ(sb->read("q 0"), fill(8, 0));
  auto design = row;
  design[5] = 2;  // lane 2 = 2^33
  const auto lines = sb->compare("q 1", design);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "q (1, 2) i64: design 0x0000000200000000 (8589934592) model 0x0000000100000000 (4294967296); "
                      "no operation executed yet");
}

TEST(PtoScoreboard, CompareWritesPredicateBits) {
  auto sb = tmu::pto::make_scoreboard(Profile::CpuSim);
  sb->declare("a f32 1x8");
  sb->declare("b f32 1x8");
  sb->declare("p u8 1x32");
  // a = 1, 2, 3, ..., 8; b = 2 everywhere. Bit j of predicate byte 0 is lane j.
  sb->load("a", std::vector<uint32_t>{0x3F800000, 0x40000000, 0x40400000, 0x40800000, 0x40A00000, 0x40C00000, 0x40E00000, 0x41000000});
  sb->load("b", fill(8, 0x40000000));
  sb->execute("TCMP p a b cmp=LT");  // only 1 < 2
  EXPECT_EQ(sb->read("p")[0], 0x01u);
  sb->execute("TCMP p a b cmp=LE");  // 1 <= 2, 2 <= 2
  EXPECT_EQ(sb->read("p")[0], 0x03u);
  const auto lines = sb->compare("p", fill(8, 0));
  ASSERT_EQ(lines.size(), 1u);
  // No compare mode gives 0x00 here (EQ 0x02, NE 0xfd, LT 0x01, GT 0xfc, GE 0xfe): the line names
  // the CPU simulator's packing rule only.
  EXPECT_EQ(lines[0], "p (0, 0) u8: design 0x00 (0) model 0x03 (3); after TCMP p a b cmp=LE; step 2; no other lane of p "
                      "mismatches; cpusim rule: TCMP compares lane by lane; bit k of predicate byte j is source lane 8j + k "
                      "of the row");
  // A design that computes LT where LE is asked: 0x01, LT's byte.
  std::vector<uint32_t> lt(8, 0);
  lt[0] = 0x01;
  const auto swapped = sb->compare("p", lt);
  ASSERT_EQ(swapped.size(), 1u);
  EXPECT_NE(swapped[0].find("; diagnosis [cmp-mode] the design's predicates are cmp=LT's where the operation asks cmp=LE"),
            std::string::npos)
      << swapped[0];
}

// One element alone (NAME ROW COL), so a one-lane design needs no padding: after TADD, c is 3.25
// everywhere.
TEST(PtoScoreboard, AnElementLocationLoadsReadsAndComparesOneLane) {
  auto sb = f32_setup();
  sb->execute("TADD c a b");
  EXPECT_EQ(sb->read("c 0 5"), std::vector<uint32_t>{k3_25});
  EXPECT_TRUE(sb->compare("c 0 5", std::vector<uint32_t>{k3_25}).empty());
  const auto lines = sb->compare("c 0 5", std::vector<uint32_t>{0x40500001});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].starts_with("c (0, 5) f32: design 0x40500001 (0x1.a00002p+1) model 0x40500000 (3.25); after TADD c a b; "
                                   "step 1; a 0x3fc00000 (1.5); b 0x3fe00000 (1.75); no other lane of c 0 5 mismatches"))
      << lines[0];
  sb->load("a 0 2", std::vector<uint32_t>{0x40000000});  // 2.0 into (0, 2) only
  const auto a = sb->read("a");
  EXPECT_EQ(a[2], 0x40000000u);
  EXPECT_EQ(a[1], kOneHalf);
  EXPECT_THROW(sb->read("c 0 8"), tmu::Error);
  EXPECT_THROW(sb->compare("c 0 1", std::vector<uint32_t>{1, 2}), tmu::Error);
}

// The replay program declares every tile as the step read it, sets its nonzero rows by bits, and
// runs the step's line under the profile.
TEST(PtoScoreboard, TheReplayProgramRerunsTheStep) {
  auto sb = f32_setup();
  EXPECT_EQ(sb->replay_program(), "");
  sb->execute("TADD c a b");
  const std::string program = sb->replay_program();
  EXPECT_NE(program.find("\n.profile cpusim\n"
                         ".tile a f32 1x8 row_major valid=1x8\n"
                         ".bits a 0 0 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000\n"
                         ".tile b f32 1x8 row_major valid=1x8\n"
                         ".bits b 0 0 0x3fe00000 0x3fe00000 0x3fe00000 0x3fe00000 0x3fe00000 0x3fe00000 0x3fe00000 0x3fe00000\n"
                         ".tile c f32 1x8 row_major valid=1x8\n"
                         "TADD c a b\n"),
            std::string::npos)
      << program;
  EXPECT_EQ(sb->replay_command("r.tmu"), "tmu --engine pto run r.tmu --show c");
  std::istringstream in(program);
  const auto run = tmu::pto::run_program(in, "replay.tmu", {});
  ASSERT_EQ(run.tiles.size(), 3u);
  EXPECT_EQ(run.tiles[2].tile.at(0, 5), k3_25);
}

TEST(PtoScoreboard, LanesAreInRowOrderWhateverTheLayout) {
  auto sb = tmu::pto::make_scoreboard(Profile::CpuSim);
  sb->declare("m f32 8x1 col_major");  // a 32-byte column
  const std::vector<uint32_t> v{10, 11, 12, 13, 14, 15, 16, 17};
  sb->load("m", v);
  EXPECT_EQ(sb->read("m 3"), std::vector<uint32_t>{13});
  // A row of one f16 lane is one word whose high half must be zero.
  sb->declare("h f16 16x1 col_major valid=4x1");
  sb->load("h 2", std::vector<uint32_t>{0x3C00});
  EXPECT_EQ(sb->read("h")[1], 0x3C00u);  // lanes 2 and 3 share word 1
  EXPECT_EQ(error_of([&] { sb->load("h 2", std::vector<uint32_t>{0x00013C00}); }),
            "PTO location 'h 2': the last word 0x00013c00 has bits set past its last lane (bit 16 up)");
}

TEST(PtoScoreboard, RefusesBadDeclarationsLocationsAndOperations) {
  auto sb = f32_setup();
  EXPECT_EQ(error_of([&] { sb->declare("a f32 1x8"); }), "PTO tile 'a' is already declared");
  EXPECT_EQ(error_of([&] { sb->declare("d f31 1x8"); }),
            "unknown element type 'f31' (f32 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64)");
  EXPECT_EQ(error_of([&] { sb->declare("d f32"); }),
            ".tile takes NAME TYPE ROWSxCOLS, then optionally row_major or col_major and valid=VRxVC");
  EXPECT_FALSE(error_of([&] { sb->declare("d f32 1x7"); }).empty());  // 28-byte rows: pto_tile.hpp refuses
  EXPECT_EQ(error_of([&] { sb->load("z", fill(8, 0)); }),
            "no PTO tile named 'z' (declare it first: NAME TYPE ROWSxCOLS)");
  EXPECT_EQ(error_of([&] { sb->load("a 1", fill(8, 0)); }), "PTO location 'a 1': row '1' is not a number from 0 to 0");
  EXPECT_EQ(error_of([&] { sb->load("a 0 0 0", fill(8, 0)); }), "PTO location 'a 0 0 0' is not NAME, NAME ROW or NAME ROW COL");
  EXPECT_EQ(error_of([&] { sb->load("a 0 8", fill(1, 0)); }), "PTO location 'a 0 8': column '8' is not a number from 0 to 7");
  EXPECT_EQ(error_of([&] { sb->compare("a", fill(7, 0)); }),
            "PTO location 'a' (8 f32 lanes) takes 8 32-bit words, 7 given");
  EXPECT_EQ(error_of([&] { sb->execute("TFROB c a b"); }), "unknown operation 'TFROB'");
  EXPECT_EQ(error_of([&] { sb->execute("TADD c a"); }), "TADD takes a destination and 2 source tiles (1 given)");
  EXPECT_FALSE(error_of([&] { sb->execute("TCMP c a b"); }).empty());  // TCMP needs cmp=
  EXPECT_EQ(error_of([&] { sb->execute("TADD c a nope"); }),
            "no PTO tile named 'nope' (declare it first: NAME TYPE ROWSxCOLS)");
  EXPECT_EQ(error_of([&] { sb->execute(""); }), "an empty operation line");
  EXPECT_EQ(sb->read("c"), fill(8, 0));  // nothing ran
}

TEST(PtoScoreboard, ModelRefusalsPropagateWithTheirKind) {
  auto sb = f32_setup();
  sb->declare("w f32 2x8");
  // Mismatched valid regions: the ISA leaves it undefined, and the model says so.
  const std::string why = error_of([&] { sb->execute("TADD c a w"); }, tmu::ErrorKind::UndefinedBehaviour);
  EXPECT_NE(why.find("TADD"), std::string::npos) << why;
  EXPECT_EQ(sb->read("c"), fill(8, 0));
}

}  // namespace
