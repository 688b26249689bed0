// What the lane benches (amx_lane, pto_lane) share: the command line `--seed N --<count> N --bug`
// with the seed printed first so that `--seed N` replays a run, and the random f32 operands that
// stay in their designs' exact window.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "verilated.h"

namespace lane_bench {

struct Args {
  uint64_t seed = 0;
  unsigned count = 0;  // steps or operations
  bool bug = false;
};

// nullopt after printing the reason: the caller exits 2. Plusargs (+...) are left to Verilator.
inline std::optional<Args> parse_args(const std::string& bench, const std::string& count_option,
                                      unsigned default_count, int argc, char** argv) {
  Args args{std::random_device{}(), default_count, false};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--bug") {
      args.bug = true;
    } else if ((a == "--seed" || a == count_option) && i + 1 < argc) {
      char* end = nullptr;
      const std::string value = argv[++i];
      const unsigned long long v = std::strtoull(value.c_str(), &end, 0);
      if (value.empty() || value[0] == '-' || *end != '\0' || (a == count_option && v > 0xFFFFFFFFull)) {
        std::cerr << bench << ": " << a << " takes a non-negative number, got '" << value << "'\n";
        return std::nullopt;
      }
      if (a == "--seed")
        args.seed = v;
      else
        args.count = static_cast<unsigned>(v);
    } else if (a.rfind("+", 0) != 0) {
      std::cerr << bench << ": unknown argument '" << a << "' (--seed N, " << count_option << " N, --bug)\n";
      return std::nullopt;
    }
  }
  std::cout << bench << ": seed " << args.seed << " (replay: --seed " << args.seed << (args.bug ? " --bug" : "")
            << ")\n";
  return args;
}

// A normal f32 of either sign, exponent -10..10, any fraction: products and sums of two of them are
// neither subnormal nor overflowing, the window the example designs compute exactly.
inline uint32_t random_normal_f32(std::mt19937_64& rng) {
  const uint32_t sign = static_cast<uint32_t>(rng() & 1);
  const uint32_t exponent = 127 - 10 + static_cast<uint32_t>(rng() % 21);
  return sign << 31 | exponent << 23 | (static_cast<uint32_t>(rng()) & 0x7FFFFF);
}

// The bench around a lane design: reset, `args.count` steps of step(top, rng) with valid_i set, one
// clock each, a last clock for the last step's comparison, then finish_i. The design's bench top
// has seed_i, bug_i, rst_ni, clk_i, valid_i, finish_i in and done_o, pass_o out; exit status 0 when
// it reports done and pass.
template <typename Top, typename Step>
int run(const Args& args, int argc, char** argv, Step step) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Top>(ctx.get());
  std::mt19937_64 rng(args.seed);
  top->seed_i = args.seed;
  top->bug_i = args.bug;
  top->rst_ni = 0;
  const auto tick = [&] {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
  };
  tick();
  top->rst_ni = 1;
  for (unsigned n = 0; n < args.count; ++n) {
    top->valid_i = 1;
    step(*top, rng);
    tick();
  }
  top->valid_i = 0;
  tick();
  top->finish_i = 1;
  tick();
  top->final();
  return top->done_o && top->pass_o ? 0 : 1;
}

}  // namespace lane_bench
