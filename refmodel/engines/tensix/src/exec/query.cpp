// The answers of tmu/tensix/query.h. The instruction implementations in refmodel/engines/tensix/src/insn/ take their
// operand styles, rows, Wait Gate and bank hand-backs from these functions, so the rules live here.
#include "tmu/tensix/query.h"

#include "tmu/tensix/movconv.h"

namespace tmu::tensix {

namespace {

const SrcBank& mu_bank_of(const TensixState& s, unsigned operand) {
  return (operand ? s.SrcB : s.SrcA)[matrix_unit_bank(s, operand)];
}

// Blackhole uses the format the unpacker tagged the bank with unless implied formats are disabled;
// otherwise (and on Wormhole) ALU_FORMAT_SPEC: the override when set, else REG0/REG1. The tag beating
// the override follows ttsim's MOV* code (its arithmetic instructions refuse the override). Any 4-bit
// code has a style (MVMUL.md's final `else`).
FormatChoice operand_format(const TensixState& s, unsigned thread, unsigned operand) {
  if (src_format_implied(s, thread, operand)) return {static_cast<uint32_t>(mu_bank_of(s, operand).Format), StyleSource::Implied};
  const ConfigRegs& c = s.config_for(thread);
  const bool override_on = operand ? c.ALU_FORMAT_SPEC_REG_SrcB_override : c.ALU_FORMAT_SPEC_REG_SrcA_override;
  if (override_on)
    return {operand ? c.ALU_FORMAT_SPEC_REG_SrcB_val : c.ALU_FORMAT_SPEC_REG_SrcA_val, StyleSource::SpecOverride};
  return {operand ? c.ALU_FORMAT_SPEC_REG1_SrcB : c.ALU_FORMAT_SPEC_REG0_SrcA, StyleSource::SpecReg};
}

SrcWindow src_window(const TensixState& s, unsigned operand, uint32_t row, unsigned rows, SrcStyle style) {
  SrcWindow w;
  w.bank = matrix_unit_bank(s, operand);
  w.row = row;
  w.rows = rows;
  w.style = style;
  return w;
}

DstWindow dst_window(const TensixState& s, unsigned thread, const Insn& insn, uint32_t align_mask, unsigned rows) {
  DstWindow w;
  w.unaligned = dst_row_unaligned(s, thread, insn[Field::DstRow]);
  w.row = w.unaligned & align_mask;
  w.rows = rows;
  return w;
}

// MVMUL, DOTPV, GAPOOL: Dst += SrcB @ SrcA on a 16-row SrcA block. The output block has 8 rows (4 for
// GAPOOL); with BroadcastSrcBRow, 7, of which only the even ones are written, all from one SrcB row.
InsnAccess matmul_access(const TensixState& s, unsigned thread, const Insn& insn) {
  const MathMode m = math_mode(s, thread);
  const bool broadcast = insn.op() == Op::MVMUL && insn[Field::BroadcastSrcBRow];
  const unsigned block_rows = insn.op() == Op::GAPOOL ? 4 : broadcast ? 7 : 8;
  const Rwc& rwc = s.RWCs[thread];
  InsnAccess a;
  a.srca = src_window(s, 0, rwc.SrcA & 0x38, 16, m.srca_style);
  a.srcb = src_window(s, 1, rwc.SrcB & (broadcast ? 0x3F : 0x38), block_rows, m.srcb_style);
  a.srcb.one_row = broadcast;
  a.dst = dst_window(s, thread, insn, kDstRows - block_rows, broadcast ? (block_rows + 1) / 2 : block_rows);
  a.dst.step = broadcast ? 2 : 1;
  a.dst.read_rows = a.dst.rows;
  a.dst.dst32 = m.int8_math || m.use_dst32b;
  return a;
}

// ELWMUL, ELWADD, ELWSUB: aligned 8x16 blocks; ELWMUL always accumulates (ttsim), the others when AddDst.
InsnAccess elw_access(const TensixState& s, unsigned thread, const Insn& insn) {
  const MathMode m = math_mode(s, thread);
  const bool broadcast_row = insn[Field::BroadcastSrcBRow];
  const Rwc& rwc = s.RWCs[thread];
  InsnAccess a;
  a.srca = src_window(s, 0, rwc.SrcA & 0x38, 8, m.srca_style);
  a.srcb = src_window(s, 1, rwc.SrcB & (broadcast_row ? 0x3F : 0x38), 8, m.srcb_style);
  a.srcb.one_row = broadcast_row;
  a.srcb.col0 = insn[Field::BroadcastSrcBCol0];
  a.dst = dst_window(s, thread, insn, 0x3F8, 8);
  a.dst.read_rows = insn.op() == Op::ELWMUL || insn[Field::AddDst] ? 8 : 0;
  a.dst.dst32 = m.int8_math || m.use_dst32b;
  return a;
}

// GMPOOL: a 16-row SrcA block scaled by one SrcB row (transposed onto it), folded into the top row of
// an aligned 4-row Dst block; the 32-bit view also reads the other three rows (argmax bookkeeping).
InsnAccess gmpool_access(const TensixState& s, unsigned thread, const Insn& insn) {
  const MathMode m = math_mode(s, thread);
  const Rwc& rwc = s.RWCs[thread];
  InsnAccess a;
  a.srca = src_window(s, 0, rwc.SrcA & 0x30, 16, m.srca_style);
  a.srcb = src_window(s, 1, rwc.SrcB & 0x38, 16, m.srcb_style);
  a.srcb.one_row = true;
  a.dst = dst_window(s, thread, insn, 0x3FC, 4);
  a.dst.dst32 = m.use_dst32b;
  a.dst.read_rows = a.dst.dst32 ? 4 : 1;
  return a;
}

SrcStyle mov_style(const TensixState& s, unsigned thread, const FormatChoice& f) {
  return s.ThreadConfig[thread].FP16A_FORCE_Enable ? SrcStyle::FP16 : src_style_of_format_code(f.code);
}

// The moves: DstRow and SrcRow plus their counters, each aligned down to the block (the masks
// 0x3f8/0x38, 0x3fc/0x3c, 0x3ff/0x3f of the ISA pages); a broadcast source row is not aligned.
InsnAccess mov_access(const TensixState& s, unsigned thread, const Insn& insn) {
  const Op op = insn.op();
  const Rwc& rwc = s.RWCs[thread];
  const ConfigRegs& c = s.config_for(thread);
  InsnAccess a;
  auto block = [&](unsigned count, uint32_t counter, bool src_fixed) {
    const uint32_t mask = ~(count - 1);
    a.dst = dst_window(s, thread, insn, (kDstRows - 1) & mask, count);
    return (insn[Field::SrcRow] + counter) & (kSrcRows - 1) & (src_fixed ? ~0u : mask);
  };
  if (op == Op::MOVB2A) {
    const SrcStyle style = mov_style(s, thread, movb2d_srcb_format(s, thread));
    a.srca = src_window(s, 0, insn[Field::SrcARow] + rwc.SrcA, 4, style);
    a.srca.written = true;
    a.srcb = src_window(s, 1, insn[Field::SrcBRow] + rwc.SrcB, 4, style);
    return a;
  }
  MovToDstConfig to_dst;
  to_dst.srca_format_code = mov_srca_format(s, thread, op == Op::MOVA2D || op == Op::MOVD2A ? 0 : 1).code;
  to_dst.fp16a_force = s.ThreadConfig[thread].FP16A_FORCE_Enable;
  to_dst.use_dst32b_lo = insn.has(Field::UseDst32bLo) && insn[Field::UseDst32bLo];
  if (op == Op::MOVA2D) {
    const unsigned n = insn[Field::Move8Rows] ? 8 : 1;
    a.srca = src_window(s, 0, block(n, rwc.SrcA, false), n, mov_style(s, thread, mov_srca_format(s, thread, 0)));
  } else if (op == Op::MOVB2D) {
    // Broadcast1RowTo8 takes precedence over Move4Rows (the page tests it first).
    const bool broadcast_row = insn[Field::Broadcast1RowTo8];
    const unsigned n = broadcast_row ? 8 : insn[Field::Move4Rows] ? 4 : 1;
    a.srcb = src_window(s, 1, block(n, rwc.SrcB, broadcast_row), n, mov_style(s, thread, movb2d_srcb_format(s, thread)));
    a.srcb.one_row = broadcast_row;
    a.srcb.col0 = insn[Field::BroadcastCol0];
  } else {  // MOVD2A, MOVD2B
    const unsigned operand = op == Op::MOVD2A ? 0 : 1;
    const unsigned n = insn[Field::Move4Rows] ? 4 : 1;
    SrcWindow& src = operand ? a.srcb : a.srca;
    src = src_window(s, operand, block(n, operand ? rwc.SrcB : rwc.SrcA, false), n, SrcStyle::BF16);
    src.written = true;
    a.dst.read_rows = n;
    a.dst.dst32 = !to_dst.fp16a_force && mov_use_dst32b(s, thread);
    a.dst.int32 = c.ALU_ACC_CTRL_INT8_math_enabled;
    a.dst.style = mov_style(s, thread, {to_dst.srca_format_code, StyleSource::SpecReg});
    return a;
  }
  a.dst.written = true;
  a.dst.dst32 = mov_to_dst_write_kind(to_dst) != DstWriteKind::Dst16b;
  return a;
}

// ZEROACC's one-row mode (Mode 0) marks one row undefined: a row of the 32-bit view when the Dst mode
// is 32-bit or the debug bit sends Dst16b to the high half of Dst32b. The block modes have no window.
InsnAccess zeroacc_access(const TensixState& s, unsigned thread, const Insn& insn) {
  InsnAccess a;
  if (insn[Field::Mode] != 0) return a;
  const ConfigRegs& c = s.config_for(thread);
  a.dst.unaligned = dst_row_unaligned(s, thread, insn[Field::Imm10]);
  a.dst.row = a.dst.unaligned & (kDstRows - 1);
  a.dst.rows = 1;
  a.dst.written = true;
  a.dst.dst32 = c.ALU_ACC_CTRL_Fp32_enabled || c.ALU_ACC_CTRL_INT8_math_enabled || s.DbgFeatureDisableBit11;
  return a;
}

}  // namespace

const char* style_source_name(StyleSource s) {
  switch (s) {
    case StyleSource::Implied: return "implied";
    case StyleSource::SpecReg: return "spec_reg";
    case StyleSource::SpecOverride: return "spec_override";
    case StyleSource::Fp16aForce: return "fp16a_force";
    case StyleSource::Int8Math: return "int8_math";
  }
  return "?";
}

MathMode math_mode(const TensixState& s, unsigned thread) {
  MathMode m;
  const ConfigRegs& c = s.config_for(thread);
  if (s.ThreadConfig[thread].FP16A_FORCE_Enable) {
    m.srca_style = m.srcb_style = SrcStyle::FP16;
    m.srca_source = m.srcb_source = StyleSource::Fp16aForce;
    m.fp16a_force = true;
    return m;
  }
  if (c.ALU_ACC_CTRL_INT8_math_enabled) {
    m.srca_style = m.srcb_style = SrcStyle::INT8;
    m.srca_source = m.srcb_source = StyleSource::Int8Math;
    m.use_dst32b = m.int8_math = true;
    return m;
  }
  const FormatChoice a = operand_format(s, thread, 0), b = operand_format(s, thread, 1);
  m.srca_style = src_style_of_format_code(a.code);
  m.srcb_style = src_style_of_format_code(b.code);
  m.srca_source = a.source;
  m.srcb_source = b.source;
  m.use_dst32b = c.ALU_ACC_CTRL_Fp32_enabled;
  return m;
}

bool src_format_implied(const TensixState& s, unsigned thread, unsigned operand) {
  const ThreadConfigRegs& t = s.ThreadConfig[thread];
  return s.arch == Arch::Blackhole && !(operand ? t.DISABLE_IMPLIED_SRCB_FMT_Base : t.DISABLE_IMPLIED_SRCA_FMT_Base);
}

uint32_t fidelity_phase(const TensixState& s, unsigned thread) {
  return (s.RWCs[thread].FidelityPhase + s.ThreadConfig[thread].FIDELITY_BASE_Phase) & 3;
}

uint32_t dst_row_unaligned(const TensixState& s, unsigned thread, uint32_t dst_row_field) {
  return dst_row_field + s.ThreadConfig[thread].DEST_TARGET_REG_CFG_MATH_Offset + s.RWCs[thread].Dst +
         s.config_for(thread).DEST_REGW_BASE_Base;
}

// Wormhole: a 2-bit AddrMod reaches slots 4..7 through ExtraAddrModBit or ADDR_MOD_SET_Base.
// Blackhole: AddrMod is 3 bits and ADDR_MOD_SET_Base no longer exists; what ExtraAddrModBit does to
// the index there is not documented (see spec-deltas).
std::optional<uint32_t> addr_mod_slot(const TensixState& s, unsigned thread, uint32_t addr_mod) {
  const Rwc& rwc = s.RWCs[thread];
  if (s.arch == Arch::Wormhole)
    return (addr_mod & 3) + ((rwc.ExtraAddrModBit || s.ThreadConfig[thread].ADDR_MOD_SET_Base) ? 4 : 0);
  if (rwc.ExtraAddrModBit) return std::nullopt;
  return addr_mod & 7;
}

FormatChoice mov_srca_format(const TensixState& s, unsigned thread, unsigned operand) {
  if (src_format_implied(s, thread, 0)) return {static_cast<uint32_t>(mu_bank_of(s, operand).Format), StyleSource::Implied};
  return operand_format(s, thread, 0);
}

FormatChoice movb2d_srcb_format(const TensixState& s, unsigned thread) {
  if (src_format_implied(s, thread, 1)) return {static_cast<uint32_t>(mu_bank_of(s, 1).Format), StyleSource::Implied};
  return {s.config_for(thread).ALU_FORMAT_SPEC_REG1_SrcB, StyleSource::SpecReg};
}

bool mov_use_dst32b(const TensixState& s, unsigned thread) {
  const ConfigRegs& c = s.config_for(thread);
  return c.ALU_ACC_CTRL_Fp32_enabled || c.ALU_ACC_CTRL_INT8_math_enabled;
}

InsnAccess insn_access(const TensixState& s, unsigned thread, const Insn& insn) {
  InsnAccess a;
  switch (insn.op()) {
    case Op::MVMUL: case Op::DOTPV: case Op::GAPOOL: a = matmul_access(s, thread, insn); break;
    case Op::ELWMUL: case Op::ELWADD: case Op::ELWSUB: a = elw_access(s, thread, insn); break;
    case Op::GMPOOL: a = gmpool_access(s, thread, insn); break;
    case Op::MOVA2D: case Op::MOVB2D: case Op::MOVD2A: case Op::MOVD2B: case Op::MOVB2A:
      return mov_access(s, thread, insn);
    case Op::ZEROACC: return zeroacc_access(s, thread, insn);
    default: return a;
  }
  // The arithmetic instructions write what they address and keep Dst16b in the SrcA style's layout.
  const MathMode m = math_mode(s, thread);
  a.dst.written = true;
  a.dst.int32 = m.int8_math;
  a.dst.style = m.srca_style;
  return a;
}

std::array<bool, 2> src_waits(Op op) {
  switch (op) {
    case Op::MVMUL: case Op::DOTPV: case Op::GAPOOL: case Op::GMPOOL:
    case Op::ELWMUL: case Op::ELWADD: case Op::ELWSUB:
      return {true, true};
    case Op::MOVA2D: case Op::SHIFTXA:
      return {true, false};
    // MOVB2A waits for SrcB only (ttsim; tt-llk notes that it does not wait for SrcA). MOVD2A and
    // MOVD2B do not wait at all (ISA): software is expected to STALLWAIT first.
    case Op::MOVB2D: case Op::MOVB2A: case Op::SHIFTXB: case Op::TRNSPSRCB:
      return {false, true};
    default:
      return {false, false};
  }
}

SrcRelease src_release(const TensixState& s, unsigned thread, const Insn& insn) {
  SrcRelease r;
  if (insn.op() == Op::CLEARDVALID) {
    if (insn[Field::Reset]) {
      r.reset = true;
      return r;
    }
    // Unlike the clear_dvalid bits of MVMUL/SETRWC, CLEARDVALID ignores CLR_DVALID_*_Disable.
    for (unsigned o = 0; o < 2; ++o) {
      r.hand_back[o] = insn[o ? Field::FlipSrcB : Field::FlipSrcA];
      r.flip[o] = r.hand_back[o] && !insn[Field::KeepReadingSameSrc];
    }
    return r;
  }
  const ThreadConfigRegs& t = s.ThreadConfig[thread];
  for (unsigned o = 0; o < 2; ++o) {
    const Field f = o ? Field::FlipSrcB : Field::FlipSrcA;
    r.flip[o] = insn.has(f) && insn[f];
    r.hand_back[o] = r.flip[o] && !(o ? t.CLR_DVALID_SrcB_Disable : t.CLR_DVALID_SrcA_Disable);
  }
  return r;
}

}  // namespace tmu::tensix
