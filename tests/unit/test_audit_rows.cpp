// The registry of the engines' audit rows (tmu/audit/rows.h): the built-in engines' rows, their
// defaults and options as docs/audit.md gives them, selection through them, and the option helpers'
// refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tmu/amx/audit/amx.h"
#include "tmu/audit/rows.h"
#include "tmu/pto/audit/pto.h"
#include "tmu/tensix/audit/rows.h"

namespace tmu::audit {

std::unique_ptr<AuditRows> make_pto_audit_rows();  // the built-in PTO rows (tmu_pto_audit)

namespace {

std::vector<std::string> option_names(const std::vector<EngineOption>& options) {
  std::vector<std::string> names;
  for (const EngineOption& o : options) names.push_back(o.names);
  return names;
}

TEST(AuditRows, BuiltinRowsInEngineOrderWithTheirDefaults) {
  register_builtin_audit_rows();
  register_builtin_audit_rows();  // a second call registers nothing more
  std::vector<std::string> names;
  for (const auto& r : audit_rows()) names.push_back(r->name());
  EXPECT_EQ(names, (std::vector<std::string>{"tensix", "amx", "pto"}));
  // docs/audit.md: the Matrix Unit and AMX rows run by default, PTO's when asked for.
  EXPECT_EQ(default_audit_engines(), (std::vector<std::string>{"tensix", "amx"}));
  EXPECT_EQ(option_names(shared_audit_options("amx")), (std::vector<std::string>{"--amx-modes"}));
  EXPECT_EQ(option_names(shared_audit_options("pto")), (std::vector<std::string>{"--pto-tiles", "--pto-profile"}));
  EXPECT_EQ(option_names(shared_audit_options("tensix")).front(), "--family,--ops");
  EXPECT_TRUE(shared_audit_options("toy").empty());
  EXPECT_EQ(find_audit_rows("toy"), nullptr);
}

TEST(AuditRows, SelectionConfiguresOnlyTheChosenEnginesRows) {
  register_builtin_audit_rows();
  AuditOptions o;
  select_audit_engines(o, {"amx"}, {{"amx-modes", {"F32", "bf16f32", "f32"}}, {"dst", {"32"}}}, "");
  EXPECT_TRUE(matrix_unit_settings(o).ops.empty());
  ASSERT_NE(amx_config(o), nullptr);
  EXPECT_EQ(amx_config(o)->modes, (std::vector<AmxMode>{AmxMode::F32, AmxMode::Bf16F32}));  // a value given twice counts once
  EXPECT_EQ(pto_config(o), nullptr);
  EXPECT_EQ(o.dst32_modes, std::vector<bool>{true});  // read whether or not the Matrix Unit's rows run
  EXPECT_TRUE(runs_shared_tables(o));

  select_audit_engines(o, {"tensix", "pto"}, {{"family", {"ELWMUL"}}, {"pto-tiles", {"2"}}}, "wormhole");
  EXPECT_EQ(matrix_unit_settings(o).ops, std::vector<SeriesOp>{kElwmul});
  EXPECT_EQ(matrix_unit_settings(o).arch, Arch::Wormhole);
  EXPECT_EQ(amx_config(o), nullptr);
  ASSERT_NE(pto_config(o), nullptr);
  EXPECT_EQ(pto_config(o)->tiles, 2u);

  select_audit_engines(o, {"toy"}, {}, "");
  EXPECT_FALSE(runs_shared_tables(o));
}

TEST(AuditRows, BadValuesNameTheirOption) {
  register_builtin_audit_rows();
  AuditOptions o;
  auto message = [&](const std::vector<std::string>& engines, const OptionValues& values) {
    try {
      select_audit_engines(o, engines, values, "");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      return e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({"amx"}, {{"pto-tiles", {"4x"}}}), "--pto-tiles: '4x' is not a count");
  EXPECT_EQ(message({"amx"}, {{"pto-tiles", {""}}}), "--pto-tiles: '' is not a count");
  EXPECT_EQ(message({"amx"}, {{"amx-modes", {"tf32"}}}), "--amx-modes: tf32 not in {bf16f32,f16f32,f32}");
  EXPECT_EQ(message({"tensix"}, {{"family", {"matfp"}}}), "--family: matfp not in {mvmul,elwmul}");
  EXPECT_EQ(message({"pto"}, {{"dst", {"24"}}}), "--dst: 24 not in {16,32}");
}

// A later registration of the same name replaces the earlier one in its place.
TEST(AuditRows, RegistrationReplacesRowsOfTheSameName) {
  register_builtin_audit_rows();
  class Quiet final : public AuditRows {
   public:
    std::string name() const override { return "pto"; }
    std::vector<EngineOption> options() const override { return {}; }
    bool runs_by_default() const override { return false; }
    void select(AuditOptions&, bool, const OptionValues&, const std::string&) const override {}
    bool runs(const AuditOptions&) const override { return false; }
  };
  const size_t before = audit_rows().size();
  register_audit_rows(std::make_unique<Quiet>());
  EXPECT_EQ(audit_rows().size(), before);
  EXPECT_TRUE(shared_audit_options("pto").empty());
  EXPECT_EQ(audit_rows().back()->name(), "pto");
  register_audit_rows(make_pto_audit_rows());  // the built-in rows back, for the tests after this one
  EXPECT_EQ(shared_audit_options("pto").size(), 2u);
}

}  // namespace
}  // namespace tmu::audit
