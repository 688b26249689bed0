// The AMX scoreboard (tmu/amx/scoreboard.h): locations, word order, matfp through operands and
// text, mismatch lines and refusals. Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tmu/amx/lane_diagnosis.h"
#include "tmu/amx/program.h"
#include "tmu/amx/scoreboard.h"
#include "tmu/error.h"

namespace {

using tmu::EngineScoreboard;

constexpr uint32_t kOneHalf = 0x3FC00000;   // 1.5f
constexpr uint32_t kTwo = 0x40000000;       // 2.0f
constexpr uint32_t kQuarter = 0x3E800000;   // 0.25f
constexpr uint32_t k3_25 = 0x40500000;      // 3.25f = 1.625 * 2^1: fraction .101 -> 0x500000
// matfp, lane width code 4 (f32) in bits 42..45, everything else 0: z[4j][i] += x[i] * y[j] from
// X and Y offset 0 into Z rows 0, 4, 8, ...
constexpr const char* kF32Operand = "0x0000100000000000";

std::vector<uint32_t> fill(size_t n, uint32_t v) { return std::vector<uint32_t>(n, v); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const tmu::Error& e) {
    EXPECT_EQ(e.kind(), tmu::ErrorKind::BadInput) << e.what();
    return e.message();
  }
  ADD_FAILURE() << "no tmu::Error";
  return "";
}

// X register 0 all 1.5, Y lane 0 = 2 (the rest 0), Z row 0 all 0.25.
std::unique_ptr<EngineScoreboard> fma_setup() {
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  sb->load("x 0", fill(16, kOneHalf));
  std::vector<uint32_t> y(16, 0);
  y[0] = kTwo;
  sb->load("y 0", y);
  sb->load("z 0", fill(16, kQuarter));
  return sb;
}

TEST(AmxScoreboard, WordsAreLittleEndianBytesOfTheRegister) {
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  std::vector<uint32_t> row(16);
  for (uint32_t w = 0; w < 16; ++w) row[w] = 0x03020100u + 0x04040404u * w;  // byte i holds i
  sb->load("x 2", row);
  EXPECT_EQ(sb->read("x 2"), row);
  const auto pool = sb->read("x");
  ASSERT_EQ(pool.size(), 128u);
  EXPECT_EQ(pool[31], 0u);
  EXPECT_EQ(pool[32], 0x03020100u);  // register 2 starts at word 2 * 16
  EXPECT_EQ(pool[47], 0x3F3E3D3Cu);
  EXPECT_EQ(sb->read("y").size(), 128u);
  EXPECT_EQ(sb->read("z").size(), 1024u);
  EXPECT_EQ(sb->read("z 63"), fill(16, 0));
}

TEST(AmxScoreboard, WholeLocationsLoadEveryRow) {
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  std::vector<uint32_t> z(1024);
  for (uint32_t i = 0; i < 1024; ++i) z[i] = i;
  sb->load("z", z);
  const auto row5 = sb->read("z 5");
  EXPECT_EQ(row5.front(), 80u);  // row 5 is words 80..95
  EXPECT_EQ(row5.back(), 95u);
  EXPECT_EQ(sb->read("z"), z);
}

TEST(AmxScoreboard, F32MultiplyAddFromAnOperand) {
  auto sb = fma_setup();
  sb->execute(kF32Operand);
  // Row 0 (j = 0): 0.25 + 1.5 * 2 = 3.25 in every lane; row 4 (j = 1): 0 + 1.5 * 0 = 0; row 1 is
  // not an f32 row of this operand and keeps 0.
  EXPECT_EQ(sb->read("z 0"), fill(16, k3_25));
  EXPECT_EQ(sb->read("z 4"), fill(16, 0));
  EXPECT_TRUE(sb->compare("z 0", fill(16, k3_25)).empty());
  EXPECT_TRUE(sb->compare("z 1", fill(16, 0)).empty());
}

TEST(AmxScoreboard, AssemblyTextRunsTheSameOperand) {
  auto sb = fma_setup();
  sb->execute("matfp f32 z+=x*y x=0x0 y=0x0");
  EXPECT_EQ(sb->read("z 0"), fill(16, k3_25));
  sb->execute("matfp f32 z-=x*y x=0 y=0");  // 3.25 - 3 = 0.25
  EXPECT_EQ(sb->read("z 0"), fill(16, kQuarter));
}

