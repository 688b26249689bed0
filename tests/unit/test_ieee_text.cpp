// tmu::ieee::from_text / to_text and tmu::parse_exact_number: patterns placed by hand from the
// formats' definitions (binary16: 5 exponent bits, bias 15, 10 fraction bits; bfloat16: 8 and 7;
// binary32: 8 and 23; binary64: 11 and 52).
#include <cmath>

#include <gtest/gtest.h>

#include "tmu/exact_number.h"
#include "tmu/ieee_text.h"

namespace tmu::ieee::test {
namespace {

uint64_t bits(Format f, std::string_view text) {
  std::string why;
  const auto b = from_text(f, text, &why);
  EXPECT_TRUE(b.has_value()) << text << ": " << why;
  return b.value_or(0xDEAD);
}

std::string refusal(Format f, std::string_view text) {
  std::string why;
  EXPECT_FALSE(from_text(f, text, &why).has_value()) << text;
  return why;
}

TEST(IeeeText, Binary16) {
  EXPECT_EQ(bits(kBinary16, "1"), 0x3C00u);           // exponent 15 (bias), fraction 0
  EXPECT_EQ(bits(kBinary16, "-2.5"), 0xC100u);        // 1.25 * 2^1: exponent 16, fraction 0x100
  EXPECT_EQ(bits(kBinary16, "65504"), 0x7BFFu);       // the largest finite: exponent 30, all ones
  EXPECT_EQ(bits(kBinary16, "6.103515625e-05"), 0x0400u);  // 2^-14, the smallest normal
  EXPECT_EQ(bits(kBinary16, "0x1p-24"), 0x0001u);     // the smallest subnormal
  EXPECT_EQ(bits(kBinary16, "0x1.ff8p-15"), 0x03FFu); // the largest subnormal, 1023 * 2^-24
  EXPECT_EQ(bits(kBinary16, "-0"), 0x8000u);
  EXPECT_EQ(bits(kBinary16, "0"), 0x0000u);
  EXPECT_EQ(bits(kBinary16, "inf"), 0x7C00u);
  EXPECT_EQ(bits(kBinary16, "-Infinity"), 0xFC00u);
  EXPECT_EQ(bits(kBinary16, "nan"), 0x7E00u);
  EXPECT_EQ(bits(kBinary16, "-nan"), 0xFE00u);
  EXPECT_NE(refusal(kBinary16, "65520").find("needs 12 significant bits at that exponent, f16 has 11"), std::string::npos);
  EXPECT_NE(refusal(kBinary16, "65536").find("beyond the largest finite f16"), std::string::npos);
  EXPECT_NE(refusal(kBinary16, "0x1p-25").find("below the smallest f16 subnormal 2^-24"), std::string::npos);
  // 3 * 2^-25 needs a bit below the subnormal grid although it is above 2^-24.
  EXPECT_NE(refusal(kBinary16, "0x3p-25").find("needs 2 significant bits at that exponent, f16 has 1"), std::string::npos);
  EXPECT_NE(refusal(kBinary16, "0.1").find("not a binary fraction"), std::string::npos);
  EXPECT_NE(refusal(kBinary16, "1.2.3").find("malformed number"), std::string::npos);
  EXPECT_NE(refusal(kBinary16, "").find("malformed number"), std::string::npos);
}

TEST(IeeeText, OtherFormats) {
  EXPECT_EQ(bits(kBfloat16, "1.5"), 0x3FC0u);
  EXPECT_EQ(bits(kBfloat16, "0x1p-133"), 0x0001u);  // bfloat16's smallest subnormal: 2^(-126-7)
  EXPECT_NE(refusal(kBfloat16, "257").find("needs 9 significant bits"), std::string::npos);
  EXPECT_EQ(bits(kBinary32, "1.5"), 0x3FC00000u);
  EXPECT_EQ(bits(kBinary32, "-0.125"), 0xBE000000u);  // 2^-3: exponent 124
  EXPECT_EQ(bits(kBinary32, "16777215"), 0x4B7FFFFFu);
  EXPECT_NE(refusal(kBinary32, "16777217").find("needs 25 significant bits"), std::string::npos);
  EXPECT_EQ(bits(kBinary64, "0x1p-1074"), 1u);
  EXPECT_EQ(bits(kBinary64, "1"), 0x3FF0000000000000u);
  EXPECT_EQ(bits(kBinary64, "9007199254740991"), 0x433FFFFFFFFFFFFFu);  // 2^53 - 1
  EXPECT_EQ(bits(kBinary64, "0x1.fffffffffffffp1023"), 0x7FEFFFFFFFFFFFFFu);
  EXPECT_EQ(bits(kBinary64, "nan"), 0x7FF8000000000000u);
  EXPECT_NE(refusal(kBinary64, "0.1").find("not a binary fraction"), std::string::npos);
}

TEST(IeeeText, ToText) {
  EXPECT_EQ(to_text(kBinary16, 0x3C00), "1");
  EXPECT_EQ(to_text(kBinary16, 0xC100), "-2.5");
  EXPECT_EQ(to_text(kBinary16, 0x8000), "-0");
  EXPECT_EQ(to_text(kBinary16, 0x7BFF), "65504");
  EXPECT_EQ(to_text(kBinary16, 0x7C00), "inf");
  EXPECT_EQ(to_text(kBinary16, 0xFC00), "-inf");
  EXPECT_EQ(to_text(kBinary16, 0x7E00), "nan");
  EXPECT_EQ(to_text(kBinary16, 0xFD00), "-snan");
  EXPECT_EQ(to_text(kBfloat16, 0x3FC0), "1.5");
  EXPECT_EQ(to_text(kBinary32, 0xBE000000), "-0.125");
  EXPECT_EQ(to_text(kBinary64, 0x3FF8000000000000), "1.5");
  EXPECT_EQ(to_text(kBinary16, 0x0001), "0x1p-24");  // 5.960464477539063e-08 is only near 2^-24
  EXPECT_EQ(to_text(kBinary16, 0x8003), "-0x1.8p-23");
  EXPECT_EQ(to_text(kBinary32, 0x3DCCCCCD), "0x1.99999ap-4");  // the f32 nearest 0.1
  EXPECT_EQ(to_text(kBinary16, 0x0400), "6.103515625e-05");   // 2^-14 is short in decimal
  // Every binary16 and bfloat16 pattern but the NaNs reads back from its text.
  for (Format f : {kBinary16, kBfloat16}) {
    for (uint64_t b = 0; b < 0x10000; ++b) {
      if (is_nan(f, b)) continue;
      ASSERT_EQ(bits(f, to_text(f, b)), b) << std::hex << b;
    }
  }
}

TEST(IeeeText, ToDouble) {
  EXPECT_EQ(to_double(kBinary16, 0xC100), -2.5);
  EXPECT_EQ(to_double(kBinary16, 0x0001), 0x1p-24);
  EXPECT_EQ(to_double(kBfloat16, 0x0001), 0x1p-133);
  EXPECT_EQ(to_double(kBinary64, 1), 0x1p-1074);
  EXPECT_EQ(to_double(kBinary32, 0xFF800000), -HUGE_VAL);
  EXPECT_TRUE(std::signbit(to_double(kBinary16, 0x8000)));
  EXPECT_TRUE(std::isnan(to_double(kBinary16, 0x7D00)));
}

TEST(ExactNumber, Parts) {
  ExactNumber n;
  ASSERT_TRUE(parse_exact_number("-12", n, nullptr));  // -3 * 2^2
  EXPECT_TRUE(n.negative);
  EXPECT_EQ(n.odd, 3u);
  EXPECT_EQ(n.odd_bits, 2u);
  EXPECT_EQ(n.pow2, 2);
  ASSERT_TRUE(parse_exact_number("0.375", n, nullptr));  // 3 * 2^-3
  EXPECT_EQ(n.odd, 3u);
  EXPECT_EQ(n.pow2, -3);
  ASSERT_TRUE(parse_exact_number("0x1.8p4", n, nullptr));  // 24 = 3 * 2^3
  EXPECT_EQ(n.odd, 3u);
  EXPECT_EQ(n.pow2, 3);
  // 2^64 + 1: 65 significant bits, the low 64 kept.
  ASSERT_TRUE(parse_exact_number("18446744073709551617", n, nullptr));
  EXPECT_EQ(n.odd_bits, 65u);
  EXPECT_EQ(n.odd, 1u);
  ASSERT_TRUE(parse_exact_number("0.1", n, nullptr));
  EXPECT_FALSE(n.dyadic);
  ASSERT_TRUE(parse_exact_number("1e70", n, nullptr));
  EXPECT_EQ(n.out_of_range, 1);
  std::string why;
  EXPECT_FALSE(parse_exact_number("1e", n, &why));
  EXPECT_EQ(why, "exponent has no digits");
}

}  // namespace
}  // namespace tmu::ieee::test
