// The Tensix Matrix Unit's rows of the precision audit (tmu/tensix/audit/rows.h): their options,
// their units (one MVMUL run or one ELWMUL tile each) with the phase checks, and ELWADD's results for
// the cross-engine table.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "parts.h"
#include "tmu/audit/reference.h"
#include "tmu/tensix/fidelity.h"

namespace tmu::audit {

namespace {

using Kind = EngineOption::Kind;

// The passes of a fidelity level given by name or by its last phase (lofi = 0 .. hifi4 = 3).
unsigned fidelity_passes(const std::string& text, const char* option) {
  if (const auto passes = tensix::fidelity_phases(text)) return *passes;
  throw bad_option(option, std::string(option) == "--phase"
                               ? fmt::format("'{}' is not a phase: 0..3 (a level's name: itself)", text)
                               : fmt::format("'{}' is not a fidelity: lofi|hifi2|hifi3|hifi4 (any case) or 0..3", text));
}

class TensixAuditRows final : public AuditRows {
 public:
  std::string name() const override { return kTensixRowsName; }

  std::vector<EngineOption> options() const override {
    return {
        {"--family,--ops", "Matrix Unit operations, comma-separated: mvmul,elwmul (any case; --ops: alias)", Kind::List,
         "mvmul,elwmul"},
        {"--fidelity",
         "Fidelity levels, comma-separated: lofi|hifi2|hifi3|hifi4 (any case; 0..3: the level ending at "
         "that phase, hifi4 = 3)",
         Kind::List, "all four"},
        {"--phase", "Fidelity levels by their last phase, comma-separated: 0..3 (a level's name: itself)", Kind::List, ""},
        {"--dst", "Dst modes, comma-separated: 16,32", Kind::List, "16,32"},
        {"--elw-tiles", "32x32 ELWMUL tiles per source format and distribution", Kind::Value, "4"},
        {"--perturb", "Run a known golden mistake to see the phase check fail: none, skipN, repeatN, negateN, swap",
         Kind::Value, "none"},
        {"--packed", "L1 formats MVMUL's FP32 Dst result is also packed to, comma-separated: bf16,fp16,bfp8 (any "
         "case), or none", Kind::List, "bf16,fp16,bfp8"},
    };
  }

  bool runs_by_default() const override { return true; }

  // The fidelities, Dst modes, tiles and perturbation also shape the cross-engine table, so they
  // are read whether or not the Matrix Unit's own rows run. The rows run on the chosen variant when
  // it names a Tensix architecture, on Blackhole otherwise.
  void select(AuditOptions& o, bool selected, const OptionValues& values, const std::string& variant) const override {
    MatrixUnitSettings& mu = matrix_unit_settings(o);
    mu.arch = parse_arch(variant).value_or(Arch::Blackhole);
    mu.ops.clear();
    if (selected)
      for (const std::string& n : given_values(values, "family", {"mvmul", "elwmul"})) {
        const std::string l = lowercase(n);
        if (l != "mvmul" && l != "elwmul") throw bad_option("--family", fmt::format("{} not in {{mvmul,elwmul}}", n));
        add_once(mu.ops, l == "mvmul" ? kMvmul : kElwmul);
      }
    mu.fidelities.clear();
    const bool by_phase = option_value(values, "phase") != nullptr;
    for (const std::string& f :
         given_values(values, "fidelity", by_phase ? std::vector<std::string>{} : std::vector<std::string>{"0", "1", "2", "3"}))
      add_once(mu.fidelities, fidelity_passes(f, "--fidelity"));
    for (const std::string& p : given_values(values, "phase", {})) add_once(mu.fidelities, fidelity_passes(p, "--phase"));
    std::sort(mu.fidelities.begin(), mu.fidelities.end());
    o.dst32_modes.clear();
    for (const std::string& d : given_values(values, "dst", {"16", "32"})) {
      if (d != "16" && d != "32") throw bad_option("--dst", fmt::format("{} not in {{16,32}}", d));
      add_once(o.dst32_modes, d == "32");
    }
    o.eltwise_tiles = given_count(values, "elw-tiles", "--elw-tiles", o.eltwise_tiles);
    const std::string perturb = given_values(values, "perturb", {"none"}).front();
    const auto p = parse_perturbation(perturb);
    if (!p)
      throw bad_option("--perturb",
                       fmt::format("'{}' is not none, swap, skipN (N 1..3), repeatN or negateN (N 0..3)", perturb));
    mu.perturb = *p;
    mu.packed.clear();
    for (const std::string& name : given_values(values, "packed", {"bf16", "fp16", "bfp8"})) {
      if (lowercase(name) == "none") continue;
      const auto f = parse_l1_format(name);
      if (!f || std::find(std::begin(kPackedFormats), std::end(kPackedFormats), *f) == std::end(kPackedFormats))
        throw bad_option("--packed", fmt::format("'{}' is not bf16, fp16, bfp8 or none", name));
      add_once(mu.packed, *f);
    }
  }

