// The per-phase contribution check. For every pass of every step (tile pair or face), what the pass
// added to Dst (the exact difference of the snapshots around it) must equal, element by element,
// the exact product of the slices the ISA assigns to that pass's phase (slices.h; pass i of a run
// at fidelity n is phase i, the LLK's loop after SETRWC cleared the counter), up to a rounding
// budget derived from the datapath's documented structure:
//   - products in a group of eight are aligned to the group's largest product exponent with 10
//     fraction bits: each smaller product may be off by half of 2^-10 of that exponent's weight;
//     a group below the accumulator's smallest normal is dropped whole;
//   - the two group sums and the Dst value are aligned to their common exponent (half a unit of
//     2^-23 each; with a 16-bit Dst also rounded to 10 fraction bits: a unit of 2^-10 each);
//   - the result is rounded to the Dst format (half an ulp) or flushed below its smallest normal.
// A pass that is skipped, repeated, mis-signed or sliced from the wrong operand adds a different
// product and fails wherever that difference exceeds the budget. The check is told only the
// fidelity level, the format and the Dst mode - never the perturbation.
#pragma once

#include <vector>

#include "tmu/audit/pass_check.h"
#include "tmu/audit/reference.h"
#include "tmu/tensix/llk/slices.h"
#include "tmu/tensix/llk/sequence.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;

struct CheckConfig {
  SrcFormat format = SrcFormat::BF16;
  unsigned phases = 4;
  bool dst32 = true;
};

// `exact` and `phases` are c's exact results (reference.h) and slice products (slices.h).
PhaseCheck check_matmul_phases(const MatmulCase& c, const MatmulExact& exact, const std::vector<PhaseProducts>& phases,
                               const SequenceTrace& trace, const CheckConfig& cfg);
PhaseCheck check_eltwise_phases(const EltwiseCase& c, const PhaseProducts& phases, const SequenceTrace& trace,
                                const CheckConfig& cfg);

}  // namespace tmu::tensix::llk
