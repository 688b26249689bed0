// The engine scoreboards' C ABI (tb/dpi/tmu_dpi_engine.cpp) exercised through its C functions as a
// simulator calls them: handles as void*, open arrays as svOpenArrayHandle. With no simulator here,
// this file supplies the three svdpi.h calls the adapter uses, over a small array record of its own,
// as a simulator's runtime does over its. Expected values are worked out by hand in the comments.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtmu_dpi__Dpi.h"

namespace {

// What an open-array handle points to in this test: SystemVerilog's `int unsigned a[low:low+n-1]`.
struct FakeOpenArray {
  std::vector<uint32_t> words;
  int low = 0;
};

}  // namespace

extern "C" {
int svLow(const svOpenArrayHandle h, int d) { return d == 1 ? static_cast<const FakeOpenArray*>(h)->low : -1; }
int svSize(const svOpenArrayHandle h, int d) {
  return d == 1 ? static_cast<int>(static_cast<const FakeOpenArray*>(h)->words.size()) : -1;
}
void* svGetArrElemPtr1(const svOpenArrayHandle h, int index) {
  auto* a = static_cast<FakeOpenArray*>(h);
  const int i = index - a->low;
  return i >= 0 && i < static_cast<int>(a->words.size()) ? &a->words[static_cast<size_t>(i)] : nullptr;
}
}

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TmuDpiEngine, CreateRefusesUnknownEnginesAndVariants) {
  EXPECT_EQ(tmu_eng_create("toy", "", "t", 1), nullptr);
  EXPECT_TRUE(contains(tmu_eng_last_error(nullptr), "unknown engine 'toy'")) << tmu_eng_last_error(nullptr);
  EXPECT_EQ(tmu_eng_create("amx", "M9", "t", 1), nullptr);
  EXPECT_TRUE(contains(tmu_eng_last_error(nullptr), "M9")) << tmu_eng_last_error(nullptr);
  EXPECT_EQ(tmu_eng_create(nullptr, nullptr, nullptr, 0), nullptr);
  // A bad handle is refused, never dereferenced.
  int stack_object = 0;
  EXPECT_EQ(tmu_eng_execute(&stack_object, "0x0"), -1);
  EXPECT_EQ(tmu_eng_mismatch_count(&stack_object), 0u);
  EXPECT_TRUE(contains(tmu_eng_report(&stack_object), "invalid"));
  tmu_eng_destroy(&stack_object);  // ignored
}

TEST(TmuDpiEngine, AmxRoundTripAndReport) {
  void* h = tmu_eng_create("amx", "", "amx_dpi", 5);  // "" is the default variant, M1
  ASSERT_NE(h, nullptr) << tmu_eng_last_error(nullptr);
  // X register 0 all 1.5f, Y register 0 lane 0 = 2.0f, Z row 0 all 0.25f, then f32 z += x*y:
  // Z row 0 lane i = 0.25 + 1.5 * 2 = 3.25f = 0x40500000 (1.625 * 2^1).
  FakeOpenArray x{std::vector<uint32_t>(16, 0x3FC00000)}, y{std::vector<uint32_t>(16, 0)},
      z{std::vector<uint32_t>(16, 0x3E800000), 3};  // an array declared [3:18]: low index 3
  y.words[0] = 0x40000000;
  ASSERT_EQ(tmu_eng_load(h, "x 0", &x), 0) << tmu_eng_last_error(h);
  ASSERT_EQ(tmu_eng_load(h, "y 0", &y), 0);
  ASSERT_EQ(tmu_eng_load(h, "z 0", &z), 0);
  ASSERT_EQ(tmu_eng_execute(h, "0x0000100000000000"), 0) << tmu_eng_last_error(h);
  FakeOpenArray got{std::vector<uint32_t>(16, 0)};
  ASSERT_EQ(tmu_eng_read(h, "z 0", &got), 16);
  EXPECT_EQ(got.words, std::vector<uint32_t>(16, 0x40500000));

  FakeOpenArray design{got.words};
  EXPECT_EQ(tmu_eng_compare(h, "z 0", &design), 0);
  design.words[7] = 0x40400000;  // 3.0: the design forgot z
  EXPECT_EQ(tmu_eng_compare(h, "z 0", &design), 1);
  EXPECT_EQ(tmu_eng_mismatch_count(h), 1u);
  const std::string report = tmu_eng_report(h);
  EXPECT_TRUE(contains(report, "tmu amx scoreboard (M1), test 'amx_dpi', seed 5: 1 mismatching lane\n")) << report;
  EXPECT_TRUE(contains(report, "z row 0 lane 7 (f32): design 0x40400000 (3) model 0x40500000 (3.25); after "
                               "0x0000100000000000: matfp f32 z+=x*y"))
      << report;
  tmu_eng_destroy(h);
}

