// tmu_tb's simulator-style plusargs and its JSON run report (tb/run/run_args.h).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <fmt/format.h>
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

TEST(TbRunArgs, NumericPlusargsAreReadStrictly) {
  EXPECT_EQ(translate_plusargs({"+INSTRS=0", "+SEED=18446744073709551615"}),
            (V{"--instrs", "0", "--seed", "18446744073709551615"}));
  for (const auto& [bad, why] : std::vector<std::pair<std::string, std::string>>{
           {"+INSTRS=-5", "+INSTRS: '-5' is negative"},
           {"+SEED=18446744073709551616", "+SEED: '18446744073709551616' is too large (at most 18446744073709551615)"},
           {"+ntb_random_seed=0x10", "+ntb_random_seed: '0x10' is not a whole decimal number"}}) {
    try {
      translate_plusargs({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_TRUE(e.message().starts_with(why)) << e.message();
    }
  }
}

TEST(TbRunArgs, UnknownPlusargSuggestsTheNearest) {
  try {
    translate_plusargs({"+UVM_TESTNAM=random"});
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("(did you mean '+UVM_TESTNAME='?)"), std::string::npos) << e.message();
  }
}

TEST(TbRunArgs, UnsignedNumbers) {
  EXPECT_EQ(parse_unsigned("--instrs", "2000"), 2000u);
  EXPECT_EQ(parse_unsigned("--instrs", "007"), 7u);
  EXPECT_EQ(parse_unsigned("--mutant", "4294967295", 4294967295u), 4294967295u);
  EXPECT_EQ(unsigned_refusal("4294967296", 4294967295u), "'4294967296' is too large (at most 4294967295)");
  // 2^64 - 5 is what strtoull makes of "-5": the reason for refusing signs outright.
  EXPECT_EQ(unsigned_refusal("-5"), "'-5' is negative (a count, cycle, seed or index is 0 or more)");
  EXPECT_EQ(unsigned_refusal("-0"), "'-0' is negative (a count, cycle, seed or index is 0 or more)");
  for (const char* bad : {"+5", " 5", "5 ", "5x", "1e3", "0x10", "1,000"})
    EXPECT_EQ(unsigned_refusal(bad), fmt::format("'{}' is not a whole decimal number (digits 0-9 only)", bad));
  EXPECT_EQ(unsigned_refusal(""), "needs a number");
  try {
    parse_unsigned("--instrs", "-5");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(e.message(), "--instrs: '-5' is negative (a count, cycle, seed or index is 0 or more)");
  }
}

// The verdict decide_verdict gives `facts`: its word, exit status and reason.
void expect_verdict(const RunFacts& facts, const std::string& word, int exit_status, const std::string& reason) {
  const Verdict v = decide_verdict(facts);
  EXPECT_EQ(v.word, word);
  EXPECT_EQ(v.exit_status, exit_status);
  EXPECT_EQ(v.reason, reason);
}

// One verdict for the console line, the JSON report and the exit status.
TEST(TbRunArgs, VerdictVocabulary) {
  RunFacts pass;
  pass.finished = true;
  pass.cycles = 500;
  expect_verdict(pass, "PASS", 0, "");

  RunFacts unchecked = pass;
  unchecked.checked = false;
  unchecked.design_failed = true;  // the testbench's flag means nothing without the scoreboard
  EXPECT_EQ(decide_verdict(unchecked).word, "DONE");

  RunFacts mismatch = pass;
  mismatch.mismatches = 3;
  mismatch.first_failure_cycle = 1462;
  mismatch.design_failed = true;
  expect_verdict(mismatch, "FAIL", 1, "3 mismatches, the first at cycle 1462");

  // --max-cycles 50: the run stops unfinished; that is the testbench's verdict, not the design's.
  RunFacts cut = pass;
  cut.finished = false;
  cut.max_cycles = 50;
  cut.cycles = 50;
  expect_verdict(cut, "ERROR", 2, "the run did not finish within 50 cycles (--max-cycles; 50 simulated)");

  RunFacts refused = pass;
  refused.testbench_error = true;
  refused.design_failed = true;
  refused.error_text = "tmu_sb_obs_begin: no such thread 7";
  EXPECT_EQ(decide_verdict(refused).reason, "testbench error: tmu_sb_obs_begin: no such thread 7");
  EXPECT_EQ(decide_verdict(refused).word, "ERROR");
  refused.error_text.clear();
  EXPECT_EQ(decide_verdict(refused).reason, "testbench error: no progress for too long (stimulus deadlock)");

  RunFacts stalls = pass;
  stalls.forbidden_stalls = 4;
  EXPECT_EQ(decide_verdict(stalls).word, "FAIL");
  EXPECT_EQ(decide_verdict(stalls).reason, "4 Dst hazard stall cycles in a test without Dst hazards");
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
  r.issued = 100;
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
  EXPECT_EQ(j["issued"], 100);
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
