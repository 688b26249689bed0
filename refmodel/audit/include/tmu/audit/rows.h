// The audit's rows, one capability per engine, registered apart from the engine itself as LLVM
// registers each capability of a target. An engine whose directory has an audit/ subdirectory
// defines an AuditRows there: the options it adds to `tmu audit`, whether it runs by default, how
// its options' values configure its rows (AuditOptions), and what the rows add to the shared
// audit: series on the shared worker threads, its own results, files and sections of audit.md, and
// lines of the two tables where engines meet (bits versus K, the cross-engine table). The command
// line and the audit's core ask this registry and name no engine; an engine without rows (a plugin)
// adds its own tables through its AuditTables (tmu/engine.h).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/audit/audit.h"
#include "tmu/engine.h"
#include "tmu/error.h"

namespace tmu::audit {

class AuditRows;

// One independent work unit of an engine's series: one input case, run on any worker thread.
struct SeriesUnit {
  const AuditRows* rows = nullptr;
  unsigned kind = 0;  // the engine's own
  SrcFormat format{};
  Distribution dist{};
  unsigned index = 0;
};

// Where a unit's results go: every error of the series `key` (every K of a K-deep run), and the
// phase checks of its runs.
class SeriesSink {
 public:
  virtual ~SeriesSink() = default;
  virtual void record(const SeriesKey& key, std::vector<ErrorSample> errors) = 0;
  virtual void check(const CheckKey& key, PhaseCheck c) = 0;
};

// A line of the bits-versus-K table: the series `key` (its k ignored) at every K of the table.
// Lines sort by the stream's format (BF16, FP16, TF32), then by `order`.
struct KLine {
  int order = 0;
  std::string engine, src, acc, method;
  SeriesKey key;
};

// A line of the cross-engine table (element-wise multiply and add on the same operands): one cell of
// the table row `row`, which sorts by `order` (16 per engine, as SeriesOp's).
struct CrossLine {
  std::string engine, operation, method, result;  // result: the format the ULPs are counted in
  SrcFormat format;
  Distribution dist;
  ErrorStats stats;
  std::string row;
  int order;
};
// A sentence of the cross-engine table's note, in `order`.
struct CrossNote {
  int order;
  std::string text;
};

// Where in audit.md an engine's section goes, in this order; every registered engine's rows are
// asked for each part in turn.
enum class ReportPart : uint8_t {
  Description,  // the run: seed, configuration, time
  Preamble,     // what else ran, before the note on the cells
  Matmul,       // the K-deep matmul sections
  AfterMatmul,  // tables beside them
  Tables,       // the other sections, before the cross-engine table
};

class AuditRows {
 public:
  virtual ~AuditRows() = default;
  virtual std::string name() const = 0;  // the engine's registry name
  // The options the engine adds to `tmu audit`, shown under its name in --help.
  virtual std::vector<EngineOption> options() const = 0;
  // Whether `tmu audit` runs these rows when --engines is not given.
  virtual bool runs_by_default() const = 0;
  // Configures the engine's part of `o` from its options' values (its defaults where none was
  // given); not `selected`: its rows run nothing, while its values are still checked. `values` may
  // hold other engines' options, which are ignored. `variant` is the chosen engine's variant.
  // tmu::Error (BadInput) naming the option for a bad value.
  virtual void select(AuditOptions& o, bool selected, const OptionValues& values, const std::string& variant) const = 0;

  // Whether `o` runs these rows; std::invalid_argument for a configuration they cannot run.
  virtual bool runs(const AuditOptions& o) const = 0;
  virtual void validate(const AuditOptions&) const {}
  // Whether the rows ask for the cross-engine table.
  virtual bool wants_cross_table(const AuditOptions&) const { return false; }
  // The series' work units and how one runs. `seed` is the unit's own (derived from the audit's).
  virtual std::vector<SeriesUnit> units(const AuditOptions&) const { return {}; }
  virtual void run_unit(const SeriesUnit&, uint64_t /*seed*/, const AuditOptions&, SeriesSink&) const {}
  // The stream a unit draws from: "<stream>/<format>/<distribution>/<index>" names its seed.
  virtual std::string stream(const SeriesUnit&) const { return name(); }
  // After the series: the engine's own results (into r.engines[name()]).
  virtual void finish(const AuditOptions&, AuditResults&) const {}
  // Called on every registered engine's rows, selected or not; each adds what its results hold.
  virtual std::vector<KLine> k_lines(const AuditResults&, Distribution) const { return {}; }
  virtual std::vector<CrossLine> cross_lines(const AuditResults&) const { return {}; }
  virtual std::vector<CrossNote> cross_notes(const AuditResults&) const { return {}; }
  virtual void markdown(ReportPart, const AuditResults&, std::ostream&) const {}
  // Its own files: name and text, written beside audit.csv.
  virtual std::vector<std::pair<std::string, std::string>> files(const AuditResults&) const { return {}; }
};

// Replaces rows of the same name; registration order is the order select_audit_engines asks them.
void register_audit_rows(std::unique_ptr<AuditRows> rows);
const std::vector<std::unique_ptr<AuditRows>>& audit_rows();
const AuditRows* find_audit_rows(std::string_view name);  // null when the engine has none
// Registers the rows of every engine directory with an audit/ subdirectory, in TMU_ENGINES order
// (generated by refmodel/audit/CMakeLists.txt into tmu_audit_rows); a second call does nothing.
void register_builtin_audit_rows();

// The options `engine` adds to the shared audit; none for an engine without rows.
std::vector<EngineOption> shared_audit_options(const std::string& engine);
// What --engines selects when not given: the rows that run by default, in registration order.
std::vector<std::string> default_audit_engines();
// Every registered engine's select(), in registration order, with `selected` telling whether it
// was chosen.
void select_audit_engines(AuditOptions& o, const std::vector<std::string>& selected, const OptionValues& values,
                          const std::string& variant);

// The bits-versus-K table of distribution `d`: every registered engine's k_lines (median / 99th
// percentile at K = 1, 2, 4, ... and the deepest run), for an engine's section of audit.md.
void k_table(std::ostream& md, const AuditResults& r, Distribution d);

// For engines' sections of audit.md: effective bits ("exact" at the cap, else one decimal); a
// series' statistics (null when not run); log2 of part / whole ("" unless both are positive); a
// pass's verdict: FAIL, pass, or unresolved (not sensitive).
std::string bits_text(double bits);
const ErrorStats* find_stats(const AuditResults& r, const SeriesKey& key);
std::string log2_share(double part, double whole);
std::string pass_verdict(const PhaseCheck& c, const PassCheck& p);

// For select(): the values given for `key`, or `defaults`.
std::vector<std::string> given_values(const OptionValues& values, const char* key, std::vector<std::string> defaults);
// The count given for `key`, or `fallback`; tmu::Error (BadInput) naming `option` when not a count.
unsigned given_count(const OptionValues& values, const char* key, const char* option, unsigned fallback);
// tmu::Error (BadInput): "<option>: <why>".
Error bad_option(const char* option, const std::string& why);
std::string lowercase(std::string s);

}  // namespace tmu::audit
