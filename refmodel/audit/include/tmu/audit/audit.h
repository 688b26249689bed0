// tmu audit: the fidelity-phase precision audit (docs/audit.md). Runs MVMUL (a K-deep accumulation of
// 32x32 tile matmuls through the LLK replay sequence; the first tile is the single-tile case) and
// ELWMUL on the bit-exact model for every source format, fidelity level, Dst mode and input
// distribution asked for; measures the results against the exact product and the two IEEE
// references; and checks every fidelity pass's contribution to Dst. Beside MVMUL it runs the same
// K-tile matmul on the Apple AMX model (amx.h, operation MATFP), measured the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "tmu/audit/amx.h"
#include "tmu/audit/elwadd.h"
#include "tmu/audit/error_stats.h"
#include "tmu/audit/phase_check.h"
#include "tmu/audit/pto.h"

namespace tmu::audit {

// Matfp is the AMX engine's K-tile matmul (amx.h); it sorts after the Matrix Unit's operations, so
// their rows come first in every file.
enum class Op : uint8_t { Mvmul, Elwmul, Matfp };
const char* op_name(Op op);  // MVMUL ELWMUL MATFP

struct AuditOptions {
  std::vector<Op> ops{Op::Mvmul, Op::Elwmul};  // the Matrix Unit's operations; empty: none of them
  // The AMX rows (Op::Matfp; samples, K and distributions as for MVMUL); empty: none.
  std::vector<AmxMode> amx_modes{std::begin(kAmxModes), std::end(kAmxModes)};
  std::vector<SrcFormat> formats{SrcFormat::BF16, SrcFormat::FP16, SrcFormat::TF32};
  std::vector<unsigned> fidelities{1, 2, 3, 4};
  std::vector<bool> dst32_modes{false, true};
  std::vector<Distribution> distributions{Distribution::Uniform, Distribution::Normal, Distribution::LogUniform,
                                          Distribution::Cancellation};
  unsigned max_k = 16;            // tiles in the K-deep MVMUL run (inner dimension 32 * max_k)
  std::vector<unsigned> table_ks{1, 16};  // K values with full statistics (1 is always included)
  unsigned samples = 2;           // independent MVMUL runs per format and distribution
  unsigned eltwise_tiles = 4;     // 32x32 ELWMUL tiles per format and distribution
  uint64_t seed = 1;
  unsigned threads = 0;           // 0: one per hardware thread
  Arch arch = Arch::Blackhole;
  Perturbation perturb;           // for demonstrations: run every sequence with this mistake
  // The PTO rows (pto.h): element types to run every float operation on; empty: none. The
  // cross-engine table runs PTO TMUL and TADD on the ELWMUL operands of every format and
  // distribution asked for (eltwise_tiles tiles each), and, when the Matrix Unit's operations are
  // selected too, Tensix ELWADD on the same operands (elwadd.h) at every fidelity and Dst mode.
  std::vector<pto::ElemType> pto_types;
  unsigned pto_tiles = 4;         // 32x32 tiles per PTO operation, type and operand set
  pto::Profile pto_profile = pto::Profile::CpuSim;  // whose results the PTO rows measure
  std::function<void(size_t done, size_t total)> progress;  // called from worker threads, serialised
};

// A series of results: `method` is the fidelity level (1..4) for the Matrix Unit, kAmx for the AMX
// model, or one of the IEEE references.
inline constexpr unsigned kIeeeOnce = 5, kIeeeSeq = 6, kAmx = 7;
std::string method_name(unsigned method);  // LoFi .. HiFi4, IEEE-once, IEEE-seq

struct SeriesKey {
  Op op;
  unsigned k;  // tiles accumulated (ELWMUL: 1)
  SrcFormat format;  // Op::Matfp: the stream the AMX mode shares (amx_stream)
  Distribution dist;
  bool dst32;  // Op::Matfp: always true (Z is f32)
  unsigned method;
  auto operator<=>(const SeriesKey&) const = default;
};
// What the files print for a series: the source format (Op::Matfp: the AMX mode's IEEE format, BF16
// FP16 FP32) and the method (kAmx: the mode's name, "AMX f16->f32").
const char* series_src_name(const SeriesKey& key);
std::string series_method_name(const SeriesKey& key);

struct CheckKey {
  Op op;
  SrcFormat format;
  Distribution dist;
  bool dst32;
  unsigned phases;
  auto operator<=>(const CheckKey&) const = default;
};

// One point of a bits-versus-K series.
struct KPoint {
  size_t count = 0;
  double bits = kBitsCap, bits_p99 = kBitsCap, bits_mean = kBitsCap, bits_min = kBitsCap;
  double mean_ulp = 0, max_ulp = 0;
};

struct AuditResults {
  AuditOptions options;
  std::map<SeriesKey, ErrorStats> stats;  // K in table_ks: full statistics
  std::map<SeriesKey, KPoint> bits_vs_k;  // every K from 1 to max_k (MVMUL, MATFP)
  std::map<SeriesKey, std::vector<double>> rel_errors;  // K = 1: every relative error (histograms)
  std::map<CheckKey, PhaseCheck> checks;
  std::vector<PtoRow> pto_rows;
  std::vector<PtoCross> pto_cross;
  std::vector<ElwaddCross> elwadd_cross;
  double seconds = 0;
  bool all_phase_checks_passed() const;
};

// Throws std::invalid_argument for options it cannot run, std::runtime_error if an exact
// computation would round.
AuditResults run_audit(const AuditOptions& options);

// audit.csv, phases.csv, bits_vs_k.csv, error_hist.csv and audit.md in dir (created if needed).
void write_audit_outputs(const AuditResults& results, const std::filesystem::path& dir);
std::string markdown_report(const AuditResults& results);
std::string summary_csv(const AuditResults& results);
std::string phases_csv(const AuditResults& results);
// The PTO section of audit.md and the cross-engine table's CSV (pto_report.cpp).
std::string pto_markdown(const AuditResults& results);
std::string cross_engines_csv(const AuditResults& results);

// Whether the options run any of the shared tables' rows.
bool runs_shared_tables(const AuditOptions& o);
// The files write_audit_outputs writes for these results, for the summary line.
std::string written_files(const AuditResults& r);

// The plot script of the source tree this binary was built from.
std::filesystem::path default_plot_script();

}  // namespace tmu::audit
