#include "tmu/audit/engines.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/tensix/fidelity.h"

namespace tmu::audit {

namespace {

using Kind = EngineOption::Kind;

Error bad(const char* option, const std::string& why) { return Error(ErrorKind::BadInput, fmt::format("{}: {}", option, why)); }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The values given for `key`, or the defaults.
std::vector<std::string> given(const OptionValues& values, const char* key, std::vector<std::string> defaults) {
  const auto* v = option_value(values, key);
  return v ? *v : defaults;
}

unsigned count(const OptionValues& values, const char* key, const char* option, unsigned fallback) {
  const auto* v = option_value(values, key);
  if (!v) return fallback;
  const std::string& t = v->front();
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) throw bad(option, fmt::format("'{}' is not a count", t));
  return n;
}

// The passes of a fidelity level given by name or by its last phase (lofi = 0 .. hifi4 = 3).
unsigned fidelity_passes(const std::string& text, const char* option) {
  if (const auto passes = tensix::fidelity_phases(text)) return *passes;
  throw bad(option, std::string(option) == "--phase"
                        ? fmt::format("'{}' is not a phase: 0..3 (a level's name: itself)", text)
                        : fmt::format("'{}' is not a fidelity: lofi|hifi2|hifi3|hifi4 (any case) or 0..3", text));
}

}  // namespace

std::vector<EngineOption> shared_audit_options(const std::string& engine) {
  if (engine == "tensix")
    return {
        {"--family,--ops", "Matrix Unit operations, comma-separated: mvmul,elwmul (any case; --ops: alias)", Kind::List, "mvmul,elwmul"},
        {"--fidelity", "Fidelity levels, comma-separated: lofi|hifi2|hifi3|hifi4 (any case; 0..3: the level ending at "
                       "that phase, hifi4 = 3)", Kind::List, "all four"},
        {"--phase", "Fidelity levels by their last phase, comma-separated: 0..3 (a level's name: itself)", Kind::List, ""},
        {"--dst", "Dst modes, comma-separated: 16,32", Kind::List, "16,32"},
        {"--elw-tiles", "32x32 ELWMUL tiles per source format and distribution", Kind::Value, "4"},
        {"--perturb", "Run a known golden mistake to see the phase check fail: none, skipN, repeatN, negateN, swap", Kind::Value,
         "none"},
    };
  if (engine == "amx")
    return {{"--amx-modes", "AMX matfp modes, comma-separated: bf16f32 (M2), f16f32, f32 (any case)", Kind::List,
             "bf16f32,f16f32,f32"}};
  if (engine == "pto")
    return {{"--pto-tiles", "32x32 tiles per PTO operation, type and operand set (the PTO rows and the cross-engine table)",
             Kind::Value, "4"},
            {"--pto-profile", "The profile the PTO rows run under: " + pto::profile_names(", ") +
                                  " (the cross-engine table stays on cpusim)",
             Kind::Value, "cpusim"}};
  return {};
}

std::vector<std::string> default_audit_engines() { return {"tensix", "amx"}; }

void select_audit_engines(AuditOptions& o, const std::vector<std::string>& selected, const OptionValues& values,
                          const std::string& variant) {
  o.arch = parse_arch(variant).value_or(Arch::Blackhole);
  const auto runs = [&](const char* engine) { return std::find(selected.begin(), selected.end(), engine) != selected.end(); };
  o.ops.clear();
  if (runs("tensix"))
    for (const std::string& n : given(values, "family", {"mvmul", "elwmul"})) {
      const std::string l = lower(n);
      if (l != "mvmul" && l != "elwmul") throw bad("--family", fmt::format("{} not in {{mvmul,elwmul}}", n));
      add_once(o.ops, l == "mvmul" ? Op::Mvmul : Op::Elwmul);
    }
  o.fidelities.clear();
  const bool by_phase = option_value(values, "phase") != nullptr;
  for (const std::string& f : given(values, "fidelity", by_phase ? std::vector<std::string>{} : std::vector<std::string>{"0", "1", "2", "3"}))
    add_once(o.fidelities, fidelity_passes(f, "--fidelity"));
  for (const std::string& p : given(values, "phase", {})) add_once(o.fidelities, fidelity_passes(p, "--phase"));
  std::sort(o.fidelities.begin(), o.fidelities.end());
  o.dst32_modes.clear();
  for (const std::string& d : given(values, "dst", {"16", "32"})) {
    if (d != "16" && d != "32") throw bad("--dst", fmt::format("{} not in {{16,32}}", d));
    add_once(o.dst32_modes, d == "32");
  }
  o.eltwise_tiles = count(values, "elw-tiles", "--elw-tiles", o.eltwise_tiles);
  const std::string perturb = given(values, "perturb", {"none"}).front();
  const auto p = parse_perturbation(perturb);
  if (!p) throw bad("--perturb", fmt::format("'{}' is not none, swap, skipN (N 1..3), repeatN or negateN (N 0..3)", perturb));
  o.perturb = *p;

  o.amx_modes.clear();
  if (runs("amx"))
    for (const std::string& n : given(values, "amx-modes", {"bf16f32", "f16f32", "f32"})) {
      const auto m = parse_amx_mode(n);
      if (!m) throw bad("--amx-modes", fmt::format("{} not in {{bf16f32,f16f32,f32}}", n));
      add_once(o.amx_modes, *m);
    }

  o.pto_types.clear();
  if (runs("pto")) o.pto_types = {pto::ElemType::F32, pto::ElemType::F16, pto::ElemType::BF16};
  o.pto_tiles = count(values, "pto-tiles", "--pto-tiles", o.pto_tiles);
  const std::string profile = given(values, "pto-profile", {"cpusim"}).front();
  const auto pp = pto::profile_from_name(lower(profile));
  if (!pp) throw bad("--pto-profile", fmt::format("{} not in {{{}}}", profile, pto::profile_names(",")));
  o.pto_profile = *pp;
}

std::string written_files(const AuditResults& r) {
  return std::string("audit.csv phases.csv bits_vs_k.csv error_hist.csv audit.md") +
         (r.pto_rows.empty() ? "" : " pto.csv cross_engines.csv");
}

bool runs_shared_tables(const AuditOptions& o) { return !o.ops.empty() || !o.amx_modes.empty() || !o.pto_types.empty(); }

}  // namespace tmu::audit
