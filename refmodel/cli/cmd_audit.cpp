// tmu audit: the fidelity-phase precision audit (docs/audit.md). Writes audit.csv, phases.csv,
// bits_vs_k.csv, error_hist.csv and audit.md into --out; --plots also draws the PNGs with
// scripts/plot_audit.py. Exit status 3 when a phase check fails (the sequence or the model adds
// something other than the ISA's slice products).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "commands.h"
#include "options.h"
#include "tmu/audit/audit.h"
#include "tmu/audit/rows.h"
#include "tmu/error.h"
#include "tmu/rng.h"

namespace tmu::cli {

namespace {

inline constexpr int kExitPhaseCheckFailed = 3;
inline constexpr const char* kFormatNames = "--format,--formats";

struct AuditArgs {
  std::string out;
  std::optional<uint64_t> seed;
  unsigned samples = 2, max_k = 16, threads = 0;
  std::vector<unsigned> table_ks;
  std::vector<std::string> formats{"bf16", "fp16", "tf32"};
  std::vector<std::string> dists{"uniform", "normal", "loguniform", "cancel"};
  std::vector<std::string> engines = audit::default_audit_engines();
  bool plots = false, quiet = false;
  std::string python = "/usr/bin/python3";
  std::string plot_script;
};

audit::AuditOptions to_options(const AuditArgs& a, const std::string& variant, const OptionValues& engine_options) {
  // The names were checked and spelled canonically by the options' validators.
  audit::AuditOptions o;
  o.formats.clear();
  for (const std::string& n : a.formats) add_once(o.formats, *audit::parse_src_format(n));
  o.distributions.clear();
  for (const std::string& n : a.dists) add_once(o.distributions, *audit::parse_distribution(n));
  // An engine left out drops its rows; the other options keep their meaning for those that run.
  audit::select_audit_engines(o, a.engines, engine_options, variant);
  o.max_k = a.max_k;
  o.table_ks = a.table_ks.empty() ? std::vector<unsigned>{1, a.max_k} : a.table_ks;
  o.samples = a.samples;
  o.seed = a.seed ? *a.seed : clock_seed();
  o.threads = a.threads;
  return o;
}

// A one-line bar redrawn in place; only on a terminal, where it cannot clutter a log.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)), start_(Clock::now()) {}
  void operator()(size_t done, size_t total) const {
    if (!enabled_) return;
    constexpr size_t kWidth = 40;
    const size_t filled = total ? done * kWidth / total : kWidth;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    std::cerr << fmt::format("\r  [{}{}] {}/{} cases, {:.1f} s", std::string(filled, '#'),
                             std::string(kWidth - filled, '.'), done, total, seconds)
              << (done == total ? "\n" : "") << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  Clock::time_point start_;
};

int run_plots(const AuditArgs& a) {
  const std::string script = a.plot_script.empty() ? audit::default_plot_script().string() : a.plot_script;
  const std::string command = fmt::format("'{}' '{}' '{}'", a.python, script, a.out);
  const int rc = std::system(command.c_str());
  if (rc != 0) {
    std::cerr << fmt::format("tmu audit: plotting failed (status {}): {}\n", rc, command);
    return 1;
  }
  return 0;
}

// Each selected engine's own tables (its AuditTables) beside the shared ones: its CSV, and its section
// appended to audit.md. False when one of them reports a failed check.
bool write_engine_tables(const AuditArgs& a, const audit::AuditOptions& options, const OptionValues& engine_options,
                         const std::string& variant) {
  bool passed = true;
  for (const std::string& name : a.engines) {
    const Engine* e = find_engine(name);
    const AuditTables* tables = e ? e->audit_tables() : nullptr;
    if (!tables) continue;
    AuditRequest r;
    r.seed = options.seed;
    r.threads = options.threads;
    r.variant = variant.empty() ? e->variants().front().name : variant;
    r.options = engine_options;
    const AuditTable table = tables->audit(r);
    std::ofstream(std::filesystem::path(a.out) / table.csv_name) << table.csv;
    std::ofstream(std::filesystem::path(a.out) / "audit.md", std::ios::app) << "\n" << table.markdown;
    std::cout << fmt::format("tmu audit: {}: wrote {}\n", e->name(), table.csv_name);
    passed = passed && table.checks_passed;
  }
  return passed;
}

int cmd_audit(const AuditArgs& a, const std::string& chosen_variant, const OptionValues& engine_options,
              const std::string& variant) {
  audit::AuditOptions options;
  try {
    options = to_options(a, chosen_variant, engine_options);
  } catch (const Error& e) {
    std::cerr << "tmu audit: " << e.message() << "\n";
    return kExitBadInput;
  }
  const ProgressBar bar(!a.quiet);
  options.progress = [&bar](size_t done, size_t total) { bar(done, total); };
  std::cout << fmt::format("tmu audit: seed {} (replay with --seed {})\n", options.seed, options.seed) << std::flush;
  // The shared tables run when an engine they cover was selected; the engines' own tables follow.
  const bool shared = audit::runs_shared_tables(options);
  audit::AuditResults results;
  if (shared) {
    try {
      results = audit::run_audit(options);
    } catch (const std::invalid_argument& e) {
      std::cerr << "tmu audit: " << e.what() << "\n";
      return kExitBadInput;
    }
    audit::write_audit_outputs(results, a.out);
  } else {
    std::filesystem::create_directories(a.out);
    std::ofstream(std::filesystem::path(a.out) / "audit.md") << fmt::format("# tmu audit (seed {})\n", options.seed);
  }
  bool engine_checks_passed = true;
  try {
    engine_checks_passed = write_engine_tables(a, options, engine_options, variant);
  } catch (const Error& e) {
    std::cerr << "tmu audit: " << (e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what())) << "\n";
    return kExitBadInput;
  }
  if (shared)
    std::cout << fmt::format(
        "tmu audit: {:.1f} s; wrote {} to {}\n", results.seconds, audit::written_files(results), a.out);
  std::cout.flush();  // before the plot script writes to the same stream
  int status = 0;
  if (a.plots && shared) status = run_plots(a);
  if (!results.all_phase_checks_passed() || !engine_checks_passed) {
    std::cout << "tmu audit: phase checks FAILED (see phases.csv)\n";
    return kExitPhaseCheckFailed;
  }
  std::cout << "tmu audit: every phase check passed\n";
  return status;
}

}  // namespace

