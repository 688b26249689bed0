// The ISA's fidelity slice tables as data, and the exact products of the slices.
#include "tmu/tensix/llk/slices.h"

#include "tmu/audit/reference.h"

namespace tmu::audit {
namespace {

bool low_slice(Operand which, unsigned phase) {
  return which == Operand::SrcA ? (phase & 1u) != 0 : (phase & 2u) != 0;
}

// SrcASrcB.md, one line per table cell. BF16 has mantissa bits 6..0, TF32/FP16 9..0.
SliceSpec table_cell(bool bf16, Operand which, bool low) {
  constexpr int kSrcALowPort = -5, kSrcBLowPort = -7;
  if (which == Operand::SrcA) {
    if (!low) return bf16 ? SliceSpec{true, 6, 3, 0} : SliceSpec{true, 9, 6, 0};  // 1 + top four
    return bf16 ? SliceSpec{false, 2, 0, kSrcALowPort}                            // remaining three
                : SliceSpec{false, 5, 1, kSrcALowPort};                           // next five
  }
  if (!low) return bf16 ? SliceSpec{true, 6, 1, 0} : SliceSpec{true, 9, 4, 0};    // 1 + top six
  return bf16 ? SliceSpec{false, 0, 0, kSrcBLowPort}                              // remaining one
              : SliceSpec{false, 3, 0, kSrcBLowPort};                             // remaining four
}

}  // namespace

SliceSpec slice_spec(SrcFormat f, Operand which, unsigned phase) {
  return table_cell(f == SrcFormat::BF16, which, low_slice(which, phase));
}

SrcNumber slice_of(const SrcNumber& x, SrcFormat f, Operand which, unsigned phase) {
  if (x.is_zero()) return SrcNumber{};
  const SliceSpec s = slice_spec(f, which, phase);
  const int m = info(f).mantissa_bits;
  uint32_t selected = 0;
  if (s.implicit_one) selected |= uint32_t{1} << m;
  for (int b = s.bottom; b <= s.top; ++b) selected |= x.significand & (uint32_t{1} << b);
  // A slice with no bits set is the number zero (its exponent no longer matters).
  if (selected == 0) return SrcNumber{};
  return SrcNumber{x.sign, x.exponent, selected};
}

int srca_unconsumed_bits(SrcFormat f) {
  int consumed = 0;
  for (unsigned phase : {0u, 1u}) {
    const SliceSpec s = slice_spec(f, Operand::SrcA, phase);
    consumed += s.top >= s.bottom ? s.top - s.bottom + 1 : 0;
  }
  return info(f).mantissa_bits - consumed;
}

std::vector<PhaseProducts> exact_phase_products(const MatmulCase& c) {
  std::vector<PhaseProducts> out(c.tiles);
  for (unsigned p = 0; p < 4; ++p) {
    std::vector<Real> left(c.in0.size()), right(c.in1.size());
    for (size_t i = 0; i < left.size(); ++i) left[i] = value_of(slice_of(c.in0[i], c.format, Operand::SrcB, p), c.format);
    for (size_t i = 0; i < right.size(); ++i) right[i] = value_of(slice_of(c.in1[i], c.format, Operand::SrcA, p), c.format);
    std::vector<std::vector<Real>> tiles = exact_tile_products(left, right, c.tiles);
    for (unsigned t = 0; t < c.tiles; ++t) out[t][p] = std::move(tiles[t]);
  }
  return out;
}

PhaseProducts exact_phase_products(const EltwiseCase& c) {
  const SrcFormat f = c.format;
  ExactScope exact("exact slice products");
  PhaseProducts out;
  for (unsigned p = 0; p < 4; ++p)
    for (size_t e = 0; e < c.a.size(); ++e)
      out[p].push_back(value_of(slice_of(c.a[e], f, Operand::SrcA, p), f) * value_of(slice_of(c.b[e], f, Operand::SrcB, p), f));
  exact.verify();
  return out;
}

}  // namespace tmu::audit
