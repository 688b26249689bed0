// Number formats: format codes and styles, Src datum fields, Dst16/Dst32 layouts, Adj32 rows.
// Expected layouts are assembled here by hand from the bit diagrams (Bits32.lua Src_*, Dst16_*,
// Dst32_*) with plain shifts, independently of the code under test; typed-value encodings are
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <cmath>
#include <set>
#include <string>

#include "tmu/tensix/formats.h"

namespace tmu::tensix {
namespace {

// ---- Format codes (Packers/FormatConversion.md table) and styles (MVMUL.md) ----

TEST(Formats, CodesFollowTheFormatConversionTable) {
  struct Row { const char* name; uint32_t code; };
  const Row table[] = {{"FP32", 0},  {"FP16", 1},  {"BFP8a", 2}, {"BFP4a", 3}, {"TF32", 4},
                       {"BF16", 5},  {"BFP8", 6},  {"BFP4", 7},  {"INT32", 8}, {"INT16", 9},
                       {"FP8", 10},  {"BFP2a", 11}, {"INT8", 14}, {"BFP2", 15}};
  for (const auto& row : table) {
    const auto f = parse_data_format(row.name);
    ASSERT_TRUE(f.has_value()) << row.name;
    EXPECT_EQ(static_cast<uint32_t>(*f), row.code) << row.name;
    EXPECT_STREQ(data_format_name(*f), row.name);
    EXPECT_TRUE(is_valid_data_format_code(row.code));
  }
  EXPECT_EQ(parse_data_format("bf16"), DataFormat::BF16);  // case-insensitive
  EXPECT_FALSE(parse_data_format("BF17").has_value());
  EXPECT_FALSE(is_valid_data_format_code(12));
  EXPECT_FALSE(is_valid_data_format_code(13));
  EXPECT_FALSE(is_valid_data_format_code(16));
}

TEST(Formats, StyleOfEveryCodePerMvmul) {
  // MVMUL.md "Determine the data formats"; 12 and 13 reach the final else (TF32).
  const SrcStyle expected[16] = {
      SrcStyle::BF16, SrcStyle::FP16, SrcStyle::FP16, SrcStyle::FP16,  // FP32 FP16 BFP8a BFP4a
      SrcStyle::TF32, SrcStyle::BF16, SrcStyle::BF16, SrcStyle::BF16,  // TF32 BF16 BFP8 BFP4
      SrcStyle::BF16, SrcStyle::BF16, SrcStyle::FP16, SrcStyle::FP16,  // INT32 INT16 FP8 BFP2a
      SrcStyle::TF32, SrcStyle::TF32, SrcStyle::FP16, SrcStyle::BF16,  // 12 13 INT8 BFP2
  };
  for (uint32_t code = 0; code < 16; ++code) {
    EXPECT_EQ(src_style_of_format_code(code), expected[code]) << "code " << code;
    if (is_valid_data_format_code(code)) {
      EXPECT_EQ(src_style_of_format(static_cast<DataFormat>(code)), expected[code]) << "code " << code;
    }
  }
  EXPECT_STREQ(src_style_name(SrcStyle::INT8), "INT8");
}

// ---- Src datums: all 2^19 patterns for each style ----

struct HandFields { uint32_t sign, exponent, mantissa; };

// Fields placed per Bits32.lua: sign 18; mantissa 17:8 (BF16 uses 17:11); exponent 7:0 (FP16/INT8 use 4:0).
HandFields hand_unpack(uint32_t d, SrcStyle style) {
  const uint32_t sign = (d >> 18) & 1;
  switch (style) {
    case SrcStyle::TF32: return {sign, d & 0xFF, (d >> 8) & 0x3FF};
    case SrcStyle::BF16: return {sign, d & 0xFF, ((d >> 11) & 0x7F) << 3};
    case SrcStyle::FP16:
    case SrcStyle::INT8: return {sign, d & 0x1F, (d >> 8) & 0x3FF};
  }
  return {};
}

uint32_t canonical(uint32_t d, SrcStyle style) {
  switch (style) {
    case SrcStyle::TF32: return d;
    case SrcStyle::BF16: return d & ~0x700u;  // bits 10:8 are "0" in Src_BF16
    case SrcStyle::FP16:
    case SrcStyle::INT8: return d & ~0xE0u;   // bits 7:5 are "0" in Src_FP16 / Src_INT8
  }
  return d;
}

TEST(Formats, SrcUnpackPackAllPatternsAllStyles) {
  for (SrcStyle style : {SrcStyle::TF32, SrcStyle::BF16, SrcStyle::FP16, SrcStyle::INT8}) {
    for (uint32_t d = 0; d < (1u << 19); ++d) {
      const SrcFields f = unpack_src(d, style);
      const HandFields h = hand_unpack(d, style);
      ASSERT_EQ(f.sign, h.sign) << src_style_name(style) << " 0x" << std::hex << d;
      ASSERT_EQ(f.exponent, h.exponent) << src_style_name(style) << " 0x" << std::hex << d;
      ASSERT_EQ(f.mantissa, h.mantissa) << src_style_name(style) << " 0x" << std::hex << d;
      ASSERT_EQ(pack_src(f, style), canonical(d, style)) << src_style_name(style) << " 0x" << std::hex << d;
    }
  }
}

TEST(Formats, SrcHandExamples) {
  // BF16 1.5: exponent 127, mantissa 1000000b in 17:11.
  EXPECT_EQ(pack_src({0, 127, 0x200}, SrcStyle::BF16), 0x2007Fu);
  // FP16 -0.25: sign, exponent 13, mantissa 0.
  EXPECT_EQ(pack_src({1, 13, 0}, SrcStyle::FP16), 0x4000Du);
  // INT8 -7: sign, magnitude 7 in 17:8, marker 16 in 4:0.
  EXPECT_EQ(pack_src({1, 16, 7}, SrcStyle::INT8), 0x40710u);
  // TF32 1 + 2^-10: mantissa 1 at bit 8.
  EXPECT_EQ(pack_src({0, 127, 1}, SrcStyle::TF32), 0x0017Fu);
  // BF16 drops what it cannot hold; FP16 keeps only 5 exponent bits.
  EXPECT_EQ(pack_src({0, 127, 0x207}, SrcStyle::BF16), 0x2007Fu);
  EXPECT_EQ(pack_src({0, 0xEF, 0}, SrcStyle::FP16), 0x0000Fu);
}

// ---- Dst16: every 16-bit pattern ----

TEST(Formats, Dst16Bf16AllPatterns) {
  for (uint32_t x = 0; x < 0x10000; ++x) {
    const uint32_t sign = x >> 15, exponent = (x >> 7) & 0xFF, mantissa = x & 0x7F;
    // Dst16_BF16: sign 15, mantissa 14:8, exponent 7:0.
    const uint32_t expected = (sign << 15) | (mantissa << 8) | exponent;
    ASSERT_EQ(dst16_from_bf16(static_cast<uint16_t>(x)), expected) << std::hex << x;
    ASSERT_EQ(dst16_to_bf16(static_cast<uint16_t>(expected)), x) << std::hex << x;
  }
  EXPECT_EQ(dst16_from_bf16(0x3FC0), 0x407F);  // 1.5
  EXPECT_EQ(dst16_from_bf16(0xBF80), 0x807F);  // -1
}

TEST(Formats, Dst16Fp16AllPatterns) {
  for (uint32_t x = 0; x < 0x10000; ++x) {
    const uint32_t sign = x >> 15, exponent = (x >> 10) & 0x1F, mantissa = x & 0x3FF;
    // Dst16_FP16: sign 15, mantissa 14:5, exponent 4:0.
    const uint32_t expected = (sign << 15) | (mantissa << 5) | exponent;
    ASSERT_EQ(dst16_from_fp16(static_cast<uint16_t>(x)), expected) << std::hex << x;
    ASSERT_EQ(dst16_to_fp16(static_cast<uint16_t>(expected)), x) << std::hex << x;
  }
  EXPECT_EQ(dst16_from_fp16(0xB400), 0x800D);  // -0.25
  EXPECT_EQ(dst16_from_fp16(0x7FFF), 0x7FFF);  // all-ones stays all-ones
}

// ---- Dst32 ----

uint32_t hand_dst32_from_fp32(uint32_t x) {
  // Dst32_FP32: sign 31, mantissa high 7 (22:16) at 30:24, exponent at 23:16, mantissa low 16 at 15:0.
  return (x & 0x80000000u) | (((x >> 16) & 0x7F) << 24) | (((x >> 23) & 0xFF) << 16) | (x & 0xFFFF);
}

TEST(Formats, Dst32Fp32EdgePatterns) {
  struct Case { uint32_t ieee, dst; };
  const Case cases[] = {
      {0x00000000, 0x00000000}, {0x80000000, 0x80000000},  // ±0
      {0x3F800000, 0x007F0000},                            // 1
      {0x3FC00000, 0x407F0000},                            // 1.5: mantissa bit 22 -> bit 30
      {0x00010000, 0x01000000},                            // mantissa bit 16 -> bit 24
      {0x00008000, 0x00008000},                            // mantissa bit 15 stays
      {0x00800000, 0x00010000},                            // exponent 1 -> bit 16
      {0x7F7FFFFF, 0x7FFEFFFF},                            // largest IEEE finite
      {0x7F800000, 0x00FF0000}, {0xFF800000, 0x80FF0000},  // IEEE ±inf patterns
      {0x7FFFFFFF, 0x7FFFFFFF}, {0x00000001, 0x00000001},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(dst32_from_fp32(c.ieee), c.dst) << std::hex << c.ieee;
    EXPECT_EQ(dst32_to_fp32(c.dst), c.ieee) << std::hex << c.ieee;
  }
  // A spread of patterns against the diagram, and the high half equal to the Dst16 BF16 layout.
  uint32_t x = 0x12345678;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1664525u + 1013904223u;
    ASSERT_EQ(dst32_from_fp32(x), hand_dst32_from_fp32(x)) << std::hex << x;
    ASSERT_EQ(dst32_to_fp32(hand_dst32_from_fp32(x)), x) << std::hex << x;
    ASSERT_EQ(dst32_from_fp32(x) >> 16, dst16_from_bf16(static_cast<uint16_t>(x >> 16)));
  }
}

TEST(Formats, Int32SignMagnitude) {
  // Dst32_INT32: sign 31, magnitude 22:16 at 30:24 ("middle"), 30:23 at 23:16 ("high"), 15:0 at 15:0.
  EXPECT_EQ(dst32_from_int32(0), 0x00000000u);
  EXPECT_EQ(dst32_from_int32(1), 0x00000001u);
  EXPECT_EQ(dst32_from_int32(-1), 0x80000001u);
  EXPECT_EQ(dst32_from_int32(0x7FFFFFFF), 0x7FFFFFFFu);
  EXPECT_EQ(dst32_from_int32(-0x7FFFFFFF), 0xFFFFFFFFu);
  EXPECT_EQ(dst32_from_int32(1 << 23), 0x00010000u);  // magnitude bit 23 -> "high" field bit 0
  EXPECT_EQ(dst32_from_int32(1 << 16), 0x01000000u);  // magnitude bit 16 -> "middle" field bit 0
  EXPECT_EQ(dst32_from_int32(100000), 0x010086A0u);   // 0x186A0
  EXPECT_EQ(dst32_from_int32(-100000), 0x810086A0u);
  EXPECT_EQ(dst32_from_int32(INT32_MIN), 0xFFFFFFFFu);  // no -2^31 in sign-magnitude: saturates
  EXPECT_EQ(dst32_to_int32(0x00000000u), 0);
  EXPECT_EQ(dst32_to_int32(0x80000000u), 0);  // -0
  EXPECT_EQ(dst32_to_int32(0x00000001u), 1);
  EXPECT_EQ(dst32_to_int32(0x80000001u), -1);
  EXPECT_EQ(dst32_to_int32(0x7FFFFFFFu), 0x7FFFFFFF);
  EXPECT_EQ(dst32_to_int32(0xFFFFFFFFu), -0x7FFFFFFF);
  EXPECT_EQ(dst32_to_int32(0x010086A0u), 100000);
  uint32_t x = 99;
  for (int i = 0; i < 100000; ++i) {
    x = x * 1664525u + 1013904223u;
    const auto v = static_cast<int32_t>(x);
    if (v == INT32_MIN) continue;
    ASSERT_EQ(dst32_to_int32(dst32_from_int32(v)), v);
  }
}

// ---- Adj32 (Dst.md: AdjRow = ((Row & 0x1f8) << 1) | (Row & 0x207)) ----

TEST(Formats, Adj32RowHandExamples) {
  EXPECT_EQ(adj32_row(0), 0u);
  EXPECT_EQ(adj32_row(7), 7u);
  EXPECT_EQ(adj32_row(8), 16u);     // second group of 8 skips the low-half rows 8..15
  EXPECT_EQ(adj32_row(9), 17u);
  EXPECT_EQ(adj32_row(15), 23u);
  EXPECT_EQ(adj32_row(16), 32u);
  EXPECT_EQ(adj32_row(255), 503u);  // 0xF8 << 1 | 7
  EXPECT_EQ(adj32_row(256), 512u);
  EXPECT_EQ(adj32_row(511), 1015u);
  EXPECT_EQ(adj32_row(512), 512u);  // bit 9 passes through: collides with row 256
  EXPECT_EQ(adj32_row(1023), 1015u);
  EXPECT_EQ(kDst32LowHalfRowOffset, 8u);
}

TEST(Formats, Adj32RowsCoverDstWithoutOverlap) {
  std::set<uint32_t> high_rows, all_rows;
  for (uint32_t row = 0; row < 512; ++row) {
    const uint32_t hi = adj32_row(row);
    ASSERT_EQ(hi & 8u, 0u) << row;  // the high half is never in a "+8" row
    ASSERT_LT(hi + kDst32LowHalfRowOffset, 1024u);
    high_rows.insert(hi);
    ASSERT_TRUE(all_rows.insert(hi).second) << row;
    ASSERT_TRUE(all_rows.insert(hi + kDst32LowHalfRowOffset).second) << row;
  }
  EXPECT_EQ(high_rows.size(), 512u);
  EXPECT_EQ(all_rows.size(), 1024u);  // every DstBits row is used exactly once
  std::set<uint32_t> from_all_1024;
  for (uint32_t row = 0; row < 1024; ++row) from_all_1024.insert(adj32_row(row));
  EXPECT_EQ(from_all_1024, high_rows);  // a 10-bit Row still only reaches 512 values
}

// ---- Typed values ----

TypedValue parse_ok(const std::string& text) {
  std::string reason;
  const auto v = parse_typed_value(text, &reason);
  EXPECT_TRUE(v.has_value()) << text << ": " << reason;
  return v.value_or(TypedValue{});
}

std::string parse_fails(const std::string& text) {
  std::string reason;
  const auto v = parse_typed_value(text, &reason);
  EXPECT_FALSE(v.has_value()) << text << " parsed as " << (v ? v->value : 0);
  EXPECT_FALSE(reason.empty()) << text;
  return reason;
}

TEST(TypedValues, ExactValues) {
  EXPECT_EQ(parse_ok("bf16:1.5").value, 1.5);
  EXPECT_EQ(parse_ok("bf16:1.5").format, "bf16");
  EXPECT_EQ(parse_ok("fp16:-0.25").value, -0.25);
  EXPECT_EQ(parse_ok("tf32:3").value, 3.0);
  EXPECT_EQ(parse_ok("fp32:0x1.8p-3").value, 0.1875);
  EXPECT_EQ(parse_ok("int8:-7").value, -7.0);
  EXPECT_EQ(parse_ok("int32:100000").value, 100000.0);
  EXPECT_EQ(parse_ok("int32:1e5").value, 100000.0);
  EXPECT_EQ(parse_ok("int32:0x7fffffff").value, 2147483647.0);
  EXPECT_EQ(parse_ok("0x1234").format, "raw");
  EXPECT_EQ(parse_ok("0x1234").value, 4660.0);
  EXPECT_EQ(parse_ok("raw:0xffffffff").value, 4294967295.0);
  EXPECT_EQ(parse_ok("BF16:0x1.8p0").value, 1.5);
  EXPECT_EQ(parse_ok("bf16:+2.5e1").value, 25.0);
  EXPECT_EQ(parse_ok("fp32:0.000000059604644775390625").value, std::ldexp(1.0, -24));
  EXPECT_EQ(parse_ok("tf32:0x1.ffcp0").value, 2.0 - std::ldexp(1.0, -10));
  EXPECT_EQ(parse_ok("bf16:1.0078125").value, 1.0078125);          // 1 + 2^-7
  EXPECT_EQ(parse_ok("bf16:0x1.fep128").value, std::ldexp(255.0, 121));  // largest BF16 (exponent 255)
  EXPECT_EQ(parse_ok("fp16:131008").value, 131008.0);              // exponent 31 is a normal exponent
  EXPECT_EQ(parse_ok("fp16:0x1p-14").value, std::ldexp(1.0, -14)); // smallest FP16 normal
  EXPECT_EQ(parse_ok("fp32:0x1p-126").value, std::ldexp(1.0, -126));
  EXPECT_EQ(parse_ok("int8:1023").value, 1023.0);
  EXPECT_TRUE(std::signbit(parse_ok("bf16:-0").value));
  EXPECT_TRUE(std::isinf(parse_ok("fp16:-inf").value));
}

TEST(TypedValues, NotRepresentableIsRejectedWithReason) {
  const std::string r1 = parse_fails("fp32:1e-3");
  EXPECT_NE(r1.find("not a binary fraction"), std::string::npos) << r1;
  EXPECT_NE(r1.find("0x1.0624dcp-10"), std::string::npos) << r1;  // the two nearest FP32 values
  EXPECT_NE(r1.find("0x1.0624dep-10"), std::string::npos) << r1;
  const std::string r2 = parse_fails("bf16:1.00390625");  // 1 + 2^-8 needs 9 bits
  EXPECT_NE(r2.find("needs 9 significant bits"), std::string::npos) << r2;
  EXPECT_NE(r2.find("1.0078125"), std::string::npos) << r2;
  EXPECT_NE(parse_fails("fp16:0x1p-15").find("no denormals"), std::string::npos);
  EXPECT_NE(parse_fails("fp32:0x1p-127").find("no denormals"), std::string::npos);
  EXPECT_NE(parse_fails("fp16:131072").find("too large"), std::string::npos);
  EXPECT_NE(parse_fails("bf16:0x1p129").find("too large"), std::string::npos);
  EXPECT_NE(parse_fails("fp32:1e100").find("too large"), std::string::npos);
  EXPECT_NE(parse_fails("fp16:1e-50").find("no denormals"), std::string::npos);
  EXPECT_NE(parse_fails("int32:1e100").find("exceeds"), std::string::npos);
  parse_fails("int32:1e-100");
  parse_fails("bf16:0x1.ffcp0");
  parse_fails("bf16:1.50000000000000000000000000000000000001");
  parse_fails("tf32:0.1");
  EXPECT_NE(parse_fails("int8:1024").find("1023"), std::string::npos);
  EXPECT_NE(parse_fails("int8:1.5").find("not an integer"), std::string::npos);
  parse_fails("int32:-2147483648");  // sign-magnitude has no -2^31
  parse_fails("int32:4294967296");
  parse_fails("raw:-1");
  parse_fails("raw:0x100000000");
  EXPECT_NE(parse_fails("bf16:nan").find("no NaN"), std::string::npos);
  parse_fails("int8:inf");
}

// Long decimals, digit and exponent limits: every value is decided exactly, whatever its length.
TEST(TypedValues, LongDecimalsAndLimits) {
  // 2^-126 = 5^126 / 10^126, all 89 significant digits: exactly the smallest normal.
  const std::string two_m126 =
      "1.1754943508222875079687365372222456778186655567720875215087517062784172594547271728515625e-38";
  EXPECT_EQ(parse_ok("bf16:" + two_m126).value, std::ldexp(1.0, -126));
  std::string off_by_one = two_m126;
  off_by_one[off_by_one.find("625e")] = '7';  // ...515725e-38 is no longer a binary fraction
  EXPECT_NE(parse_fails("bf16:" + off_by_one).find("not a binary fraction"), std::string::npos);
  EXPECT_EQ(parse_ok("fp32:1.00000011920928955078125").value, 1.0 + std::ldexp(1.0, -23));
  EXPECT_NE(parse_fails("fp32:1.000000059604644775390625").find("needs 25 significant bits"), std::string::npos);
  EXPECT_NE(parse_fails("fp16:2049").find("needs 12 significant bits"), std::string::npos);
  EXPECT_EQ(parse_ok("fp32:0x.000001p24").value, 1.0);  // 16^-6 * 2^24
  // At most 400 significant decimal digits; leading zeros are free, trailing ones count.
  EXPECT_EQ(parse_ok("int32:" + std::string(600, '0') + "1").value, 1.0);
  EXPECT_NE(parse_fails("raw:" + std::string(400, '1')).find("exceeds 4294967295"), std::string::npos);
  EXPECT_EQ(parse_fails("raw:" + std::string(401, '1')), "malformed number '" + std::string(401, '1') + "': too many digits");
  EXPECT_NE(parse_fails("int8:1" + std::string(400, '0')).find("too many digits"), std::string::npos);
  // Hex: every digit up to the last significant one counts.
  EXPECT_NE(parse_fails("raw:0x1" + std::string(399, '0')).find("exceeds"), std::string::npos);
  EXPECT_NE(parse_fails("raw:0x1" + std::string(400, '0')).find("too many digits"), std::string::npos);
  // Zero is zero at any exponent the text allows; exponents beyond 100000 are refused as text.
  EXPECT_EQ(parse_ok("bf16:0e99999").value, 0.0);
  EXPECT_TRUE(std::signbit(parse_ok("bf16:-0x0p100000").value));
  EXPECT_NE(parse_fails("fp32:1e100000").find("too large"), std::string::npos);
  EXPECT_NE(parse_fails("fp32:1e-100000").find("no denormals"), std::string::npos);
  EXPECT_EQ(parse_fails("fp32:1e100001"), "malformed number '1e100001': exponent is out of range");
  EXPECT_EQ(parse_fails("fp32:0x1.8q"), "malformed number '0x1.8q': unexpected 'q' after the number");
  EXPECT_EQ(parse_fails("fp32:0x.p1"), "malformed number '0x.p1': hex number has no digits");
  EXPECT_TRUE(std::isinf(parse_ok("bf16:INFINITY").value));
}

TEST(TypedValues, MalformedTextIsRejectedWithReason) {
  for (const char* text : {"bf16:", "bf16:abc", "bf16:1.5x", "bf16:1e", "bf16:--1", "bf16:1..5", "0x",
                           "0xg", "bf16:0x1p", "bf16:.", "bf16:1e+", "bf16: 1", "", "1.5.2"}) {
    parse_fails(text);
  }
  EXPECT_NE(parse_fails("bf17:1").find("unknown format"), std::string::npos);
  EXPECT_NE(parse_fails("bf16:1.5x").find("unexpected"), std::string::npos);
  EXPECT_NE(parse_fails("bf16:1e99999999").find("out of range"), std::string::npos);
}

TEST(TypedValues, EncodingsByHand) {
  std::string reason;
  auto src = [&](const char* t) { return typed_to_src_datum(parse_ok(t), &reason); };
  auto d16 = [&](const char* t) { return typed_to_dst16(parse_ok(t), &reason); };
  auto d32 = [&](const char* t) { return typed_to_dst32(parse_ok(t), &reason); };
  // bf16 1.5 = IEEE 0x3FC0: exponent 0x7F, mantissa 0x40.
  EXPECT_EQ(src("bf16:1.5"), 0x2007Fu);       // 0x40 << 11 | 0x7F
  EXPECT_EQ(d16("bf16:1.5"), 0x407Fu);        // 0x40 << 8 | 0x7F
  EXPECT_EQ(d32("bf16:1.5"), 0x407F0000u);    // FP32 0x3FC00000 in the Dst32 layout
  // fp16 -0.25 = IEEE 0xB400: exponent 13, mantissa 0.
  EXPECT_EQ(src("fp16:-0.25"), 0x4000Du);
  EXPECT_EQ(d16("fp16:-0.25"), 0x800Du);
  EXPECT_EQ(d32("fp16:-0.25"), 0x807D0000u);  // FP32 0xBE800000
  // tf32 1 + 2^-10: mantissa 1.
  EXPECT_EQ(src("tf32:1.0009765625"), 0x0017Fu);
  EXPECT_EQ(d32("tf32:1.0009765625"), 0x007F2000u);  // FP32 0x3F802000
  EXPECT_FALSE(d16("tf32:1.0009765625").has_value());
  // int8 -7: sign, magnitude 7, marker 16; zero gets marker 0.
  EXPECT_EQ(src("int8:-7"), 0x40710u);
  EXPECT_EQ(d16("int8:-7"), 0x80F0u);         // 7 << 5 | 16
  EXPECT_EQ(d32("int8:-7"), 0x80000007u);
  EXPECT_EQ(src("int8:0"), 0x00000u);
  EXPECT_EQ(src("int8:1023"), 0x3FF10u);
  EXPECT_EQ(d32("int32:100000"), 0x010086A0u);
  EXPECT_EQ(d32("int32:-0"), 0x80000000u);
  // fp32 only into Dst32.
  EXPECT_EQ(d32("fp32:0x1.000002p0"), 0x007F0001u);  // 1 + 2^-23: mantissa bit 0
  EXPECT_FALSE(src("fp32:1").has_value());
  EXPECT_NE(reason.find("Dst32b"), std::string::npos) << reason;
  EXPECT_FALSE(d16("fp32:1").has_value());
  EXPECT_FALSE(src("int32:1").has_value());
  // Overflow patterns (FloatBitPatterns.md, the (double-dagger) rows).
  EXPECT_EQ(src("bf16:inf"), 0x000FFu);
  EXPECT_EQ(src("bf16:-inf"), 0x400FFu);
  EXPECT_EQ(d16("bf16:-inf"), 0x80FFu);
  EXPECT_EQ(src("fp16:inf"), 0x3FF1Fu);       // exponent 31, mantissa 1023
  EXPECT_EQ(d16("fp16:inf"), 0x7FFFu);
  EXPECT_EQ(d32("fp32:-inf"), 0x80FF0000u);
  // Raw bits must fit the destination.
  EXPECT_EQ(src("0x7ffff"), 0x7FFFFu);
  EXPECT_FALSE(src("0x80000").has_value());
  EXPECT_FALSE(d16("0x10000").has_value());
  EXPECT_EQ(d32("0xdeadbeef"), 0xDEADBEEFu);
  // A hand-made TypedValue that is not representable is refused, not rounded.
  EXPECT_FALSE(typed_to_src_datum(TypedValue{"bf16", 1.00390625}, &reason).has_value());
  EXPECT_FALSE(typed_to_dst16(TypedValue{"fp16", 1e-7}, &reason).has_value());
  EXPECT_FALSE(typed_to_src_datum(TypedValue{"int8", 2.5}, &reason).has_value());
  EXPECT_FALSE(typed_to_src_datum(TypedValue{"qq", 1}, &reason).has_value());
}

TEST(TypedValues, ValuesOfPatterns) {
  EXPECT_EQ(src_datum_value(0x2007F, SrcStyle::BF16), 1.5);
  EXPECT_EQ(src_datum_value(0x2057F, SrcStyle::BF16), 1.5);  // BF16 reads ignore bits 10:8
  EXPECT_EQ(src_datum_value(0x2057F, SrcStyle::TF32), 1.0 + 0x205 / 1024.0);
  EXPECT_EQ(src_datum_value(0x4000D, SrcStyle::FP16), -0.25);
  EXPECT_EQ(src_datum_value(0x400ED, SrcStyle::FP16), -0.25);  // FP16 reads ignore bits 7:5
  EXPECT_EQ(src_datum_value(0x3FF1F, SrcStyle::FP16), 131008.0);
  EXPECT_EQ(src_datum_value(0x000FF, SrcStyle::BF16), std::ldexp(1.0, 128));
  EXPECT_EQ(src_datum_value(0x00100, SrcStyle::TF32), 0.0);       // denormal pattern reads as 0
  EXPECT_TRUE(std::signbit(src_datum_value(0x40100, SrcStyle::TF32)));
  EXPECT_EQ(src_datum_value(0x40710, SrcStyle::INT8), -7.0);
  EXPECT_EQ(src_datum_value(0x3FF00, SrcStyle::INT8), 1023.0);    // the marker is not read
  EXPECT_EQ(dst16_value(0x407F, SrcStyle::BF16), 1.5);
  EXPECT_EQ(dst16_value(0x407F, SrcStyle::TF32), 1.5);
  EXPECT_EQ(dst16_value(0x800D, SrcStyle::FP16), -0.25);
  EXPECT_EQ(dst16_value(0x80F0, SrcStyle::INT8), -7.0);
  EXPECT_EQ(dst32_value(0x007F2000, false), 1.0 + 1.0 / 1024);
  EXPECT_EQ(dst32_value(0x00FF0000, false), std::ldexp(1.0, 128));
  EXPECT_EQ(dst32_value(0x80000007, true), -7.0);
  EXPECT_EQ(dst32_value(0x010086A0, true), 100000.0);
  // Every BF16 Src pattern round-trips through value -> typed value -> datum (canonical, exp != 0).
  std::string reason;
  for (uint32_t d = 0; d < (1u << 19); ++d) {
    if ((d & 0x700) || (d & 0xFF) == 0) continue;
    const auto back = typed_to_src_datum(TypedValue{"bf16", src_datum_value(d, SrcStyle::BF16)}, &reason);
    ASSERT_EQ(back, d) << std::hex << d << " " << reason;
  }
}

TEST(TypedValues, DescribeShowsHardwareMeaning) {
  EXPECT_EQ(describe_src_datum(0x0007F, SrcStyle::BF16), "0x0007f (BF16 1)");
  EXPECT_EQ(describe_src_datum(0x40710, SrcStyle::INT8), "0x40710 (INT8 -7)");
  EXPECT_EQ(describe_dst16(0x407F, SrcStyle::BF16), "0x407f (BF16 1.5)");
  EXPECT_EQ(describe_dst32(0x007F2000, false), "0x007f2000 (FP32 1.0009765625)");
  EXPECT_EQ(describe_dst32(0x80000007, true), "0x80000007 (INT32 -7)");
  const std::string fp16_inf = describe_src_datum(0x3FF1F, SrcStyle::FP16);
  EXPECT_NE(fp16_inf.find("131008"), std::string::npos) << fp16_inf;
  EXPECT_NE(fp16_inf.find("FPU +inf"), std::string::npos) << fp16_inf;
  EXPECT_NE(describe_src_datum(0x01F, SrcStyle::FP16).find("IEEE +inf"), std::string::npos);
  EXPECT_NE(describe_src_datum(0x000FF, SrcStyle::BF16).find("IEEE +inf"), std::string::npos);
  EXPECT_NE(describe_src_datum(0x100FF, SrcStyle::BF16).find("IEEE NaN"), std::string::npos);
  EXPECT_NE(describe_src_datum(0x40100, SrcStyle::TF32).find("IEEE denormal"), std::string::npos);
  EXPECT_NE(describe_src_datum(0x0057F, SrcStyle::BF16).find("ignored"), std::string::npos);
  EXPECT_NE(describe_src_datum(0x000EF, SrcStyle::FP16).find("ignored"), std::string::npos);
  EXPECT_NE(describe_src_datum(0x00703, SrcStyle::INT8).find("exponent field 3"), std::string::npos);
  EXPECT_NE(describe_dst16(0x7FFF, SrcStyle::FP16).find("FPU +inf"), std::string::npos);
  EXPECT_NE(describe_dst32(0x80000000, true).find("negative zero"), std::string::npos);
  EXPECT_EQ(format_exact_value(-0.0), "-0");
}

}  // namespace
}  // namespace tmu::tensix
