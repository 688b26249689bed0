// Stimulus generation speed (tb/stim): a random co-simulation stream must come faster than the RTL
// can take it, so the generator (which dry-runs every instruction on its shadow state) is never the
// regression's bottleneck. Reported per instruction, both architectures.
#include <benchmark/benchmark.h>

#include "stim/stimulus.h"

namespace {

void BM_RandomStream(benchmark::State& state) {
  const auto arch = state.range(0) ? tmu::tensix::Arch::Wormhole : tmu::tensix::Arch::Blackhole;
  constexpr uint64_t kCount = 20000;
  uint64_t seed = 1;
  for (auto _ : state) {
    auto s = tmu::tb::make_stimulus("random", arch, seed++, kCount);
    uint64_t n = 0;
    while (auto step = s->next()) n += step->kind == tmu::tb::Step::Kind::Instruction;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kCount));
  state.SetLabel(tmu::tensix::arch_name(arch));
}
BENCHMARK(BM_RandomStream)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
