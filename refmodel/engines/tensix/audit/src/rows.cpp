// The Tensix Matrix Unit's rows of the precision audit (docs/audit.md): MVMUL and ELWMUL at every
// fidelity and Dst mode asked for, with their phase checks, and Tensix ELWADD in the cross-engine table.
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "tmu/audit/rows.h"
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
  std::string name() const override { return "tensix"; }

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
    };
  }

  bool runs_by_default() const override { return true; }

  // The fidelities, Dst modes, tiles and perturbation also shape the cross-engine table, so they
  // are read whether or not the Matrix Unit's own rows run. The rows run on the chosen variant when
  // it names a Tensix architecture, on Blackhole otherwise.
  void select(AuditOptions& o, bool selected, const OptionValues& values, const std::string& variant) const override {
    o.arch = parse_arch(variant).value_or(Arch::Blackhole);
    o.ops.clear();
    if (selected)
      for (const std::string& n : given_values(values, "family", {"mvmul", "elwmul"})) {
        const std::string l = lowercase(n);
        if (l != "mvmul" && l != "elwmul") throw bad_option("--family", fmt::format("{} not in {{mvmul,elwmul}}", n));
        add_once(o.ops, l == "mvmul" ? Op::Mvmul : Op::Elwmul);
      }
    o.fidelities.clear();
    const bool by_phase = option_value(values, "phase") != nullptr;
    for (const std::string& f :
         given_values(values, "fidelity", by_phase ? std::vector<std::string>{} : std::vector<std::string>{"0", "1", "2", "3"}))
      add_once(o.fidelities, fidelity_passes(f, "--fidelity"));
    for (const std::string& p : given_values(values, "phase", {})) add_once(o.fidelities, fidelity_passes(p, "--phase"));
    std::sort(o.fidelities.begin(), o.fidelities.end());
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
    o.perturb = *p;
  }
};

}  // namespace

std::unique_ptr<AuditRows> make_tensix_audit_rows() { return std::make_unique<TensixAuditRows>(); }

}  // namespace tmu::audit