TEST(AmxScoreboard, MismatchLineNamesRowLaneValuesAndOperand) {
  auto sb = fma_setup();
  sb->execute(kF32Operand);
  auto design = fill(16, k3_25);
  // One ulp up: 3.25 + 2^(1 - 23), significand 0x1.a00002 (0x1.a is 1.625), which the value text
  // writes as a hex float because its decimal expansion is long.
  design[3] = 0x40500001;
  const auto lines = sb->compare("z 0", design);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "z row 0 lane 3 (f32): design 0x40500001 (0x1.a00002p+1) model 0x40500000 (3.25); "
            "after 0x0000100000000000: matfp f32 z+=x*y x=0x000 y=0x000 zrow=0 xen=0:0(all) yen=0:0(all) "
            "xshuf=S0 yshuf=S0; step 1; z before 0x3e800000 (0.25); x lane 3 0x3fc00000 (1.5) * y lane 0 0x40000000 (2); "
            "no other lane of z row 0 mismatches; design 1 ulp farther from zero than the model");
  EXPECT_EQ(sb->summary(),
            "all 1 mismatching lane is 1 ulp farther from zero than the model: the design rounds away from zero where "
            "matfp rounds to nearest even");
  // The whole of Z: the row is found from the word index (row 0 lanes 3 and 15 here, 2 lines).
  auto z = sb->read("z");
  z[3] = 0x40500001;
  z[15] = 0;
  const auto all = sb->compare("z", z);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_TRUE(all[1].starts_with("z row 0 lane 15 (f32): design 0x00000000 (0) model 0x40500000 (3.25)")) << all[1];
}

TEST(AmxScoreboard, AWideningLaneNamesTheProductThatLandsInIt) {
  // matfp f16f32 (corsix/amx RegisterFile.md): the product of X lane i and Y lane j lands in Z row
  // 2j + (i odd), lane i / 2; so X lane 5 and Y lane 3 land in row 7, lane 2. X lane 5 holds f16 1.5
  // (0x3e00) and Y lane 3 f16 2 (0x4000), every other lane 0: Z row 7 lane 2 becomes 3.0f (0x40400000).
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  std::vector<uint32_t> x(16, 0), y(16, 0);
  x[2] = 0x3e000000;  // lane 5: the high half of word 2
  y[1] = 0x40000000;  // lane 3: the high half of word 1
  sb->load("x 0", x);
  sb->load("y 0", y);
  sb->execute("matfp f16f32 z+=x*y x=0 y=0");
  auto row = sb->read("z 7");
  EXPECT_EQ(row[2], 0x40400000u);
  row[2] = 0x40400001u;
  const auto lines = sb->compare("z 7", row);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].find("; x lane 5 0x3e00 (1.5) * y lane 3 0x4000 (2)") != std::string::npos) << lines[0];
  // Row 6 (even X lanes) lane 2 takes X lane 4 (0) times the same Y lane 3.
  auto row6 = sb->read("z 6");
  row6[2] ^= 1;
  const auto six = sb->compare("z 6", row6);
  ASSERT_EQ(six.size(), 1u);
  EXPECT_TRUE(six[0].find("; x lane 4 0x0000 (0) * y lane 3 0x4000 (2)") != std::string::npos) << six[0];
}

TEST(AmxScoreboard, LanesFollowTheLastOperandsWidth) {
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  // Before any operand: raw 32-bit words.
  auto lines = sb->compare("x 1", std::vector<uint32_t>{0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "x register 1 lane 1 (raw32): design 0x00000007 model 0x00000000; no operation executed yet");
  // f16 (code 2): X and Z lanes are f16, so word 0's high half is lane 1. 0x3c00 is 1.0.
  sb->execute("0x0000080000000000");
  std::vector<uint32_t> z(16, 0);
  z[0] = 0x3C000000;
  lines = sb->compare("z 0", z);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].starts_with("z row 0 lane 1 (f16): design 0x3c00 (1) model 0x0000 (0);")) << lines[0];
  // f64 (code 7): a lane is two words, the low word first; 0x3ff0000000000000 is 1.0.
  sb->execute("matfp f64 z+=x*y");
  z[0] = 0;
  z[2] = 0;
  z[3] = 0x3FF00000;
  lines = sb->compare("z 0", z);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].starts_with("z row 0 lane 1 (f64): design 0x3ff0000000000000 (1) model 0x0000000000000000 (0);"))
      << lines[0];
}