TEST(TmuDpiEngine, PtoDeclareExecuteCompare) {
  void* h = tmu_eng_create("pto", "A2A3", "pto_dpi", 9);  // variant names in any case
  ASSERT_NE(h, nullptr) << tmu_eng_last_error(nullptr);
  ASSERT_EQ(tmu_eng_declare(h, "a i32 1x8"), 0) << tmu_eng_last_error(h);
  ASSERT_EQ(tmu_eng_declare(h, "b i32 1x8"), 0);
  ASSERT_EQ(tmu_eng_declare(h, "c i32 1x8"), 0);
  FakeOpenArray a{{1, 2, 3, 4, 5, 6, 7, 0xFFFFFFFF}}, b{std::vector<uint32_t>(8, 10)};
  ASSERT_EQ(tmu_eng_load(h, "a", &a), 0);
  ASSERT_EQ(tmu_eng_load(h, "b 0", &b), 0);
  ASSERT_EQ(tmu_eng_execute(h, "TADD c a b"), 0) << tmu_eng_last_error(h);
  // 1 + 10 ... 7 + 10, and -1 + 10 = 9.
  FakeOpenArray design{{11, 12, 13, 14, 15, 16, 17, 9}};
  EXPECT_EQ(tmu_eng_compare(h, "c", &design), 0);
  design.words[2] = 0;
  EXPECT_EQ(tmu_eng_compare(h, "c", &design), 1);
  EXPECT_TRUE(contains(tmu_eng_report(h), "c (0, 2) i32: design 0x00000000 (0) model 0x0000000d (13); after TADD c a b"))
      << tmu_eng_report(h);
  tmu_eng_destroy(h);
}

TEST(TmuDpiEngine, TensixThroughTheSameCalls) {
  void* h = tmu_eng_create("tensix", "Wormhole", "tensix_dpi", 3);
  ASSERT_NE(h, nullptr) << tmu_eng_last_error(nullptr);
  // BF16 1.5 (Src datum 0x2007f) times 2.0 (0x0080: exponent 128, mantissa 0) with FP32 Dst:
  // ELWMUL's first fidelity phase (SrcA's top mantissa bits, which hold all of 1.5's) gives 3.0 exactly, FP32 0x40400000, stored in Dst32 as 0x40800000 (the high
  // half in the 16-bit Dst layout: sign 15, mantissa 14:8 = 1000000b, exponent 7:0 = 128).
  for (const char* line : {".config ALU_ACC_CTRL_Fp32_enabled=1 ALU_FORMAT_SPEC_REG0_SrcA=5 ALU_FORMAT_SPEC_REG1_SrcB=5",
                           ".bank srca 0 owner=matrix", ".bank srcb 0 owner=matrix"})
    ASSERT_EQ(tmu_eng_declare(h, line), 0) << tmu_eng_last_error(h);
  FakeOpenArray a{std::vector<uint32_t>(16, 0x2007F)}, b{std::vector<uint32_t>(16, 0x00080)};
  for (int r = 0; r < 8; ++r) {
    ASSERT_EQ(tmu_eng_load(h, ("srca bank 0 row " + std::to_string(r)).c_str(), &a), 0) << tmu_eng_last_error(h);
    ASSERT_EQ(tmu_eng_load(h, ("srcb bank 0 row " + std::to_string(r)).c_str(), &b), 0);
  }
  ASSERT_EQ(tmu_eng_execute(h, "ELWMUL DstRow=0"), 0) << tmu_eng_last_error(h);
  FakeOpenArray design{std::vector<uint32_t>(16, 0x40800000)};
  EXPECT_EQ(tmu_eng_compare(h, "dst32 row 3", &design), 0) << tmu_eng_report(h);
  design.words[7] = 0x40800001;
  EXPECT_EQ(tmu_eng_compare(h, "dst32 row 3", &design), 1);
  EXPECT_TRUE(contains(tmu_eng_report(h), "Dst32b row 3 col 7")) << tmu_eng_report(h);
  EXPECT_EQ(tmu_eng_execute(h, "NOSUCH 1"), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "NOSUCH")) << tmu_eng_last_error(h);
  tmu_eng_destroy(h);
}

TEST(TmuDpiEngine, ErrorsComeBackAsMinusOneWithTheReason) {
  void* h = tmu_eng_create("pto", "cpusim", "pto_errors", 1);
  ASSERT_NE(h, nullptr);
  FakeOpenArray eight{std::vector<uint32_t>(8, 0)}, seven{std::vector<uint32_t>(7, 0)};
  EXPECT_EQ(tmu_eng_load(h, "a", &eight), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "tmu_eng_load: BadInput: no PTO tile named 'a'")) << tmu_eng_last_error(h);
  ASSERT_EQ(tmu_eng_declare(h, "a f32 1x8"), 0);
  EXPECT_EQ(tmu_eng_compare(h, "a", &seven), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "takes 8 32-bit words, 7 given")) << tmu_eng_last_error(h);
  EXPECT_EQ(tmu_eng_read(h, "a", &seven), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "location 'a' has 8 words, the array 7")) << tmu_eng_last_error(h);
  EXPECT_EQ(tmu_eng_execute(h, "TSQRT a"), -1);
  EXPECT_EQ(tmu_eng_load(h, "a", nullptr), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "no array given"));
  EXPECT_EQ(tmu_eng_declare(h, nullptr), -1);  // an empty declaration
  EXPECT_EQ(tmu_eng_mismatch_count(h), 0u);
  tmu_eng_destroy(h);
  EXPECT_EQ(tmu_eng_declare(h, "b f32 1x8"), -1);  // destroyed
}

