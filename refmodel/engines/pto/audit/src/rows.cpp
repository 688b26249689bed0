// The PTO rows of the precision audit (docs/audit.md, "The PTO rows"): every float elementwise
// operation against MPFR, and PTO's TMUL and TADD in the cross-engine table. Not run by default.
#include <memory>

#include <fmt/format.h>

#include "tmu/audit/rows.h"

namespace tmu::audit {

namespace {

using Kind = EngineOption::Kind;

class PtoAuditRows final : public AuditRows {
 public:
  std::string name() const override { return "pto"; }

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
    o.pto_types.clear();
    if (selected) o.pto_types = {pto::ElemType::F32, pto::ElemType::F16, pto::ElemType::BF16};
    o.pto_tiles = given_count(values, "pto-tiles", "--pto-tiles", o.pto_tiles);
    const std::string profile = given_values(values, "pto-profile", {"cpusim"}).front();
    const auto pp = pto::profile_from_name(lowercase(profile));
    if (!pp) throw bad_option("--pto-profile", fmt::format("{} not in {{{}}}", profile, pto::profile_names(",")));
    o.pto_profile = *pp;
  }
};

}  // namespace

std::unique_ptr<AuditRows> make_pto_audit_rows() { return std::make_unique<PtoAuditRows>(); }

}  // namespace tmu::audit
