// What an FpuMode implies for the datapath, and the conversions between a stored Dst value and the
// accumulator word the datapath computes on.
#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {
namespace {

bool is_8bit_exponent_style(SrcStyle s) { return s == SrcStyle::BF16 || s == SrcStyle::TF32; }

// Accumulator word <-> IEEE-order FP16: the 5-bit exponent goes in the low bits of the 8-bit field
// and the 10-bit mantissa in the top of the 23-bit one, so one normaliser serves both widths.
constexpr unsigned kFp16MantissaShift = 13;

uint32_t acc_word_from_fp16(uint16_t fp16) {
  return make_acc_word(bits<15, 15>(fp16), bits<14, 10>(fp16), bits<9, 0>(fp16) << kFp16MantissaShift);
}

uint16_t acc_word_to_fp16(uint32_t word) {
  const uint32_t mantissa10 = acc_mantissa(word) >> kFp16MantissaShift;
  return static_cast<uint16_t>((acc_sign(word) << 15) | (bits<4, 0>(acc_exponent(word)) << 10) | mantissa10);
}

}  // namespace

const char* dst_format_name(DstFormat f) {
  switch (f) {
    case DstFormat::FP32: return "FP32";
    case DstFormat::BF16: return "BF16";
    case DstFormat::FP16: return "FP16";
    case DstFormat::INT32: return "INT32";
  }
  return "?";
}

bool is_int8_math(const FpuMode& mode) { return mode.srca_style == SrcStyle::INT8; }

bool has_8bit_exponent(const FpuMode& mode) { return is_8bit_exponent_style(mode.srca_style); }

SrcStyle effective_srcb_style(const FpuMode& mode) {
  if (is_8bit_exponent_style(mode.srca_style) && is_8bit_exponent_style(mode.srcb_style)) {
    return mode.srcb_style;
  }
  return mode.srca_style;
}

DstFormat dst_format(const FpuMode& mode) {
  if (is_int8_math(mode)) return DstFormat::INT32;
  if (mode.dst32) return DstFormat::FP32;
  return mode.srca_style == SrcStyle::FP16 ? DstFormat::FP16 : DstFormat::BF16;
}

uint32_t dst_to_acc(uint32_t dst_stored, const FpuMode& mode) {
  switch (dst_format(mode)) {
    case DstFormat::FP32: return dst32_to_fp32(dst_stored);
    case DstFormat::BF16: return uint32_t{dst16_to_bf16(static_cast<uint16_t>(dst_stored))} << 16;
    case DstFormat::FP16: return acc_word_from_fp16(dst16_to_fp16(static_cast<uint16_t>(dst_stored)));
    case DstFormat::INT32: break;
  }
  return 0;  // the integer path never uses accumulator words
}

uint32_t acc_to_dst(uint32_t word, const FpuMode& mode) {
  switch (dst_format(mode)) {
    case DstFormat::FP32: return dst32_from_fp32(word);
    // The BF16 rounding already left the low 16 bits zero.
    case DstFormat::BF16: return dst16_from_bf16(static_cast<uint16_t>(bits<31, 16>(word)));
    case DstFormat::FP16: return dst16_from_fp16(acc_word_to_fp16(word));
    case DstFormat::INT32: break;
  }
  return 0;
}

}  // namespace tmu::tensix::fpu
