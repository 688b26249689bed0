// The Tensix Matrix Unit's rows of the precision audit (docs/audit.md): MVMUL (a K-deep
// accumulation of 32x32 tile matmuls through the LLK replay sequence; the first tile is the
// single-tile case) and ELWMUL on the bit-exact model for every source format, fidelity level, Dst
// mode and input distribution asked for, measured against the exact product and the two IEEE
// references, with every fidelity pass's contribution to Dst checked; and, in the cross-engine
// table, Tensix ELWADD on the ELWMUL operands (elwadd.h).
#pragma once

#include <vector>

#include "tmu/audit/rows.h"
#include "tmu/tensix/audit/elwadd.h"

namespace tmu::audit {

// The Matrix Unit's operations, first in every file. The other engines' units that share their
// input streams name them by these names (AuditRows::stream).
inline constexpr SeriesOp kMvmul{0, "MVMUL"}, kElwmul{1, "ELWMUL", false};

// What the rows gave beside the shared series (AuditResults::engines["tensix"]).
struct TensixAuditResults {
  std::vector<ElwaddCross> elwadd_cross;  // when an engine asked for the cross-engine table
};
inline constexpr const char* kTensixRowsName = "tensix";
const TensixAuditResults* tensix_results(const AuditResults& r);  // null: the rows did not run

}  // namespace tmu::audit
