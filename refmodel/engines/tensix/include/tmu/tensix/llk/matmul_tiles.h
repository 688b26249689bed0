// The matmul LLK's arithmetic without its instructions: run_matmul_sequence (sequence.h) issues, per
// K tile and fidelity pass, a replay of 16 MVMULs whose address modifiers walk fixed SrcA, SrcB and
// Dst rows; what each MVMUL computes is fpu::mvmul_block on those rows. The tile route calls the
// kernel on the same rows in the same order directly from the operands' Src datums, without
// assembling, decoding or executing instructions, without the address counters and without the Src
// banks' hand-over. The instruction route stays the reference: the differential harness
// refmodel/engines/tensix/fuzz/diff_matmul_tiles.cpp and tests/unit/test_llk_matmul_tiles.cpp check
// that both give the same bits.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tmu/tensix/llk/sequence.h"

namespace tmu::tensix::llk {

// How a golden runs the matmul LLK: Tiles where tile_route_applies, else the instructions.
enum class Route : uint8_t { Auto, Instructions, Tiles };

// One MVMUL of the replay: the first SrcA row it reads (16 rows), the first SrcB row (8 rows) and
// the first Dst row it accumulates into (8 rows), as matmul_configure_addrmod's ADDR_MODs 0, 1, 2,
// 4 and 5 move the counters from zero (Src rows wrap at 64).
struct ReplayStep {
  uint8_t srca_row, srcb_row, dst_row;
};
extern const std::array<ReplayStep, 16> kMatmulReplay;

// The tile route computes what the instructions would for an unperturbed sequence; it keeps no
// snapshots between passes.
bool tile_route_applies(const RunConfig& cfg);

// run_matmul_sequence(c, cfg).result (exact values, row-major 32x32), computed by the tile route.
// c gives its operands as Src datums (in0_datums, in1_datums) or as numbers. std::invalid_argument
// if !tile_route_applies(cfg) or the datums do not match c.tiles.
std::vector<double> matmul_tile_result(const MatmulCase& c, const RunConfig& cfg);

// run_matmul_sequence's result by the route asked for (Auto: Tiles when it applies).
std::vector<double> matmul_result(const MatmulCase& c, const RunConfig& cfg, Route route);

}  // namespace tmu::tensix::llk
