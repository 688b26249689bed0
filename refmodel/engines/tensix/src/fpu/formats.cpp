// Format codes, Src styles, and the Src/Dst bit layouts (see tmu/tensix/formats.h for the sources).
#include "tmu/tensix/formats.h"

#include <array>
#include <cctype>

namespace tmu::tensix {

namespace {

struct FormatName {
  DataFormat format;
  const char* name;
};

constexpr std::array<FormatName, 14> kFormatNames{{
    {DataFormat::FP32, "FP32"},   {DataFormat::FP16, "FP16"},   {DataFormat::BFP8a, "BFP8a"},
    {DataFormat::BFP4a, "BFP4a"}, {DataFormat::TF32, "TF32"},   {DataFormat::BF16, "BF16"},
    {DataFormat::BFP8, "BFP8"},   {DataFormat::BFP4, "BFP4"},   {DataFormat::INT32, "INT32"},
    {DataFormat::INT16, "INT16"}, {DataFormat::FP8, "FP8"},     {DataFormat::BFP2a, "BFP2a"},
    {DataFormat::INT8, "INT8"},   {DataFormat::BFP2, "BFP2"},
}};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

const char* data_format_name(DataFormat f) {
  for (const auto& entry : kFormatNames) {
    if (entry.format == f) return entry.name;
  }
  return "?";
}

std::optional<DataFormat> parse_data_format(std::string_view name) {
  for (const auto& entry : kFormatNames) {
    if (equal_ignoring_case(name, entry.name)) return entry.format;
  }
  return std::nullopt;
}

bool is_valid_data_format_code(uint32_t code) {
  for (const auto& entry : kFormatNames) {
    if (static_cast<uint32_t>(entry.format) == code) return true;
  }
  return false;
}

const char* src_style_name(SrcStyle s) {
  switch (s) {
    case SrcStyle::BF16: return "BF16";
    case SrcStyle::FP16: return "FP16";
    case SrcStyle::TF32: return "TF32";
    case SrcStyle::INT8: return "INT8";
  }
  return "?";
}

SrcStyle src_style_of_format_code(uint32_t code) {
  switch (static_cast<DataFormat>(code)) {
    case DataFormat::FP32:
    case DataFormat::BF16:
    case DataFormat::BFP8:
    case DataFormat::BFP4:
    case DataFormat::BFP2:
    case DataFormat::INT32:
    case DataFormat::INT16:
      return SrcStyle::BF16;
    case DataFormat::FP16:
    case DataFormat::FP8:
    case DataFormat::BFP8a:
    case DataFormat::BFP4a:
    case DataFormat::BFP2a:
    case DataFormat::INT8:
      return SrcStyle::FP16;
    default:
      // MVMUL.md's final branch is commented "SrcAFmt == TF32" but catches every other code.
      return SrcStyle::TF32;
  }
}

SrcStyle src_style_of_format(DataFormat f) { return src_style_of_format_code(static_cast<uint32_t>(f)); }

// ---- Src datums ----

uint32_t pack_src(const SrcFields& f, SrcStyle style) {
  switch (style) {
    case SrcStyle::TF32:
      return src_layout::assemble(f.sign, f.mantissa, f.exponent);
    case SrcStyle::BF16:
      return src_layout::assemble(f.sign, with_bits<9, 3>(0, bits<9, 3>(f.mantissa)), f.exponent);
    case SrcStyle::FP16:
    case SrcStyle::INT8:
      return src_layout::assemble(f.sign, f.mantissa, bits<4, 0>(f.exponent));
  }
  return 0;
}

// ---- Dst16 ----
// IEEE-order fields: BF16 sign 15, exponent 14:7, mantissa 6:0; FP16 sign 15, exponent 14:10,
// mantissa 9:0; FP32 sign 31, exponent 30:23, mantissa 22:0 (high 7 bits 22:16, low 16 bits 15:0).

uint16_t dst16_from_bf16(uint16_t bf16_ieee) {
  uint32_t d = 0;
  d = with_bits<15, 15>(d, bits<15, 15>(bf16_ieee));
  d = with_bits<14, 8>(d, bits<6, 0>(bf16_ieee));
  d = with_bits<7, 0>(d, bits<14, 7>(bf16_ieee));
  return static_cast<uint16_t>(d);
}

uint16_t dst16_to_bf16(uint16_t dst_bits) {
  uint32_t v = 0;
  v = with_bits<15, 15>(v, dst_layout::sign16(dst_bits));
  v = with_bits<14, 7>(v, dst_layout::bf16_exponent(dst_bits));
  v = with_bits<6, 0>(v, dst_layout::bf16_mantissa(dst_bits));
  return static_cast<uint16_t>(v);
}

uint16_t dst16_from_fp16(uint16_t fp16_ieee) {
  uint32_t d = 0;
  d = with_bits<15, 15>(d, bits<15, 15>(fp16_ieee));
  d = with_bits<14, 5>(d, bits<9, 0>(fp16_ieee));
  d = with_bits<4, 0>(d, bits<14, 10>(fp16_ieee));
  return static_cast<uint16_t>(d);
}

uint16_t dst16_to_fp16(uint16_t dst_bits) {
  uint32_t v = 0;
  v = with_bits<15, 15>(v, dst_layout::sign16(dst_bits));
  v = with_bits<14, 10>(v, dst_layout::fp16_exponent(dst_bits));
  v = with_bits<9, 0>(v, dst_layout::fp16_mantissa(dst_bits));
  return static_cast<uint16_t>(v);
}

// ---- Dst32 ----
// The high half of the FP32 shuffle is the Dst16 BF16 shuffle of the IEEE word's high half; the low
// 16 mantissa bits stay where they are.

uint32_t dst32_from_fp32(uint32_t fp32_ieee) {
  const uint32_t high = dst16_from_bf16(static_cast<uint16_t>(bits<31, 16>(fp32_ieee)));
  return with_bits<31, 16>(bits<15, 0>(fp32_ieee), high);
}

uint32_t dst32_to_fp32(uint32_t dst_bits) {
  const uint32_t high = dst16_to_bf16(static_cast<uint16_t>(dst_layout::high_half(dst_bits)));
  return with_bits<31, 16>(dst_layout::low_half(dst_bits), high);
}

uint32_t dst32_from_int32(int32_t value) {
  constexpr uint32_t kMaxMagnitude = 0x7FFFFFFFu;
  const bool negative = value < 0;
  // Unsigned negation is defined for every value, including -2^31 (whose magnitude is then clamped).
  uint32_t magnitude = negative ? 0u - static_cast<uint32_t>(value) : static_cast<uint32_t>(value);
  if (magnitude > kMaxMagnitude) magnitude = kMaxMagnitude;
  const uint32_t sign_magnitude = with_bits<31, 31>(magnitude, negative ? 1 : 0);
  return dst32_from_fp32(sign_magnitude);
}

int32_t dst32_to_int32(uint32_t dst_bits) {
  const uint32_t sign_magnitude = dst32_to_fp32(dst_bits);
  const auto magnitude = static_cast<int32_t>(bits<30, 0>(sign_magnitude));
  return bits<31, 31>(sign_magnitude) ? -magnitude : magnitude;
}

}  // namespace tmu::tensix
