// The PTO rows of the precision audit (docs/audit.md, "The PTO rows"): every float elementwise
// operation of tmu::pto (one profile: cpusim unless asked) on f32, f16 and bf16 tiles of seeded random operands,
// lane by lane against the exact result rounded once to the element type (MPFR), as a distance in
// units in the last place; and the cross-engine table, where PTO's TMUL and TADD run on the
// operands of the Tensix ELWMUL rows.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/audit/error_stats.h"
#include "tmu/audit/inputs.h"
#include "tmu/audit/rows.h"
#include "tmu/ieee.h"
#include "tmu/pto/ops.h"

namespace tmu::audit {

// How many numbers of format f lie between the non-NaN patterns a and b, stepping from one to the
// next along the real line: 0 when they are the same number (+0 and -0 are one), 1 for neighbours;
// an infinity is one step beyond the largest finite number. Used with b the correctly rounded
// result: 0 means a is correctly rounded.
uint64_t ulp_distance(ieee::Format f, uint64_t a, uint64_t b);

// The histogram's buckets of ULP distance: 0, 1, 2, 3-4, 5-16, 17-256, more.
inline constexpr unsigned kUlpBuckets = 7;
unsigned ulp_bucket(uint64_t distance);
const char* ulp_bucket_label(unsigned bucket);

struct UlpHistogram {
  std::array<uint64_t, kUlpBuckets> counts{};
  uint64_t lanes = 0;      // lanes with a non-NaN result and reference
  uint64_t max = 0;        // largest distance seen
  double sum = 0;          // of the distances, for the mean
  void add(uint64_t distance);
  double mean() const { return lanes ? sum / static_cast<double>(lanes) : 0.0; }
};

// The operand sets of the PTO rows. moderate: random sign, exponent in [-4, 4], every fraction;
// wide: any finite pattern (subnormals and the extremes included); tiny: exponent fields 0..3
// (subnormals and the smallest normals), so results round in the subnormal range; every: each of
// the 65536 patterns once (one-source operations on 16-bit types only, NaNs and infinities
// included; TRECIP's zeros, which the simulator refuses, replaced by one).
enum class PtoInputs : uint8_t { Moderate, Wide, Tiny, Every };
inline constexpr PtoInputs kPtoInputs[] = {PtoInputs::Moderate, PtoInputs::Wide, PtoInputs::Tiny, PtoInputs::Every};
const char* pto_inputs_name(PtoInputs d);

struct PtoRow {
  pto::Op op;
  pto::ElemType type;
  PtoInputs inputs;
  std::optional<std::string> refused;  // the engine's message when it refuses the operation
  UlpHistogram hist;
  uint64_t nan_both = 0;      // lanes where both results are NaN (not in the histogram)
  uint64_t nan_mismatch = 0;  // lanes where exactly one of them is NaN
  // Lanes the profile refuses one by one while it runs the others (a5: lanes outside its float
  // assumption, such as subnormal operands); not in the histogram.
  uint64_t refused_lanes = 0;
  bool correctly_rounded() const { return !refused && hist.max == 0 && nan_mismatch == 0; }
};

// The float operations the rows cover, in the engine's op order: those with a real-number
// definition (arithmetic, min/max, sign operations), whatever the engine models today.
std::vector<pto::Op> pto_float_ops();

// tiles 32x32 tiles per operation, type and random operand set (the `every` set: 64 tiles);
// stream names derive from seed.
// The rows run under `profile`.
std::vector<PtoRow> run_pto_rows(uint64_t seed, std::span<const pto::ElemType> types, unsigned tiles,
                                 pto::Profile profile = pto::Profile::CpuSim);

// One cell of the cross-engine table computed here: PTO `op` (TMUL or TADD) on the ELWMUL
// operands of `format` and `dist` (the same streams, so the same numbers), in the element type
// that holds the source format exactly (BF16 -> bf16, FP16 -> f16, TF32 -> f32).
struct PtoCross {
  pto::Op op;
  SrcFormat format;
  Distribution dist;
  ErrorStats stats;   // against the exact result, as the Tensix rows are measured
  UlpHistogram hist;  // against the exact result rounded once to the element type
};
pto::ElemType pto_type_of(SrcFormat f);
std::vector<PtoCross> run_pto_cross(uint64_t seed, std::span<const SrcFormat> formats,
                                    std::span<const Distribution> dists, unsigned tiles);

std::string pto_rows_csv(const std::vector<PtoRow>& rows);

// What `tmu audit` runs of the PTO rows (AuditOptions::engines["pto"], made by the rows' select):
// the element types to run every float operation on (empty: none), the tiles per operation, type
// and operand set, and the profile whose results the rows measure. The cross-engine table runs
// TMUL and TADD on the ELWMUL operands of every format and distribution asked for (eltwise_tiles
// tiles each) on cpusim.
struct PtoAuditConfig {
  std::vector<pto::ElemType> types;
  unsigned tiles = 4;
  pto::Profile profile = pto::Profile::CpuSim;
};
// What they gave (AuditResults::engines["pto"]).
struct PtoAuditResults {
  std::vector<PtoRow> rows;
  std::vector<PtoCross> cross;
};
inline constexpr const char* kPtoRowsName = "pto";
const PtoAuditConfig* pto_config(const AuditOptions& o);     // null: not selected
const PtoAuditResults* pto_results(const AuditResults& r);  // null: not run
// The PTO section of audit.md (report.cpp) and PTO's lines of the cross-engine table.
std::string pto_markdown(const AuditResults& r);
std::vector<CrossLine> pto_cross_lines(const AuditResults& r);

}  // namespace tmu::audit