  bool runs(const AuditOptions& o) const override { return !matrix_unit_settings(o).ops.empty(); }

  void validate(const AuditOptions& o) const override {
    auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
    const MatrixUnitSettings& mu = matrix_unit_settings(o);
    if (o.formats.empty() || mu.fidelities.empty() || o.dst32_modes.empty())
      fail("nothing to audit: an empty list of formats, fidelities or Dst modes");
    for (SeriesOp op : mu.ops)
      if (op != kMvmul && op != kElwmul) fail(fmt::format("{} is not an operation of the Matrix Unit", op.name));
    for (unsigned f : mu.fidelities)
      if (f < 1 || f > 4) fail(fmt::format("fidelity {} is not 1..4 phases", f));
    for (L1Format f : mu.packed) {
      packed_op(f);
      PackConfig pack;
      pack.arch = mu.arch;
      pack.to = f;
      try {
        plan_pack(pack);
      } catch (const Error& e) {
        fail(fmt::format("packing to L1 {} on {}: {}", l1_format_name(f), arch_name(mu.arch), e.what()));
      }
    }
  }

  // MVMUL's runs (the longest units) first, then ELWMUL's tiles.
  std::vector<SeriesUnit> units(const AuditOptions& o) const override {
    std::vector<SeriesUnit> units;
    for (unsigned kind : {0u, 1u}) {
      const SeriesOp op = kind == 0 ? kMvmul : kElwmul;
      const std::vector<SeriesOp>& ops = matrix_unit_settings(o).ops;
      if (std::find(ops.begin(), ops.end(), op) == ops.end()) continue;
      const unsigned count = kind == 0 ? o.samples : o.eltwise_tiles;
      for (SrcFormat f : o.formats)
        for (Distribution d : o.distributions)
          for (unsigned i = 0; i < count; ++i) units.push_back(SeriesUnit{this, kind, f, d, i});
    }
    return units;
  }

  std::string stream(const SeriesUnit& u) const override { return u.kind == 0 ? kMvmul.name : kElwmul.name; }

  void run_unit(const SeriesUnit& u, uint64_t seed, const AuditOptions& o, SeriesSink& sink) const override {
    if (u.kind == 0) run_mvmul(u, seed, o, sink);
    else run_elwmul(u, seed, o, sink);
  }

  void finish(const AuditOptions& o, AuditResults& r) const override {
    TensixAuditResults t;
    if (r.cross_table)
      t.elwadd_cross =
          run_elwadd_cross(o.seed, o.formats, o.distributions, matrix_unit_settings(o).fidelities, o.dst32_modes,
                           o.eltwise_tiles, matrix_unit_settings(o).arch);
    r.engines[name()] = std::move(t);
  }

  std::vector<KLine> k_lines(const AuditResults& r, Distribution d) const override { return tensix_k_lines(r, d); }
  std::vector<CrossLine> cross_lines(const AuditResults& r) const override { return tensix_cross_lines(r); }
  std::vector<CrossNote> cross_notes(const AuditResults& r) const override { return tensix_cross_notes(r); }
  void markdown(ReportPart part, const AuditResults& r, std::ostream& md) const override { tensix_markdown(part, r, md); }

 private:
  static RunConfig run_config(const AuditOptions& o, SrcFormat f, unsigned phases, bool dst32) {
    const MatrixUnitSettings& mu = matrix_unit_settings(o);
    return RunConfig{f, phases, dst32, mu.perturb, mu.arch};
  }

