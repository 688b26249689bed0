// The float ELWADD / ELWSUB operand adder: it stands where a multiply has its fidelity slice and
// group sum, and hands accum_normalize one term. Its alignment is its own (an 11-bit significand
// against another, not a 5x7 product against a group), hence a stage apart from align_product.
#include <algorithm>
#include <utility>

#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {
namespace {

constexpr uint32_t kAddOperandShiftLimit = 12;  // an 11-bit significand is gone after 12 shifts
constexpr uint32_t kSignificandToAcc = kAccFractionBits - (kSignificandBits - 1);  // 10 -> 23 fraction bits
constexpr int32_t kFp16ToFp32Rebias = 127 - 15;
// Exponent an all-zero ELWADD sum of FP16 sources carries into an FP32 Dst: the same clamp a zero
// product gets (product_exponent_adjust for FP16 sources, FP32 Dst, phase 0).
constexpr int32_t kFp16ZeroSumExponentFp32 = 127 - 2 * 15;

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

AccTerm elw_adder(uint32_t srca, uint32_t srcb, const FpuMode& mode, ElwTrace* trace, ShiftRounding rounding) {
  FpOperand a = addend(srca, mode.srca_style, false);
  FpOperand b = addend(srcb, effective_srcb_style(mode), mode.srcb_zero_flag_disabled);
  // The larger magnitude goes first; the smaller one is aligned to it, rounded, and added or
  // subtracted with no guard bits (so 1 - 0.99951171875 in TF32 comes out as 0).
  if (magnitude_key(a) < magnitude_key(b)) std::swap(a, b);
  const uint32_t b_shift = a.exponent > b.exponent ? a.exponent - b.exponent : 0;
  const uint32_t b_aligned =
      b_shift < kAddOperandShiftLimit ? shift_right_round_half_away(b.significand, b_shift, rounding) : 0;
  // Only a +0 SrcA against a -0 SrcB kept by a disabled zero flag (equal keys, no swap; the kept -0
  // has an implicit one) makes the difference negative. It wraps in the 32-bit datapath exactly as in
  // ttsim: aligned at the common exponent it acts as the negative number it encodes, shifted right it
  // does not.
  const uint32_t sum = a.sign == b.sign ? a.significand + b_aligned : a.significand - b_aligned;

  AccTerm term{a.sign, static_cast<int32_t>(a.exponent), sum << kSignificandToAcc};
  if (mode.dst32 && !has_8bit_exponent(mode)) {
    term.exponent = a.exponent ? term.exponent + kFp16ToFp32Rebias : kFp16ZeroSumExponentFp32;
  }
  term.exponent -= elwadd_phase_scale_exponent(mode.fidelity_phase);  // ISA-defined, see datapath.h
  if (trace) {
    trace->a = a;
    trace->b = b;
    trace->b_aligned = b_aligned;
    trace->term = term;
  }
  return term;
}

}  // namespace tmu::tensix::fpu