TEST(AmxScoreboard, RefusesBadLocationsCountsAndOperations) {
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  const auto row = fill(16, 0);
  EXPECT_EQ(error_of([&] { sb->load("w 0", row); }),
            "unknown AMX location 'w 0' (x, y, z, 'x N' or 'y N' (N 0..7), 'z N' (N 0..63), and one lane of a register or row: "
            "'z N lane L')");
  EXPECT_EQ(error_of([&] { sb->load("x3", row); }),
            "unknown AMX location 'x3' (x, y, z, 'x N' or 'y N' (N 0..7), 'z N' (N 0..63), and one lane of a register or row: "
            "'z N lane L')");
  EXPECT_EQ(error_of([&] { sb->load("x 8", row); }), "AMX location 'x 8': register '8' is not a number from 0 to 7");
  EXPECT_EQ(error_of([&] { sb->compare("z 64", row); }), "AMX location 'z 64': Z row '64' is not a number from 0 to 63");
  EXPECT_EQ(error_of([&] { sb->read("z 1 2"); }),
            "unknown AMX location 'z 1 2' (x, y, z, 'x N' or 'y N' (N 0..7), 'z N' (N 0..63), and one lane of a register or row: "
            "'z N lane L')");
  EXPECT_EQ(error_of([&] { sb->load("y 1", fill(15, 0)); }), "AMX location 'y 1' takes 16 32-bit words, 15 given");
  EXPECT_EQ(error_of([&] { sb->compare("z", row); }), "AMX location 'z' takes 1024 32-bit words, 16 given");
  EXPECT_EQ(error_of([&] { sb->execute("fmadd"); }),
            "AMX operation 'fmadd' is neither a 64-bit matfp operand in hex (0x...) nor matfp text "
            "('matfp f32 z+=x*y x=0x40 y=0x80')");
  EXPECT_EQ(error_of([&] { sb->execute("0x1 0x2"); }).substr(0, 27), "AMX operation '0x1 0x2' is ");
  EXPECT_EQ(error_of([&] { sb->execute("12"); }).substr(0, 22), "AMX operation '12' is ");
  EXPECT_EQ(error_of([&] { sb->execute(""); }), "an empty AMX operation (a 0x matfp operand or 'matfp ...' text)");
  EXPECT_NE(error_of([&] { sb->execute("matfp f32 x=0x200"); }).find("x"), std::string::npos);
  EXPECT_EQ(error_of([&] { sb->declare("t f32 1x8"); }),
            "the AMX scoreboard has nothing to declare (its registers are fixed), got 't f32 1x8'");
  // Nothing was executed by the refusals.
  EXPECT_EQ(sb->read("z"), fill(1024, 0));
}

}  // namespace

// How a design's lane relates to the model's, worked by hand from the f32 encoding: 3.25 is
// 0x40500000; 0x404fffff is the float just below it (one ulp nearer zero), 0x40500003 three above;
// -3.25 is 0xc0500000, its neighbour nearer zero 0xc04fffff.
TEST(AmxScoreboard, LinesSayHowTheDesignDiffersAndTheSummaryFindsTheCommonCause) {
  auto sb = fma_setup();
  sb->execute(kF32Operand);
  const auto line_for = [&](uint32_t design_lane0) {
    auto design = fill(16, k3_25);
    design[0] = design_lane0;
    const auto lines = sb->compare("z 0", design);
    EXPECT_EQ(lines.size(), 1u);
    return lines.empty() ? std::string() : lines[0];
  };
  EXPECT_TRUE(line_for(0x404FFFFF).ends_with("; design 1 ulp nearer zero than the model"));
  EXPECT_TRUE(line_for(0x40500003).ends_with("; design 3 ulps farther from zero than the model"));
  EXPECT_TRUE(line_for(0xC0500000).ends_with("; design of the other sign than the model"));
  EXPECT_TRUE(line_for(0x7FC00000).ends_with("; design a NaN where the model has a number"));
  EXPECT_TRUE(line_for(0x40D00000).ends_with("; design 8388608 ulps farther from zero than the model"));  // 6.5: 2^23 up
  EXPECT_EQ(sb->summary(), "");  // four different relations: no common cause

  auto truncating = fma_setup();
  truncating->execute(kF32Operand);
  auto design = fill(16, 0x404FFFFF);  // every lane one ulp below 3.25
  EXPECT_EQ(truncating->compare("z 0", design).size(), 16u);
  EXPECT_EQ(truncating->summary(),
            "all 16 mismatching lanes are 1 ulp nearer zero than the model: the design rounds toward zero (truncates) "
            "where matfp rounds to nearest even");
}

