// The Apple AMX rows of the precision audit (docs/audit.md, "The AMX rows"): the K-tile matmul on
// the matfp model in every mode asked for, beside the Matrix Unit's MVMUL.
#include <memory>

#include <fmt/format.h>

#include "tmu/audit/rows.h"

namespace tmu::audit {

namespace {

class AmxAuditRows final : public AuditRows {
 public:
  std::string name() const override { return "amx"; }

  std::vector<EngineOption> options() const override {
    return {{"--amx-modes", "AMX matfp modes, comma-separated: bf16f32 (M2), f16f32, f32 (any case)",
             EngineOption::Kind::List, "bf16f32,f16f32,f32"}};
  }

  bool runs_by_default() const override { return true; }

  void select(AuditOptions& o, bool selected, const OptionValues& values, const std::string&) const override {
    o.amx_modes.clear();
    if (!selected) return;
    for (const std::string& n : given_values(values, "amx-modes", {"bf16f32", "f16f32", "f32"})) {
      const auto m = parse_amx_mode(n);
      if (!m) throw bad_option("--amx-modes", fmt::format("{} not in {{bf16f32,f16f32,f32}}", n));
      add_once(o.amx_modes, *m);
    }
  }
};

}  // namespace

std::unique_ptr<AuditRows> make_amx_audit_rows() { return std::make_unique<AmxAuditRows>(); }

}  // namespace tmu::audit
