// PTO elementwise operations: lane results per second (items_per_second) of tmu::pto::execute on a
// 64x64 row-major tile, valid region whole, profile cpusim, each beside a plain host loop of the same
// operation on the same data as the physical anchor (BM_Host_*). The model's figure includes the
// operand checks, the copy of dst it writes into (so that a refusal leaves dst as it was) and the
// move back; the anchor is the compiler's loop over contiguous host numbers and nothing else.
//
// Operands are drawn (seeded) so that no lane is refused: divisors nonzero, shift counts below the
// width, float operands normal numbers of exponents -4..3, positive for TSQRT, so that no lane takes
// the model's NaN path.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include <benchmark/benchmark.h>

#include "tmu/ieee.h"
#include "tmu/pto/ops.h"
#include "tmu/pto/tile.h"
#include "tmu/rng.h"

namespace {

using tmu::pto::CmpMode;
using tmu::pto::ElemType;
using tmu::pto::Op;
using tmu::pto::OpParams;
using tmu::pto::RoundMode;
using tmu::pto::Tile;

constexpr uint64_t kSeed = 0x9701BE7Cull;
constexpr unsigned kRows = 64, kCols = 64, kLanes = kRows * kCols;

// A lane pattern of type t for operand `which` of op that no rule refuses.
uint64_t operand(tmu::Rng& rng, Op op, ElemType t, unsigned which) {
  const unsigned w = tmu::pto::width_bits(t);
  if (tmu::pto::is_f8(t)) {  // a normal pattern below the top binade (no NaN, infinity or subnormal)
    const tmu::fp8::Layout l = tmu::fp8::layout(tmu::pto::f8_kind(t));
    const uint64_t field = 1 + rng.below((1u << l.exp_bits) - 2);
    return (rng.chance(1, 2) ? 0x80u : 0u) | (field << l.frac_bits) | (rng.next() & ((1u << l.frac_bits) - 1));
  }
  if (tmu::pto::is_float(t)) {
    const tmu::ieee::Format f = tmu::pto::float_format(t);
    const bool negative = op != Op::TSQRT && op != Op::TRSQRT && rng.chance(1, 2);
    const uint64_t exponent = static_cast<uint64_t>(f.bias() - 4 + static_cast<int>(rng.below(8)));
    return (negative ? f.sign_bit() : 0) | (exponent << f.frac_bits) | (rng.next() & f.frac_mask());
  }
  if ((op == Op::TSHL || op == Op::TSHR) && which == 1) return rng.below(w);
  uint64_t v = rng.next() & tmu::pto::lane_mask(t);
  if ((op == Op::TDIV || op == Op::TREM || op == Op::TFMOD) && which == 1) {
    v = (v >> (w / 2)) | 1;  // nonzero, and small enough that quotients are not all 0 or -1
  }
  return v;
}

struct Data {
  Tile dst;
  std::vector<Tile> srcs;
  std::vector<const Tile*> ptrs;
};

Data make_data(Op op, ElemType t, ElemType dst_type) {
  tmu::Rng rng(kSeed);
  Data d;
  const unsigned n = tmu::pto::source_count(op);
  for (unsigned i = 0; i < n; ++i) {
    Tile s = tmu::pto::make_tile(op == Op::TSEL && i == 0 ? ElemType::U8 : t, kRows, kCols);
    for (uint64_t& b : s.bits) b = op == Op::TSEL && i == 0 ? rng.next() & 0xFF : operand(rng, op, t, i);
    d.srcs.push_back(std::move(s));
  }
  for (const Tile& s : d.srcs) d.ptrs.push_back(&s);
  d.dst = tmu::pto::make_tile(dst_type, kRows, kCols);
  return d;
}

void BM_Pto(benchmark::State& bs, Op op, ElemType t, ElemType dst_type, OpParams params) {
  Data d = make_data(op, t, dst_type);
  for (auto _ : bs) {
    tmu::pto::execute(tmu::pto::Profile::CpuSim, op, d.dst, d.ptrs, params);
    benchmark::DoNotOptimize(d.dst.bits.data());
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * kLanes);
}

// The tile's lanes as host numbers of type T (their low bytes, little-endian).
template <typename T>
std::vector<T> host_values(const Tile& tile) {
  std::vector<T> v(tile.bits.size());
  for (size_t i = 0; i < v.size(); ++i) std::memcpy(&v[i], &tile.bits[i], sizeof(T));
  return v;
}

// out[i] = f(a[i], b[i]) over the same operands as BM_Pto (b unused by unary operations).
template <typename T, typename R, typename F>
void BM_Host(benchmark::State& bs, Op op, ElemType t, F f) {
  Data d = make_data(op, t, t);
  const std::vector<T> a = host_values<T>(d.srcs[0]);
  const std::vector<T> b = d.srcs.size() > 1 ? host_values<T>(d.srcs[1]) : a;
  std::vector<R> out(kLanes);
  for (auto _ : bs) {
    for (unsigned i = 0; i < kLanes; ++i) out[i] = f(a[i], b[i]);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * kLanes);
}

// TCMP's anchor: eight comparisons packed into each predicate byte.
void BM_Host_TCMP_f32(benchmark::State& bs) {
  Data d = make_data(Op::TCMP, ElemType::F32, ElemType::U8);
  const std::vector<float> a = host_values<float>(d.srcs[0]), b = host_values<float>(d.srcs[1]);
  std::vector<uint8_t> out(kLanes / 8);
  for (auto _ : bs) {
    for (unsigned i = 0; i < kLanes / 8; ++i) {
      unsigned packed = 0;
      for (unsigned bit = 0; bit < 8; ++bit) packed |= unsigned{a[i * 8 + bit] < b[i * 8 + bit]} << bit;
      out[i] = static_cast<uint8_t>(packed);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * kLanes);
}

// TSEL's anchor: one mask bit per lane, eight per mask byte.
void BM_Host_TSEL_f32(benchmark::State& bs) {
  Data d = make_data(Op::TSEL, ElemType::F32, ElemType::F32);
  const std::vector<uint8_t> mask = host_values<uint8_t>(d.srcs[0]);
  const std::vector<float> a = host_values<float>(d.srcs[1]), b = host_values<float>(d.srcs[2]);
  std::vector<float> out(kLanes);
  for (auto _ : bs) {
    for (unsigned i = 0; i < kLanes; ++i) out[i] = (mask[i / 8] >> (i % 8)) & 1 ? a[i] : b[i];
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * kLanes);
}

OpParams compare_params(CmpMode m) {
  OpParams p;
  p.cmp = m;
  return p;
}
OpParams round_params(RoundMode m) {
  OpParams p;
  p.round = m;
  return p;
}

#define PTO_CASE(name, op, t) BENCHMARK_CAPTURE(BM_Pto, name, Op::op, ElemType::t, ElemType::t, OpParams{})
#define HOST_CASE(name, op, t, T, R, ...)                                                          \
  void BM_Host_##name(benchmark::State& bs) {                                                      \
    BM_Host<T, R>(bs, Op::op, ElemType::t, [](T a, T b) -> R { (void)b; return __VA_ARGS__; }); \
  }                                                                                                \
  BENCHMARK(BM_Host_##name)

// Integer arithmetic.
PTO_CASE(TADD_i32, TADD, I32);
HOST_CASE(TADD_i32, TADD, I32, uint32_t, uint32_t, a + b);
PTO_CASE(TADD_i8, TADD, I8);
HOST_CASE(TADD_i8, TADD, I8, uint8_t, uint8_t, static_cast<uint8_t>(a + b));
PTO_CASE(TADD_u64, TADD, U64);
HOST_CASE(TADD_u64, TADD, U64, uint64_t, uint64_t, a + b);
PTO_CASE(TSUB_i16, TSUB, I16);
HOST_CASE(TSUB_i16, TSUB, I16, uint16_t, uint16_t, static_cast<uint16_t>(a - b));
PTO_CASE(TMUL_i32, TMUL, I32);
HOST_CASE(TMUL_i32, TMUL, I32, uint32_t, uint32_t, a * b);
PTO_CASE(TDIV_i32, TDIV, I32);
HOST_CASE(TDIV_i32, TDIV, I32, int32_t, int32_t, a / b);
PTO_CASE(TREM_i32, TREM, I32);
HOST_CASE(TREM_i32, TREM, I32, int32_t, int32_t, (a % b != 0 && (a < 0) != (b < 0)) ? a % b + b : a % b);
PTO_CASE(TMIN_i32, TMIN, I32);
HOST_CASE(TMIN_i32, TMIN, I32, int32_t, int32_t, std::min(a, b));
PTO_CASE(TMAX_u16, TMAX, U16);
HOST_CASE(TMAX_u16, TMAX, U16, uint16_t, uint16_t, std::max(a, b));
PTO_CASE(TABS_i32, TABS, I32);
HOST_CASE(TABS_i32, TABS, I32, int32_t, int32_t, a < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(a)) : a);
PTO_CASE(TNEG_i64, TNEG, I64);
HOST_CASE(TNEG_i64, TNEG, I64, uint64_t, uint64_t, 0 - a);
PTO_CASE(TRELU_i32, TRELU, I32);
HOST_CASE(TRELU_i32, TRELU, I32, int32_t, int32_t, std::max(a, 0));

// Bitwise and shifts.
PTO_CASE(TAND_i32, TAND, I32);
HOST_CASE(TAND_i32, TAND, I32, uint32_t, uint32_t, a & b);
PTO_CASE(TXOR_u8, TXOR, U8);
HOST_CASE(TXOR_u8, TXOR, U8, uint8_t, uint8_t, static_cast<uint8_t>(a ^ b));
PTO_CASE(TNOT_u64, TNOT, U64);
HOST_CASE(TNOT_u64, TNOT, U64, uint64_t, uint64_t, ~a);
PTO_CASE(TSHL_i32, TSHL, I32);
HOST_CASE(TSHL_i32, TSHL, I32, uint32_t, uint32_t, a << b);
PTO_CASE(TSHR_i32, TSHR, I32);
HOST_CASE(TSHR_i32, TSHR, I32, int32_t, int32_t, a >> b);

// Compare and select.
BENCHMARK_CAPTURE(BM_Pto, TCMP_f32_LT, Op::TCMP, ElemType::F32, ElemType::U8, compare_params(CmpMode::LT));
BENCHMARK(BM_Host_TCMP_f32);
BENCHMARK_CAPTURE(BM_Pto, TSEL_f32, Op::TSEL, ElemType::F32, ElemType::F32, OpParams{});
BENCHMARK(BM_Host_TSEL_f32);

// Floats.
PTO_CASE(TADD_f32, TADD, F32);
HOST_CASE(TADD_f32, TADD, F32, float, float, a + b);
PTO_CASE(TSUB_f32, TSUB, F32);
HOST_CASE(TSUB_f32, TSUB, F32, float, float, a - b);
PTO_CASE(TMUL_f32, TMUL, F32);
HOST_CASE(TMUL_f32, TMUL, F32, float, float, a * b);
PTO_CASE(TDIV_f32, TDIV, F32);
HOST_CASE(TDIV_f32, TDIV, F32, float, float, a / b);
PTO_CASE(TSQRT_f32, TSQRT, F32);
HOST_CASE(TSQRT_f32, TSQRT, F32, float, float, static_cast<float>(std::sqrt(static_cast<double>(a))));
PTO_CASE(TMAX_f32, TMAX, F32);
HOST_CASE(TMAX_f32, TMAX, F32, float, float, std::max(a, b));
PTO_CASE(TABS_f32, TABS, F32);
HOST_CASE(TABS_f32, TABS, F32, float, float, a < 0 ? -a : a);
PTO_CASE(TNEG_f32, TNEG, F32);
HOST_CASE(TNEG_f32, TNEG, F32, float, float, -a);
PTO_CASE(TADDC_f32, TADDC, F32);
PTO_CASE(TADD_f16, TADD, F16);
HOST_CASE(TADD_f16, TADD, F16, _Float16, _Float16, a + b);
PTO_CASE(TMUL_bf16, TMUL, BF16);
PTO_CASE(TDIV_f16, TDIV, F16);
HOST_CASE(TDIV_f16, TDIV, F16, _Float16, _Float16, a / b);

// --profile a5 on the same data (every lane normal, so none is refused under a5-ieee), to set beside
// the cpusim rows above.
void BM_PtoA5(benchmark::State& bs, Op op, ElemType t, ElemType dst_type) {
  Data d = make_data(op, t, dst_type);
  for (auto _ : bs) {
    tmu::pto::execute(tmu::pto::Profile::A5, op, d.dst, d.ptrs);
    benchmark::DoNotOptimize(d.dst.bits.data());
  }
  bs.SetItemsProcessed(static_cast<int64_t>(bs.iterations()) * kLanes);
}
#define A5_CASE(name, op, t) BENCHMARK_CAPTURE(BM_PtoA5, name, Op::op, ElemType::t, ElemType::t)
A5_CASE(TADD_i32, TADD, I32);
A5_CASE(TADD_i8, TADD, I8);
A5_CASE(TMUL_i32, TMUL, I32);
A5_CASE(TMIN_i32, TMIN, I32);
A5_CASE(TAND_i32, TAND, I32);
A5_CASE(TSHL_i32, TSHL, I32);
A5_CASE(TADD_f32, TADD, F32);
A5_CASE(TMUL_f32, TMUL, F32);
A5_CASE(TDIV_f32, TDIV, F32);
A5_CASE(TSQRT_f32, TSQRT, F32);
A5_CASE(TMAX_f32, TMAX, F32);
A5_CASE(TADD_f16, TADD, F16);
A5_CASE(TMUL_bf16, TMUL, BF16);

// Conversions.
BENCHMARK_CAPTURE(BM_Pto, TCVT_f32_i32_RINT, Op::TCVT, ElemType::F32, ElemType::I32, round_params(RoundMode::Rint));
HOST_CASE(TCVT_f32_i32_RINT, TCVT, F32, float, int32_t, static_cast<int32_t>(std::nearbyint(a)));
BENCHMARK_CAPTURE(BM_Pto, TCVT_i32_f32, Op::TCVT, ElemType::I32, ElemType::F32, OpParams{});
HOST_CASE(TCVT_i32_f32, TCVT, I32, int32_t, float, static_cast<float>(static_cast<double>(a)));
BENCHMARK_CAPTURE(BM_Pto, TCVT_f32_f16, Op::TCVT, ElemType::F32, ElemType::F16, OpParams{});
HOST_CASE(TCVT_f32_f16, TCVT, F32, float, _Float16, static_cast<_Float16>(a));
BENCHMARK_CAPTURE(BM_Pto, TCVT_f16_f32, Op::TCVT, ElemType::F16, ElemType::F32, OpParams{});
HOST_CASE(TCVT_f16_f32, TCVT, F16, _Float16, float, static_cast<float>(a));

// The 8-bit float pairs, on both profiles (no specialised loop: every lane is convert_lane's or
// a5_convert_lane's).
BENCHMARK_CAPTURE(BM_Pto, TCVT_f32_f8e4m3, Op::TCVT, ElemType::F32, ElemType::F8E4M3, OpParams{});
BENCHMARK_CAPTURE(BM_PtoA5, TCVT_f32_f8e4m3, Op::TCVT, ElemType::F32, ElemType::F8E4M3);
BENCHMARK_CAPTURE(BM_Pto, TCVT_f8e5m2_f32, Op::TCVT, ElemType::F8E5M2, ElemType::F32, OpParams{});
BENCHMARK_CAPTURE(BM_PtoA5, TCVT_f8e5m2_f32, Op::TCVT, ElemType::F8E5M2, ElemType::F32);

}  // namespace