// One lane through tmu_eng_load_lane / tmu_eng_compare_lane, no array: the AMX f32 step of
// AmxLoadExecuteCompare loaded lane by lane (X lane 0 = 1.5, Y lane 0 = 2, Z row 0 lane 0 = 0.25)
// gives Z row 0 lane 0 = 3.25 (0x40500000). The failing step is written to the replay directory as
// a program, named on its first line with the command that runs it.
TEST(TmuDpiEngine, LaneCallsAndTheReplayDirectory) {
  void* h = tmu_eng_create("amx", "M1", "lanes", 2);
  ASSERT_NE(h, nullptr) << tmu_eng_last_error(nullptr);
  ASSERT_EQ(tmu_eng_load_lane(h, "x 0 lane 0", 32, 0x3FC00000), 0) << tmu_eng_last_error(h);
  ASSERT_EQ(tmu_eng_load_lane(h, "y 0 lane 0", 32, 0x40000000), 0);
  ASSERT_EQ(tmu_eng_load_lane(h, "z 0 lane 0", 32, 0x3E800000), 0);
  ASSERT_EQ(tmu_eng_execute(h, "0x0000100000000000"), 0);
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 32, 0x40500000), 0);
  // Without a directory the first line of the failing step says how to get one.
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 32, 0x40500001), 1);
  EXPECT_TRUE(contains(tmu_eng_report(h), "; replay: tmu_eng_replay_dir(h, DIR) writes this step as a program for "
                                          "tmu --engine amx run FILE --show z --values f32"))
      << tmu_eng_report(h);
  // Bad widths and values are refused with the reason.
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 12, 0), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "a lane is 8, 16, 32 or 64 bits wide, not 12")) << tmu_eng_last_error(h);
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 16, 0x10000), -1);
  EXPECT_TRUE(contains(tmu_eng_last_error(h), "0x10000 does not fit a 16-bit lane")) << tmu_eng_last_error(h);
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 64, 0x40500001), -1);  // an f32 lane takes one word
  EXPECT_EQ(tmu_eng_mismatch_count(h), 1u);

  const std::string dir = ::testing::TempDir() + "tmu_dpi_replay";
  ASSERT_EQ(tmu_eng_replay_dir(h, dir.c_str()), 0) << tmu_eng_last_error(h);
  ASSERT_EQ(tmu_eng_execute(h, "0x0000100000000000"), 0);  // 3.25 + 1.5 * 2 = 6.25: step 2
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 32, 0x40C80000), 0);  // 6.25 = 1.5625 * 2^2
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 32, 0x40C80001), 1);
  EXPECT_EQ(tmu_eng_compare_lane(h, "z 0 lane 0", 32, 0x40C80002), 1);  // the same step: no second file
  const std::string report = tmu_eng_report(h);
  const std::string file = dir + "/lanes_step2.tmu";
  EXPECT_TRUE(contains(report, "; replay: tmu --engine amx run " + file + " --show z --values f32")) << report;
  EXPECT_EQ(report.find("; replay:", report.find("0x40c80002")), std::string::npos) << report;
  std::ifstream in(file);
  const std::string program((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(program, "\n.z 0 raw32 0x40500000 0x00000000")) << program;  // Z as step 2 read it
  EXPECT_TRUE(contains(program, "\nmatfp 0x0000100000000000\n")) << program;
  EXPECT_EQ(tmu_eng_replay_dir(h, "/proc/no/such/dir"), -1);
  tmu_eng_destroy(h);
}

// A PTO element through the lane calls: "c 0 2", an i32 lane of one word.
TEST(TmuDpiEngine, PtoElementThroughTheLaneCalls) {
  void* h = tmu_eng_create("pto", "cpusim", "pto_lane", 1);
  ASSERT_NE(h, nullptr);
  for (const char* t : {"a i32 1x8", "b i32 1x8", "c i32 1x8"}) ASSERT_EQ(tmu_eng_declare(h, t), 0);
  ASSERT_EQ(tmu_eng_load_lane(h, "a 0 2", 32, 3), 0) << tmu_eng_last_error(h);
  ASSERT_EQ(tmu_eng_load_lane(h, "b 0 2", 32, 10), 0);
  ASSERT_EQ(tmu_eng_execute(h, "TADD c a b"), 0);
  EXPECT_EQ(tmu_eng_compare_lane(h, "c 0 2", 32, 13), 0);
  EXPECT_EQ(tmu_eng_compare_lane(h, "c 0 2", 32, 12), 1);
  EXPECT_TRUE(contains(tmu_eng_report(h), "c (0, 2) i32: design 0x0000000c (12) model 0x0000000d (13); after TADD c a b; "
                                          "step 1; a 0x00000003 (3); b 0x0000000a (10)"))
      << tmu_eng_report(h);
  tmu_eng_destroy(h);
}

}  // namespace