// One lane alone, so a one-lane design needs no padding: after the f32 operand of fma_setup, Z row 0
// is 3.25 (0x40500000) in every lane; X register 0 is 1.5 (0x3fc00000) in every lane.
TEST(AmxScoreboard, ALaneLocationLoadsReadsAndComparesOneLane) {
  auto sb = fma_setup();
  sb->execute(kF32Operand);
  EXPECT_EQ(sb->read("z 0 lane 3"), std::vector<uint32_t>{k3_25});
  EXPECT_TRUE(sb->compare("z 0 lane 3", std::vector<uint32_t>{k3_25}).empty());
  const auto lines = sb->compare("z 0 lane 3", std::vector<uint32_t>{0x40500001});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].starts_with("z row 0 lane 3 (f32): design 0x40500001 (0x1.a00002p+1) model 0x40500000 (3.25);"))
      << lines[0];
  sb->load("x 0 lane 2", std::vector<uint32_t>{0x40000000});  // 2.0 into lane 2 only
  const auto x0 = sb->read("x 0");
  EXPECT_EQ(x0[2], 0x40000000u);
  EXPECT_EQ(x0[1], 0x3FC00000u);
  EXPECT_EQ(x0[3], 0x3FC00000u);
  // f32 lanes are 0..15; a lane location takes one word for them.
  EXPECT_THROW(sb->read("z 0 lane 16"), tmu::Error);
  EXPECT_THROW(sb->compare("z 0 lane 1", std::vector<uint32_t>{1, 2}), tmu::Error);
  EXPECT_THROW(sb->load("z 0 lane", std::vector<uint32_t>{1}), tmu::Error);
  // f16 (code 2): 32 lanes of 16 bits; lane 31 is the high half of word 15, and a word above 16 bits is refused.
  sb->execute("0x0000080000000000");
  EXPECT_EQ(sb->read("z 0 lane 31"), std::vector<uint32_t>{k3_25 >> 16});
  EXPECT_THROW(sb->load("z 0 lane 0", std::vector<uint32_t>{0x10000}), tmu::Error);
}

// Each departure from matfp's arithmetic, on operands where it alone moves the result, worked in
// binary: f32 has 23 fraction bits, so the ulp of [1, 2) is 2^-23.
TEST(AmxLaneDiagnosis, NamesTheDepartureThatGivesTheDesignsLane) {
  const auto f32 = tmu::ieee::kBinary32;
  const auto diagnose = [&](uint32_t x, uint32_t y, uint32_t z, uint32_t design) {
    return tmu::amx::diagnose_fma_lane(f32, f32, false, x, y, z, design);
  };
  // (1 + 2^-23) * 1.5 + 0 = 1.5 + 2^-23 + 2^-24: a tie between 0x3fc00001 (odd) and 0x3fc00002
  // (even), which round to nearest even takes; truncation and toward -inf keep 0x3fc00001.
  EXPECT_EQ(diagnose(0x3F800001, 0x3FC00000, 0, 0x3FC00001),
            "diagnosis [truncation] the FMA rounds toward zero (truncates) where matfp rounds to nearest even or "
            "[rounding] the FMA rounds toward -inf where matfp rounds to nearest even");
  // Negated, the same tie: toward -inf rounds away from zero, to 0xbfc00002, as nearest even does;
  // truncation and toward +inf both give 0xbfc00001.
  EXPECT_EQ(diagnose(0xBF800001, 0x3FC00000, 0, 0xBFC00001),
            "diagnosis [truncation] the FMA rounds toward zero (truncates) where matfp rounds to nearest even or "
            "[rounding] the FMA rounds toward +inf where matfp rounds to nearest even");
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly (0x3a000400: fraction 2^-13 = 0x400 << 0); the
  // product rounded first is 1 + 2^-11 (the 2^-24 is half an ulp, to the even neighbour), minus 1 is
  // 2^-11 = 0x3a000000.
  EXPECT_EQ(diagnose(0x3F800800, 0x3F800800, 0xBF800000, 0x3A000000),
            "diagnosis [unfused] the design rounds the product before adding it (two roundings) where matfp's FMA "
            "rounds once");
  // 2^-126 * 0.5 = 2^-127, the subnormal 0x00400000; flushed, +0.
  EXPECT_EQ(diagnose(0x00800000, 0x3F000000, 0, 0),
            "diagnosis [subnormal-flush] the design flushes subnormal operands or results to zero where matfp keeps "
            "them (FZ off)");
  // A quiet NaN x with payload 0x123 times 1 plus 1: the default NaN 0x7fc00000 under DN, x itself
  // when NaNs propagate.
  EXPECT_EQ(diagnose(0x7FC00123, 0x3F800000, 0x3F800000, 0x7FC00123),
            "diagnosis [nan-propagation] the design propagates a NaN operand's payload where matfp returns the default "
            "NaN (FPCR.DN = 1)");
  // A design off by two ulps on an exact result: nothing explains it.
  EXPECT_EQ(diagnose(0x3FC00000, 0x40000000, 0x3E800000, 0x40500002), "");
}

