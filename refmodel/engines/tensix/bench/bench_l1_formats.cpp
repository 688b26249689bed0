// The packer's and unpackers' L1 conversions (tmu/tensix/l1_formats.h) over one 32x32 tile: elements
// per second on one core for an FP32 Dst packed to BF16 (rounding), to BFP8 (E8M6 then block
// assembly), BF16 Dst to BFP4, FP32 with L1 accumulation, and the unpackers reading BF16 and BFP8.
// Inputs are random FP32 numbers with exponents 120..135 from a fixed seed.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "tmu/rng.h"
#include "tmu/tensix/l1_formats.h"

namespace {

using namespace tmu::tensix;
constexpr size_t kTile = 1024;

std::vector<uint32_t> fp32_tile() {
  tmu::Rng gen(0x11F0A7u);
  std::vector<uint32_t> v(kTile);
  for (uint32_t& x : v) {
    const uint32_t r = gen.bits(32);
    x = (r & 0x807FFFFFu) | ((120u + ((r >> 23) & 0xFu)) << 23);
  }
  return v;
}

void run_pack(benchmark::State& bs, PackSource from, L1Format to, bool acc) {
  std::vector<uint32_t> dst = fp32_tile();
  if (!pack_source_is_32bit(from)) {
    for (uint32_t& x : dst) x >>= 16;
  }
  PackConfig c;
  c.from = from, c.to = to, c.l1_acc = acc;
  const PackPlan p = plan_pack(c);
  const std::vector<uint8_t> before(l1_byte_count(to, kTile), 0x3F);
  for (auto _ : bs) {
    std::vector<uint8_t> out = pack_to_l1(p, dst, acc ? std::span<const uint8_t>(before) : std::span<const uint8_t>());
    benchmark::DoNotOptimize(out.data());
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * static_cast<int64_t>(kTile));
}

void run_unpack(benchmark::State& bs, L1Format from) {
  PackConfig c;
  c.from = PackSource::FP32, c.to = from;
  const std::vector<uint8_t> l1 = pack_to_l1(plan_pack(c), fp32_tile());
  UnpackConfig u;
  u.from = from;
  for (auto _ : bs) {
    std::vector<uint32_t> out = unpack_from_l1(u, l1, kTile);
    benchmark::DoNotOptimize(out.data());
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * static_cast<int64_t>(kTile));
}

void BM_PackFp32ToBf16(benchmark::State& bs) { run_pack(bs, PackSource::FP32, L1Format::BF16, false); }
void BM_PackFp32ToBfp8(benchmark::State& bs) { run_pack(bs, PackSource::FP32, L1Format::BFP8, false); }
void BM_PackBf16ToBfp4(benchmark::State& bs) { run_pack(bs, PackSource::BF16, L1Format::BFP4, false); }
void BM_PackFp32AccumulateFp32(benchmark::State& bs) { run_pack(bs, PackSource::FP32, L1Format::FP32, true); }
void BM_UnpackBf16(benchmark::State& bs) { run_unpack(bs, L1Format::BF16); }
void BM_UnpackBfp8(benchmark::State& bs) { run_unpack(bs, L1Format::BFP8); }

BENCHMARK(BM_PackFp32ToBf16);
BENCHMARK(BM_PackFp32ToBfp8);
BENCHMARK(BM_PackBf16ToBfp4);
BENCHMARK(BM_PackFp32AccumulateFp32);
BENCHMARK(BM_UnpackBf16);
BENCHMARK(BM_UnpackBfp8);

}  // namespace
