// MVMUL, DOTPV, GAPOOL (MVMUL.md, DOTPV.md, GAPOOL.md): Dst += SrcB @ SrcA on aligned blocks, one
// fidelity phase per instruction. The arithmetic of one output element is fpu::mvmul_element; the
// instruction runs it for the whole block through fpu::mvmul_block, which computes the same values.
#include <array>

#include <fmt/format.h>

#include "handlers.h"
#include "math_common.h"
#include "tmu/tensix/fpu/mvmul_block.h"

namespace tmu::tensix::insn {

namespace {

// The block's shape and rows (8 output rows, 7 with BroadcastSrcBRow of which the even ones are
// written, 4 for GAPOOL) are insn_access's.
void matmul(ExecContext& ctx) {
  if (!ctx.wait_for_src()) return;
  const fpu::FpuMode mode = fpu_mode(ctx, ctx.math_mode());
  const InsnAccess access = ctx.access();
  const bool dst32 = access.dst.dst32;

  const uint32_t srca_row = access.srca.row;
  const uint32_t srcb_row = access.srcb.row;
  ctx.latch_srca_row(srca_row);

  // Whole rows, as srca_at / srcb_at read them element by element.
  const SrcBank& srca_bank = ctx.s.SrcA[ctx.s.MatrixUnit.SrcABank];
  const SrcBank& srcb_bank = ctx.s.SrcB[ctx.s.MatrixUnit.SrcBBank];
  fpu::MvmulBlock block;
  for (unsigned k = 0; k < fpu::kDotLength; ++k) block.srca[k] = srca_bank.Rows[(srca_row + k) & (kSrcRows - 1)];

  // Output row n of the block is Dst row rows[n]. With a broadcast only the even rows are
  // written (rows 1, 3, 5 stay untouched), all from the same SrcB row.
  std::array<uint32_t, fpu::kBlockMaxRows> rows{};
  block.rows = 0;
  for (unsigned n = 0; n < access.dst.rows; ++n) {
    const unsigned i = n * access.dst.step;
    block.rows++;
    rows[n] = access.dst.row + i;
    block.srcb[n] = srcb_bank.Rows[(srcb_row + (access.srcb.one_row ? 0 : i)) & (kSrcRows - 1)];
    // Undefined rows accumulate from zero (MVMUL.md: "MVMUL reads undefined rows as zero"). Every
    // element reads a location no other element of the block writes, so reading the whole block
    // before writing any of it reads the same values.
    if (dst32) ctx.read_dst32_row(rows[n], 0, block.dst[n]);
    else ctx.read_dst16_row(rows[n], 0, block.dst[n]);
  }

  fpu::mvmul_block(block, mode);

  for (unsigned n = 0; n < block.rows; ++n) {
    if (dst32) ctx.write_dst32_row(rows[n], block.dst[n]);
    else ctx.write_dst16_row(rows[n], block.dst[n]);
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
  matmul(ctx);
}

void exec_dotpv(ExecContext& ctx) {
  // Blackhole's TT_OP_DOTPV has a dest_accum_en argument at bit 21; the ISA's DOTPV (= MVMUL without
  // broadcast) accumulates and gives that bit no meaning, so a set bit is refused, not guessed at.
  if (ctx.field(Field::AddDst))
    ctx.fail(ErrorKind::Unsupported, "AddDst=1 on DOTPV has no documented behaviour");
  matmul(ctx);
}

void exec_gapool(ExecContext& ctx) {
  require_dim16x16(ctx);
  matmul(ctx);
}

}  // namespace tmu::tensix::insn