// The line of a truncating design: X lane 0 is 1 + 2^-23 and lane 1 is 1.5 + 2^-23 (0x3fc00001),
// Y lane 0 is 1.5, Z row 0 zero. Lane 0 is the tie above (0x3fc00002, truncated 0x3fc00001);
// lane 1 is 2.25 + 1.5 * 2^-23 in [2, 4), whose ulp is 2^-22: 2.25 and three quarters of an ulp,
// nearest 0x40100001, truncated 0x40100000 (2.25).
TEST(AmxScoreboard, AMismatchLineDiagnosesTheLaneAndCountsTheOthers) {
  auto sb = tmu::amx::make_scoreboard(tmu::amx::Version::M1);
  std::vector<uint32_t> x(16, 0), y(16, 0);
  x[0] = 0x3F800001;
  x[1] = 0x3FC00001;
  y[0] = 0x3FC00000;
  sb->load("x 0", x);
  sb->load("y 0", y);
  sb->execute(kF32Operand);
  auto z = sb->read("z 0");
  ASSERT_EQ(z[0], 0x3FC00002u);
  ASSERT_EQ(z[1], 0x40100001u);
  z[0] = 0x3FC00001;
  z[1] = 0x40100000;
  const auto lines = sb->compare("z 0", z);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "z row 0 lane 0 (f32): design 0x3fc00001 (0x1.800002p+0) model 0x3fc00002 (0x1.800004p+0); after "
            "0x0000100000000000: matfp f32 z+=x*y x=0x000 y=0x000 zrow=0 xen=0:0(all) yen=0:0(all) xshuf=S0 yshuf=S0; "
            "step 1; z before 0x00000000 (0); x lane 0 0x3f800001 (0x1.000002p+0) * y lane 0 0x3fc00000 (1.5); "
            "diagnosis [truncation] the FMA rounds toward zero (truncates) where matfp rounds to nearest even or "
            "[rounding] the FMA rounds toward -inf where matfp rounds to nearest even; 1 other lane of z row 0 mismatches after this operand: lane 1; design 1 ulp nearer zero than the model");
  EXPECT_EQ(lines[1],
            "z row 0 lane 1 (f32): design 0x40100000 (2.25) model 0x40100001 (0x1.200002p+1); step 1, the "
            "operand of the line above; design 1 ulp nearer zero than the model");
}

// The replay program holds the nonzero registers and Z rows the step read, as raw words, and the
// operand; run by the AMX program runner it gives the model's value again.
TEST(AmxScoreboard, TheReplayProgramRerunsTheStep) {
  auto sb = fma_setup();
  EXPECT_EQ(sb->replay_program(), "");
  sb->execute(kF32Operand);
  const std::string one_half_row = " 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 "
                                   "0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 0x3fc00000 "
                                   "0x3fc00000 0x3fc00000";
  const std::string quarter_row = " 0x3e800000 0x3e800000 0x3e800000 0x3e800000 0x3e800000 0x3e800000 0x3e800000 "
                                  "0x3e800000 0x3e800000 0x3e800000 0x3e800000 0x3e800000 0x3e800000 0x3e800000 "
                                  "0x3e800000 0x3e800000";
  const std::string program = sb->replay_program();
  EXPECT_NE(program.find("\n.version M1\n.x 0 raw32" + one_half_row +
                         "\n.y 0 raw32 0x40000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 "
                         "0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 "
                         "0x00000000\n.z 0 raw32" + quarter_row + "\nmatfp 0x0000100000000000\n"),
            std::string::npos)
      << program;
  EXPECT_EQ(sb->replay_command("r.tmu"), "tmu --engine amx run r.tmu --show z --values f32");
  std::istringstream in(program);
  const auto run = tmu::amx::run_program(in, "replay.tmu", {});
  // 0.25 + 1.5 * 2 = 3.25 in every lane of Z row 0.
  EXPECT_EQ(run.state.z[0][0], 0x00);
  EXPECT_EQ(run.state.z[0][2], 0x50);
  EXPECT_EQ(run.state.z[0][3], 0x40);
}
