// The PTO rows of the precision audit (docs/audit.md, "The PTO rows"): every float elementwise
// operation against MPFR, and PTO's TMUL and TADD in the cross-engine table. Not run by default.
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "tmu/pto/audit/pto.h"

namespace tmu::audit {

namespace {

using Kind = EngineOption::Kind;

class PtoAuditRows final : public AuditRows {
 public:
  std::string name() const override { return kPtoRowsName; }

  std::vector<EngineOption> options() const override {
    return {{"--pto-tiles",
             "32x32 tiles per PTO operation, type and operand set (the PTO rows and the cross-engine table)",
             Kind::Value, "4"},
            {"--pto-profile",
             "The profile the PTO rows run under: " + pto::profile_names(", ") + " (the cross-engine table stays on cpusim)",
             Kind::Value, "cpusim"}};
  }

  bool runs_by_default() const override { return false; }

  // The tiles and the profile are checked whether or not the rows run.
  void select(AuditOptions& o, bool selected, const OptionValues& values, const std::string&) const override {
    PtoAuditConfig c;
    c.types = {pto::ElemType::F32, pto::ElemType::F16, pto::ElemType::BF16};
    c.tiles = given_count(values, "pto-tiles", "--pto-tiles", c.tiles);
    const std::string profile = given_values(values, "pto-profile", {"cpusim"}).front();
    const auto pp = pto::profile_from_name(lowercase(profile));
    if (!pp) throw bad_option("--pto-profile", fmt::format("{} not in {{{}}}", profile, pto::profile_names(",")));
    c.profile = *pp;
    o.engines.erase(name());
    if (selected) o.engines[name()] = c;
  }

  bool runs(const AuditOptions& o) const override {
    const PtoAuditConfig* c = pto_config(o);
    return c && !c->types.empty();
  }

  void validate(const AuditOptions& o) const override {
    const PtoAuditConfig& c = *pto_config(o);
    if (c.tiles < 1 || c.tiles > 1000)
      throw std::invalid_argument(fmt::format("{} PTO tiles is outside 1..1000", c.tiles));
  }

  bool wants_cross_table(const AuditOptions&) const override { return true; }

  void finish(const AuditOptions& o, AuditResults& r) const override {
    const PtoAuditConfig& c = *pto_config(o);
    PtoAuditResults p;
    p.rows = run_pto_rows(o.seed, c.types, c.tiles, c.profile);
    p.cross = run_pto_cross(o.seed, o.formats, o.distributions, o.eltwise_tiles);
    r.engines[name()] = std::move(p);
  }

  std::vector<CrossLine> cross_lines(const AuditResults& r) const override { return pto_cross_lines(r); }

  std::vector<CrossNote> cross_notes(const AuditResults&) const override {
    return {{30, "PTO runs TMUL and TADD in the IEEE type that holds the source format exactly (TF32 -> f32)."}};
  }

  void markdown(ReportPart part, const AuditResults& r, std::ostream& md) const override {
    if (part == ReportPart::Tables) md << pto_markdown(r);
  }

  std::vector<std::pair<std::string, std::string>> files(const AuditResults& r) const override {
    const PtoAuditResults* p = pto_results(r);
    if (!p || p->rows.empty()) return {};
    return {{"pto.csv", pto_rows_csv(p->rows)}};
  }
};

}  // namespace

const PtoAuditConfig* pto_config(const AuditOptions& o) {
  const auto it = o.engines.find(kPtoRowsName);
  return it == o.engines.end() ? nullptr : std::any_cast<PtoAuditConfig>(&it->second);
}

const PtoAuditResults* pto_results(const AuditResults& r) {
  const auto it = r.engines.find(kPtoRowsName);
  return it == r.engines.end() ? nullptr : std::any_cast<PtoAuditResults>(&it->second);
}

std::unique_ptr<AuditRows> make_pto_audit_rows() { return std::make_unique<PtoAuditRows>(); }

}  // namespace tmu::audit
