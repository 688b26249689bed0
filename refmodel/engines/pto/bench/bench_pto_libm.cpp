// tmu::pto lanes/s of the operations the CPU simulator computes through host libm (TEXP, TLOG and
// float TPOW: one MPFR evaluation per lane, src/libm_ops.cpp), beside TADD and TSQRT (tmu/ieee.h
// alone) on the same tiles as the anchor. One 64 x 64 row-major tile per execute, valid everywhere,
// operands random normal numbers of exponents -4..3 (seeded; TLOG and TPOW bases positive).
#include <cstdint>
#include <span>

#include <benchmark/benchmark.h>

#include "tmu/pto/ops.h"
#include "tmu/rng.h"

namespace {

using tmu::pto::ElemType;
using tmu::pto::Op;

constexpr uint64_t kSeed = 0x9710BEEFull;

tmu::pto::Tile random_tile(tmu::Rng& rng, ElemType t, bool positive) {
  const tmu::ieee::Format f = tmu::pto::float_format(t);
  tmu::pto::Tile tile = tmu::pto::make_tile(t, 64, 64, tmu::pto::Layout::RowMajor);
  for (uint64_t& v : tile.bits) {
    const uint64_t sign = !positive && (rng.next() & 1) != 0 ? f.sign_bit() : 0;
    const auto exponent = static_cast<uint64_t>(f.bias() - 4 + static_cast<int>(rng.next() % 8));
    v = sign | (exponent << f.frac_bits) | (rng.next() & f.frac_mask());
  }
  return tile;
}

void BM_PtoLibmLanes(benchmark::State& state, Op op, ElemType t) {
  tmu::Rng rng(kSeed);
  const bool positive = op == Op::TLOG || op == Op::TPOW || op == Op::TSQRT;
  const tmu::pto::Tile a = random_tile(rng, t, positive), b = random_tile(rng, t, false);
  tmu::pto::Tile dst = a;
  const tmu::pto::Tile* srcs[] = {&a, &b};
  for (auto _ : state) {
    tmu::pto::execute(tmu::pto::Profile::CpuSim, op, dst, std::span<const tmu::pto::Tile* const>(srcs, tmu::pto::source_count(op)));
    benchmark::DoNotOptimize(dst.bits.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(a.bits.size()));
}

BENCHMARK_CAPTURE(BM_PtoLibmLanes, tadd_f32, Op::TADD, ElemType::F32)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PtoLibmLanes, tsqrt_f32, Op::TSQRT, ElemType::F32)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PtoLibmLanes, texp_f32, Op::TEXP, ElemType::F32)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PtoLibmLanes, texp_f16, Op::TEXP, ElemType::F16)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PtoLibmLanes, tlog_f32, Op::TLOG, ElemType::F32)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PtoLibmLanes, tpow_f32, Op::TPOW, ElemType::F32)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PtoLibmLanes, tpow_f16, Op::TPOW, ElemType::F16)->Unit(benchmark::kMicrosecond);

}  // namespace
