// The vector file format (docs/vector-format.md): a hand-written file parses into the records the
// document describes; generated files print, parse and print back to the same bytes; every class
// of malformed input is refused with its line and reason.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tmu/tensix/decode.h"
#include "test_vectors_support.h"
#include "tmu/tensix/vectors.h"
#include "test_param_names.h"

namespace tmu::tensix::vectors {
namespace {

using test::parse_text;

// ADDDMAREG LeftReg=4 RightReg=5 ResultReg=6 (ADDDMAREG.md: opcode 0x58, LeftReg 5:0, RightReg
// 11:6, ResultReg 17:12) and SETDMAREG ResultHalfReg=3 NewValue=0xbeef (opcode 0x45, 6:0, 23:8),
// encoded by hand.
constexpr uint32_t kAddWord = 0x58000000u | (6u << 12) | (5u << 6) | 4u;
constexpr uint32_t kSetWord = 0x45000000u | (0xBEEFu << 8) | 3u;

// Two vectors on thread 1: 5 + 0xfffffffe wraps to 3; writing the high half of GPR1 keeps its low half.
const char* const kHandWritten = R"(tmu-vectors 1
# hand-written
arch blackhole

vector add/wrap  # a comment
thread 1
init gpr 1 4 00000005
init gpr 1 5 fffffffe
insn 58006144
expect gpr 1 6 00000003
end

vector set/high
thread 1
view dst fp32
init gpr 1 1 12345678
insn 45beef03
expect gpr 1 1 beef5678
end

eof 2
)";

TEST(VectorFormat, HandWrittenFileParsesIntoItsRecords) {
  ASSERT_EQ(kAddWord, 0x58006144u);
  ASSERT_EQ(kSetWord, 0x45BEEF03u);
  const VectorFile f = parse_text(kHandWritten);
  EXPECT_EQ(f.arch, Arch::Blackhole);
  ASSERT_EQ(f.vectors.size(), 2u);
  const Vector& v = f.vectors[0];
  EXPECT_EQ(v.name, "add/wrap");
  EXPECT_EQ(v.thread, 1u);
  EXPECT_EQ(v.line, 5);
  EXPECT_EQ(v.end_line, 11);
  ASSERT_EQ(v.init.size(), 2u);
  EXPECT_EQ(v.init[0].space, Space::Gpr);
  EXPECT_EQ(v.init[0].a, 1);
  EXPECT_EQ(v.init[0].b, 4);
  EXPECT_EQ(v.init[0].value, 5u);
  EXPECT_EQ(v.init[1].value, 0xFFFFFFFEu);
  EXPECT_EQ(v.init[1].line, 8);
  ASSERT_EQ(v.words.size(), 1u);
  EXPECT_EQ(v.words[0], kAddWord);
  EXPECT_EQ(v.word_lines[0], 9);
  ASSERT_EQ(v.expect.size(), 1u);
  EXPECT_EQ(v.expect[0].b, 6);
  EXPECT_EQ(v.expect[0].value, 3u);
  EXPECT_EQ(f.vectors[1].dst_view, View::FP32);
  EXPECT_EQ(f.vectors[1].srca_view, View::Raw);
}

TEST(VectorFormat, EveryLocationKindParses) {
  const std::string text = std::string("tmu-vectors 1\narch wormhole\nvector all\nthread 2\n") +
                           "init cfg 1 ALU_ACC_CTRL_Fp32_enabled 1\n"
                           "init tcfg 2 DEST_TARGET_REG_CFG_MATH_Offset abc\n"
                           "init addrmod 2 7 DestIncr 3ff\n"
                           "init rwc 2 Dst_Cr 201\n"
                           "init global LastSrcARow 3f\n"
                           "init bank srcb 1 Format e\n"
                           "init unpacker 1 SrcBank 1\n"
                           "init gpr 2 63 ffffffff\n"
                           "init srca 1 63 7ffff 0 1 2 3 4 5 6 7 8 9 a b c d e\n"
                           "init dst 1023 1 ffff 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1\n"
                           "init dstvalid 5 1\n"
                           "insn 60000000\nend\neof 1\n";
  const VectorFile f = parse_text(text);
  EXPECT_EQ(f.arch, Arch::Wormhole);
  const auto& init = f.vectors.at(0).init;
  ASSERT_EQ(init.size(), 11u);
  EXPECT_EQ(init[0].space, Space::Config);
  EXPECT_EQ(init[0].a, 1);
  EXPECT_EQ(field_names(Space::Config)[init[0].field], "ALU_ACC_CTRL_Fp32_enabled");
  EXPECT_EQ(init[1].value, 0xABCu);
  EXPECT_EQ(init[2].space, Space::AddrMod);
  EXPECT_EQ(init[2].b, 7);
  EXPECT_EQ(init[2].value, 0x3FFu);
  EXPECT_EQ(init[3].value, 0x201u);
  EXPECT_EQ(init[4].value, 0x3Fu);
  EXPECT_EQ(init[5].space, Space::Bank);
  EXPECT_EQ(init[5].a, 1);  // SrcB
  EXPECT_EQ(init[5].b, 1);
  EXPECT_EQ(init[5].value, 14u);
  EXPECT_EQ(init[6].space, Space::Unpacker);
  EXPECT_EQ(init[7].b, 63);
  EXPECT_EQ(init[8].space, Space::SrcA);
  EXPECT_EQ(init[8].row[0], 0x7FFFFu);
  EXPECT_EQ(init[8].row[15], 0xEu);
  EXPECT_EQ(init[9].a, 1023);
  EXPECT_EQ(init[9].value, 1u);
  EXPECT_EQ(init[9].row[15], 1u);
  EXPECT_EQ(init[10].space, Space::DstValid);
}

// Generated files of every family: print -> parse -> print gives the same bytes, and the parsed
// records are the generated ones.
TEST(VectorFormat, GeneratedFilesRoundTripByteForByte) {
  GenerateOptions o;
  o.level = 2;
  o.random_vectors = 3;
  o.seed = 11;
  o.level1_limit = 3;
  for (const std::string& family : family_names()) {
    FileFilter filter;
    filter.families = {family};
    for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
      o.arch = arch;
      const FileSpec spec = plan_files(filter).back();
      const VectorFile generated = generate_file(spec, o);
      const std::string text = format_vector_file(generated);
      const VectorFile parsed = parse_text(text);
      EXPECT_EQ(format_vector_file(parsed), text) << spec.relative_path();
      ASSERT_EQ(parsed.vectors.size(), generated.vectors.size());
      for (size_t i = 0; i < parsed.vectors.size(); ++i) {
        const Vector &p = parsed.vectors[i], &g = generated.vectors[i];
        EXPECT_EQ(p.name, g.name);
        EXPECT_EQ(p.words, g.words);
        ASSERT_EQ(p.init.size(), g.init.size());
        ASSERT_EQ(p.expect.size(), g.expect.size());
        for (size_t k = 0; k < p.expect.size(); ++k) {
          EXPECT_EQ(p.expect[k].location_key(), g.expect[k].location_key());
          EXPECT_EQ(p.expect[k].value, g.expect[k].value);
          EXPECT_EQ(p.expect[k].row, g.expect[k].row);
        }
      }
    }
  }
}

