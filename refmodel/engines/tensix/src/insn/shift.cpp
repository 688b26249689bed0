// SHIFTXA and SHIFTXB (SHIFTXA.md, SHIFTXB.md): move Src data by one lane.
#include <fmt/format.h>

#include "handlers.h"

namespace tmu::tensix::insn {

void exec_shiftxa(ExecContext& ctx) {
  enum : uint32_t { kDirectionRight = 2, kDirectionLeft = 3 };
  const uint32_t direction = ctx.field(Field::Direction);
  if (direction != kDirectionRight && direction != kDirectionLeft)
    ctx.fail(ErrorKind::UndefinedBehaviour,
             fmt::format("Direction={} is neither RIGHT (2) nor LEFT (3)", direction));
  if (!ctx.wait_for_src()) return;
  // Hardware bug (SHIFTXA.md): the input block is the aligned 16 rows around whatever SrcA row the
  // last SrcA-addressing instruction computed; the output is always rows 0..15.
  const uint32_t in_row = ctx.s.MatrixUnit.LastSrcARow & 0x30;
  const unsigned bank = ctx.s.MatrixUnit.SrcABank;
  constexpr unsigned kBlockRows = 16;
  for (unsigned i = 0; i < kBlockRows; ++i) {
    // Copy the input row first: with in_row == 0 the output row is the input row.
    const auto in = ctx.s.SrcA[bank].Rows[in_row + i];
    for (unsigned col = 0; col < kSrcCols; ++col) {
      uint32_t v = 0;
      if (direction == kDirectionRight && col > 0) v = in[col - 1];
      if (direction == kDirectionLeft && col + 1 < kSrcCols) v = in[col + 1];
      ctx.write_srca(bank, i, col, v);
    }
  }
}

void exec_shiftxb(ExecContext& ctx) {
  if (!ctx.wait_for_src()) return;
  const uint32_t row = (ctx.field(Field::SrcRow) + ctx.rwc().SrcB) & (kSrcRows - 1);
  const unsigned bank = ctx.s.MatrixUnit.SrcBBank;
  const auto in = ctx.s.SrcB[bank].Rows[row];
  // Every lane takes its right neighbour; lane 15 takes lane 0 (rotate) or zero. SHIFTXB.md's code
  // stops its loop at lane 13, but its own lane diagram and "Specialty Matrix Unit operations"
  // (docs/sources.md) move all fifteen lanes; tmu
  // follows the diagram (docs/spec-deltas.md).
  for (unsigned col = 0; col + 1 < kSrcCols; ++col) ctx.write_srcb(bank, row, col, in[col + 1]);
  ctx.write_srcb(bank, row, kSrcCols - 1, ctx.field(Field::ShiftInZero) ? 0u : in[0]);
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace tmu::tensix::insn
