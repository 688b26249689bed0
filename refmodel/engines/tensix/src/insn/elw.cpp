// ELWMUL, ELWADD, ELWSUB (ELWMUL.md, ELWADD.md, ELWSUB.md): element-wise on aligned 8x16 blocks with
// the SrcB broadcasts (BroadcastSrcBRow: one row for all eight; BroadcastSrcBCol0: column 0 for all
// sixteen; both: one scalar).
#include "handlers.h"
#include "math_common.h"

namespace tmu::tensix::insn {

namespace {

enum class ElwOp { Mul, Add, Sub };

void elementwise(ExecContext& ctx, ElwOp op) {
  if (!ctx.wait_for_src()) return;
  const MathMode formats = ctx.math_mode();
  const fpu::FpuMode mode = fpu_mode(ctx, formats);
  const InsnAccess access = ctx.access();
  const bool bcast_row = access.srcb.one_row;
  const bool bcast_col = access.srcb.col0;
  // ELWMUL accumulates whatever AddDst says (ELWMUL.md has no AddDst; ttsim forces accumulation).
  const bool add_dst = access.dst.read_rows != 0;

  const uint32_t srca_row = access.srca.row;
  const uint32_t srcb_row = access.srcb.row;
  const uint32_t dst_row = access.dst.row;
  ctx.latch_srca_row(srca_row);
  const bool zf_disabled = mode.srcb_zero_flag_disabled;

  for (unsigned i = 0; i < access.dst.rows; ++i) {
    const uint32_t row = dst_row + i;
    for (unsigned j = 0; j < kSrcCols; ++j) {
      const uint32_t a = srca_at(ctx, srca_row + i, j);
      const uint32_t b = srcb_at(ctx, srcb_row + (bcast_row ? 0 : i), bcast_col ? 0 : j);
      if (formats.int8_math) {
        const uint32_t dst = add_dst ? ctx.read_dst32(row, j, 0) : 0;
        uint32_t out = 0;
        switch (op) {
          case ElwOp::Mul: out = fpu::int8_elwmul_element(a, b, dst, mode.fidelity_phase, zf_disabled); break;
          case ElwOp::Add: out = fpu::int8_elwadd_element(a, b, dst, add_dst, zf_disabled); break;
          case ElwOp::Sub: out = fpu::int8_elwsub_element(a, b, dst, add_dst, zf_disabled); break;
        }
        ctx.write_dst32(row, j, out);
        continue;
      }
      const uint32_t dst = !add_dst ? 0 : formats.use_dst32b ? ctx.read_dst32(row, j, 0) : ctx.read_dst16(row, j, 0);
      uint32_t out = 0;
      switch (op) {
        case ElwOp::Mul: out = fpu::elwmul_element(a, b, dst, mode); break;
        case ElwOp::Add: out = fpu::elwadd_element(a, b, dst, add_dst, mode); break;
        case ElwOp::Sub: out = fpu::elwsub_element(a, b, dst, add_dst, mode); break;
      }
      if (formats.use_dst32b) ctx.write_dst32(row, j, out);
      else ctx.write_dst16(row, j, static_cast<uint16_t>(out));
    }
  }
  finish_math_insn(ctx);
}

}  // namespace

void exec_elwmul(ExecContext& ctx) { elementwise(ctx, ElwOp::Mul); }
void exec_elwadd(ExecContext& ctx) { elementwise(ctx, ElwOp::Add); }
void exec_elwsub(ExecContext& ctx) { elementwise(ctx, ElwOp::Sub); }

}  // namespace tmu::tensix::insn