TEST(VectorFormat, ElementCasesCountOutputDatums) {
  const VectorFile f = parse_text(kHandWritten);
  EXPECT_EQ(element_cases(f.vectors[0]), 1u);
  // Two DstBits rows are the halves of one Dst32b row in the fp32 view: sixteen datums.
  const VectorFile g = parse_text(
      "tmu-vectors 1\narch blackhole\nvector v\nview dst fp32\ninsn 60000000\n"
      "expect dst 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nexpect dst 8 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
      "expect srcb 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nexpect dstvalid 4 0\nexpect rwc 0 SrcA 0\nend\neof 1\n");
  EXPECT_EQ(element_cases(g.vectors[0]), 16u + 16u);
}

// ---- malformed input: one case per class, each with its line and reason ----

struct Malformed {
  const char* what;
  std::string text;
  int line;
  const char* reason;
};

std::string with_vector(const std::string& body, const std::string& tail = "end\neof 1\n") {
  return "tmu-vectors 1\narch blackhole\nvector v\n" + body + tail;
}

class VectorFormatMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(VectorFormatMalformed, IsRefusedWithLineAndReason) {
  const Malformed& m = GetParam();
  try {
    (void)parse_text(m.text, "bad.tmv");
    FAIL() << m.what << ": accepted";
  } catch (const VectorError& e) {
    EXPECT_EQ(e.file, "bad.tmv");
    EXPECT_EQ(e.line, m.line) << m.what << ": " << e.what();
    EXPECT_NE(e.reason.find(m.reason), std::string::npos) << m.what << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.tmv:" + std::to_string(m.line) + ": ", 0), 0u) << e.what();
  }
}

