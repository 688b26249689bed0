// Drives amx_lane_bench_top with seeded random matfp steps and exits 0 when tmu's scoreboard found
// no mismatch.
//   amx_lane [--seed N] [--steps N] [--bug]
// The seed is printed first; --seed N replays a run. --bug makes the design truncate where it must
// round to nearest even. Operands are normal f32 values with exponents in -10..10: amx_fma_f32's
// exact window covers them (x*y and z at most 53 bits apart) and every result is normal, neither
// overflowing nor subnormal; the design flags anything else and the bench stops.
#include <cstdint>
#include <random>

#include "Vamx_lane_bench_top.h"
#include "lane_bench.h"

namespace {

// A 512-bit port: 16 words, word w = lane w.
template <typename Wide>
void fill_row(Wide& port, std::mt19937_64& rng) {
  for (int w = 0; w < 16; ++w) port[w] = lane_bench::random_normal_f32(rng);
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = lane_bench::parse_args("amx_lane", "--steps", 200, argc, argv);
  if (!args) return 2;
  return lane_bench::run<Vamx_lane_bench_top>(*args, argc, argv, [](Vamx_lane_bench_top& top, std::mt19937_64& rng) {
    top.x_reg_i = static_cast<uint8_t>(rng() % 8);
    top.y_reg_i = static_cast<uint8_t>(rng() % 8);
    top.j_i = static_cast<uint8_t>(rng() % 16);
    top.zrow_i = static_cast<uint8_t>(rng() % 4);
    fill_row(top.x_row_i, rng);
    fill_row(top.y_row_i, rng);
    fill_row(top.z_row_i, rng);
  });
}
