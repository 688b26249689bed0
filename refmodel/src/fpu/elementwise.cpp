// Whole-element operations: one Dst element of MVMUL/DOTPV/GAPOOL, ELWMUL, ELWADD and ELWSUB, built
// from the three stages. The instruction files loop over rows and columns and call these.
#include <algorithm>
#include <utility>

#include "tmu/fpu/datapath.h"

namespace tmu::fpu {
namespace {

constexpr uint32_t kAddOperandShiftLimit = 12;  // an 11-bit significand is gone after 12 shifts
constexpr uint32_t kSignificandToAcc = kAccFractionBits - (kSignificandBits - 1);  // 10 -> 23 fraction bits
constexpr int32_t kFp16ToFp32Rebias = 127 - 15;
// Exponent an all-zero ELWADD sum of FP16 sources carries into an FP32 Dst: the same clamp a zero
// product gets (product_exponent_adjust for FP16 sources, FP32 Dst, phase 0).
constexpr int32_t kFp16ZeroSumExponentFp32 = 127 - 2 * 15;

uint32_t finish_element(uint32_t word, const FpuMode& mode, uint32_t* result_word) {
  if (result_word) *result_word = word;
  return acc_word_to_dst(word, mode);
}

// (exponent << 10) | mantissa: the order in which the adder compares two operands' magnitudes.
uint32_t magnitude_key(const FpOperand& op) { return (op.exponent << 10) | op.mantissa; }

// ELWADD's operand as the adder sees it. A flushed operand is all zeros, sign included. An operand
// kept despite a zero exponent (zero flag disabled) still gets its implicit one unless every bit of
// the datum is zero.
FpOperand addend(uint32_t datum19, SrcStyle style, bool zero_flag_disabled) {
  FpOperand op = read_fp_operand(datum19, style, zero_flag_disabled);
  if (op.flushed_zero) return FpOperand{0, 0, 0, 0, true};
  if (op.sign == 0 && op.exponent == 0 && op.mantissa == 0) op.significand = 0;
  return op;
}

}  // namespace

int32_t elwadd_phase_scale_exponent(uint32_t phase) {
  int32_t scale = 0;
  if (bits<0, 0>(phase)) scale += 5;  // / 32
  if (bits<1, 1>(phase)) scale += 7;  // / 128
  return scale;
}

uint32_t mvmul_element(std::span<const uint32_t, kDotLength> srca_column,
                       std::span<const uint32_t, kDotLength> srcb_row, uint32_t dst_stored,
                       const FpuMode& mode, MvmulTrace* trace) {
  if (is_int8_math(mode)) {
    return int8_mvmul_element(srca_column, srcb_row, dst_stored, mode.fidelity_phase);
  }
  MvmulTrace local;
  MvmulTrace& t = trace ? *trace : local;
  for (unsigned k = 0; k < kDotLength; ++k) {
    t.products[k] = fidelity_slice_product(srca_column[k], srcb_row[k], mode);
  }
  const std::span<const SliceProduct, kDotLength> all(t.products);
  t.group_sums[0] = align_group_sum(all.first<kProductsPerGroup>());
  t.group_sums[1] = align_group_sum(all.last<kProductsPerGroup>());
  t.dst_word = dst_to_acc_word(dst_stored, mode);
  const uint32_t word =
      accum_normalize_round(t.group_sums[0], t.group_sums[1], t.dst_word, accum_config(mode), &t.accum);
  return finish_element(word, mode, &t.result_word);
}

uint32_t elwmul_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, const FpuMode& mode,
                        ElwTrace* trace) {
  if (is_int8_math(mode)) {
    return int8_elwmul_element(srca, srcb, dst_stored, mode.fidelity_phase, mode.srcb_zero_flag_disabled);
  }
  ElwTrace local;
  ElwTrace& t = trace ? *trace : local;
  t.a = read_fp_operand(srca, mode.srca_style);
  t.b = read_fp_operand(srcb, effective_srcb_style(mode), mode.srcb_zero_flag_disabled);
  const int32_t adjust = product_exponent_adjust(has_8bit_exponent(mode), mode.dst32, mode.fidelity_phase);
  SliceProduct p;
  if (!t.a.flushed_zero && !t.b.flushed_zero) {
    p.sign = t.a.sign ^ t.b.sign;
    p.exponent = static_cast<int32_t>(t.a.exponent + t.b.exponent) + adjust;
    p.mantissa = slice_multiply(srca_fidelity_slice(t.a.significand, mode.fidelity_phase),
                                srcb_fidelity_slice(t.b.significand, mode.fidelity_phase));
  }
  // Unlike MVMUL's adder tree, the element-wise path drops a product whose exponent underflows.
  if (t.a.flushed_zero || t.b.flushed_zero || p.exponent <= 0) {
    p = SliceProduct{0, zero_product_exponent(adjust), 0};
  }
  t.product = p;
  t.term = AccTerm{p.sign, p.exponent, p.mantissa << (kAccFractionBits - kProductFractionBits)};
  t.dst_word = dst_to_acc_word(dst_stored, mode);
  const uint32_t word = accum_normalize_round(t.term, AccTerm{}, t.dst_word, accum_config(mode), &t.accum);
  return finish_element(word, mode, &t.result_word);
}