const std::string kRow16 = " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";

INSTANTIATE_TEST_SUITE_P(
    Classes, VectorFormatMalformed,
    ::testing::Values(
        Malformed{"empty file", "", 1, "empty file"},
        Malformed{"no version line", "arch blackhole\n", 1, "expected the version line"},
        Malformed{"future version", "tmu-vectors 4\n", 1, "format version 4 is not supported"},
        Malformed{"unknown record at top level", "tmu-vectors 1\narch blackhole\nfrobnicate 1\n", 3, "unknown record 'frobnicate'"},
        Malformed{"unknown architecture", "tmu-vectors 1\narch grayskull\n", 2, "unknown architecture 'grayskull'"},
        Malformed{"vector before arch", "tmu-vectors 1\nvector v\n", 2, "'arch' must come before the first vector"},
        Malformed{"unknown record in a vector", with_vector("insn 60000000\nfoo 1\n"), 5, "unknown record 'foo' in a vector"},
        Malformed{"unknown location", with_vector("init sfpu 0 1\n"), 4, "unknown location 'sfpu'"},
        Malformed{"unknown field", with_vector("init rwc 0 SrcC 0\n"), 4, "rwc has no field 'SrcC'"},
        Malformed{"field out of range", with_vector("init rwc 0 SrcA 40\n"), 4, "rwc field SrcA (6 bits) 0x40 is out of range"},
        Malformed{"thread out of range", with_vector("init gpr 3 1 0\n"), 4, "thread 3 is out of range 0..2"},
        Malformed{"GPR index out of range", with_vector("init gpr 0 64 0\n"), 4, "GPR index 64 is out of range 0..63"},
        Malformed{"Src row out of range", with_vector("init srca 0 64" + kRow16 + "\n"), 4, "Src row 64 is out of range 0..63"},
        Malformed{"Dst row out of range", with_vector("init dst 1024 1" + kRow16 + "\n"), 4, "Dst row 1024 is out of range"},
        Malformed{"validity not 0/1", with_vector("init dstvalid 3 2\n"), 4, "validity 2 is out of range 0..1"},
        Malformed{"Src datum wider than 19 bits", with_vector("init srcb 1 0 80000 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"), 4,
                  "Src datum (19 bits) 0x80000 is out of range"},
        Malformed{"Dst datum wider than 16 bits", with_vector("init dst 0 1 10000 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"), 4,
                  "Dst datum (16 bits) 0x10000 is out of range"},
        Malformed{"short row", with_vector("init srca 0 0 0 0 0\n"), 4, "expected 16 values, got 3"},
        Malformed{"0x prefix", with_vector("init gpr 0 1 0x5\n"), 4, "'0x5' is not a hex value"},
        Malformed{"not a number", with_vector("init gpr zero 1 5\n"), 4, "thread 'zero' is not a decimal number"},
        Malformed{"reserved opcode", with_vector("insn ff000000\n"), 4, "unknown instruction ff000000"},
        Malformed{"reserved bit set", with_vector("insn 11000020\n"), 4, "unknown instruction 11000020"},
        Malformed{"init after insn", with_vector("insn 60000000\ninit gpr 0 1 0\n"), 5, "'init' after 'insn'"},
        Malformed{"expect before insn", with_vector("expect gpr 0 1 0\n"), 4, "'expect' before any 'insn'"},
        Malformed{"insn after expect", with_vector("insn 60000000\nexpect gpr 0 1 0\ninsn 60000000\n"), 6, "'insn' after 'expect'"},
        Malformed{"vector without insn", with_vector(""), 4, "has no 'insn'"},
        Malformed{"location listed twice", with_vector("init gpr 0 1 0\ninit gpr 0 1 5\n"), 5, "GPR 1 of thread 0 is listed twice"},
        Malformed{"vector name used twice", with_vector("insn 60000000\n", "end\nvector v\n"), 6, "vector name 'v' is used twice"},
        Malformed{"missing end before the next vector", with_vector("insn 60000000\n", "vector w\n"), 5, "its 'end' is missing"},
        Malformed{"truncated inside a vector", with_vector("insn 60000000\n", ""), 5, "truncated file: vector 'v' (line 3) has no 'end'"},
        Malformed{"truncated between vectors", with_vector("insn 60000000\n", "end\n"), 6, "truncated file: no 'eof' line after 1 vectors"},
        Malformed{"eof count disagrees", with_vector("insn 60000000\n", "end\neof 2\n"), 6, "'eof' says 2 vectors, the file holds 1"},
        Malformed{"record after eof", with_vector("insn 60000000\n", "end\neof 1\nvector w\n"), 7, "after the 'eof' line"},
        Malformed{"unknown view", with_vector("view dst fp64\n"), 4, "unknown view 'fp64'"},
        // The hex digit table: nine digits, a digit past 'f', a sign, an empty word cannot occur
        // (blanks separate words), and the upper-case largest value is accepted then range-checked.
        Malformed{"nine hex digits", with_vector("init gpr 0 1 000000001\n"), 4, "'000000001' is not a hex value"},
        Malformed{"hex digit g", with_vector("init gpr 0 1 1g\n"), 4, "'1g' is not a hex value"},
        Malformed{"hex digit G", with_vector("init gpr 0 1 G\n"), 4, "'G' is not a hex value"},
        Malformed{"signed hex", with_vector("init gpr 0 1 -1\n"), 4, "'-1' is not a hex value"},
        Malformed{"trailing junk after hex", with_vector("init gpr 0 1 ff,\n"), 4, "'ff,' is not a hex value"},
        Malformed{"upper-case hex out of range", with_vector("init dst 0 1 FFFF 1FFFF 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"), 4,
                  "Dst datum (16 bits) 0x1ffff is out of range"},
        Malformed{"decimal overflow", with_vector("init gpr 4294967296 1 0\n"), 4, "thread '4294967296' is out of range"},
        // The 41st record repeats the first after the duplicate set has grown past its first size.
        Malformed{"location listed twice after 40 others", with_vector("init gpr 0 0 0\ninit gpr 0 1 0\ninit gpr 0 2 0\ninit gpr 0 3 0\ninit gpr 0 4 0\ninit gpr 0 5 0\ninit gpr 0 6 0\ninit gpr 0 7 0\ninit gpr 0 8 0\ninit gpr 0 9 0\ninit gpr 0 10 0\ninit gpr 0 11 0\ninit gpr 0 12 0\ninit gpr 0 13 0\ninit gpr 0 14 0\ninit gpr 0 15 0\ninit gpr 0 16 0\ninit gpr 0 17 0\ninit gpr 0 18 0\ninit gpr 0 19 0\ninit gpr 0 20 0\ninit gpr 0 21 0\ninit gpr 0 22 0\ninit gpr 0 23 0\ninit gpr 0 24 0\ninit gpr 0 25 0\ninit gpr 0 26 0\ninit gpr 0 27 0\ninit gpr 0 28 0\ninit gpr 0 29 0\ninit gpr 0 30 0\ninit gpr 0 31 0\ninit gpr 0 32 0\ninit gpr 0 33 0\ninit gpr 0 34 0\ninit gpr 0 35 0\ninit gpr 0 36 0\ninit gpr 0 37 0\ninit gpr 0 38 0\ninit gpr 0 39 0\n" "init gpr 0 0 7\n"), 44,
                  "GPR 0 of thread 0 is listed twice"}),
    [](const auto& info) { return tmu_test::case_name(info.param.what); });

}  // namespace
}  // namespace tmu::tensix::vectors
