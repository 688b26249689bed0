// Conversion vectors (docs/vector-format.md, "Conversion records"): hand-written pack and unpack
// vectors with expectations derived from docs/l1-formats.md's rules, the generated family l1 printing
// and parsing back to the same bytes and replaying clean, a changed byte reported at its line, and
// every class of malformed conversion record refused with its line and reason.
#include <algorithm>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "test_vectors_support.h"
#include "tmu/tensix/vectors.h"
#include "test_param_names.h"

namespace tmu::tensix::vectors {
namespace {

using test::parse_text;

// Expectations by hand from docs/l1-formats.md:
// - FP32 -> BF16 (mode 0x155) rounds to nearest, ties away from zero: 0x3F808000 is 1 + 2^-8, exactly
//   half a BF16 ulp above 0x3F80, so it goes away from zero to 0x3F81; 0x3F807FFF is below the tie
//   (0x3F80); 0xBF808000 is the negative tie (0xBF81); a NaN becomes inf (0x7F80). L1 holds the BF16
//   datums little-endian.
// - INT32 -> INT8 (mode 0x1EE): the sign kept, the magnitude clamped to 127, sign-magnitude out:
//   1000 -> 0x7F, -1000 (0x800003E8) -> 0xFF, -5 -> 0x85, 127 -> 0x7F; UINT8 (Read_unsigned):
//   negative -> 0, above 255 -> 255, 200 -> 0xC8.
// - BF16 -> BF16 (0x55): an exponent-0 result is flushed to +0: -0 (0x8000) and the denormal 0x0001
//   both become 0x0000.
const char* const kHandWritten = R"(tmu-vectors 2
arch blackhole

vector bf16-ties
pack FP32 BF16 via=BF16
in 3f808000 3f807fff bf808000 7fc00000
expect l1 81 3f 80 3f 81 bf 80 7f
end

vector int8-clamp
pack INT32 INT8 via=INT8
in 000003e8 800003e8 80000005 0000007f
expect l1 7f ff 85 7f
end

vector uint8-clamp
pack INT32 UINT8 via=INT8
in 80000005 0000012c 000000c8 00000000
expect l1 00 ff c8 00
end

vector bf16-flush
pack BF16 BF16 via=BF16
in 8000 0001 3f80
expect l1 00 00 00 00 80 3f
end

eof 4
)";

TEST(ConversionVectors, HandDerivedExpectationsReplayClean) {
  const VectorFile f = parse_text(kHandWritten);
  ASSERT_EQ(f.vectors.size(), 4u);
  ASSERT_TRUE(f.vectors[0].conversion.has_value());
  EXPECT_EQ(f.vectors[0].conversion->in.size(), 4u);
  EXPECT_EQ(f.vectors[1].conversion->pack_cfg.to, L1Format::INT8);
  const ReplayReport r = replay_file(f, "c.tmv");
  EXPECT_EQ(r.vectors, 4u);
  EXPECT_EQ(r.failed_vectors, 0u);
  for (const Difference& d : r.differences) ADD_FAILURE() << d.line << ": " << d.vector << ": " << d.text;
  EXPECT_EQ(r.element_cases, 4u + 4u + 4u + 3u);
}

TEST(ConversionVectors, AChangedByteIsReportedAtItsLine) {
  std::string text = kHandWritten;
  text.replace(text.find("expect l1 81 3f"), 15, "expect l1 81 3e");
  const ReplayReport r = replay_file(parse_text(text), "c.tmv");
  EXPECT_EQ(r.failed_vectors, 1u);
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].vector, "bf16-ties");
  EXPECT_EQ(r.differences[0].line, 7);
  EXPECT_EQ(r.differences[0].text, "L1 byte 1 (datum 0): expected 3e, got 3f");
}

