// tmu audit: the precision audit (docs/audit.md). Each engine's rows (tmu/audit/rows.h) run their
// series - results of a model on seeded inputs, measured against the exact result (MPFR) and the two
// IEEE references - on the audit's worker threads, with their phase checks; the audit gathers them
// into the shared files, with each engine's own results, files and sections, and the lines of the
// tables where engines meet.
#pragma once

#include <any>
#include <compare>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tmu/audit/error_stats.h"
#include "tmu/audit/inputs.h"
#include "tmu/audit/pass_check.h"

namespace tmu::audit {

// The operation of a series. Rows sort by `order` in every file: each engine's rows take the
// orders 16 * i .. 16 * i + 15, i its place in TMU_ENGINES, so an engine's rows follow those of the
// engines listed before it. `name` is the files' op column.
struct SeriesOp {
  unsigned order = 0;
  const char* name = "";
  bool k_axis = true;  // false: one result per input (no bits-versus-K series)
  // What the files print for a series of this operation: its source format and method; null: the
  // stream format's name and method_name().
  const char* (*src_name)(SrcFormat stream) = nullptr;
  std::string (*method_name)(SrcFormat stream, unsigned method) = nullptr;
  // The format the results are stored in and counted in (ULPs); null: output_format(stream, dst32).
  const char* (*out_name)(SrcFormat stream, bool dst32) = nullptr;
  friend std::strong_ordering operator<=>(const SeriesOp& a, const SeriesOp& b) { return a.order <=> b.order; }
  friend bool operator==(const SeriesOp& a, const SeriesOp& b) { return a.order == b.order; }
};

struct AuditOptions {
  // What every engine's rows read: the input streams' formats and distributions, the result widths
  // (dst32_modes: a 16-bit and/or a 32-bit result), the depth and counts of the runs.
  std::vector<SrcFormat> formats{SrcFormat::BF16, SrcFormat::FP16, SrcFormat::TF32};
  std::vector<bool> dst32_modes{false, true};
  std::vector<Distribution> distributions{Distribution::Uniform, Distribution::Normal, Distribution::LogUniform,
                                          Distribution::Cancellation};
  unsigned max_k = 16;            // tiles in a K-deep matmul run (inner dimension 32 * max_k)
  std::vector<unsigned> table_ks{1, 16};  // K values with full statistics (1 is always included)
  unsigned samples = 2;           // independent K-deep runs per format and distribution
  unsigned eltwise_tiles = 4;     // 32x32 element-wise tiles per format and distribution (also the
                                  // cross-engine table's)
  uint64_t seed = 1;
  unsigned threads = 0;           // 0: one per hardware thread
  // Each engine's own part (tmu/audit/rows.h), by engine name, as its AuditRows::select made it; an
  // engine without an entry runs nothing.
  std::map<std::string, std::any> engines;
  std::function<void(size_t done, size_t total)> progress;  // called from worker threads, serialised
};

// A series of results: `method` is one of the IEEE references, or an engine's own (below
// kIeeeOnce, or from kEngineMethod), named by its SeriesOp's method_name.
inline constexpr unsigned kIeeeOnce = 5, kIeeeSeq = 6, kEngineMethod = 7;
std::string method_name(unsigned method);  // IEEE-once, IEEE-seq; an engine's own: "method N"

struct SeriesKey {
  SeriesOp op;
  unsigned k;  // tiles accumulated (no K axis: 1)
  SrcFormat format;  // the input stream's format
  Distribution dist;
  bool dst32;  // a 32-bit result (FP32)
  unsigned method;
  auto operator<=>(const SeriesKey&) const = default;
};
// What the files print for a series: the source format, the result's format and the method
// (SeriesOp's names).
const char* series_src_name(const SeriesKey& key);
const char* series_out_name(const SeriesKey& key);
std::string series_method_name(const SeriesKey& key);
std::string series_method_name(SeriesOp op, SrcFormat stream, unsigned method);

struct CheckKey {
  SeriesOp op;
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
  std::map<SeriesKey, KPoint> bits_vs_k;  // every K from 1 to max_k (operations with a K axis)
  std::map<SeriesKey, std::vector<double>> rel_errors;  // K = 1: every relative error (histograms)
  std::map<CheckKey, PhaseCheck> checks;
  bool cross_table = false;  // an engine's rows asked for the cross-engine table
  std::map<std::string, std::any> engines;  // the engines' own results, by engine name
  double seconds = 0;
  bool all_phase_checks_passed() const;
};

// Runs every registered engine's rows (tmu/audit/rows.h) that `options` selects. Throws std::invalid_argument for options it cannot run, std::runtime_error if an exact
// computation would round.
AuditResults run_audit(const AuditOptions& options);

// audit.csv, phases.csv, bits_vs_k.csv, error_hist.csv and audit.md in dir (created if needed).
void write_audit_outputs(const AuditResults& results, const std::filesystem::path& dir);
std::string markdown_report(const AuditResults& results);
std::string summary_csv(const AuditResults& results);
std::string phases_csv(const AuditResults& results);
// The cross-engine table (cross.cpp): its CSV, and its sections of audit.md.
std::string cross_engines_csv(const AuditResults& results);
std::string cross_engines_markdown(const AuditResults& results);

// Whether the options run any of the shared tables' rows.
bool runs_shared_tables(const AuditOptions& o);
// The files write_audit_outputs writes for these results, for the summary line.
std::string written_files(const AuditResults& r);

// The plot script of the source tree this binary was built from.
std::filesystem::path default_plot_script();

}  // namespace tmu::audit
