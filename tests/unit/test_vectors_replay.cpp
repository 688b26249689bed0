// Replaying vectors: hand-written vectors pass; a corrupted expected value, an unexpected write and a
// missing write are differences that name the location and both values; a vector the model cannot
// run is bad input at its instruction's line; and `init` is complete: replaying from random state
// (poison) gives the same results, while dropping an init record is caught.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tmu/tensix/decode.h"
#include "test_vectors_support.h"
#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors {
namespace {

using test::parse_text;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// The text of one generated file, limited to its first `vectors` vectors.
std::string generated(const std::string& family, const std::string& format, int phase, int dst, const std::string& option,
                      unsigned level1 = 1) {
  FileFilter filter;
  filter.families = {family};
  if (!format.empty()) filter.formats = {format};
  if (phase >= 0) filter.phases = {phase};
  if (dst) filter.dst_bits = {dst};
  for (const FileSpec& s : plan_files(filter)) {
    if (s.option != option) continue;
    GenerateOptions o;
    o.level1_limit = level1;
    return format_vector_file(generate_file(s, o));
  }
  ADD_FAILURE() << "no file " << family << " " << format << " " << option;
  return {};
}

// The words of a line before its comment.
std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line.substr(0, line.find('#')));
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// Index of the first line starting with `prefix`.
size_t find_line(const std::vector<std::string>& lines, const std::string& prefix) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind(prefix, 0) == 0) return i;
  ADD_FAILURE() << "no line starts with " << prefix;
  return 0;
}

const char* const kGprVectors = R"(tmu-vectors 1
arch blackhole
vector add/wrap
thread 1
init gpr 1 4 00000005
init gpr 1 5 fffffffe
insn 58006144
expect gpr 1 6 00000003
end
vector set/high
thread 1
init gpr 1 1 12345678
insn 45beef03
expect gpr 1 1 beef5678
end
eof 2
)";

TEST(VectorReplay, HandWrittenVectorsPass) {
  const ReplayReport r = replay_file(parse_text(kGprVectors), "r.tmv");
  EXPECT_EQ(r.vectors, 2u);
  EXPECT_EQ(r.failed_vectors, 0u);
  EXPECT_EQ(r.element_cases, 2u);
  EXPECT_EQ(r.locations, 2u);
  EXPECT_TRUE(r.differences.empty());
}

TEST(VectorReplay, CorruptedGprValueIsADifferenceAtItsLine) {
  std::string text = kGprVectors;
  text.replace(text.find("expect gpr 1 6 00000003"), 23, "expect gpr 1 6 00000004");
  const ReplayReport r = replay_file(parse_text(text), "r.tmv");
  EXPECT_EQ(r.failed_vectors, 1u);
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].vector, "add/wrap");
  EXPECT_EQ(r.differences[0].line, 8);
  EXPECT_EQ(r.differences[0].text, "GPR 6 of thread 1: expected 4, got 3");
}

// One datum of a generated ELWMUL vector flipped: the diff names its row and column and gives both
// bit patterns with their decoded values.
TEST(VectorReplay, CorruptedDstDatumNamesRowColumnAndValues) {
  auto lines = lines_of(generated("elwmul", "bf16", 0, 16, ""));
  const size_t i = find_line(lines, "expect dst ");
  std::istringstream words(lines[i]);
  std::string kw, loc, row, valid;
  std::vector<std::string> values(16);
  words >> kw >> loc >> row >> valid;
  for (auto& v : values) words >> v;
  const uint32_t original = static_cast<uint32_t>(std::stoul(values[5], nullptr, 16));
  const uint32_t corrupted = original ^ 0x0100;  // the lowest BF16 mantissa bit of the Dst16 layout
  values[5] = fmt::format("{:04x}", corrupted);
  std::string line = "expect dst " + row + " " + valid;
  for (const auto& v : values) line += " " + v;
  lines[i] = line;
  const ReplayReport r = replay_file(parse_text(join(lines)), "r.tmv");
  EXPECT_EQ(r.failed_vectors, 1u);
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].line, static_cast<int>(i + 1));
  const std::string& t = r.differences[0].text;
  EXPECT_NE(t.find(fmt::format("Dst row {} col 5: expected {:04x} (", row, corrupted)), std::string::npos) << t;
  EXPECT_NE(t.find(fmt::format("got {:04x} (", original)), std::string::npos) << t;
}