TEST(ConversionVectors, UnpackIntoDstIsTheIdentity) {
  // FP32 into Dst (unpack-to-Dst) is the identity (docs/l1-formats.md); L1 is little-endian.
  const VectorFile f = parse_text(
      "tmu-vectors 2\narch wormhole\nvector u\nunpack FP32 to=FP32 into=dst\nl1 01 80 c0 7f 00 00 00 80\n"
      "expect datums 7fc08001 80000000\nend\neof 1\n");
  const ReplayReport r = replay_file(f, "c.tmv");
  EXPECT_EQ(r.failed_vectors, 0u);
  EXPECT_EQ(r.element_cases, 2u);
}

TEST(ConversionVectors, HandwrittenFilePrintsBackToTheSameBytes) {
  const VectorFile f = parse_text(kHandWritten);
  const std::string printed = format_vector_file(f);
  EXPECT_EQ(format_vector_file(parse_text(printed)), printed);
  EXPECT_EQ(printed.rfind("tmu-vectors 2\n", 0), 0u);
  EXPECT_NE(printed.find("pack FP32 BF16 via=BF16  # mode 0x155\nin 3f808000 3f807fff bf808000 7fc00000\n"
                         "expect l1 81 3f 80 3f 81 bf 80 7f\n"),
            std::string::npos)
      << printed;
}

FileSpec l1_spec(const std::string& stem) {
  FileFilter filter;
  filter.families = {"l1"};
  for (const FileSpec& s : plan_files(filter))
    if (s.stem == stem) return s;
  ADD_FAILURE() << "no l1/" << stem;
  return {};
}

TEST(ConversionVectors, GeneratedFilesRoundTripAndReplayClean) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole})
    for (const char* stem : {"pack", "unpack"}) {
      GenerateOptions o;
      o.arch = arch;
      o.level = 2;
      o.random_vectors = 8;
      o.seed = 5;
      const VectorFile f = generate_file(l1_spec(stem), o);
      const std::string text = format_vector_file(f);
      const VectorFile back = parse_text(text);
      EXPECT_EQ(format_vector_file(back), text) << stem;
      const ReplayReport r = replay_file(back, "g.tmv");
      EXPECT_GT(r.vectors, 8u);
      EXPECT_EQ(r.failed_vectors, 0u) << stem << " " << arch_name(arch);
      // A second run with the same seed is byte-identical.
      EXPECT_EQ(format_vector_file(generate_file(l1_spec(stem), o)), text);
    }
}

