// Whole-element operations: one Dst element of MVMUL/DOTPV/GAPOOL, ELWMUL, ELWADD and ELWSUB, built
// from the stages (ELWADD/ELWSUB: elw_adder in place of the multiply's first two). The instruction
// files loop over rows and columns and call these.
#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {
namespace {

uint32_t finish_element(uint32_t word, const FpuMode& mode, uint32_t* result_word) {
  if (result_word) *result_word = word;
  return acc_to_dst(word, mode);
}

AccumConfig config_of(const FpuMode& mode, ShiftRounding rounding) {
  AccumConfig c = accum_config(mode);
  c.rounding = rounding;
  return c;
}

// ELWADD and ELWSUB differ only in what enters elw_adder; from its term on they are one path.
uint32_t add_term_to_dst(ElwTrace& t, uint32_t dst_stored, bool add_dst, const FpuMode& mode, ShiftRounding rounding) {
  t.dst_word = add_dst ? dst_to_acc(dst_stored, mode) : 0;
  const uint32_t word = accum_normalize(t.term, AccTerm{}, t.dst_word, config_of(mode, rounding), &t.accum);
  return finish_element(word, mode, &t.result_word);
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
                       const FpuMode& mode, MvmulTrace* trace, ShiftRounding rounding) {
  if (is_int8_math(mode)) {
    return int8_mvmul_element(srca_column, srcb_row, dst_stored, mode.fidelity_phase);
  }
  MvmulTrace local;
  MvmulTrace& t = trace ? *trace : local;
  for (unsigned k = 0; k < kDotLength; ++k) {
    t.products[k] = fidelity_slice_product(srca_column[k], srcb_row[k], mode);
  }
  const std::span<const SliceProduct, kDotLength> all(t.products);
  t.group_sums[0] = align_group_sum(all.first<kProductsPerGroup>(), rounding);
  t.group_sums[1] = align_group_sum(all.last<kProductsPerGroup>(), rounding);
  t.dst_word = dst_to_acc(dst_stored, mode);
  const uint32_t word =
      accum_normalize(t.group_sums[0], t.group_sums[1], t.dst_word, config_of(mode, rounding), &t.accum);
  return finish_element(word, mode, &t.result_word);
}

uint32_t elwmul_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, const FpuMode& mode,
                        ElwTrace* trace, ShiftRounding rounding) {
  if (is_int8_math(mode)) {
    return int8_elwmul_element(srca, srcb, dst_stored, mode.fidelity_phase, mode.srcb_zero_flag_disabled);
  }
  ElwTrace local;
  ElwTrace& t = trace ? *trace : local;
  t.a = read_fp_operand(srca, mode.srca_style);
  t.b = read_fp_operand(srcb, effective_srcb_style(mode), mode.srcb_zero_flag_disabled);
  SliceProduct p;  // a flushed operand leaves exponent 0: the zero product
  if (!t.a.flushed_zero && !t.b.flushed_zero) {
    p.sign = t.a.sign ^ t.b.sign;
    p.exponent = static_cast<int32_t>(t.a.exponent + t.b.exponent) +
                 product_exponent_adjust(has_8bit_exponent(mode), mode.dst32, mode.fidelity_phase);
    p.mantissa = slice_multiply(srca_fidelity_slice(t.a.significand, mode.fidelity_phase),
                                srcb_fidelity_slice(t.b.significand, mode.fidelity_phase));
  }
  return elwmul_product_to_dst(p, dst_stored, mode, &t, rounding);
}

uint32_t elwmul_product_to_dst(SliceProduct product, uint32_t dst_stored, const FpuMode& mode, ElwTrace* trace,
                               ShiftRounding rounding) {
  ElwTrace local;
  ElwTrace& t = trace ? *trace : local;
  // Unlike MVMUL's adder tree, the element-wise path drops a product whose exponent underflows.
  if (product.exponent <= 0) {
    product = SliceProduct{0, zero_product_exponent(product_exponent_adjust(has_8bit_exponent(mode), mode.dst32,
                                                                            mode.fidelity_phase)), 0};
  }
  t.product = product;
  t.term = AccTerm{product.sign, product.exponent, product.mantissa << (kAccFractionBits - kProductFractionBits)};
  t.dst_word = dst_to_acc(dst_stored, mode);
  const uint32_t word = accum_normalize(t.term, AccTerm{}, t.dst_word, config_of(mode, rounding), &t.accum);
  return finish_element(word, mode, &t.result_word);
}

uint32_t elwadd_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, bool add_dst, const FpuMode& mode,
                        ElwTrace* trace, ShiftRounding rounding) {
  if (is_int8_math(mode)) {
    return int8_elwadd_element(srca, srcb, dst_stored, add_dst, mode.srcb_zero_flag_disabled);
  }
  ElwTrace local;
  ElwTrace& t = trace ? *trace : local;
  elw_adder(srca, srcb, mode, &t, rounding);
  return add_term_to_dst(t, dst_stored, add_dst, mode, rounding);
}

uint32_t elwsub_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, bool add_dst, const FpuMode& mode,
                        ElwTrace* trace, ShiftRounding rounding) {
  if (is_int8_math(mode)) {
    return int8_elwsub_element(srca, srcb, dst_stored, add_dst, mode.srcb_zero_flag_disabled);
  }
  ElwTrace local;
  ElwTrace& t = trace ? *trace : local;
  // SrcB's sign bit is inverted on the way into the adder.
  const SrcFields b = unpack_src(srcb, SrcStyle::TF32);
  elw_adder(srca, pack_src(SrcFields{b.sign ^ 1u, b.exponent, b.mantissa}, SrcStyle::TF32), mode, &t, rounding);
  return add_term_to_dst(t, dst_stored, add_dst, mode, rounding);
}

}  // namespace tmu::tensix::fpu