// A validity-only record on a row the instruction writes: replay_file compares the row's bits with
// those before the instruction ran (the init record, or the reset's zeros), and reports each change.
TEST(VectorReplay, ValidityOnlyRecordOnAWrittenRowReportsTheChangedBits) {
  auto lines = lines_of(generated("elwmul", "bf16", 0, 16, ""));
  const size_t i = find_line(lines, "expect dst ");
  const std::vector<std::string> w = words_of(lines[i]);
  ASSERT_EQ(w.size(), 20u);  // expect dst ROW VALID and 16 data
  const std::string& row = w[2];
  std::vector<std::string> was(16, "0000");
  for (const std::string& l : lines) {
    if (l.rfind("init dst " + row + " ", 0) != 0) continue;
    const std::vector<std::string> x = words_of(l);
    ASSERT_EQ(x.size(), 20u);
    was.assign(x.begin() + 4, x.end());
  }
  unsigned changed = 0, first = 16;
  for (unsigned c = 0; c < 16; ++c)
    if (std::stoul(was[c], nullptr, 16) != std::stoul(w[4 + c], nullptr, 16)) {
      ++changed;
      first = std::min(first, c);
    }
  ASSERT_GT(changed, 0u) << "the instruction leaves the row as it was";
  lines[i] = "expect dstvalid " + row + " " + w[3];
  const ReplayReport r = replay_file(parse_text(join(lines)), "r.tmv");
  EXPECT_EQ(r.failed_vectors, 1u);
  ASSERT_EQ(r.differences.size(), std::min(changed, 16u));
  EXPECT_EQ(r.differences[0].line, static_cast<int>(i + 1));
  EXPECT_EQ(r.differences[0].text, fmt::format("Dst row {} col {}: bits must stay {} (only the validity changes), got {}",
                                               row, first, was[first], w[4 + first]));
}

TEST(VectorReplay, Dst32DifferenceShowsTheWholeWord) {
  auto lines = lines_of(generated("mvmul", "tf32", 3, 32, ""));
  const size_t i = find_line(lines, "expect dst ");
  std::vector<std::string> w = words_of(lines[i]);
  ASSERT_NE(w.at(4), "dead");
  w[4] = "dead";  // the first datum of the row
  lines[i].clear();
  for (const auto& x : w) lines[i] += x + " ";
  const ReplayReport r = replay_file(parse_text(join(lines)), "r.tmv");
  ASSERT_FALSE(r.differences.empty());
  EXPECT_NE(r.differences[0].text.find("col 0: expected dead"), std::string::npos) << r.differences[0].text;
  EXPECT_NE(r.differences[0].text.find("Dst32b["), std::string::npos) << r.differences[0].text;
}

TEST(VectorReplay, UnexpectedAndMissingWritesAreDifferences) {
  auto lines = lines_of(generated("mvmul", "bf16", 0, 16, ""));
  lines.erase(lines.begin() + static_cast<long>(find_line(lines, "expect global LastSrcARow")));
  const size_t end = find_line(lines, "end");
  lines.insert(lines.begin() + static_cast<long>(end), "expect gpr 0 9 00000000");
  const ReplayReport r = replay_file(parse_text(join(lines)), "r.tmv");
  EXPECT_EQ(r.failed_vectors, 1u);
  ASSERT_EQ(r.differences.size(), 2u);
  EXPECT_EQ(r.differences[0].text, "LastSrcARow was written (0) but the vector expects no write there");
  EXPECT_EQ(r.differences[0].line, static_cast<int>(end + 2));  // the vector's `end` line
  EXPECT_EQ(r.differences[1].text, "GPR 9 of thread 0: expected a write, but the instructions wrote nothing there");
  EXPECT_EQ(r.differences[1].line, static_cast<int>(end + 1));
}