// The generated level-1 file holds the tie of the hand-derived case with the same expectation, and
// the model's configurations follow the architecture (FP8 output on Blackhole only).
TEST(ConversionVectors, GeneratedPackFileHoldsTheHandDerivedTie) {
  GenerateOptions o;
  const VectorFile f = generate_file(l1_spec("pack"), o);
  bool found = false, fp8 = false;
  for (const Vector& v : f.vectors) {
    const Conversion& c = *v.conversion;
    fp8 |= c.pack_cfg.to == L1Format::FP8;
    if (c.pack_cfg.from != PackSource::FP32 || c.pack_cfg.to != L1Format::BF16 || c.pack_cfg.l1_acc || c.pack_cfg.exp_threshold ||
        c.pack_cfg.intermediate != DataFormat::BF16)
      continue;
    const auto it = std::find(c.in.begin(), c.in.end(), 0x3F808000u);
    if (it == c.in.end()) continue;
    const size_t k = static_cast<size_t>(it - c.in.begin());
    EXPECT_EQ(c.expect_l1[2 * k], 0x81);
    EXPECT_EQ(c.expect_l1[2 * k + 1], 0x3F);
    found = true;
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(fp8);
  o.arch = Arch::Wormhole;
  for (const Vector& v : generate_file(l1_spec("pack"), o).vectors) EXPECT_NE(v.conversion->pack_cfg.to, L1Format::FP8) << v.name;
}

struct Malformed {
  const char* what;
  std::string body;  // the vector's records after "vector v"
  int line;
  const char* reason;
  const char* version = "2";
};

std::string file_of(const Malformed& m) {
  return std::string("tmu-vectors ") + m.version + "\narch wormhole\nvector v\n" + m.body + "end\neof 1\n";
}

class ConversionMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(ConversionMalformed, IsRefusedWithLineAndReason) {
  const Malformed& m = GetParam();
  try {
    (void)parse_text(file_of(m));
    FAIL() << m.what << ": accepted";
  } catch (const VectorError& e) {
    EXPECT_EQ(e.line, m.line) << m.what << ": " << e.what();
    EXPECT_NE(e.reason.find(m.reason), std::string::npos) << m.what << ": " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Classes, ConversionMalformed,
    ::testing::Values(
        Malformed{"pack in a version 1 file", "pack FP32 BF16\n", 4, "'pack' is a record of format version 2", "1"},
        Malformed{"unknown Dst format", "pack FP64 BF16\n", 4, "unknown Dst format 'FP64'"},
        Malformed{"unknown L1 format", "pack FP32 BF12\n", 4, "unknown L1 format 'BF12'"},
        Malformed{"unknown option", "pack FP32 BF16 fast\n", 4, "unknown pack option 'fast'"},
        Malformed{"FP8 output on Wormhole", "pack FP16 FP8\n", 4, "FP8"},
        Malformed{"accumulation into BFP", "pack FP32 BFP8 acc\n", 4, "accumulation"},
        Malformed{"BFP8a output", "pack FP32 BFP8a\n", 4, "BFP8a"},
        Malformed{"thread before pack", "thread 1\npack FP32 BF16\n", 5, "must be a vector's first record"},
        Malformed{"pack twice", "pack FP32 BF16\npack FP32 BF16\n", 5, "'pack' given twice"},
        Malformed{"insn in a conversion", "pack FP32 BF16\ninsn 60000000\n", 5, "unknown record 'insn' in a conversion vector"},
        Malformed{"datum too wide", "pack BF16 BF16\nin 10000\n", 5, "Dst datum 0x10000 is out of range 0..0xffff"},
        Malformed{"byte too wide", "pack FP32 BF16\nin 0\nexpect l1 100 0\n", 6, "L1 byte 0x100 is out of range"},
        Malformed{"l1 without acc", "pack FP32 BF16\nl1 00 00\n", 5, "without 'acc'"},
        Malformed{"in after expect", "pack FP32 BF16\nin 0\nexpect l1 0 0\nin 0\n", 7, "'in' after 'l1' or 'expect'"},
        Malformed{"expect datums in a pack", "pack FP32 BF16\nin 0\nexpect datums 0\n", 6, "expected 'expect l1'"},
        Malformed{"no input", "pack FP32 BF16\n", 5, "needs 'in' datums"},
        Malformed{"expected bytes short", "pack FP32 BF16\nin 0 0\nexpect l1 0 0 0\n", 7, "make 4 L1 bytes; 'expect l1' has 3"},
        Malformed{"BFP partial block", "pack FP32 BFP8\nin 0\nexpect l1 0 0\n", 7, "whole blocks of 16"},
        Malformed{"accumulation without l1", "pack FP32 FP32 acc\nin 0\nexpect l1 0 0 0 0\n", 7, "needs 4 'l1' bytes, got 0"},
        Malformed{"unpack: in", "unpack BF16\nin 0\n", 5, "'in' belongs to a pack vector"},
        Malformed{"unpack: Src datum too wide", "unpack BF16\nl1 0 0\nexpect datums 80000\n", 6, "datum 0x80000 is out of range 0..0x7ffff"},
        Malformed{"unpack: byte count", "unpack BF16\nl1 0 0 0\nexpect datums 0\n", 7, "take 2 L1 bytes; 'l1' has 3"},
        Malformed{"unpack: refused", "unpack TF32\n", 4, "TF32"},
        Malformed{"unpack: unknown option", "unpack BF16 into=sfpu\n", 4, "unknown unpack option 'into=sfpu'"}),
    [](const auto& info) { return tmu_test::case_name(info.param.what); });

}  // namespace
}  // namespace tmu::tensix::vectors
