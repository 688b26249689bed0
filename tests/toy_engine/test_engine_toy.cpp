// The engine interface's promise: an engine that is one directory (toy_engine/) and one
// registration line gets `tmu run`, `vectors`, `check` (alone and mixed with another engine's
// files), `audit` and a scoreboard, with no edit anywhere else. Expected values are worked by hand
// from the toy's definition: four u8 lanes, a + b saturating at 255 ("sat") or wrapping ("wrap").
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "commands.h"
#include "tmu/engine.h"
#include "tmu/error.h"
#include "toy_engine.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status;
  std::string out, err;
};

Outcome tmu_cli(std::vector<std::string> args) {
  tmu::register_builtin_engines();
  tmu::register_engine(tmu::toy::make_engine());  // the one registration line
  args.insert(args.begin(), "tmu");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int status = tmu::cli::run(static_cast<int>(argv.size()), argv.data());
  std::cout.flush();
  std::cerr.flush();
  Outcome o{status, testing::internal::GetCapturedStdout(), testing::internal::GetCapturedStderr()};
  return o;
}

// A fresh directory under the system's temporary directory, removed when the test ends.
struct ScratchDir : fs::path {
  explicit ScratchDir(const std::string& name)
      : fs::path(fs::temp_directory_path() / ("tmu_toy_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(*this);
    fs::create_directories(*this);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(*this, ignored);
  }
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(EngineToy, RunsAProgramInEachVariant) {
  const ScratchDir d("run");
  write(d / "p.toy", "a 200 1 255 0  # four lanes\nb 100 2 1 0\nadd\n");
  Outcome o = tmu_cli({"--engine", "toy", "run", (d / "p.toy").string()});
  ASSERT_EQ(o.status, 0) << o.err;
  // 200 + 100 = 300 -> 255; 1 + 2 = 3; 255 + 1 -> 255; 0 + 0 = 0.
  EXPECT_NE(o.out.find(R"("c": "255 3 255 0")"), std::string::npos) << o.out;
  o = tmu_cli({"--engine", "toy", "--variant", "WRAP", "run", (d / "p.toy").string()});
  ASSERT_EQ(o.status, 0) << o.err;
  // Wrapping: 300 - 256 = 44, 256 - 256 = 0.
  EXPECT_NE(o.out.find(R"("c": "44 3 0 0")"), std::string::npos) << o.out;
  write(d / "bad.toy", "a 1 2 3\n");
  o = tmu_cli({"--engine", "toy", "run", (d / "bad.toy").string()});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("bad.toy:1: four lane values expected"), std::string::npos) << o.err;
  o = tmu_cli({"--engine", "toy", "--variant", "m9", "run", (d / "p.toy").string()});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("unknown toy variant 'm9' (sat, wrap)"), std::string::npos) << o.err;
  o = tmu_cli({"--engine", "toy", "dis", "0x0"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("is not a command of --engine toy"), std::string::npos) << o.err;
}

TEST(EngineToy, VectorsAreCheckedWithoutNamingTheEngine) {
  const ScratchDir d("vectors");
  Outcome o = tmu_cli({"--engine", "toy", "vectors", "-o", d.string(), "-n", "3", "--seed", "7", "--toy-edge", "0,255"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("seed 7"), std::string::npos) << o.err;
  const std::string text = read(d / "toy/sat.tmv");
  // Level 1 over the edges {0, 255}: four vectors; 255 + 255 saturates.
  EXPECT_NE(text.find("vector l1/255+255\na 255 255 255 255\nb 255 255 255 255\nexpect 255 255 255 255\nend\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\neof 7\n"), std::string::npos);
  ASSERT_TRUE(fs::exists(d / "MANIFEST"));

  o = tmu_cli({"check", d.string()});
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("tmu check: 1 files, 7 vectors, 28 toy lanes: all match"), std::string::npos) << o.out;

  // Another engine's files in the same directory: each file is replayed by the engine it names.
  o = tmu_cli({"--engine", "amx", "vectors", "-o", (d / "other").string(), "-q"});
  ASSERT_EQ(o.status, 0) << o.err;
  fs::remove(d / "MANIFEST");
  fs::remove(d / "other/MANIFEST");
  o = tmu_cli({"check", d.string()});
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("toy lanes"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("Z rows"), std::string::npos) << o.out;

  // An edited expectation is a mismatch naming the vector; --engine against the file is an error.
  std::string edited = text;
  const size_t at = edited.find("expect 255 255 255 255", edited.find("vector l1/255+255"));
  edited.replace(at, 22, "expect 255 255 255 254");
  write(d / "edited/x.tmv", edited);
  o = tmu_cli({"check", (d / "edited/x.tmv").string()});
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.out.find("vector l1/255+255: expected 255 255 255 254, got 255 255 255 255"), std::string::npos) << o.out;
  o = tmu_cli({"--engine", "amx", "check", (d / "toy/sat.tmv").string()});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("sat.tmv:3: expected 'engine amx': the file is a vector file of the toy engine"), std::string::npos) << o.err;

  // The toy's option is the toy's: the default engine refuses it by name.
  o = tmu_cli({"vectors", "-o", (d / "t").string(), "--toy-edge", "1"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("--toy-edge: is an option of --engine toy, not of tensix"), std::string::npos) << o.err;
}

TEST(EngineToy, AuditWritesItsTable) {
  const ScratchDir d("audit");
  const Outcome o = tmu_cli({"audit", "--engines", "toy", "-o", d.string(), "--seed", "1", "--quiet"});
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  // 256 x 256 pairs; x + y > 255 for x of the 256 - x values y > 255 - x: 1 + 2 + ... + 255 = 32640.
  EXPECT_EQ(read(d / "toy.csv"), "variant,cases,saturated,wrong\nsat,65536,32640,0\n");
  EXPECT_NE(read(d / "audit.md").find("## Toy engine"), std::string::npos);
  const Outcome limited = tmu_cli({"audit", "--engines", "toy", "--toy-limit", "3", "-o", d.string(), "--quiet"});
  ASSERT_EQ(limited.status, 0) << limited.err;
  EXPECT_EQ(read(d / "toy.csv"), "variant,cases,saturated,wrong\nsat,16,0,0\n");
}

TEST(EngineToy, ScoreboardComesFromTheRegistry) {
  tmu_cli({"--version"});
  const tmu::Engine* e = tmu::find_engine("toy");
  ASSERT_NE(e, nullptr);
  auto sb = e->scoreboards()->scoreboard("sat");
  ASSERT_NE(sb, nullptr);
  const uint32_t a = 0x01FF80C8, b = 0x02010064;  // lanes (low first) a = 200 128 255 1, b = 100 0 1 2
  sb->load("a", std::span(&a, 1));
  sb->load("b", std::span(&b, 1));
  sb->execute("add");
  EXPECT_EQ(sb->read("c"), std::vector<uint32_t>{0x03FF80FF});  // 255 128 255 3
  const uint32_t design = 0x03FF802C;                          // lane 0 wrapped: 44
  const auto report = sb->compare("c", std::span(&design, 1));
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0], "c lane 0: design 44, model 255 (add)");
  EXPECT_THROW(sb->load("d", std::span(&a, 1)), tmu::Error);
}

}  // namespace
