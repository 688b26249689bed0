// The LLK sequences the audit runs (tmu/tensix/llk/sequence.h) on the bit-exact model: 32x32 output tiles
// per second of the matmul sequence (tt-llk llk_math_matmul.h, 32x32 BF16 tiles, FP32 Dst, K = 32:
// one tile pair, every fidelity pass with its Dst snapshots) and of the ELWMUL sequence. This is the
// C++ side of bench/bench_python.py's comparison: tmu.tensix.matmul on the same shape does the same
// call per output tile plus the numpy conversions around it.
//
// Operands are make_matmul_case's uniform draws (seeded), rounded into BF16 as the audit draws them.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "tmu/audit/inputs.h"
#include "tmu/tensix/llk/matmul_tiles.h"
#include "tmu/tensix/llk/sequence.h"

namespace {

constexpr uint64_t kSeed = 0x5E9A7C31ull;

void BM_MatmulSequence(benchmark::State& bs, unsigned phases) {
  const tmu::audit::MatmulCase c =
      tmu::audit::make_matmul_case(tmu::audit::SrcFormat::BF16, tmu::audit::Distribution::Uniform, 1, kSeed);
  tmu::tensix::llk::RunConfig cfg;
  cfg.phases = phases;
  for (auto _ : bs) {
    tmu::tensix::llk::SequenceTrace t = tmu::tensix::llk::run_matmul_sequence(c, cfg);
    benchmark::DoNotOptimize(t.result.data());
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()));  // output tiles
}
BENCHMARK_CAPTURE(BM_MatmulSequence, bf16_32x32x32_LoFi, 1u);
BENCHMARK_CAPTURE(BM_MatmulSequence, bf16_32x32x32_HiFi4, 4u);

// What tmu.tensix.matmul runs per output tile of a large golden: one 32x32 output tile over K = 256
// (eight K tiles accumulating in Dst), BF16, FP32 Dst, without the per-pass snapshots (the golden
// reads only the result unless snapshots=True), by its tile route (the default) and by the
// instructions. items/s are multiply-accumulates per second.
void BM_MatmulGoldenTile(benchmark::State& bs, unsigned phases, tmu::tensix::llk::Route route) {
  constexpr unsigned kTiles = 8;
  const tmu::audit::MatmulCase c =
      tmu::audit::make_matmul_case(tmu::audit::SrcFormat::BF16, tmu::audit::Distribution::Uniform, kTiles, kSeed);
  tmu::tensix::llk::RunConfig cfg;
  cfg.phases = phases;
  cfg.pass_snapshots = false;
  for (auto _ : bs) {
    std::vector<double> r = tmu::tensix::llk::matmul_result(c, cfg, route);
    benchmark::DoNotOptimize(r.data());
  }
  constexpr int64_t kMacs = int64_t{tmu::audit::kTile} * tmu::audit::kTile * tmu::audit::kTile * kTiles;
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * kMacs);
}
BENCHMARK_CAPTURE(BM_MatmulGoldenTile, bf16_32x32x256_LoFi_tiles, 1u, tmu::tensix::llk::Route::Tiles);
BENCHMARK_CAPTURE(BM_MatmulGoldenTile, bf16_32x32x256_HiFi4_tiles, 4u, tmu::tensix::llk::Route::Tiles);
BENCHMARK_CAPTURE(BM_MatmulGoldenTile, bf16_32x32x256_LoFi_instructions, 1u, tmu::tensix::llk::Route::Instructions);
BENCHMARK_CAPTURE(BM_MatmulGoldenTile, bf16_32x32x256_HiFi4_instructions, 4u, tmu::tensix::llk::Route::Instructions);

void BM_EltwiseMulSequence(benchmark::State& bs, unsigned phases) {
  const tmu::audit::EltwiseCase c =
      tmu::audit::make_eltwise_case(tmu::audit::SrcFormat::BF16, tmu::audit::Distribution::Uniform, kSeed);
  tmu::tensix::llk::RunConfig cfg;
  cfg.phases = phases;
  for (auto _ : bs) {
    tmu::tensix::llk::SequenceTrace t = tmu::tensix::llk::run_eltwise_sequence(c, cfg);
    benchmark::DoNotOptimize(t.result.data());
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()));
}
BENCHMARK_CAPTURE(BM_EltwiseMulSequence, bf16_32x32_HiFi4, 4u);

}  // namespace
