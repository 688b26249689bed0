// Src bank ownership and whole-bank operations: CLEARDVALID (CLEARDVALID.md), ZEROSRC (ZEROSRC.md),
// TRNSPSRCB (TRNSPSRCB.md).
#include "handlers.h"

namespace tmu::tensix::insn {

// Reset, the hand-backs and KeepReadingSameSrc are src_release's (tmu/tensix/query.h).
void exec_cleardvalid(ExecContext& ctx) {
  ctx.result.writes.banks = true;
  ctx.release_src_banks();
}

void exec_zerosrc(ExecContext& ctx) {
  TensixState& s = ctx.s;
  bool clear_a[kSrcBanks] = {false, false};
  bool clear_b[kSrcBanks] = {false, false};
  const bool both = ctx.field(Field::BothBanks);
  const bool matrix_bank = ctx.field(Field::SingleBankMatrixUnit);
  if (ctx.field(Field::ClearSrcA)) {
    if (both) clear_a[0] = clear_a[1] = true;
    else clear_a[matrix_bank ? s.MatrixUnit.SrcABank : s.Unpackers[0].SrcBank] = true;
  }
  if (ctx.field(Field::ClearSrcB)) {
    if (both) clear_b[0] = clear_b[1] = true;
    else clear_b[matrix_bank ? s.MatrixUnit.SrcBBank : s.Unpackers[1].SrcBank] = true;
  }
  // All ones in every style's layout is sign=1, exponent all ones: minus infinity (the max-pool seed).
  const uint32_t srca_fill = ctx.field(Field::NegativeInfSrcA) ? kSrcDatumMask : 0u;
  for (unsigned bank = 0; bank < kSrcBanks; ++bank) {
    for (unsigned row = 0; row < kSrcRows; ++row) {
      for (unsigned col = 0; col < kSrcCols; ++col) {
        if (clear_a[bank]) ctx.write_srca(bank, row, col, srca_fill);
        if (clear_b[bank]) ctx.write_srcb(bank, row, col, 0);
      }
    }
  }
}

void exec_trnspsrcb(ExecContext& ctx) {
  if (!ctx.wait_for_src()) return;
  constexpr unsigned kRowBase = 16;  // the instruction always transposes SrcB rows 16..31
  constexpr unsigned kSize = 16;
  const unsigned bank = ctx.s.MatrixUnit.SrcBBank;
  auto& rows = ctx.s.SrcB[bank].Rows;
  for (unsigned i = 0; i < kSize; ++i) {
    for (unsigned j = 0; j < i; ++j) {
      const uint32_t ij = rows[kRowBase + i][j];
      const uint32_t ji = rows[kRowBase + j][i];
      ctx.write_srcb(bank, kRowBase + i, j, ji);
      ctx.write_srcb(bank, kRowBase + j, i, ij);
    }
  }
}

}  // namespace tmu::tensix::insn
