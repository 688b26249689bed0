// MOVA2D, MOVB2D, MOVD2A, MOVD2B (their ISA pages) and MOVB2A (ttsim and tt-llk only): rows copied
// SrcA/SrcB -> Dst, Dst -> SrcA/SrcB and SrcB -> SrcA. The per-datum conversions are tmu/tensix/movconv.h;
// this file owns the Wait Gate, the row ranges, the broadcasts, the format selection and the RWCs.
//
// Wait Gate: MOVA2D waits for SrcA, MOVB2D for SrcB (ISA). MOVB2A waits for SrcB only (ttsim; tt-llk
// notes that it does not wait for SrcA). MOVD2A and MOVD2B do not wait at all (ISA): they write the
// bank the Matrix Unit points at whoever holds it; software is expected to STALLWAIT first.
// LaneConfig BLOCK_DEST_MOV is not part of TensixState, so every lane moves.
#include <fmt/format.h>

#include "handlers.h"
#include "tmu/tensix/movconv.h"

namespace tmu::tensix::insn {

namespace {

// A bank's tag is always a format the unpacker wrote; an ALU_FORMAT_SPEC code may name none.
uint32_t hardware_format(ExecContext& ctx, const FormatChoice& f, const char* what) {
  if (f.source != StyleSource::Implied && !is_valid_data_format_code(f.code))
    ctx.fail(ErrorKind::UndefinedBehaviour, fmt::format("{} data format code {} is not a hardware format", what, f.code));
  return f.code;
}

// What the MOV pages call SrcAFmt (tmu/tensix/query.h): the tag of the bank the instruction moves to or from
// wins over an ALU_FORMAT_SPEC override (ttsim computes the override first, then replaces it).
uint32_t mov_srca_format(ExecContext& ctx, unsigned operand) {
  return hardware_format(ctx, tmu::tensix::mov_srca_format(ctx.s, ctx.thread, operand), "SrcA");
}

// The format MOVB2D reads SrcB in (ttsim only; the ISA reads SrcB as if it were SrcA).
uint32_t movb2d_srcb_format(ExecContext& ctx) {
  return hardware_format(ctx, tmu::tensix::movb2d_srcb_format(ctx.s, ctx.thread), "SrcB");
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
  if (!conv.fp16a_force) conv.srca_format_code = mov_srca_format(ctx, to_srca ? 0 : 1);
  conv.use_dst32b = mov_use_dst32b(ctx.s, ctx.thread);
  conv.use_dst32b_lo = ctx.field(Field::UseDst32bLo);
  const MovFromDstPlan plan = plan_mov_from_dst(conv);
  if (plan.undefined)
    ctx.fail(ErrorKind::UndefinedBehaviour,
             fmt::format("UseDst32bLo={} with SrcA format code {}, FP16A_FORCE={}, Fp32_enabled={}, INT8_math_enabled={}: {}",
                         conv.use_dst32b_lo, conv.srca_format_code, conv.fp16a_force, c.ALU_ACC_CTRL_Fp32_enabled,
                         c.ALU_ACC_CTRL_INT8_math_enabled, plan.undefined));

  const InsnAccess access = ctx.access();
  const SrcWindow& src = to_srca ? access.srca : access.srcb;
  // MOVD2B addresses no SrcA row; what it leaves for SHIFTXA is undocumented. tmu assumes the SrcA
  // counter itself, as for the legacy instructions.
  ctx.latch_srca_row(to_srca ? src.row : ctx.rwc().SrcA);

  for (unsigned i = 0; i < src.rows; ++i) {
    const uint32_t dst_row = access.dst.row + i;
    for (unsigned col = 0; col < kSrcCols; ++col) {
      const uint32_t dst = plan.read_dst32b ? ctx.read_dst32(dst_row, col, 0) : ctx.read_dst16(dst_row, col, 0);
      const uint32_t datum = mov_from_dst_datum(dst, plan);
      if (to_srca) ctx.write_srca(bank, src.row + i, col, datum);
      else ctx.write_srcb(bank, src.row + i, col, datum);
    }
  }
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace

void exec_mova2d(ExecContext& ctx) {
  if (!ctx.wait_for_src()) return;
  const unsigned bank = ctx.s.MatrixUnit.SrcABank;
  const MovToDstConfig conv = to_dst_config(ctx, mov_srca_format(ctx, 0));
  const InsnAccess access = ctx.access();
  const SrcWindow& src = access.srca;
  ctx.latch_srca_row(src.row);
  for (unsigned i = 0; i < src.rows; ++i)
    for (unsigned col = 0; col < kSrcCols; ++col)
      write_dst_datum(ctx, access.dst.row + i, col, mova2d_datum(ctx.s.SrcA[bank].Rows[src.row + i][col], conv));
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

void exec_movb2d(ExecContext& ctx) {
  if (!ctx.wait_for_src()) return;
  const unsigned bank = ctx.s.MatrixUnit.SrcBBank;
  const MovToDstConfig conv = to_dst_config(ctx, mov_srca_format(ctx, 1));
  const uint32_t srcb_format = movb2d_srcb_format(ctx);
  const InsnAccess access = ctx.access();
  const SrcWindow& window = access.srcb;
  // MOVB2D addresses no SrcA row; see move_dst_to_src.
  ctx.latch_srca_row(ctx.rwc().SrcA);
  for (unsigned i = 0; i < window.rows; ++i) {
    const auto& src = ctx.s.SrcB[bank].Rows[window.row + (window.one_row ? 0 : i)];
    for (unsigned col = 0; col < kSrcCols; ++col)
      write_dst_datum(ctx, access.dst.row + i, col, movb2d_datum(src[window.col0 ? 0 : col], conv, srcb_format));
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
  if (!ctx.field(Field::Move4Rows))
    ctx.fail(ErrorKind::Unsupported, "Move4Rows=0 (p_movb2a::MOV_1_ROW) has no documented behaviour");
  const InsnAccess access = ctx.access();
  const unsigned rows = access.srca.rows;  // four: the only form ttsim defines
  const uint32_t srca_row = access.srca.row;
  const uint32_t srcb_row = access.srcb.row;
  if (srca_row % rows || srca_row >= kSrcRows || srcb_row % rows || srcb_row >= kSrcRows)
    ctx.fail(ErrorKind::Unsupported,
             fmt::format("SrcARow={} + RWC.SrcA={} and SrcBRow={} + RWC.SrcB={} must each be a multiple of 4 "
                         "below 64; other rows have no documented behaviour",
                         ctx.field(Field::SrcARow), ctx.rwc().SrcA, ctx.field(Field::SrcBRow), ctx.rwc().SrcB));
  if (!ctx.wait_for_src()) return;
  const unsigned a_bank = ctx.s.MatrixUnit.SrcABank;
  const unsigned b_bank = ctx.s.MatrixUnit.SrcBBank;
  const bool flush = !ctx.cfg().ALU_ACC_CTRL_Zero_Flag_disabled_src;
  ctx.latch_srca_row(srca_row);
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned col = 0; col < kSrcCols; ++col)
      ctx.write_srca(a_bank, srca_row + i, col, movb2a_datum(ctx.s.SrcB[b_bank].Rows[srcb_row + i][col], flush));
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace tmu::tensix::insn
