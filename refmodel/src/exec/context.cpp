#include "../insn/context.h"

#include <algorithm>

#include <fmt/format.h>

namespace tmu {

void WriteSet::note_dst_row(uint32_t row) {
  if (std::find(dst_rows.begin(), dst_rows.end(), row) == dst_rows.end())
    dst_rows.push_back(static_cast<uint16_t>(row));
}
void WriteSet::note_srca_row(uint32_t bank, uint32_t row) {
  for (const SrcRow& r : srca_rows)
    if (r.bank == bank && r.row == row) return;
  srca_rows.push_back({static_cast<uint8_t>(bank), static_cast<uint8_t>(row)});
}
void WriteSet::note_srcb_row(uint32_t bank, uint32_t row) {
  for (const SrcRow& r : srcb_rows)
    if (r.bank == bank && r.row == row) return;
  srcb_rows.push_back({static_cast<uint8_t>(bank), static_cast<uint8_t>(row)});
}
void WriteSet::note_gpr(uint32_t index) {
  if (std::find(gprs.begin(), gprs.end(), index) == gprs.end()) gprs.push_back(static_cast<uint8_t>(index));
}

const char* src_client_name(SrcClient c) { return c == SrcClient::MatrixUnit ? "MatrixUnit" : "Unpackers"; }

namespace insn {

bool ExecContext::wait_for_src(bool need_srca, bool need_srcb) {
  std::string why;
  if (need_srca && s.SrcA[s.MatrixUnit.SrcABank].AllowedClient != SrcClient::MatrixUnit)
    why = fmt::format("SrcA bank {} is held by the Unpackers", s.MatrixUnit.SrcABank);
  if (need_srcb && s.SrcB[s.MatrixUnit.SrcBBank].AllowedClient != SrcClient::MatrixUnit)
    why += fmt::format("{}SrcB bank {} is held by the Unpackers", why.empty() ? "" : "; ", s.MatrixUnit.SrcBBank);
  if (why.empty()) return true;
  result.status = ExecResult::Status::Stalled;
  result.stall_reason = std::move(why);
  return false;
}

void ExecContext::clear_dvalid(bool flip_srca, bool flip_srcb) {
  if (flip_srca) {
    if (!tcfg().CLR_DVALID_SrcA_Disable) s.SrcA[s.MatrixUnit.SrcABank].AllowedClient = SrcClient::Unpackers;
    s.MatrixUnit.SrcABank ^= 1;
  }
  if (flip_srcb) {
    if (!tcfg().CLR_DVALID_SrcB_Disable) s.SrcB[s.MatrixUnit.SrcBBank].AllowedClient = SrcClient::Unpackers;
    s.MatrixUnit.SrcBBank ^= 1;
  }
  if (flip_srca || flip_srcb) result.writes.banks = true;
}

void ExecContext::apply_addr_mod(uint32_t addr_mod, bool update_fidelity_phase) {
  tmu::apply_addr_mod(s, thread, addr_mod, update_fidelity_phase);
  result.writes.rwcs = true;
}

uint32_t ExecContext::dst_row_unaligned(uint32_t dst_row_field) {
  return dst_row_field + tcfg().DEST_TARGET_REG_CFG_MATH_Offset + rwc().Dst + cfg().DEST_REGW_BASE_Base;
}

uint32_t ExecContext::fidelity_phase() { return (rwc().FidelityPhase + tcfg().FIDELITY_BASE_Phase) & 3; }

namespace {

// Style the Matrix Unit infers for one Src operand. Blackhole uses the format the unpacker tagged the
// bank with unless implied formats are disabled; otherwise (and on Wormhole) ALU_FORMAT_SPEC: the
// override when set, else REG0/REG1. The tag beating the override follows ttsim's MOV* code (its
// arithmetic instructions refuse the override). Any 4-bit code has a style (MVMUL.md's final `else`).
SrcStyle operand_style(Arch arch, bool override_on, uint8_t override_val, bool implied_disabled,
                       DataFormat bank_format, uint8_t spec_reg) {
  if (arch == Arch::Blackhole && !implied_disabled) return src_style_of_format(bank_format);
  return src_style_of_format_code(override_on ? override_val : spec_reg);
}

}  // namespace

MathFormats ExecContext::math_formats() {
  MathFormats f;
  const ConfigRegs& c = cfg();
  const ThreadConfigRegs& t = tcfg();
  if (t.FP16A_FORCE_Enable) {
    f.srca_style = f.srcb_style = SrcStyle::FP16;
    f.use_dst32b = false;
    return f;
  }
  if (c.ALU_ACC_CTRL_INT8_math_enabled) {
    f.srca_style = f.srcb_style = SrcStyle::INT8;
    f.use_dst32b = true;
    f.int8_math = true;
    return f;
  }
  f.srca_style = operand_style(arch(), c.ALU_FORMAT_SPEC_REG_SrcA_override, c.ALU_FORMAT_SPEC_REG_SrcA_val,
                               t.DISABLE_IMPLIED_SRCA_FMT_Base, s.SrcA[s.MatrixUnit.SrcABank].Format,
                               c.ALU_FORMAT_SPEC_REG0_SrcA);
  f.srcb_style = operand_style(arch(), c.ALU_FORMAT_SPEC_REG_SrcB_override, c.ALU_FORMAT_SPEC_REG_SrcB_val,
                               t.DISABLE_IMPLIED_SRCB_FMT_Base, s.SrcB[s.MatrixUnit.SrcBBank].Format,
                               c.ALU_FORMAT_SPEC_REG1_SrcB);
  f.use_dst32b = c.ALU_ACC_CTRL_Fp32_enabled;
  return f;
}

void ExecContext::fail(ErrorKind kind, const std::string& why) const {
  throw Error(kind, fmt::format("{} (thread {}, word 0x{:08x}): {}", insn.mnemonic(), thread, insn.word, why));
}

}  // namespace insn
}  // namespace tmu
