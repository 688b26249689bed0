// Bit-field helpers: every field range in the model is named once through these, never as an
// inline shift-and-mask, so that a reader can match each range against the ISA's bit diagrams.
#pragma once

#include <cstdint>

namespace tmu {

// Bits hi..lo (inclusive) of x, right-aligned.
template <unsigned Hi, unsigned Lo>
constexpr uint32_t bits(uint32_t x) {
  static_assert(Hi >= Lo && Hi < 32, "bit range out of order or wider than 32 bits");
  return (x >> Lo) & static_cast<uint32_t>((uint64_t{1} << (Hi - Lo + 1)) - 1);
}

template <unsigned Hi, unsigned Lo>
constexpr uint64_t bits64(uint64_t x) {
  static_assert(Hi >= Lo && Hi < 64, "bit range out of order or wider than 64 bits");
  constexpr unsigned width = Hi - Lo + 1;
  return (x >> Lo) & (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
}

// x with bits hi..lo replaced by the low bits of v.
template <unsigned Hi, unsigned Lo>
constexpr uint32_t with_bits(uint32_t x, uint32_t v) {
  static_assert(Hi >= Lo && Hi < 32, "bit range out of order or wider than 32 bits");
  constexpr uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << (Hi - Lo + 1)) - 1) << Lo);
  return (x & ~mask) | ((v << Lo) & mask);
}

// Runtime-width variants, for table-driven code (decoder, vector files).
constexpr uint32_t low_mask(unsigned width) {
  return width >= 32 ? 0xFFFFFFFFu : static_cast<uint32_t>((uint64_t{1} << width) - 1);
}
constexpr uint32_t extract_bits(uint32_t x, unsigned lo, unsigned width) { return (x >> lo) & low_mask(width); }
constexpr uint32_t deposit_bits(uint32_t x, unsigned lo, unsigned width, uint32_t v) {
  const uint32_t mask = low_mask(width) << lo;
  return (x & ~mask) | ((v << lo) & mask);
}

constexpr uint32_t rotl32(uint32_t x, unsigned n) { n &= 31; return n ? (x << n) | (x >> (32 - n)) : x; }
constexpr uint32_t rotr32(uint32_t x, unsigned n) { n &= 31; return n ? (x >> n) | (x << (32 - n)) : x; }

}  // namespace tmu
