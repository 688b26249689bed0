// Datapath diagnosis of GMPOOL: the top row of the 4-row Dst block holds each column's running
// maximum (and with ArgMax the winner's transformed index). The element is recomputed from the state
// the instruction read with the model's own fpu::gmpool_column, at the addresses insn_access gives
// the instruction itself, and the RTL's value explained by a perturbation of its compare order: rows
// visited in plain order, so that a winner is recorded with another row's index and on a tie another
// row wins.
#include <fmt/format.h>

#include "../insn/context.h"
#include "../insn/math_common.h"
#include "scoreboard_internal.h"
#include "tmu/tensix/fpu/gmpool_compare.h"

namespace tmu::tensix::sb_detail {

std::optional<DatapathDiagnosis> diagnose_gmpool_element(const TensixState& before, const Insn& insn, unsigned thread,
                                                         uint32_t storage_row, uint32_t col, uint32_t expected,
                                                         uint32_t actual) {
  if (!insn[Field::Dim16x16]) return std::nullopt;
  TensixState s = before;
  ExecResult scratch;
  insn::ExecContext ctx(s, insn, thread, scratch);
  const MathMode formats = ctx.math_mode();
  const InsnAccess access = ctx.access();
  const bool dst32 = access.dst.dst32, argmax = insn[Field::ArgMax];
  // Only the block's top row is a maximum; the other three are cleared (or carry the index phase).
  const uint32_t top = access.dst.row;
  const uint32_t row = storage_row & (kDstRows - 1);
  const bool is_top = dst32 ? (DstRegs::hi_row(top) == row || DstRegs::lo_row(top) == row)
                            : (top & (kDstRows - 1)) == row;
  if (!is_top) return std::nullopt;

  std::array<uint32_t, 16> column{}, scale{};
  for (unsigned i = 0; i < 16; ++i) {
    column[i] = insn::srca_at(ctx, access.srca.row + i, col);
    scale[i] = insn::srcb_at(ctx, access.srcb.row, i);
  }
  const uint32_t dst_in = dst32 ? ctx.read_dst32(top, col, fpu::kGmpoolUndefinedDst32)
                                : uint32_t{ctx.read_dst16(top, col, fpu::kGmpoolUndefinedDst16)} << 16;
  const auto stored = [&](fpu::GmpoolVisit visit) {
    const uint32_t out = fpu::gmpool_column(column, scale, dst_in, formats.srca_style, dst32, argmax, visit);
    return dst32 ? out : out >> 16;
  };

  DatapathDiagnosis d;
  d.operation = fmt::format("GMPOOL column {}{}: max over SrcA rows {}..{} scaled by SrcB row {}, folded into Dst{} "
                            "row {}", col, argmax ? " with argmax" : "", access.srca.row, access.srca.row + 15,
                            access.srcb.row, dst32 ? "32b" : "16b", top);
  d.srca_slice = d.srcb_slice = "whole datum (compared, not multiplied)";
  std::string values;
  for (unsigned i = 0; i < 16; ++i) values += fmt::format("{}{}", i ? " " : "", hex(column[i], 5));
  d.stage_values = fmt::format("  column (rows 0..15): {}\n  Dst in {}\n  stored result {} (rows visited in plain "
                               "order: {})\n", values, hex(dst_in, 8), hex(stored(fpu::GmpoolVisit::Hardware), 8),
                               hex(stored(fpu::GmpoolVisit::Plain), 8));
  d.recompute_matches_model = stored(fpu::GmpoolVisit::Hardware) == expected;
  if (stored(fpu::GmpoolVisit::Plain) == actual) {
    d.first_stage = "gmpool_compare";
    d.explanation = "the column's rows were visited in plain order 0..15 instead of the hardware's 4..7, 0..3, 8..15: "
                    "a winner among rows 0..7 is recorded with the argmax index of row r ^ 4 (the index is decoded "
                    "from the step), and on a tie another row wins";
  } else if (std::string storage = single_bit_storage(expected, actual, dst32, storage_row, col); !storage.empty()) {
    d.first_stage = "storage";
    d.explanation = std::move(storage);
  } else {
    d.explanation = "no single perturbation of the compare reproduces the RTL's value";
  }
  return d;
}

}  // namespace tmu::tensix::sb_detail
