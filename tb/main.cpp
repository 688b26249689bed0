// tmu_tb: the Verilator co-simulation of the RTL Matrix Unit against the refmodel scoreboard.
//
//   tmu_tb --test NAME --arch blackhole|wormhole --seed N --instrs N [--cov-json FILE] [--fst FILE]
//          [--fst-window CYCLE] [--wave-before N] [--wave-after N] [--replay-dir DIR] [--report FILE]
//          [--verbosity none|low|medium|high] [--quiet] [--list-tests] [--mutant K] [--no-wave]
//          [--rtl-plusarg NAME[=VALUE] ...]
//          [+SEED=N +ntb_random_seed=N +TEST=NAME +UVM_TESTNAME=NAME +INSTRS=N +UVM_VERBOSITY=V ...]
//   tmu_tb --merge-cov OUT IN.json [IN.json ...]     sum coverage files (scripts/regress.py uses it)
//
// Prints the seed first and a verdict line last ("tmu_tb: PASS|FAIL|ERROR ...", with the reason when it
// is not a pass); exit 0 pass, 1 mismatch (FAIL), 2 bad input or testbench error (ERROR); --report
// writes the same verdict and reason as JSON (tb/run/run_args.h decide_verdict).
// On a mismatch the scoreboard's report is printed and the run is repeated with tracing on to write
// an FST of the cycles around the failure.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

#include "Vtmu_tb_top.h"
#include "tmu/error.h"
#include "tmu/tensix/isa.h"
#include "tmu/rng.h"
#include "tmu/suggest.h"
#include "tmu/tensix/scoreboard.h"
#include "run/run_args.h"
#include "tmu_dpi_host.h"

