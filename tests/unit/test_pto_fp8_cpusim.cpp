// The PTO CPU simulator's 8-bit float conversions (tmu/pto/fp8_cpusim.h), worked by hand from
// pto-isa's include/pto/cpu/MXTypes.hpp.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "tmu/fp8.h"
#include "tmu/pto/fp8_cpusim.h"

namespace tmu::pto {
namespace {

using fp8::Kind;

uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }

TEST(Fp8CpuSim, DecodeHasNoSpecialsAndLosesTheNegativeZero) {
  // Exponent field > 0 is always normal: e4m3 0x7F = 2^(15-7) * 1.875 = 480; e5m2 0x7C = 2^16,
  // 0x7F = 2^16 * 1.75 = 114688.
  EXPECT_EQ(cpusim_to_f32(Kind::E4M3, 0x7F), f32_bits(480.0f));
  EXPECT_EQ(cpusim_to_f32(Kind::E4M3, 0xFF), f32_bits(-480.0f));
  EXPECT_EQ(cpusim_to_f32(Kind::E5M2, 0x7C), f32_bits(65536.0f));
  EXPECT_EQ(cpusim_to_f32(Kind::E5M2, 0x7F), f32_bits(114688.0f));
  EXPECT_EQ(cpusim_to_f64(Kind::E4M3, 0x80), 0u);  // `retVal = -0` is integer zero
  EXPECT_EQ(cpusim_to_f32(Kind::E4M3, 0x83), f32_bits(-0x3p-9f));
  EXPECT_EQ(cpusim_to_f32(Kind::E5M2, 0x02), f32_bits(0x1p-15f));
  EXPECT_EQ(cpusim_to_f64(Kind::E4M3, 0x38), std::bit_cast<uint64_t>(1.0));
  // Every other pattern agrees with OCP's widening (tmu/fp8.h, checked against each pattern's fields
  // in test_fp8.cpp).
  for (Kind k : {Kind::E4M3, Kind::E5M2})
    for (unsigned c = 0; c < 256; ++c) {
      const auto bits = static_cast<uint8_t>(c);
      if (fp8::is_nan(k, bits) || fp8::is_inf(k, bits) || c == 0x80) continue;
      EXPECT_EQ(cpusim_to_f32(k, bits), fp8::to_f32(k, bits)) << c;
    }
}

TEST(Fp8CpuSim, EncodeTruncatesWrapsAndMisplacesTheBinadeBelowNormal) {
  const auto e4 = [](float x) { return cpusim_from_f32(Kind::E4M3, f32_bits(x)); };
  const auto e5 = [](float x) { return cpusim_from_f32(Kind::E5M2, f32_bits(x)); };
  EXPECT_EQ(e4(1.0f), 0x38);
  EXPECT_EQ(e4(1.124f), 0x38);     // 1.124 = 1.000111..b: truncated, not rounded to 1.125 (0x39)
  EXPECT_EQ(e4(-1.9999f), 0xBF);   // -1.111b (truncation toward zero)
  EXPECT_EQ(e4(-0.0f), 0x00);      // `value == 0.0` holds for -0
  EXPECT_EQ(e4(448.0f), 0x7E);
  EXPECT_EQ(e4(480.0f), 0x7F);     // the OCP NaN pattern, written as a number
  EXPECT_EQ(e4(512.0f), 0x00);     // exponent 9 + 7 = 16, kept mod 16 = 0; fraction 0
  EXPECT_EQ(e4(768.0f), 0x04);     // 1.1b * 2^9: field 0, fraction 100b
  EXPECT_EQ(e4(INFINITY), 0x38);   // 2047 + 7 - 1023 = 1031 = 7 mod 16: 1.0
  EXPECT_EQ(e4(-INFINITY), 0xB8);
  EXPECT_EQ(e4(NAN), 0x3C);        // quiet bit is the top fraction bit: 1.5
  EXPECT_EQ(e5(INFINITY), 0x3C);   // 2047 + 15 - 1023 = 1039 = 15 mod 32: 1.0
  EXPECT_EQ(e5(65536.0f), 0x7C);   // 16 + 15 = 31 fits: the OCP infinity pattern, as a number
  EXPECT_EQ(e5(131072.0f), 0x00);  // 17 + 15 = 32 = 0 mod 32
  // Binade below the smallest normal (e4m3 [2^-7, 2^-6)): field 0, fraction unshifted, so 1.5 * 2^-7
  // (= 0x06 under OCP) is written 0x04 = 0.5 * 2^-6 = 2^-7.
  EXPECT_EQ(e4(0x1.8p-7f), 0x04);
  EXPECT_EQ(e4(0x1p-7f), 0x00);
  // Two binades down the shift is right: 1.5 * 2^-8 = 3 * 2^-9, (1100b) >> 2 = 3.
  EXPECT_EQ(e4(0x1.8p-8f), 0x03);
  EXPECT_EQ(e4(0x1p-9f), 0x01);
  EXPECT_EQ(e4(0x1.fp-10f), 0x00);  // truncated below the smallest subnormal
  // e5m2 the same: [2^-15, 2^-14) keeps its fraction at field 0.
  EXPECT_EQ(e5(0x1.8p-15f), 0x02);
  EXPECT_EQ(e5(0x1.8p-16f), 0x01);
}

}  // namespace
}  // namespace tmu::pto
