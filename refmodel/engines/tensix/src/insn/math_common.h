// Shared by the arithmetic Matrix Unit instructions (MVMUL/DOTPV/GAPOOL, ELW*, GMPOOL): the datapath
// mode an instruction runs under, and the operand reads every one of them does the same way.
#pragma once

#include "context.h"
#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::insn {

inline fpu::FpuMode fpu_mode(ExecContext& ctx, const MathMode& f) {
  fpu::FpuMode m;
  m.srca_style = f.srca_style;
  m.srcb_style = f.srcb_style;
  m.dst32 = f.use_dst32b;
  m.fidelity_phase = ctx.fidelity_phase();
  m.arch = ctx.arch();
  m.srcb_zero_flag_disabled = ctx.cfg().ALU_ACC_CTRL_Zero_Flag_disabled_src;
  return m;
}

inline uint32_t srca_at(const ExecContext& ctx, uint32_t row, uint32_t col) {
  return ctx.s.SrcA[ctx.s.MatrixUnit.SrcABank].Rows[row & (kSrcRows - 1)][col];
}
inline uint32_t srcb_at(const ExecContext& ctx, uint32_t row, uint32_t col) {
  return ctx.s.SrcB[ctx.s.MatrixUnit.SrcBBank].Rows[row & (kSrcRows - 1)][col];
}

// The instruction-end steps every arithmetic instruction shares (clear_dvalid, then ApplyAddrMod).
inline void finish_math_insn(ExecContext& ctx) {
  ctx.release_src_banks();
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace tmu::tensix::insn
