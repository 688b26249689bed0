// tmu::amx::assemble_matfp: field tokens placed by hand at matfp.md's bit positions, the round trip
// through disassemble_matfp over random operands of every generation, and the refusals.
#include <gtest/gtest.h>

#include "tmu/amx/matfp.h"
#include "tmu/error.h"
#include "tmu/rng.h"

namespace tmu::amx::test {
namespace {

uint64_t assembled(std::string_view text, Version v = Version::M1) { return encode_matfp(assemble_matfp(text, v)); }

TEST(AmxMatfpAsm, ShortTokensAtTheirBits) {
  // f32 = code 4 at bits 42..45; x offset at 10..18, y offset at 0..8, Z row at 20..22; X enable
  // mode at 38..40 and value at 32..36; Y enable mode at 23..25 and value at 58..62; shuffles at
  // 29..30 (X) and 27..28 (Y); ALU mode 1 at 47..52.
  const uint64_t want = (4ull << 42) | (0x40ull << 10) | 0x1F0ull | (1ull << 20) | (2ull << 38) | (3ull << 32) |
                        (0ull << 23) | (1ull << 58) | (1ull << 29) | (2ull << 27) | (1ull << 47);
  EXPECT_EQ(assembled("matfp f32 z-=x*y x=0x40 y=0x1f0 zrow=1 xen=2:3 yen=0:1 xshuf=S1 yshuf=S2"), want);
  // Order does not matter, nor does the enables' text when it is right.
  EXPECT_EQ(assembled("matfp yshuf=S2 xshuf=S1 yen=0:1(odd) xen=2:3(first 3) zrow=1 y=496 x=64 z-=x*y f32"), want);
}

TEST(AmxMatfpAsm, FieldNames) {
  const uint64_t want = (7ull << 42) | (5ull << 0) | (6ull << 10) | (3ull << 20) | (4ull << 23) | (9ull << 58) |
                        (5ull << 38) | (17ull << 32) | (3ull << 27) | (3ull << 29) | (4ull << 47) | (2ull << 54) |
                        (1ull << 63);
  EXPECT_EQ(assembled("matfp lane_width=7 y_offset=5 x_offset=6 z_row=3 y_enable_mode=4 y_enable_value=9 "
                      "x_enable_mode=5 x_enable_value=17 y_shuffle=3 x_shuffle=3 alu_mode=4 must_be_zero=2 "
                      "ignored=0x8000000000000000"),
            want);
}

TEST(AmxMatfpAsm, WidthsAluModesIndexedAndNoOps) {
  EXPECT_EQ(assembled("matfp f16 z+=x*y"), 2ull << 42);
  EXPECT_EQ(assembled("matfp f16(lw=9) z+=x*y"), 9ull << 42);
  EXPECT_EQ(assembled("matfp f64 z+=x*y"), 7ull << 42);
  EXPECT_EQ(assembled("matfp f16f32 z+=x*y"), 3ull << 42);
  EXPECT_EQ(assembled("matfp bf16 z+=x*y", Version::M2), 0ull);
  EXPECT_EQ(assembled("matfp bf16f32 z+=x*y", Version::M4), 1ull << 42);
  EXPECT_EQ(assembled("matfp f16(lw=0) z+=x*y", Version::M1), 0ull);
  EXPECT_EQ(assembled("matfp f32 z=x<=0?0:y"), (4ull << 42) | (4ull << 47));
  EXPECT_EQ(assembled("matfp f32 nop(alu=63)"), (4ull << 42) | (63ull << 47));
  EXPECT_EQ(assembled("matfp f32 z+=x*y nop(mbz=7)"), (4ull << 42) | (7ull << 54));
  // Indexed: bit 53, Y at bit 47, 4-bit indices at bit 48, the register at 49..51.
  EXPECT_EQ(assembled("matfp f32 z+=x*y idx=y<-y5/4b"), (4ull << 42) | (1ull << 53) | (1ull << 47) | (1ull << 48) | (5ull << 49));
  EXPECT_EQ(assembled("matfp f32 idx=x<-x2/2b"), (4ull << 42) | (1ull << 53) | (2ull << 49));
  EXPECT_EQ(assembled("matfp f32 indexed=1 index_reg=2 ign=0x10000000000000"), (4ull << 42) | (1ull << 53) | (2ull << 49) | (1ull << 52));
}

TEST(AmxMatfpAsm, ReadsBackEveryDisassembly) {
  Rng rng(0xA5A5);
  for (Version v : {Version::M1, Version::M2, Version::M3, Version::M4}) {
    for (int n = 0; n < 20000; ++n) {
      const uint64_t operand = rng.next();
      const MatfpOperand op = decode_matfp(operand);
      const std::string text = disassemble_matfp(op, v);
      ASSERT_EQ(assembled(text, v), operand) << version_name(v) << " " << text;
    }
  }
}

void refused(std::string_view text, std::string_view why, Version v = Version::M1) {
  try {
    assemble_matfp(text, v);
    ADD_FAILURE() << text << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput) << text;
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
  }
}

TEST(AmxMatfpAsm, Refusals) {
  refused("matfq f32 z+=x*y", "starts with 'matfp'");
  refused("matfp z+=x*y", "no lane width");
  refused("matfp f32", "no ALU mode");
  refused("matfp f32 f16 z+=x*y", "lane width given twice");
  refused("matfp f32 z+=x*y x=1 x_offset=2", "x_offset given twice");
  refused("matfp bf16 z+=x*y", "from M2 on");
  refused("matfp f16(lw=0) z+=x*y", "code 0 is bf16 on M2", Version::M2);
  refused("matfp f16(lw=4) z+=x*y", "code 4 is f32");
  refused("matfp f32 nop(alu=1)", "ALU mode 1 is not a no-op");
  refused("matfp f32 z+=x*y x=512", "512 is more than 511");
  refused("matfp f32 z+=x*y zrow=8", "8 is more than 7");
  refused("matfp f32 z+=x*y xen=8:0", "8 is more than 7");
  refused("matfp f32 z+=x*y yen=0:32", "32 is more than 31");
  refused("matfp f32 z+=x*y xen=3", "expected MODE:VALUE");
  refused("matfp f32 z+=x*y xen=4:0(all)", "mode 4 value 0 selects 'none'");
  refused("matfp f32 z+=x*y xshuf=S4", "expected S0, S1, S2 or S3");
  refused("matfp f32 z+=x*y idx=x<-y1/2b", "expected idx=");
  refused("matfp f32 z-=x*y idx=x<-x1/2b", "an indexed load computes z+=x*y");
  refused("matfp f32 z+=x*y ign=0x1", "has bits that are not ignored");
  refused("matfp f32 z+=x*y index_reg=3", "index is set without indexed");
  refused("matfp f32 z+=x*y frob=1", "no matfp field 'frob'");
  refused("matfp f32 z+=x*y banana", "not a matfp token");
  refused("matfp f32 z+=x*y xen=2:3(first 3", "unbalanced parentheses");
  refused("matfp f32 z+=x*y x=0x", "is not a number");
}

}  // namespace
}  // namespace tmu::amx::test
