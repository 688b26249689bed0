// Stage 1 of the multiply datapath: read a Src operand, cut the mantissa slice a fidelity phase
// feeds to the 5x7 multiplier, multiply, and give the product its exponent.
#include <algorithm>

#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {
namespace {

constexpr uint32_t kImplicitOne = uint32_t{1} << (kSignificandBits - 1);

// Field split without any style's masking: sign, the full 8-bit exponent field, 10 mantissa bits.
SrcFields raw_fields(uint32_t datum19) { return unpack_src(datum19, SrcStyle::TF32); }

// BF16 lives in the top seven of the ten mantissa bits; whatever sits below is not part of it and
// the hardware ignores it (ttsim masks such datums down to BF16 before use).
uint32_t style_mantissa(uint32_t mantissa10, SrcStyle style) {
  return style == SrcStyle::BF16 ? bits<9, 3>(mantissa10) << 3 : mantissa10;
}

// FP16 uses the low five exponent bits; the top three are zero in valid data and are dropped.
uint32_t style_exponent(uint32_t exponent8, SrcStyle style) {
  return style == SrcStyle::FP16 ? bits<4, 0>(exponent8) : exponent8;
}

}  // namespace

FpOperand read_fp_operand(uint32_t datum19, SrcStyle style, bool zero_flag_disabled) {
  const SrcFields raw = raw_fields(datum19);
  FpOperand op;
  op.sign = raw.sign;
  op.exponent = style_exponent(raw.exponent, style);
  op.mantissa = style_mantissa(raw.mantissa, style);
  op.significand = kImplicitOne | op.mantissa;
  op.flushed_zero = op.exponent == 0 && !zero_flag_disabled;
  return op;
}

uint32_t srca_fidelity_slice(uint32_t significand11, uint32_t phase) {
  const bool low_slice = bits<0, 0>(phase) != 0;
  return low_slice ? bits<5, 1>(significand11) : bits<10, 6>(significand11);
}

uint32_t srcb_fidelity_slice(uint32_t significand11, uint32_t phase) {
  const bool low_slice = bits<1, 1>(phase) != 0;
  return low_slice ? bits<3, 0>(significand11) << 3 : bits<10, 4>(significand11);
}

uint32_t slice_multiply(uint32_t srca_slice5, uint32_t srcb_slice7) {
  return bits<4, 0>(srca_slice5) * bits<6, 0>(srcb_slice7);
}

int32_t product_exponent_adjust(bool exponent_8b, bool dst32, uint32_t phase) {
  // The sum of two biased exponents carries one bias too many. With FP16 sources and an FP32 Dst the
  // product is also rebiased from FP16 (15) to FP32 (127): -2*15 + 127.
  constexpr int32_t kFp32Bias = 127, kFp16Bias = 15;
  int32_t adjust = exponent_8b ? -kFp32Bias : (dst32 ? kFp32Bias - 2 * kFp16Bias : -kFp16Bias);
  // SrcA's low slice starts five bits below the implicit one, SrcB's low slice (placed at the top of
  // the 7-bit port) seven bits below it.
  if (bits<0, 0>(phase)) adjust -= static_cast<int32_t>(kSrcASliceBits);
  if (bits<1, 1>(phase)) adjust -= static_cast<int32_t>(kSrcBSliceBits);
  return adjust;
}

int32_t zero_product_exponent(int32_t exponent_adjust) { return std::max(exponent_adjust, 0); }

SliceProduct fidelity_slice_product(uint32_t srca_datum, uint32_t srcb_datum, const FpuMode& mode) {
  const bool exp8 = has_8bit_exponent(mode);
  const int32_t adjust = product_exponent_adjust(exp8, mode.dst32, mode.fidelity_phase);
  const FpOperand a = read_fp_operand(srca_datum, mode.srca_style);
  const FpOperand b = read_fp_operand(srcb_datum, effective_srcb_style(mode));
  if (a.flushed_zero || b.flushed_zero) {
    return SliceProduct{0, zero_product_exponent(adjust), 0};
  }
  SliceProduct p;
  p.sign = a.sign ^ b.sign;
  p.exponent = static_cast<int32_t>(a.exponent + b.exponent) + adjust;
  p.mantissa = slice_multiply(srca_fidelity_slice(a.significand, mode.fidelity_phase),
                              srcb_fidelity_slice(b.significand, mode.fidelity_phase));
  return p;
}

}  // namespace tmu::tensix::fpu