  static void run_mvmul(const SeriesUnit& u, uint64_t seed, const AuditOptions& o, SeriesSink& sink) {
    const MatmulCase c = make_matmul_case(u.format, u.dist, o.max_k, seed);
    const MatmulExact exact = exact_matmul(c);
    const std::vector<PhaseProducts> phase_products = exact_phase_products(c);
    for (bool dst32 : o.dst32_modes) {
      const OutFormat& out = output_format(u.format, dst32);
      auto key = [&](unsigned t, unsigned method) { return SeriesKey{kMvmul, t + 1, u.format, u.dist, dst32, method}; };
      const auto sequential = ieee_sequential_matmul(c, out);
      for (unsigned t = 0; t < c.tiles; ++t) {
        sink.record(key(t, kIeeeOnce), errors_of(exact.prefix[t], ieee_rounded_once(exact.prefix[t], out), out));
        sink.record(key(t, kIeeeSeq), errors_of(exact.prefix[t], sequential[t], out));
      }
      const MatrixUnitSettings& mu = matrix_unit_settings(o);
      if (dst32)
        for (L1Format to : mu.packed) {
          // A block format has no IEEE counterpart to round into once.
          if (l1_is_bfp(to)) continue;
          const OutFormat l1 = packed_format(to);
          for (unsigned t = 0; t < c.tiles; ++t)
            sink.record(SeriesKey{packed_op(to), t + 1, u.format, u.dist, dst32, kIeeeOnce},
                        errors_of(exact.prefix[t], ieee_rounded_once(exact.prefix[t], l1), l1));
        }
      for (unsigned phases : mu.fidelities) {
        const SequenceTrace trace = run_matmul_sequence(c, run_config(o, u.format, phases, dst32));
        for (unsigned t = 0; t < c.tiles; ++t) {
          const std::vector<double>& result = trace.steps[t].snapshots.back();
          sink.record(key(t, phases), errors_of(exact.prefix[t], result, out));
          if (dst32)
            for (L1Format to : mu.packed)
              sink.record(SeriesKey{packed_op(to), t + 1, u.format, u.dist, dst32, phases},
                          errors_of(exact.prefix[t], through_l1(result, mu.arch, to), packed_format(to)));
        }
        sink.check(CheckKey{kMvmul, u.format, u.dist, dst32, phases},
                   check_matmul_phases(c, exact, phase_products, trace, CheckConfig{u.format, phases, dst32}));
      }
    }
  }

  static void run_elwmul(const SeriesUnit& u, uint64_t seed, const AuditOptions& o, SeriesSink& sink) {
    const EltwiseCase c = make_eltwise_case(u.format, u.dist, seed);
    const EltwiseExact exact = exact_eltwise(c);
    const PhaseProducts phase_products = exact_phase_products(c);
    for (bool dst32 : o.dst32_modes) {
      const OutFormat& out = output_format(u.format, dst32);
      auto key = [&](unsigned method) { return SeriesKey{kElwmul, 1, u.format, u.dist, dst32, method}; };
      sink.record(key(kIeeeOnce), errors_of(exact.result, ieee_rounded_once(exact.result, out), out));
      sink.record(key(kIeeeSeq), errors_of(exact.result, ieee_sequential_eltwise(c, out), out));
      for (unsigned phases : matrix_unit_settings(o).fidelities) {
        const SequenceTrace trace = run_eltwise_sequence(c, run_config(o, u.format, phases, dst32));
        sink.record(key(phases), errors_of(exact.result, trace.result, out));
        sink.check(CheckKey{kElwmul, u.format, u.dist, dst32, phases},
                   check_eltwise_phases(c, phase_products, trace, CheckConfig{u.format, phases, dst32}));
      }
    }
  }
};

}  // namespace

std::string matrix_unit_method_name(SrcFormat, unsigned method) {
  return method >= 1 && method <= 4 ? fidelity_name(method) : method_name(method);
}

MatrixUnitSettings& matrix_unit_settings(AuditOptions& o) {
  std::any& settings = o.engines[kTensixRowsName];
  if (!settings.has_value()) settings = MatrixUnitSettings{};
  return std::any_cast<MatrixUnitSettings&>(settings);
}

const MatrixUnitSettings& matrix_unit_settings(const AuditOptions& o) {
  static const MatrixUnitSettings kDefaults;
  const auto it = o.engines.find(kTensixRowsName);
  return it == o.engines.end() ? kDefaults : std::any_cast<const MatrixUnitSettings&>(it->second);
}

const TensixAuditResults* tensix_results(const AuditResults& r) {
  const auto it = r.engines.find(kTensixRowsName);
  return it == r.engines.end() ? nullptr : std::any_cast<TensixAuditResults>(&it->second);
}

std::unique_ptr<AuditRows> make_tensix_audit_rows() { return std::make_unique<TensixAuditRows>(); }

}  // namespace tmu::audit
