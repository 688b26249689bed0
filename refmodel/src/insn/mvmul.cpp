// MVMUL, DOTPV, GAPOOL (MVMUL.md, DOTPV.md, GAPOOL.md): Dst += SrcB @ SrcA on aligned blocks, one
// fidelity phase per instruction. The arithmetic of one output element is fpu::mvmul_element.
#include <array>

#include <fmt/format.h>

#include "handlers.h"
#include "math_common.h"

namespace tmu::insn {

namespace {

struct MatmulShape {
  unsigned num_rows;       // output rows: 8, 7 with BroadcastSrcBRow, 4 for GAPOOL
  bool broadcast_srcb_row; // one SrcB row for every output row; only even rows are written
};

void matmul(ExecContext& ctx, const MatmulShape& shape) {
  if (!ctx.wait_for_src(true, true)) return;
  const MathFormats formats = ctx.math_formats();
  const fpu::FpuMode mode = fpu_mode(ctx, formats);

  const uint32_t srca_row = ctx.rwc().SrcA & 0x38;
  const uint32_t srcb_row = ctx.rwc().SrcB & (shape.broadcast_srcb_row ? 0x3F : 0x38);
  const uint32_t dst_row = ctx.dst_row_unaligned(ctx.field(Field::DstRow)) & (kDstRows - shape.num_rows);
  ctx.latch_srca_row(srca_row);

  // SrcA is read column by column: element (i, j) dots SrcB row i with SrcA column j.
  std::array<std::array<uint32_t, fpu::kDotLength>, kSrcCols> srca_columns;
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < kSrcCols; ++j) srca_columns[j][k] = srca_at(ctx, srca_row + k, j);

  const unsigned row_step = shape.broadcast_srcb_row ? 2 : 1;  // broadcast: rows 1, 3, 5 untouched
  for (unsigned i = 0; i < shape.num_rows; i += row_step) {
    std::array<uint32_t, fpu::kDotLength> srcb;
    for (unsigned k = 0; k < fpu::kDotLength; ++k) srcb[k] = srcb_at(ctx, srcb_row + (shape.broadcast_srcb_row ? 0 : i), k);
    const uint32_t row = dst_row + i;
    for (unsigned j = 0; j < kSrcCols; ++j) {
      if (formats.int8_math) {
        // Undefined rows accumulate from zero (MVMUL.md: "MVMUL reads undefined rows as zero").
        const uint32_t dst = ctx.read_dst32(row, j, 0);
        ctx.write_dst32(row, j, fpu::int8_mvmul_element(srca_columns[j], srcb, dst, mode.fidelity_phase));
      } else if (formats.use_dst32b) {
        const uint32_t dst = ctx.read_dst32(row, j, 0);
        ctx.write_dst32(row, j, fpu::mvmul_element(srca_columns[j], srcb, dst, mode));
      } else {
        const uint32_t dst = ctx.read_dst16(row, j, 0);
        ctx.write_dst16(row, j, static_cast<uint16_t>(fpu::mvmul_element(srca_columns[j], srcb, dst, mode)));
      }
    }
  }
  finish_math_insn(ctx);
}

// GAPOOL's pool-dimension bit: LLK always sets DIM_16X16. Neither the ISA (which has no such field)
// nor ttsim (which refuses anything else) defines the 1x16 variant, so tmu refuses it by name.
void require_dim16x16(ExecContext& ctx) {
  if (!ctx.field(Field::Dim16x16))
    ctx.fail(ErrorKind::Unsupported, "Dim16x16=0 (p_gpool::DIM_1X16) has no documented behaviour");
}

}  // namespace

void exec_mvmul(ExecContext& ctx) {
  const bool broadcast = ctx.field(Field::BroadcastSrcBRow);
  matmul(ctx, MatmulShape{broadcast ? 7u : 8u, broadcast});
}

void exec_dotpv(ExecContext& ctx) {
  // Blackhole's TT_OP_DOTPV has a dest_accum_en argument at bit 21; the ISA's DOTPV (= MVMUL without
  // broadcast) accumulates and gives that bit no meaning, so a set bit is refused, not guessed at.
  if (ctx.field(Field::AddDst))
    ctx.fail(ErrorKind::Unsupported, "AddDst=1 on DOTPV has no documented behaviour");
  matmul(ctx, MatmulShape{8, false});
}

void exec_gapool(ExecContext& ctx) {
  require_dim16x16(ctx);
  matmul(ctx, MatmulShape{4, false});
}

}  // namespace tmu::insn
