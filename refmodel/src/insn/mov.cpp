// MOVA2D, MOVB2D, MOVD2A, MOVD2B (their ISA pages) and MOVB2A (ttsim and tt-llk only): rows copied
// SrcA/SrcB -> Dst, Dst -> SrcA/SrcB and SrcB -> SrcA. The per-datum conversions are tmu/movconv.h;
// this file owns the Wait Gate, the row ranges, the broadcasts, the format selection and the RWCs.
//
// Wait Gate: MOVA2D waits for SrcA, MOVB2D for SrcB (ISA). MOVB2A waits for SrcB only (ttsim; tt-llk
// notes that it does not wait for SrcA). MOVD2A and MOVD2B do not wait at all (ISA): they write the
// bank the Matrix Unit points at whoever holds it; software is expected to STALLWAIT first.
// LaneConfig BLOCK_DEST_MOV is not part of TensixState, so every lane moves.
#include <fmt/format.h>

#include "handlers.h"
#include "tmu/movconv.h"

namespace tmu::insn {

namespace {

// The rows one move touches. Src rows are those of the bank the instruction reads or writes.
struct MoveRows {
  uint32_t dst_row = 0;     // first Dst row (of the 16- or 32-bit view the conversion picks)
  uint32_t src_row = 0;     // first Src row
  unsigned count = 1;       // 1, 4 or 8
  bool src_fixed = false;   // MOVB2D Broadcast1RowTo8: one Src row feeds every Dst row
};

// DstRow and SrcRow plus their counters, each aligned down to the block: the masks 0x3f8/0x38,
// 0x3fc/0x3c, 0x3ff/0x3f of the ISA pages. A broadcast source row is not aligned.
MoveRows move_rows(ExecContext& ctx, uint32_t src_counter, unsigned count, bool src_fixed) {
  MoveRows r;
  r.count = count;
  r.src_fixed = src_fixed;
  const uint32_t block_mask = ~(count - 1);
  r.dst_row = ctx.dst_row_unaligned(ctx.field(Field::DstRow)) & (kDstRows - 1) & block_mask;
  r.src_row = (ctx.field(Field::SrcRow) + src_counter) & (kSrcRows - 1) & (src_fixed ? ~0u : block_mask);
  return r;
}

uint32_t code_of(DataFormat f) { return static_cast<uint32_t>(f); }

uint32_t hardware_format(ExecContext& ctx, uint32_t code, const char* what) {
  if (!is_valid_data_format_code(code))
    ctx.fail(ErrorKind::UndefinedBehaviour, fmt::format("{} data format code {} is not a hardware format", what, code));
  return code;
}

// What the MOV pages call SrcAFmt. On Blackhole with implied formats it is the tag of the bank the
// instruction moves to or from (ttsim: SrcA's for MOVA2D/MOVD2A, SrcB's for MOVB2D/MOVD2B), and the
// tag wins over an ALU_FORMAT_SPEC override (ttsim computes the override first, then replaces it).
uint32_t mov_srca_format(ExecContext& ctx, const SrcBank& moved_bank) {
  if (ctx.arch() == Arch::Blackhole && !ctx.tcfg().DISABLE_IMPLIED_SRCA_FMT_Base) return code_of(moved_bank.Format);
  const ConfigRegs& c = ctx.cfg();
  return hardware_format(ctx, c.ALU_FORMAT_SPEC_REG_SrcA_override ? c.ALU_FORMAT_SPEC_REG_SrcA_val : c.ALU_FORMAT_SPEC_REG0_SrcA,
                         "SrcA");
}

// The format MOVB2D reads SrcB in (ttsim only; the ISA reads SrcB as if it were SrcA). ttsim takes
// ALU_FORMAT_SPEC_REG1_SrcB without the SrcB override.
uint32_t movb2d_srcb_format(ExecContext& ctx) {
  const SrcBank& bank = ctx.s.SrcB[ctx.s.MatrixUnit.SrcBBank];
  if (ctx.arch() == Arch::Blackhole && !ctx.tcfg().DISABLE_IMPLIED_SRCB_FMT_Base) return code_of(bank.Format);
  return hardware_format(ctx, ctx.cfg().ALU_FORMAT_SPEC_REG1_SrcB, "SrcB");
}

MovToDstConfig to_dst_config(ExecContext& ctx, uint32_t srca_format) {
  MovToDstConfig c;
  c.srca_format_code = srca_format;
  c.fp16a_force = ctx.tcfg().FP16A_FORCE_Enable;
  c.flush_denormals = !ctx.cfg().ALU_ACC_CTRL_Zero_Flag_disabled_src;
  c.use_dst32b_lo = ctx.field(Field::UseDst32bLo);
  return c;
}

void write_dst_datum(ExecContext& ctx, uint32_t row, uint32_t col, const DstWrite& w) {
  switch (w.kind) {
    case DstWriteKind::Dst16b:
      ctx.write_dst16(row, col, static_cast<uint16_t>(w.value));
      break;
    case DstWriteKind::Dst32b:
      ctx.write_dst32(row, col, w.value);
      break;
    case DstWriteKind::Dst32bLow16:
      // An undefined row contributes a zero high half (ttsim reads it as 0 and writes it back).
      ctx.write_dst32(row, col, with_bits<15, 0>(ctx.read_dst32(row, col, 0), w.value));
      break;
  }
}

// MOVD2A and MOVD2B share one functional model; only the target bank and its counter differ.
void move_dst_to_src(ExecContext& ctx, bool to_srca) {
  const unsigned bank = to_srca ? ctx.s.MatrixUnit.SrcABank : ctx.s.MatrixUnit.SrcBBank;
  const ConfigRegs& c = ctx.cfg();
  MovFromDstConfig conv;
  conv.fp16a_force = ctx.tcfg().FP16A_FORCE_Enable;
  // Under FP16A_FORCE the pages never read SrcAFmt, so an unusable code there is no error.
  if (!conv.fp16a_force) conv.srca_format_code = mov_srca_format(ctx, to_srca ? ctx.s.SrcA[bank] : ctx.s.SrcB[bank]);
  conv.use_dst32b = c.ALU_ACC_CTRL_Fp32_enabled || c.ALU_ACC_CTRL_INT8_math_enabled;
  conv.use_dst32b_lo = ctx.field(Field::UseDst32bLo);
  const MovFromDstPlan plan = plan_mov_from_dst(conv);
  if (plan.undefined)
    ctx.fail(ErrorKind::UndefinedBehaviour,
             fmt::format("UseDst32bLo={} with SrcA format code {}, FP16A_FORCE={}, Fp32_enabled={}, INT8_math_enabled={}: {}",
                         conv.use_dst32b_lo, conv.srca_format_code, conv.fp16a_force, c.ALU_ACC_CTRL_Fp32_enabled,
                         c.ALU_ACC_CTRL_INT8_math_enabled, plan.undefined));

  const Rwc& rwc = ctx.rwc();
  const MoveRows rows = move_rows(ctx, to_srca ? rwc.SrcA : rwc.SrcB, ctx.field(Field::Move4Rows) ? 4 : 1, false);
  // MOVD2B addresses no SrcA row; what it leaves for SHIFTXA is undocumented. tmu assumes the SrcA
  // counter itself, as for the legacy instructions.
  ctx.latch_srca_row(to_srca ? rows.src_row : rwc.SrcA);

  for (unsigned i = 0; i < rows.count; ++i) {
    const uint32_t dst_row = rows.dst_row + i;
    for (unsigned col = 0; col < kSrcCols; ++col) {
      const uint32_t dst = plan.read_dst32b ? ctx.read_dst32(dst_row, col, 0) : ctx.read_dst16(dst_row, col, 0);
      const uint32_t datum = mov_from_dst_datum(dst, plan);
      if (to_srca) ctx.write_srca(bank, rows.src_row + i, col, datum);
      else ctx.write_srcb(bank, rows.src_row + i, col, datum);
    }
  }
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace

void exec_mova2d(ExecContext& ctx) {
  if (!ctx.wait_for_src(true, false)) return;
  const unsigned bank = ctx.s.MatrixUnit.SrcABank;
  const MovToDstConfig conv = to_dst_config(ctx, mov_srca_format(ctx, ctx.s.SrcA[bank]));
  const MoveRows rows = move_rows(ctx, ctx.rwc().SrcA, ctx.field(Field::Move8Rows) ? 8 : 1, false);
  ctx.latch_srca_row(rows.src_row);
  for (unsigned i = 0; i < rows.count; ++i)
    for (unsigned col = 0; col < kSrcCols; ++col)
      write_dst_datum(ctx, rows.dst_row + i, col, mova2d_datum(ctx.s.SrcA[bank].Rows[rows.src_row + i][col], conv));
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

void exec_movb2d(ExecContext& ctx) {
  if (!ctx.wait_for_src(false, true)) return;
  const unsigned bank = ctx.s.MatrixUnit.SrcBBank;
  const MovToDstConfig conv = to_dst_config(ctx, mov_srca_format(ctx, ctx.s.SrcB[bank]));
  const uint32_t srcb_format = movb2d_srcb_format(ctx);
  // Broadcast1RowTo8 takes precedence over Move4Rows (the page tests it first).
  const bool broadcast_row = ctx.field(Field::Broadcast1RowTo8);
  const bool broadcast_col = ctx.field(Field::BroadcastCol0);
  const unsigned count = broadcast_row ? 8 : ctx.field(Field::Move4Rows) ? 4 : 1;
  const MoveRows rows = move_rows(ctx, ctx.rwc().SrcB, count, broadcast_row);
  // MOVB2D addresses no SrcA row; see move_dst_to_src.
  ctx.latch_srca_row(ctx.rwc().SrcA);
  for (unsigned i = 0; i < rows.count; ++i) {
    const auto& src = ctx.s.SrcB[bank].Rows[rows.src_row + (rows.src_fixed ? 0 : i)];
    for (unsigned col = 0; col < kSrcCols; ++col)
      write_dst_datum(ctx, rows.dst_row + i, col, movb2d_datum(src[broadcast_col ? 0 : col], conv, srcb_format));
  }
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

void exec_movd2a(ExecContext& ctx) { move_dst_to_src(ctx, true); }
void exec_movd2b(ExecContext& ctx) { move_dst_to_src(ctx, false); }

// MOVB2A has no ISA page. ttsim defines four rows from a 4-aligned SrcB row to a 4-aligned SrcA row
// (field plus counter, below row 64), copied unchanged except for the denormal flush; tt-llk only
// ever issues that form. Anything else (p_movb2a::MOV_1_ROW, misaligned or wrapping rows) no source
// defines, so it is refused by name.
void exec_movb2a(ExecContext& ctx) {
  constexpr unsigned kRows = 4;
  if (!ctx.field(Field::Move4Rows))
    ctx.fail(ErrorKind::Unsupported, "Move4Rows=0 (p_movb2a::MOV_1_ROW) has no documented behaviour");
  const uint32_t srca_row = ctx.field(Field::SrcARow) + ctx.rwc().SrcA;
  const uint32_t srcb_row = ctx.field(Field::SrcBRow) + ctx.rwc().SrcB;
  if (srca_row % kRows || srca_row >= kSrcRows || srcb_row % kRows || srcb_row >= kSrcRows)
    ctx.fail(ErrorKind::Unsupported,
             fmt::format("SrcARow={} + RWC.SrcA={} and SrcBRow={} + RWC.SrcB={} must each be a multiple of 4 "
                         "below 64; other rows have no documented behaviour",
                         ctx.field(Field::SrcARow), ctx.rwc().SrcA, ctx.field(Field::SrcBRow), ctx.rwc().SrcB));
  if (!ctx.wait_for_src(false, true)) return;
  const unsigned a_bank = ctx.s.MatrixUnit.SrcABank;
  const unsigned b_bank = ctx.s.MatrixUnit.SrcBBank;
  const bool flush = !ctx.cfg().ALU_ACC_CTRL_Zero_Flag_disabled_src;
  ctx.latch_srca_row(srca_row);
  for (unsigned i = 0; i < kRows; ++i)
    for (unsigned col = 0; col < kSrcCols; ++col)
      ctx.write_srca(a_bank, srca_row + i, col, movb2a_datum(ctx.s.SrcB[b_bank].Rows[srcb_row + i][col], flush));
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace tmu::insn
