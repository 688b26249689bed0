// tmu audit: the fidelity-phase precision audit (docs/audit.md). Writes audit.csv, phases.csv,
// bits_vs_k.csv, error_hist.csv and audit.md into --out; --plots also draws the PNGs with
// scripts/plot_audit.py. Exit status 3 when a phase check fails (the sequence or the model adds
// something other than the ISA's slice products).
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "commands.h"
#include "tmu/audit/audit.h"

namespace tmu::cli {

namespace {

inline constexpr int kExitPhaseCheckFailed = 3;

struct AuditArgs {
  std::string out;
  uint64_t seed = 1;
  unsigned samples = 2, max_k = 16, eltwise_tiles = 4, threads = 0;
  std::vector<unsigned> table_ks;
  std::vector<std::string> formats{"bf16", "fp16", "tf32"};
  std::vector<std::string> dists{"uniform", "normal", "loguniform", "cancel"};
  std::vector<std::string> ops{"mvmul", "elwmul"};
  std::vector<std::string> fidelities{"lofi", "hifi2", "hifi3", "hifi4"};
  std::vector<unsigned> dst_bits{16, 32};
  std::string perturb = "none";
  bool plots = false, quiet = false;
  std::string python = "/usr/bin/python3";
  std::string plot_script;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

template <typename T, typename Parse>
std::vector<T> parse_list(const std::vector<std::string>& names, const char* what, Parse parse) {
  std::vector<T> out;
  for (const std::string& n : names) {
    const std::optional<T> v = parse(n);
    if (!v) throw CLI::ValidationError(what, fmt::format("unknown value '{}'", n));
    if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
  }
  return out;
}

std::optional<unsigned> parse_fidelity(const std::string& name) {
  const std::string n = lower(name);
  const char* names[] = {"lofi", "hifi2", "hifi3", "hifi4"};
  for (unsigned i = 0; i < 4; ++i)
    if (n == names[i] || n == std::to_string(i + 1)) return i + 1;
  return std::nullopt;
}

audit::AuditOptions to_options(const AuditArgs& a, Arch arch) {
  audit::AuditOptions o;
  o.formats = parse_list<audit::SrcFormat>(a.formats, "--formats", audit::parse_src_format);
  o.distributions = parse_list<audit::Distribution>(a.dists, "--dists", audit::parse_distribution);
  o.ops = parse_list<audit::Op>(a.ops, "--ops", [](const std::string& n) -> std::optional<audit::Op> {
    if (lower(n) == "mvmul") return audit::Op::Mvmul;
    if (lower(n) == "elwmul") return audit::Op::Elwmul;
    return std::nullopt;
  });
  o.fidelities = parse_list<unsigned>(a.fidelities, "--fidelity", parse_fidelity);
  std::sort(o.fidelities.begin(), o.fidelities.end());
  o.dst32_modes.clear();
  for (unsigned b : a.dst_bits) {
    if (b != 16 && b != 32) throw CLI::ValidationError("--dst", fmt::format("{} is not 16 or 32", b));
    if (std::find(o.dst32_modes.begin(), o.dst32_modes.end(), b == 32) == o.dst32_modes.end())
      o.dst32_modes.push_back(b == 32);
  }
  const auto perturb = audit::parse_perturbation(a.perturb);
  if (!perturb)
    throw CLI::ValidationError("--perturb", fmt::format("'{}' is not none, swap, skipN, repeatN or negateN", a.perturb));
  o.perturb = *perturb;
  o.max_k = a.max_k;
  o.table_ks = a.table_ks.empty() ? std::vector<unsigned>{1, a.max_k} : a.table_ks;
  o.samples = a.samples;
  o.eltwise_tiles = a.eltwise_tiles;
  o.seed = a.seed;
  o.threads = a.threads;
  o.arch = arch;
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

int cmd_audit(const AuditArgs& a, Arch arch) {
  audit::AuditOptions options;
  try {
    options = to_options(a, arch);
  } catch (const CLI::ValidationError& e) {
    std::cerr << "tmu audit: " << e.what() << "\n";
    return kExitBadInput;
  }
  const ProgressBar bar(!a.quiet);
  options.progress = [&bar](size_t done, size_t total) { bar(done, total); };
  std::cout << fmt::format("tmu audit: seed {} (replay with --seed {})\n", options.seed, options.seed) << std::flush;
  audit::AuditResults results;
  try {
    results = audit::run_audit(options);
  } catch (const std::invalid_argument& e) {
    std::cerr << "tmu audit: " << e.what() << "\n";
    return kExitBadInput;
  }
  audit::write_audit_outputs(results, a.out);
  std::cout << fmt::format("tmu audit: {:.1f} s; wrote audit.csv phases.csv bits_vs_k.csv error_hist.csv audit.md to {}\n",
                           results.seconds, a.out);
  std::cout.flush();  // before the plot script writes to the same stream
  int status = 0;
  if (a.plots) status = run_plots(a);
  if (!results.all_phase_checks_passed()) {
    std::cout << "tmu audit: phase checks FAILED (see phases.csv)\n";
    return kExitPhaseCheckFailed;
  }
  std::cout << "tmu audit: every phase check passed\n";
  return status;
}

}  // namespace

void add_audit_commands(CLI::App& app, const GlobalOptions& global, Registered& out) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* sub = app.add_subcommand(
      "audit", "Fidelity-phase precision audit: model vs exact (MPFR) vs IEEE, with per-phase checks (docs/audit.md)");
  sub->add_option("--out", args->out, "Directory for audit.csv, phases.csv, bits_vs_k.csv, error_hist.csv, audit.md")
      ->required();
  sub->add_option("--seed", args->seed, "Seed; the same seed replays bit-identically")->capture_default_str();
  sub->add_option("--samples", args->samples, "MVMUL runs per source format and distribution")->capture_default_str();
  sub->add_option("--k", args->max_k, "Tiles accumulated per MVMUL run (inner dimension 32*K)")->capture_default_str();
  sub->add_option("--table-k", args->table_ks, "K values with full statistics (default: 1 and --k)")->delimiter(',');
  sub->add_option("--elw-tiles", args->eltwise_tiles, "32x32 ELWMUL tiles per source format and distribution")
      ->capture_default_str();
  sub->add_option("--formats", args->formats, "Source formats: bf16,fp16,tf32")->delimiter(',')->capture_default_str();
  sub->add_option("--dists", args->dists, "Input distributions: uniform,normal,loguniform,cancel")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--ops", args->ops, "Operations: mvmul,elwmul")->delimiter(',')->capture_default_str();
  sub->add_option("--fidelity", args->fidelities, "Fidelity levels: lofi,hifi2,hifi3,hifi4 (or 1..4)")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--dst", args->dst_bits, "Dst modes: 16,32")->delimiter(',')->capture_default_str();
  sub->add_option("--perturb", args->perturb,
                  "Run a known golden mistake to see the phase check fail: none, skipN, repeatN, negateN, swap")
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads (0: one per hardware thread)")->capture_default_str();
  sub->add_flag("--plots", args->plots, "Also draw the PNG plots (scripts/plot_audit.py)");
  sub->add_option("--python", args->python, "Python with matplotlib, for --plots")->capture_default_str();
  sub->add_option("--plot-script", args->plot_script, "Plot script (default: the source tree's scripts/plot_audit.py)");
  sub->add_flag("--quiet", args->quiet, "No progress bar");
  out.emplace_back(sub, [args, &global] { return cmd_audit(*args, global.arch()); });
}

}  // namespace tmu::cli
