// The audit driver: independent work units (one input case each) run on worker threads; their
// results are merged in unit order, so the output does not depend on the thread count or timing.
#include "tmu/audit/audit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "tmu/audit/rows.h"

namespace tmu::audit {
namespace {

struct UnitResult {
  std::map<SeriesKey, std::vector<ErrorSample>> full;
  std::map<SeriesKey, RunningErrors> running;
  std::map<SeriesKey, std::vector<double>> rel;  // every K: relative errors (exact != 0)
  std::map<CheckKey, PhaseCheck> checks;
};

// Collects one unit's series (every error of a K in table_ks, running statistics and relative
// errors of every K) and its phase checks.
class UnitSink final : public SeriesSink {
 public:
  UnitSink(UnitResult& r, const std::set<unsigned>& table_ks) : r_(r), table_ks_(table_ks) {}
  void record(const SeriesKey& key, std::vector<ErrorSample> e) override {
    RunningErrors& running = r_.running[key];
    std::vector<double>& rel = r_.rel[key];
    for (const ErrorSample& s : e) {
      running.add(s);
      if (!s.exact_zero) rel.push_back(s.rel);
    }
    if (table_ks_.count(key.k)) {
      auto& full = r_.full[key];
      full.insert(full.end(), e.begin(), e.end());
    }
  }
  void check(const CheckKey& key, PhaseCheck c) override { r_.checks[key] = std::move(c); }

 private:
  UnitResult& r_;
  const std::set<unsigned>& table_ks_;
};

// Named per unit, so units can run in any order or on any thread and still draw the same numbers.
// A unit names its stream: units of different engines that share a stream draw the same real numbers.
UnitResult run_unit(const SeriesUnit& u, const AuditOptions& o, const std::set<unsigned>& table_ks) {
  UnitResult r;
  const uint64_t seed = derive_seed(
      o.seed, fmt::format("{}/{}/{}/{}", u.rows->stream(u), info(u.format).name, distribution_name(u.dist), u.index));
  UnitSink sink(r, table_ks);
  u.rows->run_unit(u, seed, o, sink);
  return r;
}

bool engines_run(const AuditOptions& o) {
  for (const auto& rows : audit_rows())
    if (rows->runs(o)) return true;
  return false;
}

void validate(const AuditOptions& o) {
  auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
  if (!engines_run(o) || o.distributions.empty()) fail("nothing to audit: no engine's rows, or no distribution");
  for (const auto& rows : audit_rows())
    if (rows->runs(o)) rows->validate(o);
  if (o.max_k < 1 || o.max_k > 64) fail(fmt::format("K = {} tiles is outside 1..64", o.max_k));
  if (o.samples < 1 || o.samples > 1000) fail(fmt::format("{} samples is outside 1..1000", o.samples));
  if (o.eltwise_tiles < 1 || o.eltwise_tiles > 1000)
    fail(fmt::format("{} element-wise tiles is outside 1..1000", o.eltwise_tiles));
}

// Every engine's units in registration order. The order fixes only the merge order, never a unit's
// numbers, and every series comes from the units of one engine.
std::vector<SeriesUnit> work_units(const AuditOptions& o) {
  std::vector<SeriesUnit> units;
  for (const auto& rows : audit_rows())
    if (rows->runs(o))
      for (const SeriesUnit& u : rows->units(o)) units.push_back(u);
  return units;
}

struct Merged {
  std::map<SeriesKey, std::vector<ErrorSample>> full;
  std::map<SeriesKey, RunningErrors> running;
  std::map<SeriesKey, std::vector<double>> rel;
};

template <typename T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

void merge(AuditResults& into, Merged& m, const UnitResult& u) {
  for (const auto& [key, samples] : u.full) append(m.full[key], samples);
  for (const auto& [key, running] : u.running) m.running[key].merge(running);
  for (const auto& [key, rel] : u.rel) append(m.rel[key], rel);
  for (const auto& [key, check] : u.checks) merge_into(into.checks[key], check);
}

KPoint k_point(const RunningErrors& running, const std::vector<double>& rel) {
  KPoint p;
  p.count = running.count;
  p.bits = bits_of(percentile(rel, 50));
  p.bits_p99 = bits_of(percentile(rel, 99));
  p.bits_mean = running.bits_mean();
  p.bits_min = running.bits_min();
  p.mean_ulp = running.mean_ulp();
  p.max_ulp = running.max_ulp;
  return p;
}

}  // namespace

std::string method_name(unsigned method) {
  if (method == kIeeeOnce) return "IEEE-once";
  if (method == kIeeeSeq) return "IEEE-seq";
  return fmt::format("method {}", method);
}

const char* series_src_name(const SeriesKey& key) {
  return key.op.src_name ? key.op.src_name(key.format) : info(key.format).name;
}

const char* series_out_name(const SeriesKey& key) {
  return key.op.out_name ? key.op.out_name(key.format, key.dst32) : output_format(key.format, key.dst32).name;
}

std::string series_method_name(SeriesOp op, SrcFormat stream, unsigned method) {
  return op.method_name ? op.method_name(stream, method) : method_name(method);
}

std::string series_method_name(const SeriesKey& key) { return series_method_name(key.op, key.format, key.method); }

bool AuditResults::all_phase_checks_passed() const {
  for (const auto& [key, check] : checks)
    if (!check.passed()) return false;
  return true;
}

bool runs_shared_tables(const AuditOptions& o) { return engines_run(o); }

AuditResults run_audit(const AuditOptions& options) {
  validate(options);
  const auto start = std::chrono::steady_clock::now();
  std::set<unsigned> table_ks{1};
  for (unsigned k : options.table_ks)
    if (k >= 1 && k <= options.max_k) table_ks.insert(k);

  const std::vector<SeriesUnit> units = work_units(options);
  std::vector<UnitResult> results(units.size());
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  if (!mpfr_buildopt_tls_p()) threads = 1;  // MPFR's flags and precision must be per thread
  threads = std::min<unsigned>(threads, static_cast<unsigned>(units.size()));

  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex progress_mutex;
  std::exception_ptr failure;
  auto worker = [&] {
    const ExactPrecision exact_precision;
    for (size_t i = next++; i < units.size(); i = next++) {
      try {
        results[i] = run_unit(units[i], options, table_ks);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(progress_mutex);
        if (!failure) failure = std::current_exception();
        next = units.size();
        return;
      }
      const std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      if (options.progress) options.progress(done, units.size());
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  AuditResults out;
  out.options = options;
  out.options.progress = nullptr;
  out.options.table_ks.assign(table_ks.begin(), table_ks.end());
  Merged merged;
  for (UnitResult& r : results) {
    merge(out, merged, r);
    r = UnitResult{};
  }
  for (const auto& [key, samples] : merged.full) {
    out.stats[key] = summarize(samples);
    if (key.k != 1) continue;
    std::vector<double>& rel = out.rel_errors[key];
    for (const ErrorSample& s : samples)
      if (!s.exact_zero) rel.push_back(s.rel);
  }
  for (const auto& [key, running] : merged.running)
    if (key.op.k_axis) out.bits_vs_k[key] = k_point(running, merged.rel[key]);
  for (const auto& rows : audit_rows())
    if (rows->runs(options) && rows->wants_cross_table(options)) out.cross_table = true;
  for (const auto& rows : audit_rows())
    if (rows->runs(options)) rows->finish(options, out);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace tmu::audit