// ZEROACC changes only validity: `expect dstvalid` also requires the bits to be unchanged.
TEST(VectorReplay, ValidityOnlyRecordsRequireUnchangedBits) {
  const VectorFile f = parse_text(generated("zeroacc", "", -1, 0, "zeroacc", 40));
  const Vector& v = f.vectors.at(0);
  ASSERT_EQ(v.expect.back().space, Space::DstValid);
  const uint16_t row = v.expect.back().a;
  ReplayOptions o;
  o.poison = true;  // random bits in the row, which must survive
  const TensixState before = initial_state(f, v, o);
  TensixState after = before;
  const ExecResult r = execute(after, decode(v.words[0], f.arch), v.thread);
  std::vector<Difference> diffs;
  EXPECT_TRUE(compare_vector(v, before, after, r.writes, o, diffs)) << (diffs.empty() ? "" : diffs[0].text);
  after.Dst.DstBits[row][3] ^= 1;
  EXPECT_FALSE(compare_vector(v, before, after, r.writes, o, diffs));
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_NE(diffs[0].text.find(fmt::format("Dst row {} col 3: bits must stay", row)), std::string::npos) << diffs[0].text;
}

TEST(VectorReplay, StallIsBadInputAtTheInstructionLine) {
  auto lines = lines_of(generated("mvmul", "bf16", 0, 16, ""));
  lines.erase(lines.begin() + static_cast<long>(find_line(lines, "init bank srca 0 AllowedClient 1")));
  const size_t insn = find_line(lines, "insn ");
  try {
    (void)replay_file(parse_text(join(lines)), "r.tmv");
    FAIL() << "a stalling vector was replayed";
  } catch (const VectorError& e) {
    EXPECT_EQ(e.line, static_cast<int>(insn + 1));
    EXPECT_NE(e.reason.find("stalls (SrcA bank 0 is held by the Unpackers)"), std::string::npos) << e.what();
  }
}

TEST(VectorReplay, InstructionTheModelRefusesIsBadInput) {
  // GMPOOL with Dim16x16 = 0 (bit 19 clear): no source defines it.
  const std::string text = "tmu-vectors 1\narch blackhole\nvector g\ninsn 33000000\nend\neof 1\n";
  try {
    (void)replay_file(parse_text(text), "r.tmv");
    FAIL() << "GMPOOL Dim16x16=0 was replayed";
  } catch (const VectorError& e) {
    EXPECT_EQ(e.line, 4);
    EXPECT_NE(e.reason.find("the model cannot run it"), std::string::npos) << e.what();
  }
}

// Every file of the corpus selection, both architectures, level 2: the results do not depend on
// anything `init` leaves out.
TEST(VectorReplay, PoisonedReplayOfEveryFamilyMatches) {
  GenerateOptions o;
  o.level = 2;
  o.random_vectors = 2;
  o.level1_limit = 2;
  o.seed = 5;
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    o.arch = arch;
    for (const FileSpec& spec : plan_corpus_files(arch)) {
      const VectorFile f = generate_file(spec, o);
      for (uint64_t seed : {0u, 1u, 2u}) {
        ReplayOptions ro;
        ro.poison = seed != 0;
        ro.poison_seed = seed;
        const ReplayReport r = replay_file(f, spec.relative_path(), ro);
        ASSERT_EQ(r.failed_vectors, 0u) << arch_name(arch) << " " << spec.relative_path() << " poison seed " << seed << ": "
                                        << r.differences.at(0).vector << ": " << r.differences[0].text;
      }
    }
  }
}

TEST(VectorReplay, PoisonCatchesAMissingInitRecord) {
  auto lines = lines_of(generated("elwadd", "fp16", 0, 16, ""));
  // A SrcB row that is not all zero: without it the row is whatever the state holds.
  size_t i = find_line(lines, "init srcb ");
  while (lines[i].find("# all 0") != std::string::npos) ++i;
  ASSERT_EQ(lines[i].rfind("init srcb ", 0), 0u);
  lines.erase(lines.begin() + static_cast<long>(i));
  ReplayOptions o;
  o.poison = true;
  o.poison_seed = 9;
  const ReplayReport r = replay_file(parse_text(join(lines)), "r.tmv", o);
  EXPECT_EQ(r.failed_vectors, 1u);
}

}  // namespace
}  // namespace tmu::tensix::vectors
