// Drives pto_lane_bench_top with seeded random TADD, TMAX and TCMP operations on i32 and f32 rows and
// exits 0 when tmu's PTO scoreboard found no mismatch.
//   pto_lane [--seed N] [--operations N] [--bug]
// The seed is printed first; --seed N replays a run. --bug makes the design swap TCMP's LT and LE,
// which shows only where a lane's operands are equal, so one lane in four gets b = a. f32 operands
// are normal with exponents -10..10 (pto_f32_add's exact window; sums neither overflow nor go
// subnormal); i32 operands are any 32-bit values.
#include <cstdint>
#include <random>

#include "Vpto_lane_bench_top.h"
#include "lane_bench.h"

namespace {

uint32_t random_lane(std::mt19937_64& rng, bool is_float) {
  return is_float ? lane_bench::random_normal_f32(rng) : static_cast<uint32_t>(rng());
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = lane_bench::parse_args("pto_lane", "--operations", 300, argc, argv);
  if (!args) return 2;
  return lane_bench::run<Vpto_lane_bench_top>(*args, argc, argv, [](Vpto_lane_bench_top& top, std::mt19937_64& rng) {
    const bool is_float = rng() & 1;
    top.op_i = static_cast<uint8_t>(rng() % 3);
    top.float_i = is_float;
    top.cmp_i = static_cast<uint8_t>(rng() % 6);
    for (int k = 0; k < 8; ++k) {
      top.a_i[k] = random_lane(rng, is_float);
      top.b_i[k] = rng() % 4 == 0 ? top.a_i[k] : random_lane(rng, is_float);
    }
  });
}
