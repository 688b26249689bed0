// tt-llk's reduce LLK (llk_math_reduce.h, Wormhole B0 and Blackhole alike for floating-point data,
// enforce_fp32_accumulation off) run on the bit-exact model, with the unpacker of
// llk_unpack_reduce.h played by the sequence: per face of the input tile, SrcA is zeroed and the face
// written to its rows 0..15 (transposed within the face for REDUCE_ROW, the unpacker's haloize mode),
// SrcB's row 0 gets 16 copies of the scaler (the first row of tt-metal's scaler tile), and both banks
// are handed to the Matrix Unit. The math side, per 32x32 tile, with every tile of one reduction
// accumulating into the same Dst tile (tt-metal's reduce kernels keep Dst across the reduced dim):
//
//   REDUCE_COL:    pool face 0 into Dst row 0, face 1 into row 16, release; face 2 into row 0, face 3
//                  into row 16: tile row 0 of Dst holds the column results.
//   REDUCE_ROW:    pool transposed faces 0 and 1 into Dst row 0, move it to SrcB row 16 (MOVD2B),
//                  TRNSPSRCB, move it again, ZEROSRC SrcA, two ELWADDs write SrcB rows 16..31 into Dst
//                  rows 0..15; the same for faces 2 and 3 at Dst row 32: tile column 0 holds the row
//                  results (through SrcB, so a 32-bit Dst value is rounded to a Src datum on the way).
//   REDUCE_SCALAR: pool the four faces into Dst row 4, move it through SrcB (TRNSPSRCB) into SrcA's
//                  column 0 (MOVB2A), clear row 4 (ZEROACC), pool once more into Dst row 0: element
//                  (0, 0). The scaler multiplies twice (a scaler s gives s^2 times the sum).
//
// Pooling is GAPOOL for SUM and AVG (Dst += SrcB @ SrcA: scaler times the column sums; above LoFi
// the LLK's MOP runs one GAPOOL per fidelity phase) and GMPOOL for MAX (the scaler's exponent only,
// GMPOOL.md). SUM and AVG are the same instructions: the average is the caller's scaler.
#pragma once

#include <cstdint>
#include <vector>

#include "tmu/tensix/llk/sequence.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;

enum class PoolType : uint8_t { Sum, Avg, Max };         // tt-llk PoolType
enum class ReduceDim : uint8_t { Row, Col, Scalar };     // tt-llk ReduceDim: REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR

struct ReduceCase {
  SrcFormat format = SrcFormat::BF16;
  std::vector<std::vector<SrcNumber>> tiles;  // 32x32 row-major, reduced into one Dst tile in this order
  SrcNumber scaler;
};

struct ReduceConfig {
  RunConfig run;  // format, fidelity phases, Dst mode, arch; run.perturb is not used
  PoolType pool = PoolType::Sum;
  ReduceDim dim = ReduceDim::Col;
  // GMPOOL's ArgMax=1 instead of tt-llk's INDEX_DIS (the LLK never sets it): only MAX, REDUCE_COL,
  // BF16 or FP16 sources, a 32-bit Dst, at most 8 tiles (16 GMPOOLs per Dst row); tmu::Error
  // (Unsupported) with the reason otherwise.
  bool argmax = false;
};

struct ReduceTrace {
  // The results: 32 (REDUCE_COL: tile row 0, by column), 32 (REDUCE_ROW: tile column 0, by row) or
  // 1 (REDUCE_SCALAR), exact; after_tile[t] the same after the t-th tile.
  std::vector<double> values;
  std::vector<std::vector<double>> after_tile;
  const OutFormat* format = nullptr;  // what the values are numbers of
  // With argmax: Dst32b's low 12 bits per column (bits 11:8 the index phase, 7:0 the index,
  // GMPOOL.md) and the input row they name (gmpool_argmax_row).
  std::vector<uint16_t> argmax_raw;
  std::vector<unsigned> argmax_row;
};

ReduceTrace run_reduce_sequence(const ReduceCase& c, const ReduceConfig& cfg);

// The row of a REDUCE_COL input that GMPOOL's index names: the index byte is 16 * phase + T(i), phase
// counting the GMPOOLs into the Dst row (the p-th pools input rows 16p..16p+15) and T GMPOOL.md's
// NONLINEAR_I_TRANSFORM of the row i within them (its own inverse).
unsigned gmpool_argmax_row(uint32_t raw);

}  // namespace tmu::tensix::llk
