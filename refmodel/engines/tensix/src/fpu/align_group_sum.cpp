// Stage 2 of the multiply datapath: the sixteen products of a dot product are added in two groups of
// eight. Each group is aligned to its own largest exponent (no normalisation, no guard bits: the bits
// shifted out are rounded away, ties away from zero), then summed as signed integers.
#include <algorithm>
#include <cstdlib>

#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {

AlignedProduct align_product(const SliceProduct& product, int32_t group_exponent, ShiftRounding rounding) {
  // rtl/tmu_align_product.sv clamps the distance to 15 to keep its shifter small; a 12-bit product
  // is rounded to nothing from 13 places on, so no clamp is needed for the same results. A distance
  // that is negative (not a product of this group) wraps to a huge shift and gives 0.
  const auto distance = static_cast<uint32_t>(group_exponent - product.exponent);
  return AlignedProduct{product.sign, shift_right_round_half_away(product.mantissa, distance, rounding)};
}

AccTerm align_group_sum(std::span<const SliceProduct, kProductsPerGroup> products, ShiftRounding rounding) {
  int32_t group_exponent = products[0].exponent;
  for (const SliceProduct& p : products) group_exponent = std::max(group_exponent, p.exponent);
  // Nothing in the group reaches the smallest normal exponent: the adder tree sees only zeros.
  if (group_exponent <= 0) return AccTerm{};

  int32_t sum = 0;  // at most 8 * (2^12 - 1): no overflow
  for (const SliceProduct& p : products) {
    const AlignedProduct a = align_product(p, group_exponent, rounding);
    const auto magnitude = static_cast<int32_t>(a.aligned);
    sum += a.sign ? -magnitude : magnitude;
  }

  AccTerm term;
  term.sign = sum < 0 ? 1u : 0u;
  term.exponent = group_exponent;
  // Products carry kProductFractionBits fraction bits; accumulator terms carry kAccFractionBits.
  term.mantissa = static_cast<uint32_t>(std::abs(sum)) << (kAccFractionBits - kProductFractionBits);
  return term;
}

}  // namespace tmu::tensix::fpu
