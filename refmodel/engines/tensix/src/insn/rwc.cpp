// SETRWC and INCRWC (SETRWC.md, INCRWC.md): direct manipulation of the issuing thread's RWCs.
#include "handlers.h"

namespace tmu::tensix::insn {

void exec_setrwc(ExecContext& ctx) {
  Rwc& rwc = ctx.rwc();
  if (ctx.field(Field::SrcA)) {
    uint32_t v = ctx.field(Field::SrcAVal);
    if (ctx.field(Field::SrcACr)) v += rwc.SrcA_Cr;
    rwc.SrcA = rwc.SrcA_Cr = static_cast<uint8_t>(v & (kSrcRows - 1));
  }
  if (ctx.field(Field::SrcB)) {
    uint32_t v = ctx.field(Field::SrcBVal);
    if (ctx.field(Field::SrcBCr)) v += rwc.SrcB_Cr;
    rwc.SrcB = rwc.SrcB_Cr = static_cast<uint8_t>(v & (kSrcRows - 1));
  }
  // DstCtoCr alone is enough to write Dst (SETRWC.md: `if (Dst || DstCtoCr)`).
  if (ctx.field(Field::Dst) || ctx.field(Field::DstCtoCr)) {
    uint32_t v = ctx.field(Field::DstVal);
    if (ctx.field(Field::DstCtoCr)) v += rwc.Dst;
    else if (ctx.field(Field::DstCr)) v += rwc.Dst_Cr;
    rwc.Dst = rwc.Dst_Cr = static_cast<uint16_t>(v & (kDstRows - 1));
  }
  if (ctx.field(Field::Fidelity)) rwc.FidelityPhase = 0;
  ctx.result.writes.rwcs = true;
  ctx.release_src_banks();
}

void exec_incrwc(ExecContext& ctx) {
  Rwc& rwc = ctx.rwc();
  auto step_src = [](uint8_t& counter, uint8_t& carry, bool cr, uint32_t inc) {
    if (cr) {
      carry = static_cast<uint8_t>((carry + inc) & (kSrcRows - 1));
      counter = carry;
    } else {
      counter = static_cast<uint8_t>((counter + inc) & (kSrcRows - 1));
    }
  };
  step_src(rwc.SrcA, rwc.SrcA_Cr, ctx.field(Field::SrcACr), ctx.field(Field::SrcAInc));
  step_src(rwc.SrcB, rwc.SrcB_Cr, ctx.field(Field::SrcBCr), ctx.field(Field::SrcBInc));
  if (ctx.field(Field::DstCr)) {
    rwc.Dst_Cr = static_cast<uint16_t>((rwc.Dst_Cr + ctx.field(Field::DstInc)) & (kDstRows - 1));
    rwc.Dst = rwc.Dst_Cr;
  } else {
    rwc.Dst = static_cast<uint16_t>((rwc.Dst + ctx.field(Field::DstInc)) & (kDstRows - 1));
  }
  ctx.result.writes.rwcs = true;
}

}  // namespace tmu::tensix::insn
