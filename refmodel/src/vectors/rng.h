// The generator's random numbers: SplitMix64, chosen because its output is defined by a few lines
// of integer arithmetic, so a seed gives the same vectors with every compiler and standard library
// (std::mt19937 would too, but the std distributions would not).
#pragma once

#include <cstdint>
#include <string_view>

namespace tmu::vectors::detail {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t bits(unsigned n) { return n == 0 ? 0u : static_cast<uint32_t>(next() >> (64 - n)); }
  // Uniform in [0, n) (n <= 2^32; the bias of the multiply-shift is below 2^-32).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  bool chance(uint32_t numerator, uint32_t denominator) { return below(denominator) < numerator; }
  int32_t between(int32_t lo, int32_t hi) { return lo + static_cast<int32_t>(below(static_cast<uint32_t>(hi - lo + 1))); }

 private:
  uint64_t state_;
};

// FNV-1a, to derive per-file and per-vector seeds from names.
constexpr uint64_t fnv1a(std::string_view s, uint64_t h = 0xCBF29CE484222325ull) {
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  return h;
}

}  // namespace tmu::vectors::detail