namespace {

struct RunResult {
  bool done = false, failed = false, error = false;
  uint64_t cycles = 0;
  uint64_t retired = 0;
  double seconds = 0;
};

struct Trace {
  std::string path;
  uint64_t from = 0, to = 0;  // cycles [from, to] are dumped
};

// The default waveform window around a failure (--wave-before, --wave-after).
uint64_t kTraceBefore = 64, kTraceAfter = 8;

// One simulation of the test from reset to the verdict. The session must be open.
RunResult simulate(const tmu::tb::DriverOptions& opt, void* session, uint64_t max_cycles, unsigned mutant,
                   const std::optional<Trace>& trace, const std::string& vlt_coverage,
                   const std::vector<std::string>& rtl_plusargs) {
  auto context = std::make_unique<VerilatedContext>();
  // The RTL's own $test$plusargs and $value$plusargs read these (--rtl-plusarg), and nothing else.
  std::vector<const char*> plus{"tmu_tb"};
  for (const std::string& a : rtl_plusargs) plus.push_back(a.c_str());
  context->commandArgs(static_cast<int>(plus.size()), plus.data());
  context->traceEverOn(trace.has_value());
  auto top = std::make_unique<Vtmu_tb_top>(context.get(), "tb");
  std::unique_ptr<VerilatedFstC> fst;
  if (trace) {
    fst = std::make_unique<VerilatedFstC>();
    top->trace(fst.get(), 99);
    fst->open(trace->path.c_str());
  }
#ifdef TMU_TB_MUTSEL_WIDTH
  top->mutsel_i = mutant;
#else
  if (mutant) throw tmu::Error(tmu::ErrorKind::BadInput, "--mutant needs a model built with TMU_TB_MUTSEL_WIDTH");
#endif
  (void)session;
  top->arch_i = opt.arch == tmu::tensix::Arch::Wormhole ? 1 : 0;
  top->rst_ni = 0;
  top->clk_i = 0;
  RunResult r;
  const auto start = std::chrono::steady_clock::now();
  uint64_t time = 0;
  auto half_cycle = [&](uint8_t clk) {
    top->clk_i = clk;
    top->eval();
    const uint64_t cycle = top->cycle_o;
    if (fst && cycle >= trace->from && cycle <= trace->to) fst->dump(time);
    time += 5;
  };
  for (int i = 0; i < 4; ++i) {  // reset for two cycles
    half_cycle(1);
    half_cycle(0);
  }
  top->rst_ni = 1;
  for (uint64_t n = 0; n < max_cycles && !top->done_o; ++n) {
    half_cycle(1);
    half_cycle(0);
  }
  r.done = top->done_o;
  r.failed = top->failed_o || !top->done_o;
  r.error = top->error_o || !top->done_o;
  r.cycles = top->cycle_o;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  top->final();
  if (fst) fst->close();
#if VM_COVERAGE
  if (!vlt_coverage.empty()) context->coveragep()->write(vlt_coverage.c_str());
#else
  if (!vlt_coverage.empty()) throw tmu::Error(tmu::ErrorKind::BadInput, "--vlt-coverage needs a model built with TMU_TB_COVERAGE=ON");
#endif
  return r;
}

// A numeric option read by parse_unsigned's rules before CLI11 converts it: CLI11 alone would take
// "-5" for an unsigned and wrap it to 2^64 - 5.
template <class T>
CLI::Option* add_number(CLI::App& app, const std::string& name, T& target, const std::string& help,
                        uint64_t max = UINT64_MAX) {
  return app.add_option(name, target, help)->check(CLI::Validator(
      [max](std::string& text) { return tmu::tb::unsigned_refusal(text, max); }, "N"));
}

// The options given that change what the run does or finds, as a replay command repeats them; the
// test and seed are left as the placeholders {test} {seed} when `placeholders` is set (the
// scoreboard's per-mismatch replay template).
struct ReplayParts {
  std::string self, test, arch;
  uint64_t seed = 0, instrs = 0, max_cycles = 0, inject_fault = 0;
  unsigned mutant = 0;
  bool no_check = false;
  std::vector<std::string> rtl_plusargs;  // as given to the model: "+NAME" or "+NAME=VALUE"
};
std::string replay_command(const ReplayParts& p, bool placeholders) {
  std::string c = placeholders ? fmt::format("{} --test {{test}} --arch {} --seed {{seed}}", p.self, p.arch)
                               : fmt::format("{} --test {} --arch {} --seed {}", p.self, p.test, p.arch, p.seed);
  c += fmt::format(" --instrs {}", p.instrs);
  if (p.max_cycles) c += fmt::format(" --max-cycles {}", p.max_cycles);
  if (p.mutant) c += fmt::format(" --mutant {}", p.mutant);
  if (p.inject_fault) c += fmt::format(" --inject-fault {}", p.inject_fault);
  if (p.no_check) c += " --no-check";
  for (const std::string& a : p.rtl_plusargs) c += " --rtl-plusarg " + a.substr(1);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tmu_tb: co-simulation of the RTL Matrix Unit against the refmodel scoreboard"};
  tmu::tb::DriverOptions opt;
  std::string arch = "blackhole", cov_json, fst_path, replay_dir, vlt_coverage;
  std::optional<uint64_t> seed, fst_window;
  uint64_t max_cycles = 0;
  unsigned mutant = 0;
  bool quiet = false, list = false, no_wave = false;
  std::string report_path, verbosity_name = "medium";
  app.add_option("--test", opt.test, "stimulus: random or a directed test (--list-tests)")->capture_default_str();
  app.add_option("--arch", arch, "blackhole or wormhole")->check(CLI::IsMember({"blackhole", "wormhole", "bh", "wh"}))->capture_default_str();
  add_number(app, "--seed", seed, "replay a run bit for bit (default: from the clock, printed)");
  add_number(app, "--instrs", opt.instructions, "instructions of a random test")->capture_default_str();
  app.add_option("--cov-json", cov_json, "write the functional coverage as JSON");
  app.add_option("--fst", fst_path, "write an FST waveform (with --fst-window: around that cycle)");
  add_number(app, "--fst-window", fst_window, "trace the cycles before and just after this one");
  app.add_option("--replay-dir", replay_dir, "save failing instructions as replay programs and the waveform here "
                 "(default: the current directory)");
  add_number(app, "--max-cycles", max_cycles, "stop a run that has not finished (default: 200 per instruction)");
  add_number(app, "--mutant", mutant, "mutation testing: the mutant to enable (0 = none)", UINT32_MAX);
  add_number(app, "--inject-fault", opt.inject_fault_cycle,
                 "demonstration: the first Dst or GPR write retiring at or after this cycle reaches the scoreboard "
                 "with one bit flipped, as a faulty design's would (no rebuild; the report, waveform and replay "
                 "command are the real ones)");
  app.add_option("--vlt-coverage", vlt_coverage, "write Verilator line/toggle coverage (coverage builds)");
  app.add_flag("--quiet", quiet, "no coverage table (--verbosity low)");
  app.add_option("--verbosity", verbosity_name, "none (seed and verdict only), low (and the mismatch report), "
                 "medium (and the coverage table; default), high (and every missed bin); UVM_ names too");
  app.add_option("--report", report_path, "write the run's verdict as JSON (format tmu-tb-report 1)");
  add_number(app, "--wave-before", kTraceBefore, "waveform window: cycles traced before the failure (default 64)");
  add_number(app, "--wave-after", kTraceAfter, "waveform window: cycles traced after it (default 8)");
  app.add_flag("--no-wave", no_wave, "no automatic FST re-run after a failure (mutation runs only need the verdict)");
  std::vector<std::string> rtl_plusargs;
  app.add_option("--rtl-plusarg", rtl_plusargs, "NAME or NAME=VALUE: +NAME[=VALUE] for the RTL's own $test$plusargs "
                 "and $value$plusargs (repeatable; a copy of the RTL that reads one, as scripts/break-demo.sh's)");
  bool no_check = false;
  app.add_flag("--no-check", no_check, "drive the RTL without the scoreboard (a speed baseline; no verdict on results)");
  app.add_flag("--list-tests", list, "print the test names and exit");
  std::vector<std::string> merge_cov;
  app.add_option("--merge-cov", merge_cov, "OUT IN...: sum coverage JSON files bin by bin into OUT and exit")
      ->expected(2, 1 << 20);
  try {
    // Simulator-style plusargs become options; CLI11 takes the vector last argument first.
    std::vector<std::string> args = tmu::tb::translate_plusargs(std::vector<std::string>(argv + 1, argv + argc));
    std::reverse(args.begin(), args.end());
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const tmu::Error& e) {
    std::fprintf(stderr, "tmu_tb: %s\n", e.message().c_str());
    return 2;
  }
  const auto verbosity = tmu::tb::parse_verbosity(verbosity_name);
  if (!verbosity) {
    std::fprintf(stderr, "tmu_tb: --verbosity %s: none, low, medium or high (UVM_LOW etc. too)\n",
                 verbosity_name.c_str());
    return 2;
  }
  const bool show_coverage = !quiet && *verbosity >= tmu::tb::Verbosity::Medium;
  if (list) {
    for (const std::string& t : tmu::tb::stimulus_tests()) std::printf("%s\n", t.c_str());
    return 0;
  }
  if (!merge_cov.empty()) {
    try {
      tmu::tb::Coverage merged = tmu::tb::Coverage::read_json(merge_cov[1]);
      for (size_t i = 2; i < merge_cov.size(); ++i) merged.merge(tmu::tb::Coverage::read_json(merge_cov[i]));
      merged.write_json(merge_cov[0]);
      std::printf("tmu_tb: merged %zu coverage files into %s: %llu/%llu bins hit\n", merge_cov.size() - 1,
                  merge_cov[0].c_str(), static_cast<unsigned long long>(merged.hit_bins()),
                  static_cast<unsigned long long>(merged.total_bins()));
      return 0;
    } catch (const tmu::Error& e) {
      std::fprintf(stderr, "tmu_tb: --merge-cov: %s\n", e.what());
      return 2;
    }
  }
  const std::vector<std::string> tests = tmu::tb::stimulus_tests();
  if (std::find(tests.begin(), tests.end(), opt.test) == tests.end()) {
    const std::vector<std::string_view> names(tests.begin(), tests.end());
    std::fprintf(stderr, "tmu_tb: --test %s: no such test%s; tmu_tb --list-tests lists all %zu\n", opt.test.c_str(),
                 tmu::did_you_mean(opt.test, names).c_str(), tests.size());
    return 2;
  }
  opt.arch = *tmu::tensix::parse_arch(arch);
  opt.check = !no_check;
  opt.seed = seed ? *seed : tmu::clock_seed();
  ReplayParts parts{argv[0], opt.test, tmu::tensix::arch_name(opt.arch), opt.seed, opt.instructions, max_cycles,
                    opt.inject_fault_cycle, mutant, no_check, {}};
  for (const std::string& a : rtl_plusargs) {
    if (a.empty() || a[0] == '+' || a[0] == '=') {
      std::fprintf(stderr, "tmu_tb: --rtl-plusarg '%s': give NAME or NAME=VALUE, without the '+'\n", a.c_str());
      return 2;
    }
    parts.rtl_plusargs.push_back("+" + a);
  }
  // The default allowance, saturating: --instrs may be as large as a uint64_t.
  if (max_cycles == 0)
    max_cycles = opt.instructions > (UINT64_MAX - 200000) / 200 ? UINT64_MAX : 200 * opt.instructions + 200000;

  tmu::tb::RunReport report;
  report.test = opt.test;
  report.arch = tmu::tensix::arch_name(opt.arch);
  report.seed = opt.seed;
  report.instrs = opt.instructions;
  report.replay = replay_command(parts, false);
  // The whole command, not the seed alone: the seed replays only with the same test, arch and length.
  std::printf("tmu_tb: seed %llu (replay: %s)\n", static_cast<unsigned long long>(opt.seed), report.replay.c_str());
  std::fflush(stdout);
  // The JSON verdict goes out with every exit after the seed is known; a file it cannot write is bad input.
  const auto finish = [&](int status) {
    report.exit_status = status;
    if (report_path.empty()) return status;
    try {
      tmu::tb::write_report(report_path, report);
    } catch (const tmu::Error& e) {
      std::fprintf(stderr, "tmu_tb: %s\n", e.message().c_str());
      return 2;
    }
    return status;
  };
  const std::string replay = replay_command(parts, true);
  try {
    // A replay program is a whole machine state, too long to print: it goes beside the waveform.
    if (replay_dir.empty()) replay_dir = ".";
    // The tmu of this build (<build>/tmu beside <build>/tb/tmu_tb) need not be on PATH.
    const std::filesystem::path sibling = std::filesystem::path(argv[0]).parent_path().parent_path() / "tmu";
    void* session = tmu_tb_open(opt, replay + " --fst-window {cycle}", replay_dir,
                                std::filesystem::exists(sibling) ? sibling.string() : "tmu");
    tmu::tb::Driver* driver = tmu_tb_driver(session);
    std::optional<Trace> trace;
    if (!fst_path.empty())
      trace = Trace{fst_path, fst_window ? (*fst_window > kTraceBefore ? *fst_window - kTraceBefore : 0) : 0,
                    fst_window ? *fst_window + kTraceAfter : ~uint64_t{0}};
    const RunResult r = simulate(opt, session, max_cycles, mutant, trace, vlt_coverage, parts.rtl_plusargs);
    const tmu::tensix::Scoreboard& sb = driver->scoreboard();
    tmu::tb::RunFacts facts;
    facts.checked = opt.check;
    facts.finished = r.done;
    facts.testbench_error = r.done && r.error;
    facts.design_failed = r.failed;
    // Without the scoreboard the model never ran, so its final comparison says nothing.
    facts.mismatches = opt.check ? sb.mismatch_count() : 0;
    // A stall in a test built without Dst hazards is a timing failure the result compare cannot see.
    facts.forbidden_stalls = opt.check ? driver->forbidden_stalls() : 0;
    facts.first_failure_cycle = facts.mismatches         ? sb.mismatches().front().cycle
                                : facts.forbidden_stalls ? driver->first_forbidden_stall_cycle()
                                                         : r.cycles;
    facts.max_cycles = max_cycles;
    facts.cycles = r.cycles;
    if (facts.testbench_error) facts.error_text = tmu_tb_last_error(session);
    const tmu::tb::Verdict verdict = tmu::tb::decide_verdict(facts);
    if (facts.mismatches && *verbosity >= tmu::tb::Verbosity::Low) std::printf("%s\n", sb.report_text().c_str());
    if (show_coverage)
      std::printf("%s", driver->coverage().text_report(*verbosity == tmu::tb::Verbosity::High ? 1u << 20 : 8).c_str());
    if (!cov_json.empty()) driver->coverage().write_json(cov_json);
    if (facts.forbidden_stalls)
      std::printf("tmu_tb: %llu Dst hazard stall cycle(s) in a test without Dst hazards; the first held %s\n",
                  static_cast<unsigned long long>(facts.forbidden_stalls), driver->first_forbidden_stall().c_str());
    // instrs is what was asked; issued and retired are how far the run got (a first mismatch ends it).
    std::printf("tmu_tb: %s test=%s arch=%s seed=%llu instrs=%llu issued=%llu retired=%llu cycles=%llu "
                "mismatches=%llu wall=%.2fs (%.0f instr/s)%s%s\n",
                verdict.word == "DONE" ? "DONE (unchecked)" : verdict.word.c_str(), opt.test.c_str(),
                tmu::tensix::arch_name(opt.arch), static_cast<unsigned long long>(opt.seed),
                static_cast<unsigned long long>(opt.instructions), static_cast<unsigned long long>(driver->issued()),
                static_cast<unsigned long long>(driver->retired()), static_cast<unsigned long long>(r.cycles),
                static_cast<unsigned long long>(facts.mismatches), r.seconds,
                r.seconds > 0 ? static_cast<double>(driver->retired()) / r.seconds : 0.0,
                verdict.reason.empty() ? "" : ": ", verdict.reason.c_str());
    report.verdict = verdict.word;
    report.reason = verdict.reason;
    report.issued = driver->issued();
    report.retired = driver->retired();
    report.cycles = r.cycles;
    report.mismatches = facts.mismatches;
    report.forbidden_stalls = facts.forbidden_stalls;
    report.wall_seconds = r.seconds;
    const bool pass = verdict.exit_status == 0;
    if (!pass) report.first_failure_cycle = facts.first_failure_cycle;
    tmu_tb_close(session);
    if (!pass && fst_path.empty() && !no_wave) {
      // Run again, deterministically, with tracing around the failure.
      const uint64_t fail_cycle = facts.first_failure_cycle;
      const std::string out = fmt::format("{}/tmu_tb_{}_{}_seed{}.fst", replay_dir,
                                          opt.test, tmu::tensix::arch_name(opt.arch), opt.seed);
      void* again = tmu_tb_open(opt, replay, "");
      simulate(opt, again, r.cycles + 2, mutant,
               Trace{out, fail_cycle > kTraceBefore ? fail_cycle - kTraceBefore : 0, fail_cycle + kTraceAfter}, "",
               parts.rtl_plusargs);
      tmu_tb_close(again);
      report.waveform = out;
      std::printf("tmu_tb: waveform of cycles %llu..%llu written to %s\n",
                  static_cast<unsigned long long>(fail_cycle > kTraceBefore ? fail_cycle - kTraceBefore : 0),
                  static_cast<unsigned long long>(fail_cycle + kTraceAfter), out.c_str());
    }
    return finish(verdict.exit_status);
  } catch (const tmu::Error& e) {
    std::fprintf(stderr, "tmu_tb: %s\n", e.what());
    std::printf("tmu_tb: ERROR test=%s arch=%s seed=%llu: %s\n", opt.test.c_str(), tmu::tensix::arch_name(opt.arch),
                static_cast<unsigned long long>(opt.seed), e.what());
    report.verdict = "ERROR";
    report.reason = e.what();
    return finish(2);
  }
}