uint32_t elwadd_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, bool add_dst, const FpuMode& mode,
                        ElwTrace* trace) {
  if (is_int8_math(mode)) {
    return int8_elwadd_element(srca, srcb, dst_stored, add_dst, mode.srcb_zero_flag_disabled);
  }
  ElwTrace local;
  ElwTrace& t = trace ? *trace : local;
  FpOperand a = addend(srca, mode.srca_style, false);
  FpOperand b = addend(srcb, effective_srcb_style(mode), mode.srcb_zero_flag_disabled);
  // The larger magnitude goes first; the smaller one is aligned to it, rounded, and added or
  // subtracted with no guard bits (so 1 - 0.99951171875 in TF32 comes out as 0).
  if (magnitude_key(a) < magnitude_key(b)) std::swap(a, b);
  t.a = a;
  t.b = b;
  const uint32_t b_shift = a.exponent > b.exponent ? a.exponent - b.exponent : 0;
  t.b_aligned = b_shift < kAddOperandShiftLimit ? shift_right_round_half_away(b.significand, b_shift) : 0;
  // Only a +0 SrcA against a -0 SrcB kept by a disabled zero flag (equal keys, no swap; the kept -0
  // has an implicit one) makes the difference negative. It wraps in the 32-bit datapath exactly as in
  // ttsim: aligned at the common exponent it acts as the negative number it encodes, shifted right it
  // does not.
  const uint32_t sum = a.sign == b.sign ? a.significand + t.b_aligned : a.significand - t.b_aligned;

  AccTerm term{a.sign, static_cast<int32_t>(a.exponent), sum << kSignificandToAcc};
  if (mode.dst32 && !has_8bit_exponent(mode)) {
    term.exponent = a.exponent ? term.exponent + kFp16ToFp32Rebias : kFp16ZeroSumExponentFp32;
  }
  term.exponent -= elwadd_phase_scale_exponent(mode.fidelity_phase);  // ISA-defined, see header
  t.term = term;
  t.dst_word = add_dst ? dst_to_acc_word(dst_stored, mode) : 0;
  const uint32_t word = accum_normalize_round(term, AccTerm{}, t.dst_word, accum_config(mode), &t.accum);
  return finish_element(word, mode, &t.result_word);
}

uint32_t elwsub_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, bool add_dst, const FpuMode& mode,
                        ElwTrace* trace) {
  if (is_int8_math(mode)) {
    return int8_elwsub_element(srca, srcb, dst_stored, add_dst, mode.srcb_zero_flag_disabled);
  }
  // SrcB's sign bit is inverted on the way into the adder.
  const SrcFields b = unpack_src(srcb, SrcStyle::TF32);
  const uint32_t negated = pack_src(SrcFields{b.sign ^ 1u, b.exponent, b.mantissa}, SrcStyle::TF32);
  return elwadd_element(srca, negated, dst_stored, add_dst, mode, trace);
}

}  // namespace tmu::fpu
