// GMPOOL (GMPOOL.md): column-wise max of a 16x16 SrcA block, each row scaled by the exponent of the
// matching SrcB element, folded into the top row of an aligned 4-row Dst block, optionally with the
// argmax index. The per-column arithmetic is fpu::gmpool_column.
#include <array>

#include "handlers.h"
#include "math_common.h"

namespace tmu::tensix::insn {

void exec_gmpool(ExecContext& ctx) {
  if (!ctx.field(Field::Dim16x16))
    ctx.fail(ErrorKind::Unsupported, "Dim16x16=0 (p_gpool::DIM_1X16) has no documented behaviour");
  if (!ctx.wait_for_src()) return;
  const MathMode formats = ctx.math_mode();
  const InsnAccess access = ctx.access();
  const bool argmax = ctx.field(Field::ArgMax);
  const bool dst32 = access.dst.dst32;

  const uint32_t srca_row = access.srca.row;
  const uint32_t srcb_row = access.srcb.row;
  const uint32_t dst_row = access.dst.row;
  ctx.latch_srca_row(srca_row);

  // SrcB's row is transposed onto SrcA's rows: SrcB[row][i] scales SrcA[row + i][j] for every j.
  std::array<uint32_t, 16> srcb;
  for (unsigned i = 0; i < 16; ++i) srcb[i] = srcb_at(ctx, srcb_row, i);

  const unsigned block_rows = access.dst.rows;
  for (unsigned j = 0; j < kSrcCols; ++j) {
    std::array<uint32_t, 16> column;
    for (unsigned i = 0; i < 16; ++i) column[i] = srca_at(ctx, srca_row + i, j);
    // Undefined Dst rows read as all ones: the smallest value GMPOOL can compare (ZEROACC.md).
    const uint32_t dst_in = dst32 ? ctx.read_dst32(dst_row, j, fpu::kGmpoolUndefinedDst32)
                                  : uint32_t{ctx.read_dst16(dst_row, j, fpu::kGmpoolUndefinedDst16)} << 16;
    const uint32_t out = fpu::gmpool_column(column, srcb, dst_in, formats.srca_style, dst32, argmax);
    if (dst32) {
      ctx.write_dst32(dst_row, j, out);
      for (unsigned i = 1; i < block_rows; ++i) {
        const uint32_t prev = ctx.read_dst32(dst_row + i, j, fpu::kGmpoolUndefinedDst32);
        ctx.write_dst32(dst_row + i, j, fpu::gmpool_other_row_value(prev, true, argmax));
      }
    } else {
      ctx.write_dst16(dst_row, j, static_cast<uint16_t>(out >> 16));
      for (unsigned i = 1; i < block_rows; ++i) ctx.write_dst16(dst_row + i, j, 0);
    }
  }
  finish_math_insn(ctx);
}

}  // namespace tmu::tensix::insn