void add_audit_commands(CLI::App& app, GlobalOptions& global, Registered& out) {
  audit::register_builtin_audit_rows();  // before AuditArgs, whose default engines come from them
  auto args = std::make_shared<AuditArgs>();
  CLI::App* sub = app.add_subcommand(
      "audit", "Fidelity-phase precision audit: model vs exact (MPFR) vs IEEE, with per-phase checks (docs/audit.md)");
  sub->add_option(kOutNames, args->out,
                  "Directory for audit.csv, phases.csv, bits_vs_k.csv, error_hist.csv, audit.md (--output: alias)")
      ->required();
  sub->add_option("--seed", args->seed, "Replay a run bit for bit (default: from the clock, printed)");
  sub->add_option("--samples", args->samples, "MVMUL runs per source format and distribution")->capture_default_str();
  sub->add_option("--k", args->max_k, "Tiles accumulated per MVMUL run (inner dimension 32*K)")->capture_default_str();
  sub->add_option("--table-k", args->table_ks, "K values with full statistics (default: 1 and --k)")->delimiter(',');
  sub->add_option(kFormatNames, args->formats, "Source formats, comma-separated: bf16,fp16,tf32 (any case; --formats: alias)")
      ->delimiter(',')
      ->transform(CLI::IsMember({"bf16", "fp16", "tf32"}, CLI::ignore_case))
      ->capture_default_str();
  sub->add_option("--dists", args->dists, "Input distributions, comma-separated: uniform,normal,loguniform,cancel (any case)")
      ->delimiter(',')
      ->transform(CLI::IsMember({"uniform", "normal", "loguniform", "cancel"}, CLI::ignore_case))
      ->capture_default_str();
  sub->add_option("--engines", args->engines,
                  "Engines, comma-separated (any case): " + engine_names() + "; each adds its rows and its options below")
      ->delimiter(',')
      ->transform(CLI::Validator(
          [](std::string& v) {
            for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return find_engine(v) ? std::string() : fmt::format("'{}' is not an engine ({})", v, engine_names());
          },
          ""))
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads (0: one per hardware thread)")->capture_default_str();
  sub->add_flag("--plots", args->plots, "Also draw the PNG plots (scripts/plot_audit.py)");
  sub->add_option("--python", args->python, "Python with matplotlib, for --plots")->capture_default_str();
  sub->add_option("--plot-script", args->plot_script, "Plot script (default: the source tree's scripts/plot_audit.py)");
  sub->add_flag("--quiet", args->quiet, "No progress bar");
  add_engine_selection(sub, global);
  auto engine_options = std::make_shared<EngineOptionSet>(sub, [](const Engine& e) {
    std::vector<EngineOption> options = audit::shared_audit_options(e.name());
    if (const AuditTables* tables = e.audit_tables())
      for (EngineOption& o : tables->audit_options()) options.push_back(std::move(o));
    return options;
  });
  out.emplace_back(sub, [args, engine_options, &global] {
    // The audit puts the engines side by side (--engines); `tmu --engine NAME audit` is that engine's
    // rows alone.
    std::string variant;
    try {
      if (global.engine_given()) args->engines = {global.engine().name()};
      variant = global.variant_given();
    } catch (const CLI::ValidationError& e) {
      std::cerr << "tmu audit: " << e.what() << "\n";
      return kExitBadInput;
    }
    return cmd_audit(*args, global.variant(), engine_options->values(), variant);
  });
}

}  // namespace tmu::cli
