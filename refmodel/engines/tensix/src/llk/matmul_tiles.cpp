// The matmul LLK's MVMULs run straight on the block kernel (matmul_tiles.h).
#include "tmu/tensix/llk/matmul_tiles.h"

#include <stdexcept>

#include "tmu/tensix/fpu/mvmul_block.h"
#include "tmu/tensix/llk/llk_machine.h"
#include "tmu/tensix/llk/src_datum.h"

namespace tmu::tensix::llk {

// The replay B0A0 B0A0 B0A1 B0A1, B2A0 B2A0 B2A1 B2A1, B1A2 ..., B3A3 with its slots 0 1 0 2 0 1 0 4
// 0 1 0 2 0 1 0 5: slot 0 steps SrcB and Dst by 8; 1 steps SrcA by 16 and returns SrcB to its
// carry; 2 returns SrcA to its carry and moves SrcB's by 32; 4 moves SrcA's carry by 32, SrcB's by
// 48 (64 + 16: the rows wrap) and returns Dst to its carry (row 0); 5 clears all three. Dst rows
// 0, 16, 32, 48 start the output faces F0..F3; Src rows 0, 16, 32, 48 hold the operand tiles' faces.
const std::array<ReplayStep, 16> kMatmulReplay = {{
    {0, 0, 0},   {0, 8, 8},   {16, 0, 16},  {16, 8, 24},  {0, 32, 32},  {0, 40, 40},  {16, 32, 48},  {16, 40, 56},
    {32, 16, 0}, {32, 24, 8}, {48, 16, 16}, {48, 24, 24}, {32, 48, 32}, {32, 56, 40}, {48, 48, 48}, {48, 56, 56},
}};

namespace {

using Bank = std::array<std::array<uint32_t, kFace>, 4 * kFace>;

// Bank row face*16 + r, column col holds tile element ((face/2)*16 + r, (face%2)*16 + col), as
// run_matmul_sequence's unpacker writes it.
template <typename At>
void fill_bank(Bank& bank, const At& at) {
  for (unsigned row = 0; row < bank.size(); ++row) {
    const unsigned face = row / kFace, r = (face / 2) * kFace + row % kFace;
    for (unsigned col = 0; col < kFace; ++col) bank[row][col] = at(r, (face % 2) * kFace + col);
  }
}

}  // namespace

bool tile_route_applies(const RunConfig& cfg) {
  return cfg.perturb.kind == Perturbation::Kind::None && !cfg.pass_snapshots && cfg.phases >= 1 && cfg.phases <= 4;
}

std::vector<double> matmul_tile_result(const MatmulCase& c, const RunConfig& cfg) {
  if (!tile_route_applies(cfg))
    throw std::invalid_argument("matmul tile route: only an unperturbed sequence without pass snapshots");
  const unsigned depth = c.depth();
  const bool converted = !c.in0_datums.empty() || !c.in1_datums.empty();
  if (converted && (c.in0_datums.size() != size_t{kTile} * depth || c.in1_datums.size() != size_t{depth} * kTile))
    throw std::invalid_argument("matmul tile route: the matmul case's datums do not match its tiles");
  const SrcFormat f = c.format;
  auto left = [&](unsigned i, unsigned k) { return converted ? c.in0_datums[i * depth + k] : src_datum(c.left(i, k), f); };
  auto right = [&](unsigned k, unsigned j) { return converted ? c.in1_datums[k * kTile + j] : src_datum(c.right(k, j), f); };

  fpu::FpuMode mode;
  mode.srca_style = mode.srcb_style = src_style(f);
  mode.dst32 = cfg.dst32;
  mode.arch = cfg.arch;
  // ZEROACC Mode=3 leaves every Dst row reading as zero.
  std::array<std::array<uint32_t, kFace>, 4 * kFace> dst{};
  Bank srca, srcb;
  fpu::MvmulBlock block;
  block.rows = fpu::kBlockMaxRows;
  for (unsigned t = 0; t < c.tiles; ++t) {
    const unsigned k0 = t * kTile;
    fill_bank(srcb, [&](unsigned r, unsigned cc) { return left(r, k0 + cc); });
    fill_bank(srca, [&](unsigned r, unsigned cc) { return right(k0 + r, cc); });
    // SETRWC clears the phase counter before the first pass; each pass but the last advances it.
    for (unsigned pass = 0; pass < cfg.phases; ++pass) {
      mode.fidelity_phase = pass;
      for (const ReplayStep& s : kMatmulReplay) {
        for (unsigned k = 0; k < fpu::kDotLength; ++k) block.srca[k] = srca[s.srca_row + k];
        for (unsigned i = 0; i < fpu::kBlockMaxRows; ++i) {
          block.srcb[i] = srcb[s.srcb_row + i];
          block.dst[i] = dst[s.dst_row + i];
        }
        fpu::mvmul_block(block, mode);
        for (unsigned i = 0; i < fpu::kBlockMaxRows; ++i) {
          if (cfg.dst32) {
            dst[s.dst_row + i] = block.dst[i];
          } else {  // Dst keeps the 16-bit word
            for (unsigned j = 0; j < kFace; ++j) dst[s.dst_row + i][j] = block.dst[i][j] & 0xffffu;
          }
        }
      }
    }
  }
  std::vector<double> result(kTile * kTile);
  for (unsigned i = 0; i < kTile; ++i)
    for (unsigned j = 0; j < kTile; ++j) result[i * kTile + j] = dst_word_value(dst[tile_row(i, j)][j % kFace], f, cfg.dst32);
  return result;
}

std::vector<double> matmul_result(const MatmulCase& c, const RunConfig& cfg, Route route) {
  if (route == Route::Tiles || (route == Route::Auto && tile_route_applies(cfg))) return matmul_tile_result(c, cfg);
  return run_matmul_sequence(c, cfg).result;
}

}  // namespace tmu::tensix::llk
