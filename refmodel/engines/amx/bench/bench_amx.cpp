// AMX matfp per lane width: operations/s and lane FMAs/s of the model (tmu::amx::execute_matfp, all
// lanes enabled, decode included), beside the host's own fused multiply-add over the same lanes and
// the same data (std::fma / std::fmaf) as the physical anchor. The model runs the finite lanes on
// that same host fma where tmu/ieee_host.h shows it gives tmu/ieee.h's bits, plus its decoding, lane
// moves, checks and (for f16 and bf16 Z) a second rounding; the anchor is the host's FPU alone for
// binary32 and binary64. f16 and bf16 have no host FMA here, so their anchor is binary32's on the
// same lane count.
//
// X and Y hold random normal numbers of exponents -4..3 (seeded), Z starts at 0, and iterations
// alternate z += x*y and z -= x*y so that Z stays bounded instead of overflowing to infinity.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <benchmark/benchmark.h>

#include "tmu/amx/matfp.h"
#include "tmu/ieee.h"
#include "tmu/rng.h"

namespace {

using tmu::amx::LaneWidth;
using tmu::amx::Version;

constexpr uint64_t kSeed = 0xA3C0FFEEull;

struct Width {
  unsigned code;
  Version version;
  tmu::ieee::Format xy;
};

// A random normal number of `f` with unbiased exponent -4..3.
uint64_t random_value(tmu::Rng& rng, tmu::ieee::Format f) {
  const uint64_t sign = rng.next() & 1 ? f.sign_bit() : 0;
  const uint64_t exponent = static_cast<uint64_t>(f.bias() - 4 + static_cast<int>(rng.next() % 8));
  return sign | (exponent << f.frac_bits) | (rng.next() & f.frac_mask());
}

tmu::amx::State random_state(const Width& w) {
  tmu::Rng rng(kSeed);
  tmu::amx::State s;
  const unsigned bytes = w.xy.width() / 8;
  for (unsigned lane = 0; lane < tmu::amx::kPoolBytes / bytes; ++lane) {
    const uint64_t x = random_value(rng, w.xy), y = random_value(rng, w.xy);
    std::memcpy(&s.x[lane * bytes], &x, bytes);  // little-endian host, as the model's lane views
    std::memcpy(&s.y[lane * bytes], &y, bytes);
  }
  return s;
}

void BM_Matfp(benchmark::State& bs, Width w) {
  tmu::amx::State s = random_state(w);
  const LaneWidth lw = tmu::amx::lane_width(w.code, w.version);
  const unsigned lanes = tmu::amx::kRowBytes / tmu::amx::xy_bytes(lw);
  const uint64_t add = uint64_t{w.code} << 42;
  const uint64_t sub = add | (uint64_t{tmu::amx::kAluSub} << 47);
  bool minus = false;
  for (auto _ : bs) {
    benchmark::DoNotOptimize(tmu::amx::execute_matfp(s, minus ? sub : add, w.version));
    minus = !minus;
  }
  benchmark::DoNotOptimize(s.z[0][0]);
  const double fmas = static_cast<double>(lanes) * lanes;
  bs.counters["lane_fmas_per_s"] = benchmark::Counter(fmas, benchmark::Counter::kIsIterationInvariantRate);
  bs.counters["ops_per_s"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

// The host's FMA over lanes x lanes products, z[j][i] +-= x[i] * y[j].
template <typename T>
void BM_HostFma(benchmark::State& bs, unsigned lanes) {
  tmu::Rng rng(kSeed);
  std::vector<T> x(lanes), y(lanes), z(lanes * lanes, T(0));
  for (unsigned i = 0; i < lanes; ++i) {
    x[i] = static_cast<T>(std::ldexp(1.0 + static_cast<double>(rng.next() % 1024) / 1024, static_cast<int>(rng.next() % 8) - 4));
    y[i] = static_cast<T>(std::ldexp(1.0 + static_cast<double>(rng.next() % 1024) / 1024, static_cast<int>(rng.next() % 8) - 4));
  }
  T sign = 1;
  for (auto _ : bs) {
    for (unsigned j = 0; j < lanes; ++j) {
      const T yj = sign * y[j];
      for (unsigned i = 0; i < lanes; ++i) z[j * lanes + i] = std::fma(x[i], yj, z[j * lanes + i]);
    }
    benchmark::DoNotOptimize(z.data());
    benchmark::ClobberMemory();
    sign = -sign;
  }
  const double fmas = static_cast<double>(lanes) * lanes;
  bs.counters["lane_fmas_per_s"] = benchmark::Counter(fmas, benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK_CAPTURE(BM_Matfp, f16, Width{2, Version::M1, tmu::ieee::kBinary16});
BENCHMARK_CAPTURE(BM_Matfp, bf16_M2, Width{0, Version::M2, tmu::ieee::kBfloat16});
BENCHMARK_CAPTURE(BM_Matfp, f16f32, Width{3, Version::M1, tmu::ieee::kBinary16});
BENCHMARK_CAPTURE(BM_Matfp, bf16f32_M2, Width{1, Version::M2, tmu::ieee::kBfloat16});
BENCHMARK_CAPTURE(BM_Matfp, f32, Width{4, Version::M1, tmu::ieee::kBinary32});
BENCHMARK_CAPTURE(BM_Matfp, f64, Width{7, Version::M1, tmu::ieee::kBinary64});
void BM_HostFma_f32(benchmark::State& bs, unsigned lanes) { BM_HostFma<float>(bs, lanes); }
void BM_HostFma_f64(benchmark::State& bs, unsigned lanes) { BM_HostFma<double>(bs, lanes); }
BENCHMARK_CAPTURE(BM_HostFma_f32, lanes_32x32, 32u);  // the anchor of the 16-bit lane widths
BENCHMARK_CAPTURE(BM_HostFma_f32, lanes_16x16, 16u);
BENCHMARK_CAPTURE(BM_HostFma_f64, lanes_8x8, 8u);

}  // namespace
