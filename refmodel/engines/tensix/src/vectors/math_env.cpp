// The configuration every arithmetic Matrix Unit instruction reads, set up and listed in one place
// so that the MVMUL/ELW/GMPOOL generators agree on what "only what it reads" is.
#include <fmt/format.h>

#include "gen.h"

namespace tmu::tensix::vectors::detail {

MathEnv level1_env(unsigned phase) {
  MathEnv e;
  e.phase_rwc = phase & 3;
  e.rwc.FidelityPhase = static_cast<uint8_t>(phase & 3);
  return e;
}

MathEnv random_env(Rng& rng, Arch arch, Op op, unsigned phase) {
  MathEnv e;
  e.thread = rng.below(kNumThreads);
  e.state_id = rng.bits(1);
  e.srca_bank = rng.bits(1);
  e.srcb_bank = rng.bits(1);
  e.phase_base = rng.bits(2);
  e.phase_rwc = (phase - e.phase_base) & 3;
  const FieldSpec* dst_row = find_by_op(arch, op)->find_field(Field::DstRow);
  e.dst_row_field = rng.below((dst_row ? dst_row->max : 0) + 1);
  e.dst_offset = rng.chance(1, 2) ? 0 : rng.bits(12);
  e.regw_base = rng.chance(1, 2) ? 0 : rng.bits(16);
  e.rwc.SrcA = static_cast<uint8_t>(rng.bits(6));
  e.rwc.SrcA_Cr = static_cast<uint8_t>(rng.bits(6));
  e.rwc.SrcB = static_cast<uint8_t>(rng.bits(6));
  e.rwc.SrcB_Cr = static_cast<uint8_t>(rng.bits(6));
  e.rwc.Dst = static_cast<uint16_t>(rng.bits(10));
  e.rwc.Dst_Cr = static_cast<uint16_t>(rng.bits(10));
  e.rwc.FidelityPhase = static_cast<uint8_t>(e.phase_rwc);
  // Blackhole refuses ApplyAddrMod with ExtraAddrModBit set (an undocumented slot index).
  e.rwc.ExtraAddrModBit = arch == Arch::Wormhole ? static_cast<uint8_t>(rng.bits(1)) : 0;
  const FieldSpec* am = find_by_op(arch, op)->find_field(Field::AddrMod);
  e.addr_mod = am ? rng.below(am->max + 1) : 0;
  e.addr_mod_set_base = arch == Arch::Wormhole && rng.chance(1, 2);
  e.ab = AddrModAB{static_cast<uint8_t>(rng.bits(6)), rng.chance(1, 4), rng.chance(1, 8),
                   static_cast<uint8_t>(rng.bits(6)), rng.chance(1, 4), rng.chance(1, 8)};
  e.dst = AddrModDst{static_cast<uint16_t>(rng.bits(10)), rng.chance(1, 4), rng.chance(1, 8), rng.chance(1, 8),
                     static_cast<uint8_t>(rng.bits(2)), rng.chance(1, 8)};
  e.bias = AddrModBias{static_cast<uint8_t>(rng.bits(4)), rng.chance(1, 4)};
  const bool has_flips = find_by_op(arch, op)->find_field(Field::FlipSrcA) != nullptr;
  if (has_flips) {
    e.flip_a = rng.chance(1, 4);
    e.flip_b = rng.chance(1, 4);
    e.clr_disable_a = rng.chance(1, 2);
    e.clr_disable_b = rng.chance(1, 2);
  }
  e.path = arch == Arch::Wormhole ? (rng.chance(1, 4) ? FormatPath::Override : FormatPath::SpecReg)
                                  : static_cast<FormatPath>(rng.below(3));
  e.zero_flag_disabled = rng.chance(1, 4);
  return e;
}

uint32_t dst_row_unaligned(const MathEnv& e) { return e.dst_row_field + e.dst_offset + e.rwc.Dst + e.regw_base; }

unsigned addr_mod_slot(Arch arch, const MathEnv& e) {
  if (arch == Arch::Wormhole) return (e.addr_mod & 3) + ((e.rwc.ExtraAddrModBit || e.addr_mod_set_base) ? 4 : 0);
  return e.addr_mod & 7;
}

namespace {

// Blackhole reads the bank's format tag unless DISABLE_IMPLIED_SRC{A,B}_FMT is set, and the tag
// beats the ALU_FORMAT_SPEC override; otherwise (and always on Wormhole) the override when it is
// set, else ALU_FORMAT_SPEC_REG0/REG1.
void apply_formats(Builder& b, const MathConfig& c, const MathEnv& e) {
  b.set_tcfg("FP16A_FORCE_Enable", 0);
  b.set_cfg("ALU_ACC_CTRL_INT8_math_enabled", c.fmt == Fmt::INT8);
  if (c.fmt == Fmt::INT8) return;  // INT8 math fixes both styles and the 32-bit Dst
  const uint32_t code = static_cast<uint32_t>(data_format_of(c.fmt));
  for (const bool srcb : {false, true}) {
    const char* ab = srcb ? "SrcB" : "SrcA";
    if (b.arch() == Arch::Blackhole) {
      const bool use_tag = e.path == FormatPath::BankTag;
      b.set_tcfg(fmt::format("DISABLE_IMPLIED_{}_FMT_Base", srcb ? "SRCB" : "SRCA"), !use_tag);
      if (use_tag) {
        b.set_bank(srcb, srcb ? e.srcb_bank : e.srca_bank, "Format", code);
        continue;
      }
    }
    const bool override_on = e.path == FormatPath::Override;
    b.set_cfg(fmt::format("ALU_FORMAT_SPEC_REG_{}_override", ab), override_on);
    b.set_cfg(override_on ? fmt::format("ALU_FORMAT_SPEC_REG_{}_val", ab)
                          : std::string(srcb ? "ALU_FORMAT_SPEC_REG1_SrcB" : "ALU_FORMAT_SPEC_REG0_SrcA"),
              code);
  }
  b.set_cfg("ALU_ACC_CTRL_Fp32_enabled", c.dst32);
}

}  // namespace

void apply_rwcs(Builder& b, const Rwc& r) {
  b.set_rwc("SrcA", r.SrcA);
  b.set_rwc("SrcA_Cr", r.SrcA_Cr);
  b.set_rwc("SrcB", r.SrcB);
  b.set_rwc("SrcB_Cr", r.SrcB_Cr);
  b.set_rwc("Dst", r.Dst);
  b.set_rwc("Dst_Cr", r.Dst_Cr);
  b.set_rwc("FidelityPhase", r.FidelityPhase);
  b.set_rwc("ExtraAddrModBit", r.ExtraAddrModBit);
}

void apply_addr_mod_slot(Builder& b, const MathEnv& e) {
  if (b.arch() == Arch::Wormhole) b.set_tcfg("ADDR_MOD_SET_Base", e.addr_mod_set_base);
  const unsigned slot = addr_mod_slot(b.arch(), e);
  b.set_addrmod(slot, "SrcAIncr", e.ab.SrcAIncr);
  b.set_addrmod(slot, "SrcACR", e.ab.SrcACR);
  b.set_addrmod(slot, "SrcAClear", e.ab.SrcAClear);
  b.set_addrmod(slot, "SrcBIncr", e.ab.SrcBIncr);
  b.set_addrmod(slot, "SrcBCR", e.ab.SrcBCR);
  b.set_addrmod(slot, "SrcBClear", e.ab.SrcBClear);
  b.set_addrmod(slot, "DestIncr", e.dst.DestIncr);
  b.set_addrmod(slot, "DestCR", e.dst.DestCR);
  b.set_addrmod(slot, "DestClear", e.dst.DestClear);
  b.set_addrmod(slot, "DestCToCR", e.dst.DestCToCR);
  b.set_addrmod(slot, "FidelityIncr", e.dst.FidelityIncr);
  b.set_addrmod(slot, "FidelityClear", e.dst.FidelityClear);
  b.set_addrmod(slot, "BiasIncr", e.bias.BiasIncr);
  b.set_addrmod(slot, "BiasClear", e.bias.BiasClear);
}

void apply_dst_offsets(Builder& b, const MathEnv& e) {
  b.set_tcfg("DEST_TARGET_REG_CFG_MATH_Offset", e.dst_offset);
  b.set_cfg("DEST_REGW_BASE_Base", e.regw_base);
}

void apply_banks(Builder& b, const MathEnv& e, bool need_a, bool need_b, bool flips) {
  b.set_global("SrcABank", e.srca_bank);
  b.set_global("SrcBBank", e.srcb_bank);
  if (need_a) b.set_bank(false, e.srca_bank, "AllowedClient", 1);
  if (need_b) b.set_bank(true, e.srcb_bank, "AllowedClient", 1);
  if (flips && (e.flip_a || e.flip_b)) {
    b.list_bank_state();
    if (e.flip_a) b.set_tcfg("CLR_DVALID_SrcA_Disable", e.clr_disable_a);
    if (e.flip_b) b.set_tcfg("CLR_DVALID_SrcB_Disable", e.clr_disable_b);
  }
}

void apply_math_env(Builder& b, const MathConfig& c, const MathEnv& e) {
  b.set_tcfg("CFG_STATE_ID_StateID", e.state_id);  // first: it selects the Config state below
  apply_formats(b, c, e);
  if (c.reads_fidelity) {
    b.set_tcfg("FIDELITY_BASE_Phase", e.phase_base);
    b.set_cfg("ALU_ACC_CTRL_Zero_Flag_disabled_src", e.zero_flag_disabled);
  }
  if (!c.dst32 && c.fmt != Fmt::INT8) b.set_global("DbgFeatureDisableBit11", 0);
  apply_dst_offsets(b, e);
  apply_banks(b, e, true, true, c.flips);
  apply_rwcs(b, e.rwc);
  apply_addr_mod_slot(b, e);
}

}  // namespace tmu::tensix::vectors::detail
