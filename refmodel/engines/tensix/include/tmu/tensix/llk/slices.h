// The mantissa slices each fidelity phase feeds the multiplier, written down from the ISA's tables
// (SrcASrcB.md, "Fidelity phases (floating-point)") independently of the datapath code
// (refmodel/engines/tensix/src/fpu/fidelity_slice.cpp), so the audit can check the datapath against them:
//
//            SrcA                                    SrcB
//   phase 0  implicit 1 + top four mantissa bits     implicit 1 + top six mantissa bits
//   phase 1  BF16: remaining three; TF32/FP16: next five (the last bit is never consumed)
//                                                    implicit 1 + top six mantissa bits
//   phase 2  implicit 1 + top four mantissa bits     remaining bits (BF16: one; TF32/FP16: four)
//   phase 3  as phase 1                              as phase 2
//
// A slice keeps its weight: hi + lo slices of an operand add up to the operand (minus SrcA's unused
// last bit for TF32/FP16), so the product of phase p's slices is exactly what phase p should add.
#pragma once

#include <array>
#include <vector>

#include "tmu/audit/inputs.h"

namespace tmu::audit {

enum class Operand : uint8_t { SrcA, SrcB };

struct SliceSpec {
  bool implicit_one = false;
  int top = -1, bottom = 0;  // mantissa bit indices (mantissa_bits-1 .. 0), inclusive; top < bottom: none
  // Weight of the multiplier port's leading bit relative to the operand's implicit one: the low
  // slices sit 5 (SrcA) and 7 (SrcB) places down. Not in the ISA tables (the hardware's exponent
  // adjustment, ttsim mvmul); used only for the rounding budget of the phase check, never for the
  // expected value.
  int port_weight_log2 = 0;
};

// The phase's slice rule for an operand: SrcA takes its low slice when phase bit 0 is set, SrcB
// when phase bit 1 is set.
SliceSpec slice_spec(SrcFormat f, Operand which, unsigned phase);

// The slice as a number: sign * (selected significand bits, at their weights) * 2^(exponent - M).
SrcNumber slice_of(const SrcNumber& x, SrcFormat f, Operand which, unsigned phase);

// Mantissa bits of a SrcA operand no phase consumes (the table's dagger note): 0 for BF16, 1 else.
int srca_unconsumed_bits(SrcFormat f);

// Exact products of each phase's slices, what pass p of a fidelity level must add (phase_check.h):
// [t][p] the 32x32 (row-major) product of tile pair t's slices, in0's tile sliced as SrcB and in1's
// as SrcA (the LLK unpacks in0 into SrcB: llk_math_matmul.h, "MVMUL does D = B*A"); for an
// element-wise case [p] the products of a sliced as SrcA and b as SrcB.
using PhaseProducts = std::array<std::vector<Real>, 4>;
std::vector<PhaseProducts> exact_phase_products(const MatmulCase& c);
PhaseProducts exact_phase_products(const EltwiseCase& c);

}  // namespace tmu::audit
