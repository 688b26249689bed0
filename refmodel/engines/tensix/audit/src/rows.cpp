// The Tensix Matrix Unit's rows of the precision audit (docs/audit.md): MVMUL and ELWMUL at every
// fidelity and Dst mode asked for, with their phase checks (run by the audit's core, audit.h); their
// lines of the bits-versus-K table, and ELWMUL's and ELWADD's of the cross-engine table.
#include <algorithm>
#include <cstdint>
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

// No ELWADD lane of this Dst mode changed with the fidelity setting.
bool elwadd_fidelity_blind(const AuditResults& r, bool dst32) {
  for (const ElwaddCross& e : r.elwadd_cross)
    if (e.dst32 == dst32 && e.lanes_unlike_first != 0) return false;
  return true;
}

std::string elwadd_fidelity_span(const AuditOptions& o) {
  if (o.fidelities.size() == 1) return method_name(o.fidelities.front());
  return fmt::format("{} to {}, same results", method_name(o.fidelities.front()), method_name(o.fidelities.back()));
}

// "k of n lane results": how many of the lanes run above the first fidelity differ from it.
std::string elwadd_fidelity_note(const AuditResults& r) {
  if (r.options.fidelities.size() == 1)
    return fmt::format("Tensix ELWADD runs the LLK's ELWADD MOP (Dst written, not read), configured for {} only.",
                       method_name(r.options.fidelities.front()));
  uint64_t lanes = 0, unlike = 0;
  for (const ElwaddCross& e : r.elwadd_cross)
    if (e.phases != r.options.fidelities.front()) {
      lanes += e.stats.count;
      unlike += e.lanes_unlike_first;
    }
  return fmt::format(
      "Tensix ELWADD runs the LLK's ELWADD MOP (Dst written, not read), configured for each fidelity asked for; "
      "{} of {} lane results differ from those at {}.",
      unlike, lanes, method_name(r.options.fidelities.front()));
}

std::string dst_result(SrcFormat f, bool dst32) { return dst32 ? "FP32 Dst" : fmt::format("{} Dst", info(f).dst16.name); }
const char* dst_row(bool dst32) { return dst32 ? "FP32 Dst" : "16-bit Dst (FP16 for FP16, else BF16)"; }

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
        add_once(o.ops, l == "mvmul" ? kMvmul : kElwmul);
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

  bool runs(const AuditOptions& o) const override { return !o.ops.empty(); }

  // MVMUL at every fidelity, with an FP32 Dst when one was run (16-bit otherwise).
  std::vector<KLine> k_lines(const AuditResults& r, Distribution d) const override {
    const AuditOptions& o = r.options;
    std::vector<KLine> lines;
    if (std::find(o.ops.begin(), o.ops.end(), kMvmul) == o.ops.end()) return lines;
    const bool dst32 = std::find(o.dst32_modes.begin(), o.dst32_modes.end(), true) != o.dst32_modes.end();
    for (SrcFormat f : o.formats)
      for (unsigned phases : o.fidelities)
        lines.push_back(KLine{static_cast<int>(phases), "Tensix MVMUL", info(f).name, output_format(f, dst32).name,
                              fidelity_name(phases), SeriesKey{kMvmul, 1, f, d, dst32, phases}});
    return lines;
  }

  // ELWMUL by Dst mode and fidelity, then ELWADD; ELWADD's fidelities share one table row per Dst
  // mode when they gave the same results on every lane (the CSV keeps a line per fidelity).
  std::vector<CrossLine> cross_lines(const AuditResults& r) const override {
    const AuditOptions& o = r.options;
    std::vector<CrossLine> out;
    for (Distribution d : o.distributions)
      for (SrcFormat f : o.formats) {
        for (bool dst32 : o.dst32_modes)
          for (unsigned phases : o.fidelities) {
            const auto it = r.stats.find(SeriesKey{kElwmul, 1, f, d, dst32, phases});
            if (it == r.stats.end()) continue;
            out.push_back(CrossLine{"Tensix", "ELWMUL", method_name(phases), dst_result(f, dst32), f, d, it->second,
                                    fmt::format("Tensix | ELWMUL | {} | {}", method_name(phases), dst_row(dst32)),
                                    (dst32 ? 10 : 0) + static_cast<int>(phases)});
          }
        for (const ElwaddCross& e : r.elwadd_cross) {
          if (e.format != f || e.dist != d) continue;
          const bool one_row = elwadd_fidelity_blind(r, e.dst32);
          const std::string method = one_row ? elwadd_fidelity_span(o) : method_name(e.phases);
          out.push_back(CrossLine{"Tensix", "ELWADD", method_name(e.phases), dst_result(f, e.dst32), f, d, e.stats,
                                  fmt::format("Tensix | ELWADD | {} | {}", method, dst_row(e.dst32)),
                                  15 + (e.dst32 ? 5 : 0) + (one_row ? 0 : static_cast<int>(e.phases))});
        }
      }
    return out;
  }

  // The operands are ELWMUL's; the ELWADD sentence closes the note.
  std::vector<CrossNote> cross_notes(const AuditResults& r) const override {
    std::vector<CrossNote> notes{
        {0, "The ELWMUL operands of each source format (the same streams), exact result from MPFR. Cells: effective "
            "bits, median / 99th percentile, and the largest error in ULPs of the result format."}};
    if (!r.elwadd_cross.empty()) notes.push_back({100, elwadd_fidelity_note(r)});
    return notes;
  }
};

}  // namespace

std::unique_ptr<AuditRows> make_tensix_audit_rows() { return std::make_unique<TensixAuditRows>(); }

}  // namespace tmu::audit
