// Decode errors, the rotated (.ttinsn) word form, disassembly and assembly. Expected words are the
// TT_OP_* macro arithmetic of tt-llk's ckernel_ops.h; the rotation is the one PushTensixInstruction.md
// describes (rotate left by two).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "tmu/tensix/decode.h"
#include "tmu/error.h"

namespace tmu::tensix {
namespace {

constexpr Arch BH = Arch::Blackhole;
constexpr Arch WH = Arch::Wormhole;

// Runs f, which must throw tmu::Error of `kind`; returns the message ("" if nothing was thrown).
template <class Fn>
std::string error_message(ErrorKind kind, Fn&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no tmu::Error thrown";
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---------------------------------------------------------------------------------------------------
// Decode errors

TEST(DecodeErrors, UnknownOpcodesNameTheWordArchitectureAndReason) {
  const std::string zero = error_message(ErrorKind::DecodeError, [] { decode(0x00000000u, BH); });
  EXPECT_TRUE(contains(zero, "0x00000000")) << zero;
  EXPECT_TRUE(contains(zero, "blackhole")) << zero;
  EXPECT_TRUE(contains(zero, "opcode 0x00")) << zero;
  EXPECT_TRUE(contains(zero, "unknown or reserved")) << zero;

  const std::string ff = error_message(ErrorKind::DecodeError, [] { decode(0xff123456u, WH); });
  EXPECT_TRUE(contains(ff, "0xff123456")) << ff;
  EXPECT_TRUE(contains(ff, "wormhole")) << ff;
  EXPECT_TRUE(contains(ff, "opcode 0xff")) << ff;
}

TEST(DecodeErrors, ReservedBitsNameTheBitsAndTheMask) {
  // MVMUL with bit 13 set: DstRow is 10 bits, so tt-llk's 14-bit `dst` bits 13:10 are reserved.
  const std::string bh = error_message(ErrorKind::DecodeError, [] { decode(0x26002000u, BH); });
  EXPECT_TRUE(contains(bh, "0x26002000")) << bh;
  EXPECT_TRUE(contains(bh, "MVMUL")) << bh;
  EXPECT_TRUE(contains(bh, "blackhole")) << bh;
  EXPECT_TRUE(contains(bh, "reserved bit(s) 13")) << bh;
  EXPECT_TRUE(contains(bh, "0x00002000")) << bh;

  // The BH encoding of MVMUL ADDR_MOD_1 (1<<14) on WH, where AddrMod starts at bit 15.
  const std::string wh = error_message(ErrorKind::DecodeError, [] { decode(0x26004000u, WH); });
  EXPECT_TRUE(contains(wh, "wormhole")) << wh;
  EXPECT_TRUE(contains(wh, "reserved bit(s) 14")) << wh;
  EXPECT_TRUE(contains(wh, "0x00004000")) << wh;

  // Several reserved bits at once: INCRWC bits 23:21 (tt-llk's 6-bit rwc_cr, ISA has three Cr bits).
  const std::string multi = error_message(ErrorKind::DecodeError, [] { decode(0x38e00000u, BH); });
  EXPECT_TRUE(contains(multi, "23, 22, 21")) << multi;
  EXPECT_TRUE(contains(multi, "0x00e00000")) << multi;
}

TEST(DecodeErrors, FieldAboveItsMaximumNamesFieldValueAndRange) {
  // TT_OP_SHIFTDMAREG(1, 0, 0, 32, 0) = 0x5c<<24 | 1<<23 | 32<<6: the immediate is only five bits.
  const std::string msg = error_message(ErrorKind::DecodeError, [] { decode(0x5c800800u, BH); });
  EXPECT_TRUE(contains(msg, "0x5c800800")) << msg;
  EXPECT_TRUE(contains(msg, "RightReg=32")) << msg;
  EXPECT_TRUE(contains(msg, "0..31")) << msg;
  EXPECT_TRUE(contains(msg, "OpBisConst=1")) << msg;
}

// ---------------------------------------------------------------------------------------------------
// Raw and rotated forms

TEST(WordForms, RotatedIsRawRotatedLeftByTwo) {
  // 0x26004000 = 0010 0110 0000 0000 0100 ...: shifted left by two gives 0x98010000, nothing wraps.
  EXPECT_EQ(from_raw(0x26004000u, WordForm::Rotated), 0x98010000u);
  EXPECT_EQ(to_raw(0x98010000u, WordForm::Rotated), 0x26004000u);
  // DMANOP 0x60000000 has bit 30 set, which wraps round to bit 0: 0x80000001.
  EXPECT_EQ(from_raw(0x60000000u, WordForm::Rotated), 0x80000001u);
  EXPECT_EQ(to_raw(0x80000001u, WordForm::Rotated), 0x60000000u);
  EXPECT_EQ(to_raw(0x12345678u, WordForm::Raw), 0x12345678u);
  EXPECT_EQ(from_raw(0x12345678u, WordForm::Raw), 0x12345678u);
}

TEST(WordForms, RawAndRotatedRoundTrip) {
  for (uint32_t raw : {0x00000000u, 0x26c942a6u, 0x3700000fu, 0x5d8fffffu, 0x80000000u, 0xbfffffffu, 0x40000001u}) {
    const uint32_t rotated = from_raw(raw, WordForm::Rotated);
    EXPECT_NE(rotated & 3u, 3u) << std::hex << raw;
    EXPECT_EQ(to_raw(rotated, WordForm::Rotated), raw) << std::hex << raw;
  }
}

TEST(WordForms, WordsOutsideTheTtinsnSpaceAreRejected) {
  // A rotated word ending in 0b11 is an ordinary RISC-V instruction (here `addi x0, x0, 0`).
  const std::string msg = error_message(ErrorKind::DecodeError, [] { to_raw(0x00000013u, WordForm::Rotated); });
  EXPECT_TRUE(contains(msg, "0x00000013")) << msg;
  EXPECT_THROW(from_raw(0xc0000000u, WordForm::Rotated), Error);
}

// The matmul_peak replay buffer ("Tensix Matrix Unit operations", docs/sources.md): 16 rotated
// words, MVMUL with AddrMod 0,1,0,2, 0,1,0,4, 0,1,0,2, 0,1,0,5. Rotated back, 0x98010000 is
// 0x26004000 = TT_OP_MVMUL(0, 0, ADDR_MOD_1, 0) on BH.
TEST(WordForms, SeedReplayBufferIsRotatedBlackholeMvmul) {
  const uint32_t words[16] = {0x98000000, 0x98010000, 0x98000000, 0x98020000, 0x98000000, 0x98010000,
                              0x98000000, 0x98040000, 0x98000000, 0x98010000, 0x98000000, 0x98020000,
                              0x98000000, 0x98010000, 0x98000000, 0x98050000};
  const uint32_t addr_mods[16] = {0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0, 5};
  for (int i = 0; i < 16; ++i) {
    const Insn insn = decode(to_raw(words[i], WordForm::Rotated), BH);
    EXPECT_EQ(insn.op(), Op::MVMUL) << i;
    EXPECT_EQ(insn[Field::AddrMod], addr_mods[i]) << i;
    EXPECT_EQ(insn[Field::DstRow], 0u) << i;
    EXPECT_EQ(insn[Field::FlipSrcA] | insn[Field::FlipSrcB] | insn[Field::BroadcastSrcBRow], 0u) << i;
    EXPECT_EQ(from_raw(encode(insn), WordForm::Rotated), words[i]) << i;
  }
  // They are Blackhole words: on Wormhole AddrMod starts at bit 15, so ADDR_MOD_1's bit 14 is reserved.
  EXPECT_THROW(decode(to_raw(0x98010000u, WordForm::Rotated), WH), Error);
}

// ---------------------------------------------------------------------------------------------------
// Disassembly and assembly

TEST(Disassembly, ListsEveryFieldInTableOrderInDecimal) {
  EXPECT_EQ(disassemble(decode(0x26004000u, BH)), "MVMUL DstRow=0 AddrMod=1 BroadcastSrcBRow=0 FlipSrcA=0 FlipSrcB=0");
  // TT_OP_ZEROACC(6, 1, 1) on WH: 0x10<<24 | 6<<19 | 1<<15 | 1
  EXPECT_EQ(disassemble(decode(0x10308001u, WH)), "ZEROACC Imm10=1 AddrMod=1 Revert=0 Mode=2 UseDst32b=1");
  EXPECT_EQ(disassemble(decode(0x16000000u, WH)), "TRNSPSRCB");
}

TEST(Assembly, AcceptsAnyCaseAndHexValues) {
  const Insn insn = assemble("  mvmul addrmod=0x5   DSTROW=16 flipsrcb=1 ", BH);
  EXPECT_EQ(insn.op(), Op::MVMUL);
  // TT_OP_MVMUL(2, 0, 5, 16) on BH: 0x26<<24 | 2<<22 | 5<<14 | 16
  EXPECT_EQ(insn.word, 0x26814010u);
  EXPECT_EQ(insn[Field::AddrMod], 5u);
  EXPECT_EQ(insn[Field::DstRow], 16u);
  EXPECT_EQ(assemble("SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1", WH).word, 0x3700000fu);
  EXPECT_EQ(assemble("DMANOP", WH).word, 0x60000000u);
}

// Every field gets a distinct value that fits it, so that a field parsed into the wrong slot shows.
Insn sample_insn(Arch arch, const InsnSpec& spec) {
  std::vector<std::pair<Field, uint32_t>> fields;
  uint32_t next = 1;
  for (const FieldSpec& fs : spec.fields()) {
    const uint32_t limit = fs.has_conditional_max() ? std::min(fs.max, fs.when_max) : fs.max;
    fields.push_back({fs.id, std::min(next++, limit)});
  }
  return decode(encode(arch, spec.op, fields), arch);
}

TEST(Assembly, RoundTripsThroughDisassemblyForEveryInstruction) {
  for (Arch arch : {BH, WH})
    for (const InsnSpec& spec : instructions(arch)) {
      const Insn insn = sample_insn(arch, spec);
      const std::string text = disassemble(insn);
      const Insn back = assemble(text, arch);
      EXPECT_EQ(back.word, insn.word) << text;
      EXPECT_EQ(back.op(), spec.op) << text;
      EXPECT_EQ(disassemble(back), text);
      std::string lower = text;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      EXPECT_EQ(assemble(lower, arch).word, insn.word) << lower;
      EXPECT_EQ(encode(back), insn.word) << text;
    }
}

TEST(Assembly, ErrorsAreBadInputWithTheReason) {
  struct Case {
    const char* text;
    Arch arch;
    const char* reason_part;
  };
  const Case cases[] = {
      {"", BH, "empty"},
      {"   ", WH, "empty"},
      {"NOTANOP DstRow=1", BH, "unknown mnemonic \"NOTANOP\""},
      {"MVMUL DstRow", BH, "no '='"},
      {"MVMUL DstRow=1 AddrMod=2 DstRow=3", BH, "DstRow is given twice"},
      {"MVMUL DstRow=1 dstrow=3", WH, "DstRow is given twice"},
      {"MVMUL Revert=1", BH, "MVMUL has no field \"Revert\""},
      {"MVMUL NoSuchField=1", BH, "no field \"NoSuchField\""},
      {"MVMUL AddrMod=4", WH, "MVMUL.AddrMod=4 is outside its allowed range 0..3"},
      {"MVMUL DstRow=1024", BH, "MVMUL.DstRow=1024 is outside its allowed range 0..1023"},
      {"MVMUL DstRow=", BH, "value \"\" of field DstRow"},
      {"MVMUL DstRow=-1", BH, "value \"-1\""},
      {"MVMUL DstRow=12abc", BH, "value \"12abc\""},
      {"MVMUL DstRow=0x", BH, "value \"0x\""},
      {"MVMUL DstRow=0x100000000", BH, "value \"0x100000000\""},
      {"MVMUL =3", BH, "no field \"\""},
      {"SHIFTDMAREG OpBisConst=1 RightReg=32", WH, "RightReg=32 is outside its allowed range 0..31 when OpBisConst=1"},
  };
  for (const Case& c : cases) {
    const std::string msg = error_message(ErrorKind::BadInput, [&] { assemble(c.text, c.arch); });
    EXPECT_TRUE(contains(msg, c.reason_part)) << "\"" << c.text << "\": " << msg;
    EXPECT_TRUE(contains(msg, arch_name(c.arch))) << msg;
  }
  // AddrMod=4 is fine on Blackhole, whose AddrMod is three bits.
  EXPECT_EQ(assemble("MVMUL AddrMod=4", BH).word, 0x26010000u);
}

// ---------------------------------------------------------------------------------------------------
// Encode errors

TEST(EncodeErrors, NameTheField) {
  const std::string missing =
      error_message(ErrorKind::DecodeError, [] { encode(WH, Op::MVMUL, {{Field::Revert, 1}}); });
  EXPECT_TRUE(contains(missing, "no field Revert")) << missing;
  EXPECT_TRUE(contains(missing, "wormhole")) << missing;

  const std::string big = error_message(ErrorKind::DecodeError, [] { encode(WH, Op::MVMUL, {{Field::AddrMod, 4}}); });
  EXPECT_TRUE(contains(big, "AddrMod=4")) << big;
  EXPECT_TRUE(contains(big, "0..3")) << big;

  const std::string twice = error_message(ErrorKind::DecodeError, [] {
    encode(BH, Op::MVMUL, {{Field::DstRow, 1}, {Field::DstRow, 2}});
  });
  EXPECT_TRUE(contains(twice, "DstRow is given twice")) << twice;
}

TEST(EncodeErrors, InsnWithAValueInAFieldItLacksIsRejected) {
  Insn insn = decode(0x26004000u, BH);
  EXPECT_EQ(encode(insn), 0x26004000u);
  insn.values[static_cast<unsigned>(Field::Revert)] = 1;
  const std::string msg = error_message(ErrorKind::DecodeError, [&] { encode(insn); });
  EXPECT_TRUE(contains(msg, "Revert")) << msg;
}

}  // namespace
}  // namespace tmu::tensix
