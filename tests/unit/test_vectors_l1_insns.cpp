// Format version 3 (docs/vector-format.md, "L1 records"): a hand-written PACR vector whose expected
// L1 bytes follow docs/l1-formats.md's rules, the version checks (an older file still reads, a
// version-3 record in an older file is refused), the generated unpacr/pacr files printing and parsing
// back byte for byte and replaying clean from reset and poisoned state, and a wrong byte reported at
// its line.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "test_vectors_support.h"
#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors {
namespace {

using test::parse_text;

// PACR on Wormhole, packer 0, Dst32b FP32 -> FP32 (mode 0x100) with Pack_L1_Acc, four datums, from
// (0x10 + 1) * 16 = 0x110 = 272. Dst32b row 0 holds 2.0 in column 0 (Dst32 layout: high half 0x0080
// = exponent 0x80 in bits 7:0 of the high half, mantissa 0) and 0 elsewhere; L1 holds 1.0 at 272.
// By hand: 1 + 2 = 3 = 0x40400000; the others 0 + 0 = 0; the line ends at 288, so no padding.
const char* const kPacrAcc = R"(tmu-vectors 3
arch wormhole

vector acc
thread 0
init tcfg 0 CFG_STATE_ID_StateID 0
init cfg 0 ALU_FORMAT_SPEC_REG2_Dstacc 0
init cfg 0 THCON_SEC0_REG1_L1_Dest_addr 00010
init cfg 0 THCON_SEC0_REG1_Pack_L1_Acc 1
init cfg 0 PCK_DEST_RD_CTRL_Read_32b_data 1
init global DbgFeatureDisableBit11 0
init dst 0 1 0080 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000
init dst 8 1 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000
init l1line 272 00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00
init adc 0 packer 1 X 00003
init packer NeedsNewAddress 1
insn 41000101
expect l1line 272 00 00 40 40 00 00 00 00 00 00 00 00 00 00 00 00
expect adc 0 packer 0 X 00000
expect adc 0 packer 0 X_Cr 00000
expect adc 0 packer 0 Y 00000
expect adc 0 packer 0 Y_Cr 00000
expect adc 0 packer 0 Z 00000
expect adc 0 packer 0 Z_Cr 00000
expect adc 0 packer 0 W 00000
expect adc 0 packer 0 W_Cr 00000
expect adc 0 packer 1 X 00003
expect adc 0 packer 1 X_Cr 00000
expect adc 0 packer 1 Y 00000
expect adc 0 packer 1 Y_Cr 00000
expect adc 0 packer 1 Z 00000
expect adc 0 packer 1 Z_Cr 00000
expect adc 0 packer 1 W 00000
expect adc 0 packer 1 W_Cr 00000
expect packer NeedsNewAddress 1
expect packer DataByteAddress 000120
expect packer ExponentByteAddress 000000
end

eof 1
)";

TEST(VectorsL1Insns, HandWrittenPacrAccumulationReplays) {
  const VectorFile f = parse_text(kPacrAcc);
  const ReplayReport r = replay_file(f, "v.tmv");
  EXPECT_EQ(r.failed_vectors, 0u);
  for (const Difference& d : r.differences) ADD_FAILURE() << d.line << ": " << d.text;
  EXPECT_EQ(format_vector_file(f).rfind("tmu-vectors 3\n", 0), 0u);
}

TEST(VectorsL1Insns, AWrongByteIsReportedAtItsLine) {
  std::string text = kPacrAcc;
  const std::string right = "expect l1line 272 00 00 40 40";
  text.replace(text.find(right), right.size(), "expect l1line 272 00 00 40 41");
  const ReplayReport r = replay_file(parse_text(text), "v.tmv");
  ASSERT_EQ(r.failed_vectors, 1u);
  ASSERT_FALSE(r.differences.empty());
  EXPECT_NE(r.differences[0].text.find("L1 byte 0x113: expected 41, got 40"), std::string::npos) << r.differences[0].text;
  EXPECT_EQ(r.differences[0].line, 18);
}

TEST(VectorsL1Insns, VersionChecks) {
  // A version-1 file of the corpus still reads and replays.
  std::ifstream corpus(std::string(TMU_SOURCE_DIR) + "/vectors/corpus/blackhole/mov/movb2d-int8.tmv");
  ASSERT_TRUE(corpus.good());
  const VectorFile old = parse_vector_file(corpus, "movb2d-int8.tmv");
  EXPECT_EQ(replay_file(old, "movb2d-int8.tmv").failed_vectors, 0u);
  EXPECT_EQ(format_vector_file(old).rfind("tmu-vectors 1\n", 0), 0u);
  // A version-3 location in a version-2 file is refused with its line.
  std::string text = kPacrAcc;
  text.replace(0, 13, "tmu-vectors 2");
  try {
    parse_text(text);
    ADD_FAILURE() << "accepted";
  } catch (const VectorError& e) {
    EXPECT_NE(std::string(e.what()).find("v.tmv:14: 'l1line' is a record of format version 3"), std::string::npos) << e.what();
  }
  // Malformed version-3 locations.
  for (const char* bad : {"init l1line 100 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",  // not a multiple of 16
                          "init l1line 1572864 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",  // past Blackhole's L1
                          "init adc 0 packer2 0 X 0", "init adc 0 packer 2 X 0", "init packer Foo 0",
                          "init srcrow 0 3 00", "init srcrow 0 0 40"}) {
    const std::string t = std::string("tmu-vectors 3\narch blackhole\nvector x\n") + bad + "\ninsn 41000f01\nend\neof 1\n";
    EXPECT_THROW(parse_text(t), VectorError) << bad;
  }
}

TEST(VectorsL1Insns, GeneratedFilesRoundTripAndReplayFromPoisonedState) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    FileFilter filter;
    filter.families = {"unpacr", "pacr"};
    const auto specs = plan_files(filter);
    EXPECT_EQ(specs.size(), 6u);
    for (const FileSpec& spec : specs) {
      GenerateOptions o;
      o.arch = arch;
      o.level = 2;
      o.random_vectors = 3;
      const VectorFile f = generate_file(spec, o);
      const std::string text = format_vector_file(f);
      EXPECT_EQ(text.rfind("tmu-vectors 3\n", 0), 0u) << spec.relative_path();
      EXPECT_EQ(format_vector_file(parse_text(text)), text) << spec.relative_path();
      ReplayOptions poison;
      poison.poison = true;
      poison.poison_seed = 11;
      for (const ReplayOptions& opt : {ReplayOptions{}, poison}) {
        const ReplayReport r = replay_file(f, spec.relative_path(), opt);
        EXPECT_EQ(r.failed_vectors, 0u) << spec.relative_path() << " on " << arch_name(arch);
        EXPECT_EQ(r.vectors, 7u);
      }
    }
  }
}

}  // namespace
}  // namespace tmu::tensix::vectors
