// The arithmetic of one MVMUL output element alone (fpu::mvmul_element: 16 fidelity-slice products,
// two aligned group sums, accumulate/normalise/round), without instruction decode, Src/Dst access or
// write logging. Inputs are random BF16 Src datums from a fixed seed; the Dst value cycles through
// the pool so that the work does not depend on a growing accumulator.
#include <array>
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "tmu/tensix/formats.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/tensix/fpu/mvmul_block.h"
#include "tmu/rng.h"

namespace {

constexpr uint32_t kSeed = 0x7A115EEDu;
constexpr unsigned kPoolSize = 256;  // small enough to stay in L1

struct ElementInputs {
  std::array<uint32_t, tmu::tensix::fpu::kDotLength> srca_column;
  std::array<uint32_t, tmu::tensix::fpu::kDotLength> srcb_row;
  uint32_t dst_stored;
};

// BF16 datums with exponents 120..135, as in bench_matrix_unit.cpp; Dst values are FP32 numbers of
// the same range, stored in the Dst32b layout (or their BF16 high half for a 16-bit Dst).
std::vector<ElementInputs> make_pool(bool dst32) {
  tmu::Rng gen(kSeed);
  auto bf16_datum = [&gen] {
    const uint32_t r = gen.bits(32);
    return tmu::tensix::src_layout::assemble(r & 1u, ((r >> 1) & 0x7Fu) << 3, 120u + ((r >> 8) & 0xFu));
  };
  std::vector<ElementInputs> pool(kPoolSize);
  for (ElementInputs& in : pool) {
    for (uint32_t& d : in.srca_column) d = bf16_datum();
    for (uint32_t& d : in.srcb_row) d = bf16_datum();
    const uint32_t r = gen.bits(32);
    const uint32_t fp32 = (r & 0x807FFFFFu) | ((120u + ((r >> 23) & 0xFu)) << 23);
    in.dst_stored = dst32 ? tmu::tensix::dst32_from_fp32(fp32) : tmu::tensix::dst16_from_bf16(static_cast<uint16_t>(fp32 >> 16));
  }
  return pool;
}

// One iteration = one element; the fidelity phase walks 0..3 when hifi4 is set.
void run_elements(benchmark::State& bs, bool dst32, bool hifi4) {
  const std::vector<ElementInputs> pool = make_pool(dst32);
  tmu::tensix::fpu::FpuMode mode;
  mode.srca_style = mode.srcb_style = tmu::tensix::SrcStyle::BF16;
  mode.dst32 = dst32;
  mode.arch = tmu::tensix::Arch::Blackhole;
  unsigned i = 0;
  for (auto _ : bs) {
    const ElementInputs& in = pool[i % kPoolSize];
    if (hifi4) mode.fidelity_phase = i & 3;
    benchmark::DoNotOptimize(tmu::tensix::fpu::mvmul_element(in.srca_column, in.srcb_row, in.dst_stored, mode));
    ++i;
  }
  const auto n = static_cast<double>(bs.iterations());
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["MAC/s"] = benchmark::Counter(n * tmu::tensix::fpu::kDotLength, benchmark::Counter::kIsRate);
  bs.SetLabel(fmt::format("seed=0x{:08X} BF16 x BF16, {} Dst, {}", kSeed, dst32 ? "FP32" : "BF16",
                          hifi4 ? "phases 0..3" : "phase 0"));
}

void BM_MvmulElement_Bf16_HiFi4_Fp32Dst(benchmark::State& bs) { run_elements(bs, true, true); }
void BM_MvmulElement_Bf16_LoFi_Bf16Dst(benchmark::State& bs) { run_elements(bs, false, false); }
BENCHMARK(BM_MvmulElement_Bf16_HiFi4_Fp32Dst);
BENCHMARK(BM_MvmulElement_Bf16_LoFi_Bf16Dst);

// The block kernel alone (fpu::mvmul_block: one MVMUL's 8x16 outputs, no decode, Src/Dst access or
// write logging) on each instruction set this host runs, in one run: BF16 x BF16 from the pool above,
// FP32 Dst, the fidelity phase walking 0..3. items/s are MVMULs per second; an unavailable set is
// skipped with a message.
void BM_MvmulBlock(benchmark::State& bs, tmu::tensix::fpu::BlockKernelIsa isa) {
  namespace fpu = tmu::tensix::fpu;
  if (!fpu::block_kernel_isa_available(isa)) {
    bs.SkipWithError(fmt::format("{} is not available on this host", fpu::block_kernel_isa_name(isa)).c_str());
    return;
  }
  const std::vector<ElementInputs> pool = make_pool(true);
  fpu::MvmulBlock block;
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < fpu::kBlockColumns; ++j) block.srca[k][j] = pool[j].srca_column[k];
  for (unsigned i = 0; i < fpu::kBlockMaxRows; ++i) {
    block.srcb[i] = pool[fpu::kBlockColumns + i].srcb_row;
    block.dst[i].fill(pool[i].dst_stored);
  }
  const fpu::MvmulBlock start = block;
  fpu::FpuMode mode;
  mode.srca_style = mode.srcb_style = tmu::tensix::SrcStyle::BF16;
  mode.dst32 = true;
  mode.arch = tmu::tensix::Arch::Blackhole;
  unsigned i = 0;
  for (auto _ : bs) {
    mode.fidelity_phase = i & 3;
    // Back to the start after each HiFi4 pass, so Dst does not drift with the iterations.
    if ((i & 3) == 0) block.dst = start.dst;
    fpu::mvmul_block(block, mode, isa);
    benchmark::DoNotOptimize(block.dst);
    ++i;
  }
  bs.SetItemsProcessed(bs.iterations());
  bs.counters["MAC/s"] = benchmark::Counter(static_cast<double>(bs.iterations()) * fpu::kBlockMaxRows * fpu::kBlockColumns *
                                                fpu::kDotLength, benchmark::Counter::kIsRate);
  bs.SetLabel(fmt::format("seed=0x{:08X} {}, BF16 x BF16, FP32 Dst, phases 0..3", kSeed, fpu::block_kernel_isa_name(isa)));
}
BENCHMARK_CAPTURE(BM_MvmulBlock, portable, tmu::tensix::fpu::BlockKernelIsa::Portable);
BENCHMARK_CAPTURE(BM_MvmulBlock, avx2, tmu::tensix::fpu::BlockKernelIsa::X86_64_Avx2);
BENCHMARK_CAPTURE(BM_MvmulBlock, avx512, tmu::tensix::fpu::BlockKernelIsa::X86_64_Avx512);

}  // namespace
