// Test-side helpers for the AMX engine tests: operand bits placed by hand from corsix/amx matfp.md's
// bit table (not through tmu::amx::encode_matfp), and small exact numbers encoded from their
// definition. Nothing here calls the code under test except the state's byte arrays.
#pragma once

#include <cstdint>

#include "tmu/amx/state.h"

namespace tmu::amx::test {

// matfp operand bits (matfp.md "Operand bitfields"; the Y enable value at bit 58, see matfp.h).
struct MatfpBits {
  uint64_t v = 0;
  MatfpBits& set(unsigned lo, unsigned width, uint64_t value) {
    v |= (value & ((uint64_t{1} << width) - 1)) << lo;
    return *this;
  }
  MatfpBits& yoff(unsigned o) { return set(0, 9, o); }
  MatfpBits& xoff(unsigned o) { return set(10, 9, o); }
  MatfpBits& zrow(unsigned r) { return set(20, 3, r); }
  MatfpBits& yen(unsigned mode, unsigned value) { return set(23, 3, mode).set(58, 5, value); }
  MatfpBits& xen(unsigned mode, unsigned value) { return set(38, 3, mode).set(32, 5, value); }
  MatfpBits& yshuf(unsigned s) { return set(27, 2, s); }
  MatfpBits& xshuf(unsigned s) { return set(29, 2, s); }
  MatfpBits& lw(unsigned code) { return set(42, 4, code); }
  MatfpBits& alu(unsigned mode) { return set(47, 6, mode); }
  MatfpBits& indexed(bool of_y, bool four_bit, unsigned reg) {
    return set(53, 1, 1).set(47, 1, of_y).set(48, 1, four_bit).set(49, 3, reg);
  }
  MatfpBits& mbz(unsigned v3) { return set(54, 3, v3); }
};

// Lane-width codes (matfp.md "Lane width modes").
inline constexpr unsigned kLwF16 = 2, kLwF16F32 = 3, kLwF32 = 4, kLwF64 = 7, kLwBf16 = 0, kLwBf16F32 = 1;

// The integer n (|n| < 2^11) exactly, in a binary format with e exponent and f fraction bits.
inline uint64_t exact_int(unsigned e, unsigned f, int64_t n) {
  if (n == 0) return 0;
  const uint64_t sign = n < 0 ? uint64_t{1} << (e + f) : 0;
  uint64_t m = static_cast<uint64_t>(n < 0 ? -n : n);
  unsigned k = 0;
  while ((m >> (k + 1)) != 0) ++k;  // m = 2^k + rest
  const uint64_t bias = (uint64_t{1} << (e - 1)) - 1;
  return sign | ((bias + k) << f) | ((m - (uint64_t{1} << k)) << (f - k));
}
inline uint16_t h(int64_t n) { return static_cast<uint16_t>(exact_int(5, 10, n)); }
inline uint16_t bf(int64_t n) { return static_cast<uint16_t>(exact_int(8, 7, n)); }
inline uint32_t s(int64_t n) { return static_cast<uint32_t>(exact_int(8, 23, n)); }
inline uint64_t d(int64_t n) { return exact_int(11, 52, n); }

// Little-endian lane `lane` of `bytes` bytes at byte `base` of a pool, wrapping at 512: written
// from RegisterFile.md's description, not through tmu::amx's span helpers.
inline void poke(Pool& p, unsigned base, unsigned bytes, unsigned lane, uint64_t v) {
  for (unsigned b = 0; b < bytes; ++b) p[(base + lane * bytes + b) % 512] = static_cast<uint8_t>(v >> (8 * b));
}
inline uint64_t peek(const Row& r, unsigned bytes, unsigned lane) {
  uint64_t v = 0;
  for (unsigned b = 0; b < bytes; ++b) v |= uint64_t{r[lane * bytes + b]} << (8 * b);
  return v;
}
inline void poke_row(Row& r, unsigned bytes, unsigned lane, uint64_t v) {
  for (unsigned b = 0; b < bytes; ++b) r[lane * bytes + b] = static_cast<uint8_t>(v >> (8 * b));
}

}  // namespace tmu::amx::test
