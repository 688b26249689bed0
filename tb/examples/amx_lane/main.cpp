// Drives amx_lane_bench_top with seeded random matfp steps and exits 0 when tmu's scoreboard found
// no mismatch.
//   amx_lane [--seed N] [--steps N] [--bug]
// The seed is printed first; --seed N replays a run. --bug makes the design truncate where it must
// round to nearest even. Operands are normal f32 values with exponents in -10..10: amx_fma_f32's
// exact window covers them (x*y and z at most 53 bits apart) and every result is normal, neither
// overflowing nor subnormal; the design flags anything else and the bench stops.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <string>

#include "Vamx_lane_bench_top.h"
#include "verilated.h"

namespace {

// A normal f32 of either sign, exponent -10..10, any fraction.
uint32_t random_f32(std::mt19937_64& rng) {
  const uint32_t sign = static_cast<uint32_t>(rng() & 1);
  const uint32_t exponent = 127 - 10 + static_cast<uint32_t>(rng() % 21);
  const uint32_t fraction = static_cast<uint32_t>(rng()) & 0x7FFFFF;
  return sign << 31 | exponent << 23 | fraction;
}

// A 512-bit port: 16 words, word w = lane w.
template <typename Wide>
void fill_row(Wide& port, std::mt19937_64& rng) {
  for (int w = 0; w < 16; ++w) port[w] = random_f32(rng);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = std::random_device{}();
  unsigned steps = 200;
  bool bug = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--bug") {
      bug = true;
    } else if ((a == "--seed" || a == "--steps") && i + 1 < argc) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(argv[++i], &end, 0);
      if (*end != '\0') {
        std::cerr << "amx_lane: " << a << " takes a number, got '" << argv[i] << "'\n";
        return 2;
      }
      if (a == "--seed")
        seed = v;
      else
        steps = static_cast<unsigned>(v);
    } else if (a.rfind("+", 0) != 0) {  // plusargs are Verilator's
      std::cerr << "amx_lane: unknown argument '" << a << "' (--seed N, --steps N, --bug)\n";
      return 2;
    }
  }
  std::cout << "amx_lane: seed " << seed << " (replay: --seed " << seed << (bug ? " --bug" : "") << ")\n";

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vamx_lane_bench_top>(ctx.get());
  std::mt19937_64 rng(seed);
  top->seed_i = seed;
  top->bug_i = bug;
  top->rst_ni = 0;
  const auto tick = [&] {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
  };
  tick();
  top->rst_ni = 1;
  for (unsigned s = 0; s < steps; ++s) {
    top->valid_i = 1;
    top->x_reg_i = static_cast<uint8_t>(rng() % 8);
    top->y_reg_i = static_cast<uint8_t>(rng() % 8);
    top->j_i = static_cast<uint8_t>(rng() % 16);
    top->zrow_i = static_cast<uint8_t>(rng() % 4);
    fill_row(top->x_row_i, rng);
    fill_row(top->y_row_i, rng);
    fill_row(top->z_row_i, rng);
    tick();
  }
  top->valid_i = 0;
  tick();  // the last step's row is compared
  top->finish_i = 1;
  tick();
  top->final();
  return top->done_o && top->pass_o ? 0 : 1;
}
