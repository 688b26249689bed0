// ZEROACC (ZEROACC.md): mark Dst rows undefined. The bits stay as they were; later readers see the
// identity of the reading instruction (DstRegs::read16/read32).
#include <fmt/format.h>

#include <vector>

#include "handlers.h"

namespace tmu::tensix::insn {

namespace {

enum ZeroAccMode : uint32_t { kOneRow = 0, kSixteenRows = 1, kHalfOfDst = 2, kAllOfDst = 3 };

constexpr uint32_t kRowsPerBlock = 16;
constexpr uint32_t kBlocks16b = kDstRows / kRowsPerBlock;    // 64 blocks of 16 rows in Dst16b
constexpr uint32_t kBlocks32b = kDst32Rows / kRowsPerBlock;  // 32 blocks of 16 rows in Dst32b

void set_row_valid(ExecContext& ctx, uint32_t row, bool valid) {
  if (valid) {
    ctx.s.Dst.RowValid[row & (kDstRows - 1)] = true;
    ctx.result.writes.note_dst_row(row & (kDstRows - 1));
  } else {
    ctx.invalidate_dst_row(row);
  }
}

// Blackhole's relative tile mode (ttsim): unless DEST_ACCESS_CFG_zeroacc_absolute_tile_mode, the
// 16-row block number is taken within the Dst half the thread's current offset points into.
uint32_t blackhole_relative_block(ExecContext& ctx, uint32_t block, bool use_dst32b) {
  if (ctx.arch() != Arch::Blackhole || ctx.s.DEST_ACCESS_CFG_zeroacc_absolute_tile_mode) return block;
  const uint32_t offset = ctx.tcfg().DEST_TARGET_REG_CFG_MATH_Offset + ctx.rwc().Dst;
  if (use_dst32b) return (offset & 0x300) ? block + kBlocks32b / 2 : block;
  return (offset & 0x200) ? block + kBlocks16b / 2 : block;
}

}  // namespace

void exec_zeroacc(ExecContext& ctx) {
  const uint32_t mode = ctx.field(Field::Mode);
  const bool use_dst32b = ctx.field(Field::UseDst32b);
  const uint32_t imm10 = ctx.field(Field::Imm10);
  // Revert (Blackhole's clear_zero_flags) un-assigns Undefined instead of assigning it.
  const bool revert = ctx.field(Field::Revert);

  if (mode == kOneRow) {
    const DstWindow dst = ctx.access().dst;
    if (revert) ctx.fail(ErrorKind::UndefinedBehaviour, "Revert with the one-row mode");
    set_row_valid(ctx, dst.dst32 ? DstRegs::hi_row(dst.row) : dst.row, false);
  } else if (mode == kSixteenRows) {
    const uint32_t block = blackhole_relative_block(ctx, imm10 & 0xFF, use_dst32b);
    // An out-of-range block clears nothing: software uses that to apply only the AddrMod (RWCs.md).
    if (use_dst32b && block < kBlocks32b) {
      for (uint32_t i = 0; i < kRowsPerBlock; ++i) set_row_valid(ctx, DstRegs::hi_row(block * kRowsPerBlock + i), revert);
    } else if (!use_dst32b && block < kBlocks16b) {
      for (uint32_t i = 0; i < kRowsPerBlock; ++i) set_row_valid(ctx, block * kRowsPerBlock + i, revert);
    }
  } else {
    if (revert) ctx.fail(ErrorKind::UndefinedBehaviour, fmt::format("Revert with Mode={}", mode));
    const uint32_t first = (mode == kHalfOfDst && (imm10 & 1)) ? kDstRows / 2 : 0;
    const uint32_t count = mode == kHalfOfDst ? kDstRows / 2 : kDstRows;
    // The rows are distinct and nothing was written before them, so they go straight into the write
    // list: note_dst_row's search for an earlier entry made clearing all of Dst quadratic (half a
    // million comparisons, a fifth of a 32x32x256 matmul golden's host instructions).
    std::vector<uint16_t>& written = ctx.result.writes.dst_rows;
    const bool fresh = written.empty();
    if (fresh) written.reserve(count);
    for (uint32_t row = first; row < first + count; ++row) {
      if (!fresh) {
        set_row_valid(ctx, row, false);
        continue;
      }
      ctx.s.Dst.RowValid[row] = false;
      written.push_back(static_cast<uint16_t>(row));
    }
  }

  if (mode == kOneRow || mode == kSixteenRows) ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

}  // namespace tmu::tensix::insn
