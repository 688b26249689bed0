// tmu_tb's simulator-style plusargs and its JSON run report (tb/run/run_args.h).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run/run_args.h"
#include "tmu/error.h"

namespace tmu::tb {
namespace {

using V = std::vector<std::string>;

TEST(TbRunArgs, PlusargsBecomeOptions) {
  EXPECT_EQ(translate_plusargs({"+ntb_random_seed=42", "--instrs", "10"}), (V{"--seed", "42", "--instrs", "10"}));
  EXPECT_EQ(translate_plusargs({"+SEED=7", "+UVM_TESTNAME=random", "+UVM_VERBOSITY=UVM_LOW", "+ARCH=wormhole"}),
            (V{"--seed", "7", "--test", "random", "--verbosity", "UVM_LOW", "--arch", "wormhole"}));
  EXPECT_EQ(translate_plusargs({"+TEST=gpr_ops", "+INSTRS=5", "+seed=3"}),
            (V{"--test", "gpr_ops", "--instrs", "5", "--seed", "3"}));
  EXPECT_EQ(translate_plusargs({"--seed", "1", "+", "x"}), (V{"--seed", "1", "+", "x"}));  // not plusargs
}

TEST(TbRunArgs, BadPlusargsAreRefused) {
  for (const char* bad : {"+SEEDS=1", "+SEED", "+SEED=", "+verbose"}) {
    try {
      translate_plusargs({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      EXPECT_NE(e.message().find(std::string(bad).substr(0, 5)), std::string::npos) << e.message();
    }
  }
}

TEST(TbRunArgs, Verbosity) {
  EXPECT_EQ(parse_verbosity("none"), Verbosity::None);
  EXPECT_EQ(parse_verbosity("UVM_LOW"), Verbosity::Low);
  EXPECT_EQ(parse_verbosity("Medium"), Verbosity::Medium);
  EXPECT_EQ(parse_verbosity("UVM_FULL"), Verbosity::High);
  EXPECT_EQ(parse_verbosity("loud"), std::nullopt);
}

TEST(TbRunArgs, ReportJson) {
  const std::string path = (std::filesystem::temp_directory_path() / "tmu_tb_report_test.json").string();
  RunReport r;
  r.verdict = "FAIL";
  r.test = "random";
  r.arch = "wormhole";
  r.seed = 9;
  r.instrs = 100;
  r.retired = 99;
  r.cycles = 400;
  r.mismatches = 2;
  r.wall_seconds = 0.5;
  r.exit_status = 1;
  r.replay = "tmu_tb --test random --arch wormhole --seed 9 --instrs 100";
  r.first_failure_cycle = 123;
  r.reason = "2 mismatches, the first at cycle 123";
  write_report(path, r);
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["format"], "tmu-tb-report 1");
  EXPECT_EQ(j["verdict"], "FAIL");
  EXPECT_EQ(j["seed"], 9);
  EXPECT_EQ(j["retired"], 99);
  EXPECT_EQ(j["instr_per_second"], 198.0);  // 99 / 0.5
  EXPECT_EQ(j["first_failure_cycle"], 123);
  EXPECT_TRUE(j["waveform"].is_null());
  EXPECT_EQ(j["exit_status"], 1);
  std::filesystem::remove(path);
  EXPECT_THROW(write_report("/nonexistent-dir/r.json", r), Error);
}

}  // namespace
}  // namespace tmu::tb
