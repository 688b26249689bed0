#include "tmu/tensix/state_fields.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace tmu::tensix {

namespace {

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A member of the struct selected by `Select` (ConfigRegs, ThreadConfigRegs, ...), exposed as an
// unsigned field of `width` bits.
template <typename Select, typename Member>
StateField member_field(const char* name, FieldScope scope, unsigned width, Select select, Member member) {
  return StateField{
      name, scope, width,
      [select, member](const TensixState& s, unsigned t, unsigned i) {
        return static_cast<uint32_t>(select(const_cast<TensixState&>(s), t, i).*member);
      },
      [select, member](TensixState& s, unsigned t, unsigned i, uint32_t v) {
        using T = std::remove_reference_t<decltype(select(s, t, i).*member)>;
        select(s, t, i).*member = static_cast<T>(v);
      }};
}

auto config_sel = [](TensixState& s, unsigned, unsigned state_id) -> ConfigRegs& { return s.Config[state_id & 1]; };
auto tcfg_sel = [](TensixState& s, unsigned t, unsigned) -> ThreadConfigRegs& { return s.ThreadConfig[t]; };
auto ab_sel = [](TensixState& s, unsigned t, unsigned slot) -> AddrModAB& {
  return s.ThreadConfig[t].ADDR_MOD_AB_SEC[slot & 7];
};
auto dst_sel = [](TensixState& s, unsigned t, unsigned slot) -> AddrModDst& {
  return s.ThreadConfig[t].ADDR_MOD_DST_SEC[slot & 7];
};
auto bias_sel = [](TensixState& s, unsigned t, unsigned slot) -> AddrModBias& {
  return s.ThreadConfig[t].ADDR_MOD_BIAS_SEC[slot & 7];
};
auto rwc_sel = [](TensixState& s, unsigned t, unsigned) -> Rwc& { return s.RWCs[t]; };
auto mu_sel = [](TensixState& s, unsigned, unsigned) -> MatrixUnitState& { return s.MatrixUnit; };
auto state_sel = [](TensixState& s, unsigned, unsigned) -> TensixState& { return s; };

#define TMU_FIELD(scope, sel, Type, member, width) \
  member_field(#member, FieldScope::scope, width, sel, &Type::member)

const std::vector<StateField>& all_fields() {
  static const std::vector<StateField> fields = {
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG_SrcA_val, 4),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG_SrcA_override, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG_SrcB_val, 4),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG_SrcB_override, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG_Dstacc_val, 4),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG_Dstacc_override, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG0_SrcA, 4),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG1_SrcB, 4),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_FORMAT_SPEC_REG2_Dstacc, 4),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_ACC_CTRL_Fp32_enabled, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_ACC_CTRL_SFPU_Fp32_enabled, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_ACC_CTRL_INT8_math_enabled, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_ACC_CTRL_Zero_Flag_disabled_src, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, ALU_ACC_CTRL_Zero_Flag_disabled_dst, 1),
      TMU_FIELD(Config, config_sel, ConfigRegs, DEST_REGW_BASE_Base, 16),

      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, CFG_STATE_ID_StateID, 1),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, DEST_TARGET_REG_CFG_MATH_Offset, 12),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, ADDR_MOD_SET_Base, 1),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, DISABLE_IMPLIED_SRCA_FMT_Base, 1),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, DISABLE_IMPLIED_SRCB_FMT_Base, 1),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, CLR_DVALID_SrcA_Disable, 1),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, CLR_DVALID_SrcB_Disable, 1),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, FIDELITY_BASE_Phase, 2),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, FP16A_FORCE_Enable, 1),

      TMU_FIELD(AddrMod, ab_sel, AddrModAB, SrcAIncr, 6),
      TMU_FIELD(AddrMod, ab_sel, AddrModAB, SrcACR, 1),
      TMU_FIELD(AddrMod, ab_sel, AddrModAB, SrcAClear, 1),
      TMU_FIELD(AddrMod, ab_sel, AddrModAB, SrcBIncr, 6),
      TMU_FIELD(AddrMod, ab_sel, AddrModAB, SrcBCR, 1),
      TMU_FIELD(AddrMod, ab_sel, AddrModAB, SrcBClear, 1),
      TMU_FIELD(AddrMod, dst_sel, AddrModDst, DestIncr, 10),
      TMU_FIELD(AddrMod, dst_sel, AddrModDst, DestCR, 1),
      TMU_FIELD(AddrMod, dst_sel, AddrModDst, DestClear, 1),
      TMU_FIELD(AddrMod, dst_sel, AddrModDst, DestCToCR, 1),
      TMU_FIELD(AddrMod, dst_sel, AddrModDst, FidelityIncr, 2),
      TMU_FIELD(AddrMod, dst_sel, AddrModDst, FidelityClear, 1),
      TMU_FIELD(AddrMod, bias_sel, AddrModBias, BiasIncr, 4),
      TMU_FIELD(AddrMod, bias_sel, AddrModBias, BiasClear, 1),

      TMU_FIELD(Rwc, rwc_sel, Rwc, Dst, 10),
      TMU_FIELD(Rwc, rwc_sel, Rwc, Dst_Cr, 10),
      TMU_FIELD(Rwc, rwc_sel, Rwc, SrcA, 6),
      TMU_FIELD(Rwc, rwc_sel, Rwc, SrcA_Cr, 6),
      TMU_FIELD(Rwc, rwc_sel, Rwc, SrcB, 6),
      TMU_FIELD(Rwc, rwc_sel, Rwc, SrcB_Cr, 6),
      TMU_FIELD(Rwc, rwc_sel, Rwc, FidelityPhase, 2),
      TMU_FIELD(Rwc, rwc_sel, Rwc, ExtraAddrModBit, 1),

      TMU_FIELD(Global, mu_sel, MatrixUnitState, SrcABank, 1),
      TMU_FIELD(Global, mu_sel, MatrixUnitState, SrcBBank, 1),
      TMU_FIELD(Global, mu_sel, MatrixUnitState, LastSrcARow, 6),
      TMU_FIELD(Global, state_sel, TensixState, DbgFeatureDisableBit11, 1),
      TMU_FIELD(Global, state_sel, TensixState, DEST_ACCESS_CFG_zeroacc_absolute_tile_mode, 1),
  };
  return fields;
}

#undef TMU_FIELD

}  // namespace

std::span<const StateField> state_fields(FieldScope scope) {
  static const auto by_scope = [] {
    std::array<std::vector<StateField>, 5> v;
    for (const StateField& f : all_fields()) v[static_cast<unsigned>(f.scope)].push_back(f);
    return v;
  }();
  return by_scope[static_cast<unsigned>(scope)];
}

const StateField* find_state_field(FieldScope scope, std::string_view name) {
  for (const StateField& f : state_fields(scope))
    if (iequal(f.name, name)) return &f;
  return nullptr;
}

}  // namespace tmu::tensix
