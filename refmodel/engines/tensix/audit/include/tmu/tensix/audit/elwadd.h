// Tensix ELWADD in the cross-engine table (docs/audit.md, "Element-wise multiply and add across
// engines"): the model's ELWADD, run through the LLK's ELWADD MOP on the ELWMUL operands of every
// format and distribution (the streams PTO's TADD also reads), measured against the exact sum as the
// ELWMUL rows are measured against the exact product.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tmu/audit/error_stats.h"
#include "tmu/tensix/llk/sequence.h"

namespace tmu::audit {
// The Tensix rows speak the model's and the LLK sequences' names.
using namespace tmu::tensix;
using namespace tmu::tensix::llk;

// a + b for every element (dst_init plays no part: the MOP does not read Dst), verified exact.
std::vector<Real> exact_eltwise_sum(const EltwiseCase& c);

struct ElwaddCross {
  SrcFormat format;
  Distribution dist;
  bool dst32;
  unsigned phases;  // the fidelity setting the sequence was configured with
  ErrorStats stats;
  // Lanes whose result differs from the result at the first fidelity asked for (same format,
  // distribution and Dst mode): what the fidelity setting changes in ELWADD, measured.
  uint64_t lanes_unlike_first = 0;
};

// tiles 32x32 tiles per format and distribution (the ELWMUL streams' tile indices 0..tiles-1); the
// cancellation distribution is left out, as for PTO (its ELWMUL adds to a non-zero Dst). Rows in the
// order format, distribution, Dst mode, fidelity.
std::vector<ElwaddCross> run_elwadd_cross(uint64_t seed, std::span<const SrcFormat> formats,
                                          std::span<const Distribution> dists, std::span<const unsigned> fidelities,
                                          const std::vector<bool>& dst32_modes, unsigned tiles, Arch arch);

}  // namespace tmu::audit
