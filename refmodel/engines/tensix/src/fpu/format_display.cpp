// Values and text of Src/Dst patterns for messages (FloatBitPatterns.md's Matrix Unit column).
// Host floating point is allowed here: nothing in this file is on the bit-exact path, and double
// holds every value of these formats exactly.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tmu/tensix/formats.h"

namespace tmu::tensix {

namespace {

double decode_float(uint32_t sign, uint32_t exponent, uint32_t mantissa, int man_bits, int bias) {
  // FloatBitPatterns.md, Matrix Unit column: exponent 0 is zero; every other exponent is normal.
  const double magnitude =
      exponent == 0 ? 0.0 : std::ldexp(static_cast<double>((1u << man_bits) | mantissa), static_cast<int>(exponent) - bias - man_bits);
  return sign ? -magnitude : magnitude;
}

// The FloatBitPatterns.md caveat for a pattern whose IEEE meaning differs from the Matrix Unit's.
std::string float_pattern_note(uint32_t sign, uint32_t exponent, uint32_t mantissa, uint32_t exp_max,
                               uint32_t man_max, bool fp16) {
  const char* s = sign ? "-" : "+";
  if (exponent == 0 && mantissa != 0) return "IEEE denormal; the FPU reads 0";
  if (exponent != exp_max) return "";
  if (fp16) {
    if (mantissa == man_max) return std::string("FPU ") + s + "inf (overflow pattern), IEEE NaN";
    if (mantissa == 0) return std::string("IEEE ") + s + "inf; the FPU reads a number";
    return "IEEE NaN; the FPU reads a number";
  }
  if (mantissa == 0) return std::string("IEEE ") + s + "inf: the FPU's overflow pattern";
  return "IEEE NaN; the FPU reads a number";
}

std::string hex_text(uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

std::string with_notes(const std::string& head, const std::vector<std::string>& notes) {
  std::string out = head;
  for (const auto& note : notes) {
    if (!note.empty()) out += "; " + note;
  }
  return out + ")";
}

}  // namespace

std::string format_exact_value(double v) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

double src_datum_value(uint32_t datum19, SrcStyle style) {
  const SrcFields f = unpack_src(datum19, style);
  switch (style) {
    case SrcStyle::TF32:
    case SrcStyle::BF16:
      return decode_float(f.sign, f.exponent, f.mantissa, 10, 127);
    case SrcStyle::FP16:
      return decode_float(f.sign, f.exponent, f.mantissa, 10, 15);
    case SrcStyle::INT8:
      return f.sign ? -static_cast<double>(f.mantissa) : static_cast<double>(f.mantissa);
  }
  return 0;
}

double dst16_value(uint16_t dst_bits, SrcStyle style) {
  const uint32_t sign = dst_layout::sign16(dst_bits);
  switch (style) {
    case SrcStyle::TF32:
    case SrcStyle::BF16:
      return decode_float(sign, dst_layout::bf16_exponent(dst_bits), dst_layout::bf16_mantissa(dst_bits), 7, 127);
    case SrcStyle::FP16:
      return decode_float(sign, dst_layout::fp16_exponent(dst_bits), dst_layout::fp16_mantissa(dst_bits), 10, 15);
    case SrcStyle::INT8: {
      const double magnitude = dst_layout::fp16_mantissa(dst_bits);
      return sign ? -magnitude : magnitude;
    }
  }
  return 0;
}

double dst32_value(uint32_t dst_bits, bool is_int32) {
  const uint32_t ieee = dst32_to_fp32(dst_bits);
  if (is_int32) {
    const double magnitude = bits<30, 0>(ieee);
    return bits<31, 31>(ieee) ? -magnitude : magnitude;
  }
  return decode_float(bits<31, 31>(ieee), bits<30, 23>(ieee), bits<22, 0>(ieee), 23, 127);
}

std::string describe_src_datum(uint32_t datum19, SrcStyle style) {
  const std::string head = hex_text(datum19, 5) + " (" + src_style_name(style) + " " +
                           format_exact_value(src_datum_value(datum19, style));
  const uint32_t sign = src_layout::sign(datum19);
  std::vector<std::string> notes;
  switch (style) {
    case SrcStyle::TF32:
      notes.push_back(float_pattern_note(sign, src_layout::exponent(datum19), src_layout::mantissa(datum19), 255, 1023, false));
      break;
    case SrcStyle::BF16:
      notes.push_back(float_pattern_note(sign, src_layout::exponent(datum19), src_layout::mantissa_hi7(datum19), 255, 127, false));
      if (src_layout::mantissa_lo3(datum19))
        notes.push_back("mantissa bits 10:8 = " + std::to_string(src_layout::mantissa_lo3(datum19)) + " ignored by BF16 reads");
      break;
    case SrcStyle::FP16:
      notes.push_back(float_pattern_note(sign, src_layout::exponent_lo5(datum19), src_layout::mantissa(datum19), 31, 1023, true));
      if (src_layout::exponent_hi3(datum19))
        notes.push_back("exponent bits 7:5 = " + std::to_string(src_layout::exponent_hi3(datum19)) + " ignored by FP16 reads");
      break;
    case SrcStyle::INT8: {
      const uint32_t marker = src_layout::exponent(datum19);
      const uint32_t expected = src_layout::mantissa(datum19) ? src_layout::kInt8Marker : 0;
      if (marker != expected && marker != src_layout::kInt8Marker)
        notes.push_back("exponent field " + std::to_string(marker) + " (unpackers write 16, or 0 for zero)");
      break;
    }
  }
  return with_notes(head, notes);
}

std::string describe_dst16(uint16_t dst_bits, SrcStyle style) {
  const bool bf16 = style == SrcStyle::BF16 || style == SrcStyle::TF32;
  const char* label = bf16 ? "BF16" : src_style_name(style);
  const std::string head = hex_text(dst_bits, 4) + " (" + label + " " + format_exact_value(dst16_value(dst_bits, style));
  const uint32_t sign = dst_layout::sign16(dst_bits);
  std::vector<std::string> notes;
  if (bf16) {
    notes.push_back(float_pattern_note(sign, dst_layout::bf16_exponent(dst_bits), dst_layout::bf16_mantissa(dst_bits), 255, 127, false));
  } else if (style == SrcStyle::FP16) {
    notes.push_back(float_pattern_note(sign, dst_layout::fp16_exponent(dst_bits), dst_layout::fp16_mantissa(dst_bits), 31, 1023, true));
  } else {
    const uint32_t marker = dst_layout::fp16_exponent(dst_bits);
    if (marker != src_layout::kInt8Marker && !(marker == 0 && dst_layout::fp16_mantissa(dst_bits) == 0))
      notes.push_back("exponent field " + std::to_string(marker) + " (unpackers write 16, or 0 for zero)");
  }
  return with_notes(head, notes);
}

std::string describe_dst32(uint32_t dst_bits, bool is_int32) {
  const std::string head = hex_text(dst_bits, 8) + " (" + (is_int32 ? "INT32 " : "FP32 ") +
                           format_exact_value(dst32_value(dst_bits, is_int32));
  std::vector<std::string> notes;
  const uint32_t ieee = dst32_to_fp32(dst_bits);
  if (is_int32) {
    if (ieee == 0x80000000u) notes.push_back("sign-magnitude negative zero");
  } else {
    notes.push_back(float_pattern_note(bits<31, 31>(ieee), bits<30, 23>(ieee), bits<22, 0>(ieee), 255, 0x7FFFFF, false));
  }
  return with_notes(head, notes);
}

}  // namespace tmu::tensix
