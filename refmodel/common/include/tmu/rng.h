// The random numbers of every seeded component (vector generator, audit, co-simulation stimulus,
// block tests) and the one way they derive independent streams from a seed. See
// docs/architecture.md, "Random numbers and seeds".
//
// SplitMix64 because its output is defined by a few lines of integer arithmetic: a seed gives the
// same numbers with every compiler and standard library, which the committed vector corpus relies on
// (the std distributions are implementation-defined, so they are not used on top of it either).
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

namespace tmu {

class Rng {
 public:
  // A UniformRandomBitGenerator, so std::shuffle and friends accept it.
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }

  explicit constexpr Rng(uint64_t seed) : state_(seed) {}

  constexpr uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  constexpr result_type operator()() { return next(); }

  // The top n bits of one draw (n <= 32): SplitMix64's high bits are its best mixed.
  constexpr uint32_t bits(unsigned n) { return n == 0 ? 0u : static_cast<uint32_t>(next() >> (64 - n)); }
  // Uniform in [0, n) for 1 <= n <= 2^32 - 1, by multiply-shift: one draw per call, and the bias
  // (at most n / 2^32 relative) is far below anything a test could see, unlike `next() % n`, whose
  // bias is largest for the small n tests mostly ask for.
  constexpr uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  // True with probability numerator / denominator; chance(p, 100) for a percentage.
  constexpr bool chance(uint32_t numerator, uint32_t denominator) { return below(denominator) < numerator; }
  // Uniform in [lo, hi]; the span hi - lo + 1 must fit below(), so not the whole int32 range.
  constexpr int32_t between(int32_t lo, int32_t hi) {
    const uint32_t span = static_cast<uint32_t>(hi) - static_cast<uint32_t>(lo) + 1u;
    return static_cast<int32_t>(static_cast<uint32_t>(lo) + below(span));
  }

 private:
  uint64_t state_;
};

// FNV-1a of `s`, continuing from `h`: the mixing derive_seed is built on. Used directly only where a
// stream must not depend on any run seed (fixed level-1 vector data, a constant of the corpus).
constexpr uint64_t fnv1a(std::string_view s, uint64_t h = 0xCBF29CE484222325ull) {
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  return h;
}

// The seed of the independent stream `name` under `parent`: every component that needs several
// streams from one seed takes them from here, so that a stream depends only on its parent seed and
// its name, never on how many draws another stream made. The parent is spread by the golden-ratio
// multiply before it becomes the FNV offset, so parents 1, 2, 3 start far apart. Names nest:
// derive_seed(derive_seed(s, "a"), "b") is the stream "b" of the stream "a".
constexpr uint64_t derive_seed(uint64_t parent, std::string_view name) {
  return fnv1a(name, 0xCBF29CE484222325ull ^ (parent * 0x9E3779B97F4A7C15ull));
}

// The seed a random command uses when none is given: the clock, in 63 bits so that it reads the same
// as a signed or unsigned number (SystemVerilog longint, Python, shell). Every such command prints
// the seed it used, and passing it back with --seed replays the run.
inline uint64_t clock_seed() {
  const auto ns = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(ns).count()) &
         0x7FFFFFFFFFFFFFFFull;
}

}  // namespace tmu
