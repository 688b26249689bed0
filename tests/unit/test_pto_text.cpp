// PTO lane values and operation parameters as text: the forms programs and vector files use.
#include <gtest/gtest.h>

#include "tmu/error.h"
#include "tmu/pto/text.h"

namespace tmu::pto {
namespace {

using enum ElemType;

TEST(PtoText, IntegerValuesAndPatterns) {
  EXPECT_EQ(lane_from_text(I8, "-128"), 0x80u);
  EXPECT_EQ(lane_from_text(I8, "127"), 0x7Fu);
  EXPECT_EQ(lane_from_text(I8, "0xff"), 0xFFu);  // a pattern: -1
  EXPECT_EQ(lane_from_text(U8, "255"), 0xFFu);
  EXPECT_EQ(lane_from_text(I16, "-1"), 0xFFFFu);
  EXPECT_EQ(lane_from_text(I64, "-9223372036854775808"), 0x8000000000000000u);
  EXPECT_EQ(lane_from_text(U64, "18446744073709551615"), ~uint64_t{0});
  EXPECT_EQ(lane_to_text(I8, 0x80), "-128");
  EXPECT_EQ(lane_to_text(I32, 0xFFFFFFFE), "-2");
  EXPECT_EQ(lane_to_text(I64, 0x8000000000000000u), "-9223372036854775808");
  EXPECT_EQ(lane_to_text(U16, 0xFFFF), "65535");
  for (const char* bad : {"128", "-129", "0x100", "1.5", "", "-", "0x"})
    EXPECT_THROW(lane_from_text(I8, bad), Error) << bad;
  EXPECT_THROW(lane_from_text(U8, "-1"), Error);
  EXPECT_THROW(lane_from_text(I64, "9223372036854775808"), Error);
}

// Every pattern of the 8- and 16-bit integer types reads back from its text.
TEST(PtoText, EveryNarrowIntegerRoundTrips) {
  for (ElemType t : {I8, U8, I16, U16})
    for (uint64_t b = 0; b <= lane_mask(t); ++b) ASSERT_EQ(lane_from_text(t, lane_to_text(t, b)), b) << elem_name(t);
}

TEST(PtoText, FloatValues) {
  EXPECT_EQ(lane_from_text(F16, "1.5"), 0x3E00u);
  EXPECT_EQ(lane_from_text(F16, "-0"), 0x8000u);
  EXPECT_EQ(lane_from_text(F16, "0x1p-24"), 0x0001u);
  EXPECT_EQ(lane_from_text(BF16, "-inf"), 0xFF80u);
  EXPECT_EQ(lane_from_text(F32, "65504"), 0x477FE000u);
  EXPECT_THROW(lane_from_text(F16, "0.1"), Error);    // not a binary fraction
  EXPECT_THROW(lane_from_text(F16, "65536"), Error);  // beyond the largest finite
  EXPECT_THROW(lane_from_text(BF16, "257"), Error);   // 9 significant bits
}

// Every f16 and bf16 pattern that is not a NaN reads back from its text (NaNs print as nan/snan).
TEST(PtoText, EveryHalfWidthFloatRoundTrips) {
  for (ElemType t : {F16, BF16}) {
    const ieee::Format f = float_format(t);
    for (uint64_t b = 0; b <= 0xFFFF; ++b) {
      const bool nan = ((b >> f.frac_bits) & f.exp_field_max()) == f.exp_field_max() && (b & f.frac_mask()) != 0;
      if (!nan) {
        ASSERT_EQ(lane_from_text(t, lane_to_text(t, b)), b) << elem_name(t) << " " << b;
      }
    }
  }
}

TEST(PtoText, Shapes) {
  EXPECT_EQ(shape_from_text("16x64", "shape"), (std::pair<unsigned, unsigned>{16, 64}));
  for (const char* bad : {"16", "x64", "16x", "16x0x1", "-1x8", "0x10x8"})
    EXPECT_THROW(shape_from_text(bad, "shape"), Error) << bad;
}

TEST(PtoText, Parameters) {
  OpParams p;
  ParamsGiven g;
  param_from_text(Op::TCMP, "cmp=ge", p, g);
  EXPECT_EQ(p.cmp, CmpMode::GE);
  EXPECT_THROW(param_from_text(Op::TCMP, "cmp=LT", p, g), Error);  // given twice
  EXPECT_THROW(param_from_text(Op::TADD, "cmp=LT", p, g), Error);  // not TADD's
  EXPECT_EQ(params_text(Op::TCMP, p), " cmp=GE");
  OpParams c;
  ParamsGiven gc;
  EXPECT_THROW(require_params(Op::TCMP, gc), Error);
  param_from_text(Op::TCVT, "round=ODD", c, gc);
  param_from_text(Op::TCVT, "sat=off", c, gc);
  EXPECT_EQ(c.round, RoundMode::Odd);
  EXPECT_EQ(c.saturation, SaturationMode::Off);
  EXPECT_EQ(params_text(Op::TCVT, c), " round=ODD sat=off");
  EXPECT_THROW(param_from_text(Op::TCVT, "sat=maybe", c, gc), Error);
  EXPECT_THROW(param_from_text(Op::TCVT, "round", c, gc), Error);
  EXPECT_EQ(params_text(Op::TADD, c), "");
}

}  // namespace
}  // namespace tmu::pto
