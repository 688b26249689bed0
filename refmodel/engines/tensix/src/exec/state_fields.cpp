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
auto pack_am_sel = [](TensixState& s, unsigned t, unsigned slot) -> AddrModPack& {
  return s.ThreadConfig[t].ADDR_MOD_PACK_SEC[slot & (kNumPackAddrMods - 1)];
};
auto unp0_sel = [](TensixState& s, unsigned, unsigned state_id) -> UnpackerConfig& { return s.Config[state_id & 1].THCON_SEC[0]; };
auto unp1_sel = [](TensixState& s, unsigned, unsigned state_id) -> UnpackerConfig& { return s.Config[state_id & 1].THCON_SEC[1]; };
auto pack_sel = [](TensixState& s, unsigned, unsigned state_id) -> PackerConfig& { return s.Config[state_id & 1].Packer; };
auto rwc_sel = [](TensixState& s, unsigned t, unsigned) -> Rwc& { return s.RWCs[t]; };
auto mu_sel = [](TensixState& s, unsigned, unsigned) -> MatrixUnitState& { return s.MatrixUnit; };
auto state_sel = [](TensixState& s, unsigned, unsigned) -> TensixState& { return s; };

#define TMU_FIELD(scope, sel, Type, member, width) \
  member_field(#member, FieldScope::scope, width, sel, &Type::member)
// A field of both unpackers: THCON_SEC0_<member> and THCON_SEC1_<member> (or UNP0_/UNP1_).
#define TMU_UNP_FIELD(prefix, member, width)                                                        \
  member_field(prefix "0_" #member, FieldScope::Config, width, unp0_sel, &UnpackerConfig::member), \
      member_field(prefix "1_" #member, FieldScope::Config, width, unp1_sel, &UnpackerConfig::member)
// ADDR_MOD_PACK_SEC has four slots; the AddrMod scope's slots 4..7 name slots 0..3 again.
#define TMU_PACK_AM_FIELD(member, width) member_field(#member, FieldScope::AddrMod, width, pack_am_sel, &AddrModPack::member)

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

      TMU_PACK_AM_FIELD(YsrcIncr, 4),
      TMU_PACK_AM_FIELD(YsrcCR, 1),
      TMU_PACK_AM_FIELD(YsrcClear, 1),
      TMU_PACK_AM_FIELD(ZsrcIncr, 1),
      TMU_PACK_AM_FIELD(ZsrcClear, 1),
      TMU_PACK_AM_FIELD(YdstIncr, 4),
      TMU_PACK_AM_FIELD(YdstCR, 1),
      TMU_PACK_AM_FIELD(YdstClear, 1),
      TMU_PACK_AM_FIELD(ZdstIncr, 1),
      TMU_PACK_AM_FIELD(ZdstClear, 1),

      TMU_FIELD(Global, mu_sel, MatrixUnitState, SrcABank, 1),
      TMU_FIELD(Global, mu_sel, MatrixUnitState, SrcBBank, 1),
      TMU_FIELD(Global, mu_sel, MatrixUnitState, LastSrcARow, 6),
      TMU_FIELD(Global, state_sel, TensixState, DbgFeatureDisableBit11, 1),
      TMU_FIELD(Global, state_sel, TensixState, DEST_ACCESS_CFG_zeroacc_absolute_tile_mode, 1),

      // The unpackers' and packer 0's configuration (after the fields above, so that their indices
      // in vector files stay as they were).
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_InDataFormat, 4),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_IsUncompressed, 1),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_NoBFPExpSection, 1),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_XDim, 16),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_YDim, 8),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_ZDim, 8),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_WDim, 8),
      TMU_UNP_FIELD("THCON_SEC", REG0_TileDescriptor_DigestSize, 8),
      TMU_UNP_FIELD("THCON_SEC", REG1_Unp_LF8_4b_exp, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Out_data_format, 4),
      TMU_UNP_FIELD("THCON_SEC", REG2_Force_shared_exp, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Tileize_mode, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Haloize_mode, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Unpack_If_Sel, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Unpack_if_sel_cntx0, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Disable_zero_compress_cntx0, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Ovrd_data_format, 1),
      TMU_UNP_FIELD("THCON_SEC", REG2_Shift_amount_cntx0, 4),
      TMU_UNP_FIELD("THCON_SEC", Unpack_Src_Reg_Set_Upd, 1),
      TMU_UNP_FIELD("THCON_SEC", REG3_Base_address, 17),
      TMU_UNP_FIELD("THCON_SEC", REG7_Offset_address, 17),
      TMU_UNP_FIELD("THCON_SEC", REG5_Tile_x_dim_cntx0, 16),
      TMU_UNP_FIELD("THCON_SEC", REG5_Dest_cntx0_address, 16),
      TMU_UNP_FIELD("UNP", ADDR_BASE_REG_1_Base, 18),
      TMU_UNP_FIELD("UNP", ADDR_CTRL_XY_REG_1_Ystride, 16),
      TMU_UNP_FIELD("UNP", ADDR_CTRL_ZW_REG_1_Zstride, 16),
      TMU_UNP_FIELD("UNP", ADDR_CTRL_ZW_REG_1_Wstride, 16),
      TMU_UNP_FIELD("UNP", ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_In_data_format, 4),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Out_data_format, 4),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_L1_Dest_addr, 17),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Exp_section_size, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Pack_L1_Acc, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Exp_threshold_en, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Exp_threshold, 8),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Sub_l1_tile_header_size, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, THCON_SEC0_REG1_Pac_LF8_4b_exp, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK_DEST_RD_CTRL_Read_32b_data, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK_DEST_RD_CTRL_Round_10b_mant, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK_DEST_RD_CTRL_Read_unsigned, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK_DEST_RD_CTRL_Read_int8, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_BASE_REG_0_Base, 18),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_XY_REG_0_Xstride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_ZW_REG_0_Zstride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_ZW_REG_0_Wstride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_BASE_REG_1_Base, 18),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_XY_REG_1_Ystride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_ZW_REG_1_Zstride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, PCK0_ADDR_CTRL_ZW_REG_1_Wstride, 16),
      TMU_FIELD(Config, pack_sel, PackerConfig, DEST_TARGET_REG_CFG_PACK_SEC0_Offset, 12),
      TMU_FIELD(Config, pack_sel, PackerConfig, ALU_ROUNDING_MODE_Packer_srnd_en, 1),
      TMU_FIELD(Config, pack_sel, PackerConfig, STACC_RELU_ApplyRelu, 2),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, SRCA_SET_Base, 2),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, SRCB_SET_Base, 2),
      TMU_FIELD(ThreadConfig, tcfg_sel, ThreadConfigRegs, SRCA_SET_SetOvrdWithAddr, 1),
  };
  return fields;
}

#undef TMU_FIELD
#undef TMU_UNP_FIELD
#undef TMU_PACK_AM_FIELD

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
