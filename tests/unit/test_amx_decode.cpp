// tmu::amx matfp operand fields, encode, disassembly, lane-width codes per generation and the
// instruction word, against corsix/amx matfp.md's tables (expected values placed by hand).
#include <gtest/gtest.h>

#include "test_amx_support.h"
#include "tmu/amx/matfp.h"
#include "tmu/error.h"
#include "tmu/rng.h"

namespace tmu::amx::test {
namespace {

TEST(AmxMatfpDecode, EveryFieldAtItsBits) {
  const uint64_t v = 0x123ull | (0x0ABull << 10) | (5ull << 20) | (3ull << 23) | (2ull << 27) | (1ull << 29) |
                     (0x15ull << 32) | (4ull << 38) | (7ull << 42) | (1ull << 47) | (0x1Eull << 58);
  const MatfpOperand op = decode_matfp(v);
  EXPECT_EQ(op.y_offset, 0x123u);
  EXPECT_EQ(op.x_offset, 0x0ABu);
  EXPECT_EQ(op.z_row, 5u);
  EXPECT_EQ(op.y_enable_mode, 3u);
  EXPECT_EQ(op.y_shuffle, 2u);
  EXPECT_EQ(op.x_shuffle, 1u);
  EXPECT_EQ(op.x_enable_value, 0x15u);
  EXPECT_EQ(op.x_enable_mode, 4u);
  EXPECT_EQ(op.lane_width, 7u);
  EXPECT_EQ(op.alu_mode, 1u);
  EXPECT_FALSE(op.indexed);
  EXPECT_EQ(op.index, IndexedLoad{});
  EXPECT_EQ(op.must_be_zero, 0u);
  EXPECT_EQ(op.y_enable_value, 0x1Eu);
  EXPECT_EQ(op.ignored, 0u);
  EXPECT_EQ(encode_matfp(op), v);
}

TEST(AmxMatfpDecode, IgnoredBitsAndTheYEnableValueAtBit58) {
  for (unsigned bit : {9u, 19u, 26u, 31u, 37u, 41u, 46u, 57u, 63u}) {
    const MatfpOperand op = decode_matfp(uint64_t{1} << bit);
    EXPECT_EQ(op.ignored, uint64_t{1} << bit) << bit;
    MatfpOperand zero;
    zero.ignored = op.ignored;
    EXPECT_EQ(op, zero) << bit;
  }
  EXPECT_EQ(decode_matfp(1ull << 58).y_enable_value, 1u);
  EXPECT_EQ(decode_matfp(1ull << 62).y_enable_value, 16u);
  EXPECT_EQ(decode_matfp(1ull << 36).x_enable_value, 16u);
  EXPECT_EQ(decode_matfp(7ull << 54).must_be_zero, 7u);
  EXPECT_EQ(decode_matfp(0x3Full << 47).alu_mode, 63u);
}

TEST(AmxMatfpDecode, IndexedLoadFields) {
  const uint64_t v = (1ull << 53) | (1ull << 47) | (1ull << 48) | (5ull << 49) | (1ull << 52);
  const MatfpOperand op = decode_matfp(v);
  EXPECT_TRUE(op.indexed);
  EXPECT_TRUE(op.index.of_y);
  EXPECT_TRUE(op.index.four_bit);
  EXPECT_EQ(op.index.reg, 5u);
  EXPECT_EQ(op.alu_mode, 0u);
  EXPECT_EQ(op.ignored, 1ull << 52);
  EXPECT_EQ(encode_matfp(op), v);
  const MatfpOperand x2 = decode_matfp((1ull << 53) | (2ull << 49));
  EXPECT_FALSE(x2.index.of_y);
  EXPECT_FALSE(x2.index.four_bit);
  EXPECT_EQ(x2.index.reg, 2u);
}

TEST(AmxMatfpDecode, EncodeInvertsDecodeOnRandomOperands) {
  Rng rng(derive_seed(0xA3C5, "amx decode"));
  for (int n = 0; n < 100000; ++n) {
    const uint64_t v = rng.next();
    ASSERT_EQ(encode_matfp(decode_matfp(v)), v) << std::hex << v;
  }
}

TEST(AmxMatfpDecode, EncodeRefusesWhatDoesNotFitNamingTheField) {
  auto refuses = [](MatfpOperand op, const char* name) {
    try {
      encode_matfp(op);
      ADD_FAILURE() << "accepted " << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  MatfpOperand op;
  op.x_offset = 512;
  refuses(op, "x_offset");
  op = {};
  op.y_enable_value = 32;
  refuses(op, "y_enable_value");
  op = {};
  op.ignored = 1ull << 58;
  refuses(op, "ignored");
  op = {};
  op.ignored = 1ull << 52;  // ignored only with indexed
  refuses(op, "ignored");
  op = {};
  op.indexed = true;
  op.alu_mode = 1;
  refuses(op, "alu_mode");
  op = {};
  op.index.reg = 3;
  refuses(op, "index");
}

TEST(AmxMatfpDecode, LaneWidthCodesPerGeneration) {
  for (unsigned code = 0; code < 16; ++code) {
    const LaneWidth want = code == 3 ? LaneWidth::F16F32 : code == 4 ? LaneWidth::F32 : code == 7 ? LaneWidth::F64
                                                                                                 : LaneWidth::F16;
    EXPECT_EQ(lane_width(code, Version::M1), want) << code;
  }
  for (Version v : {Version::M2, Version::M3, Version::M4}) {
    EXPECT_EQ(lane_width(0, v), LaneWidth::BF16);
    EXPECT_EQ(lane_width(1, v), LaneWidth::BF16F32);
    EXPECT_EQ(lane_width(2, v), LaneWidth::F16);
    EXPECT_EQ(lane_width(3, v), LaneWidth::F16F32);
    EXPECT_EQ(lane_width(15, v), LaneWidth::F16);
  }
  EXPECT_THROW(lane_width(16, Version::M1), Error);
  EXPECT_THROW(lane_width(0, static_cast<Version>(9)), Error);
}

TEST(AmxMatfpDecode, Disassembly) {
  EXPECT_EQ(disassemble_matfp(decode_matfp(MatfpBits{}.lw(kLwF32).xoff(0x40).yoff(0x1F0).zrow(1).yen(2, 3).yshuf(1).v)),
            "matfp f32 z+=x*y x=0x040 y=0x1f0 zrow=1 xen=0:0(all) yen=2:3(first 3) xshuf=S0 yshuf=S1");
  EXPECT_EQ(disassemble_matfp(decode_matfp(MatfpBits{}.lw(kLwF16F32).alu(1).xen(0, 4).yen(5, 0).v)),
            "matfp f16f32 z-=x*y x=0x000 y=0x000 zrow=0 xen=0:4(all,x=0) yen=5:0(none) xshuf=S0 yshuf=S0");
  EXPECT_EQ(disassemble_matfp(decode_matfp(MatfpBits{}.lw(0).alu(4).xen(1, 7).v | (1ull << 63)), Version::M2),
            "matfp bf16 z=x<=0?0:y x=0x000 y=0x000 zrow=0 xen=1:7(lane 7) yen=0:0(all) xshuf=S0 yshuf=S0 "
            "ign=0x8000000000000000");
  EXPECT_EQ(disassemble_matfp(decode_matfp(MatfpBits{}.lw(0).v)), "matfp f16(lw=0) z+=x*y x=0x000 y=0x000 zrow=0 "
                                                                  "xen=0:0(all) yen=0:0(all) xshuf=S0 yshuf=S0");
  EXPECT_EQ(disassemble_matfp(decode_matfp(MatfpBits{}.lw(kLwF64).indexed(true, false, 6).mbz(2).v)),
            "matfp f64 z+=x*y x=0x000 y=0x000 zrow=0 xen=0:0(all) yen=0:0(all) xshuf=S0 yshuf=S0 idx=y<-y6/2b "
            "nop(mbz=2)");
  EXPECT_EQ(disassemble_matfp(decode_matfp(MatfpBits{}.lw(kLwF16).alu(9).xen(0, 3).v)),
            "matfp f16(lw=2) nop(alu=9) x=0x000 y=0x000 zrow=0 xen=0:3(all,result=0) yen=0:0(all) xshuf=S0 yshuf=S0");
}

TEST(AmxMatfpDecode, InstructionWord) {
  EXPECT_EQ(encode_matfp_word(3), 0x002012A3u);  // 0x201000 | 21 << 5 | 3
  EXPECT_EQ(decode_matfp_word(0x002012BFu), 31u);
  try {
    decode_matfp_word(0x00201283u);  // instruction 20, not 21
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::DecodeError);
  }
  EXPECT_THROW(decode_matfp_word(0x006012A3u), Error);
  EXPECT_THROW(encode_matfp_word(32), Error);
}

}  // namespace
}  // namespace tmu::amx::test
