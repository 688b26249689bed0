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
#include "tmu/tensix/l1_formats.h"
#include "tmu/tensix/llk/perturbation.h"

namespace tmu::audit {

// A series' method: its fidelity level (1..4: LoFi .. HiFi4) or an IEEE reference.
std::string matrix_unit_method_name(SrcFormat stream, unsigned method);

// The Matrix Unit's operations, first in every file. The other engines' units that share their
// input streams name them by these names (AuditRows::stream).
inline constexpr SeriesOp kMvmul{0, "MVMUL", true, nullptr, matrix_unit_method_name},
    kElwmul{1, "ELWMUL", false, nullptr, matrix_unit_method_name};

// MVMUL's FP32 Dst result packed to L1 and read back by the unpacker (docs/audit.md, "From L1 to
// L1"): one operation per L1 format, its results counted in that format. A block format's ULP is
// taken at each element's own exponent with the block's 7 significant bits.
template <tensix::L1Format F>
const char* packed_format_name(SrcFormat, bool) {
  return tensix::l1_format_name(F);
}
inline constexpr SeriesOp kMvmulToL1Bf16{2, "MVMUL-L1-BF16", true, nullptr, matrix_unit_method_name,
                                         packed_format_name<tensix::L1Format::BF16>},
    kMvmulToL1Fp16{3, "MVMUL-L1-FP16", true, nullptr, matrix_unit_method_name,
                   packed_format_name<tensix::L1Format::FP16>},
    kMvmulToL1Bfp8{4, "MVMUL-L1-BFP8", true, nullptr, matrix_unit_method_name,
                   packed_format_name<tensix::L1Format::BFP8>};
// The L1 formats the audit packs to, and each one's operation and format for counting.
inline constexpr tensix::L1Format kPackedFormats[] = {tensix::L1Format::BF16, tensix::L1Format::FP16,
                                                      tensix::L1Format::BFP8};
SeriesOp packed_op(tensix::L1Format f);
OutFormat packed_format(tensix::L1Format f);
// Dst FP32 values (exact in double) -> the values the unpacker reads back after the packer wrote
// them to L1 in `to` (its default early conversion; 16-datum BFP blocks along each row of 16).
std::vector<double> through_l1(const std::vector<double>& dst_fp32, tensix::Arch arch, tensix::L1Format to);

// The Matrix Unit's part of the options (AuditOptions::engines["tensix"]), as select() makes it from
// its command-line options. The shared options' Dst modes (dst32_modes) and element-wise tiles
// are its Dst modes and ELWMUL tiles.
struct MatrixUnitSettings {
  std::vector<SeriesOp> ops;  // empty: the rows run nothing
  std::vector<unsigned> fidelities{1, 2, 3, 4};
  tensix::Arch arch = tensix::Arch::Blackhole;
  Perturbation perturb;  // for demonstrations: every sequence runs with this mistake
  // MVMUL's FP32 Dst results also packed to these L1 formats (kPackedFormats' order; empty: none).
  std::vector<tensix::L1Format> packed{std::begin(kPackedFormats), std::end(kPackedFormats)};
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
