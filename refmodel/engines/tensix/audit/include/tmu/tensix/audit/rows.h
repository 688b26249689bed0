// The Tensix Matrix Unit's rows of the precision audit (docs/audit.md): MVMUL (a K-deep
// accumulation of 32x32 tile matmuls through the LLK replay sequence; the first tile is the
// single-tile case) and ELWMUL on the bit-exact model for every source format, fidelity level, Dst
// mode and input distribution asked for, measured against the exact product and the two IEEE
// references, with every fidelity pass's contribution to Dst checked; and, in the cross-engine
// table, Tensix ELWADD on the ELWMUL operands (elwadd.h).
#pragma once

#include <string>
#include <vector>

#include "tmu/audit/rows.h"
#include "tmu/tensix/audit/elwadd.h"
#include "tmu/tensix/isa.h"
#include "tmu/tensix/llk/perturbation.h"

namespace tmu::audit {

// A series' method: its fidelity level (1..4: LoFi .. HiFi4) or an IEEE reference.
std::string matrix_unit_method_name(SrcFormat stream, unsigned method);

// The Matrix Unit's operations, first in every file. The other engines' units that share their
// input streams name them by these names (AuditRows::stream).
inline constexpr SeriesOp kMvmul{0, "MVMUL", true, nullptr, matrix_unit_method_name},
    kElwmul{1, "ELWMUL", false, nullptr, matrix_unit_method_name};

// The Matrix Unit's part of the options (AuditOptions::engines["tensix"]), as select() makes it from
// its command-line options. The shared options' Dst modes (dst32_modes) and element-wise tiles
// are its Dst modes and ELWMUL tiles.
struct MatrixUnitSettings {
  std::vector<SeriesOp> ops;  // empty: the rows run nothing
  std::vector<unsigned> fidelities{1, 2, 3, 4};
  tensix::Arch arch = tensix::Arch::Blackhole;
  Perturbation perturb;  // for demonstrations: every sequence runs with this mistake
};
// The settings in o; the first made with their defaults when o has none.
MatrixUnitSettings& matrix_unit_settings(AuditOptions& o);
const MatrixUnitSettings& matrix_unit_settings(const AuditOptions& o);  // the defaults when o has none

// What the rows gave beside the shared series (AuditResults::engines["tensix"]).
struct TensixAuditResults {
  std::vector<ElwaddCross> elwadd_cross;  // when an engine asked for the cross-engine table
};
inline constexpr const char* kTensixRowsName = "tensix";
const TensixAuditResults* tensix_results(const AuditResults& r);  // null: the rows did not run

}  // namespace tmu::audit
