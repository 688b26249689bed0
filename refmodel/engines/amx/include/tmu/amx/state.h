// Apple AMX architectural state as corsix/amx RegisterFile.md describes it: the X pool and the Y
// pool, each eight 64-byte registers concatenated into a 512-byte circular buffer, and Z, a grid of
// 64 rows of 64 bytes. Everything is kept as bytes; lanes are little-endian views of those bytes
// (f16[32], f32[16], f64[8] per 64-byte row), as on the Arm host AMX sits in.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace tmu::amx {

inline constexpr unsigned kRowBytes = 64;    // one register, one Z row
inline constexpr unsigned kPoolRegs = 8;     // registers in the X pool and in the Y pool
inline constexpr unsigned kPoolBytes = kPoolRegs * kRowBytes;  // 512
inline constexpr unsigned kZRows = 64;

using Row = std::array<uint8_t, kRowBytes>;
using Pool = std::array<uint8_t, kPoolBytes>;  // register r is bytes [64 r, 64 r + 64)

struct State {
  Pool x{};
  Pool y{};
  std::array<Row, kZRows> z{};

  bool operator==(const State&) const = default;
};

// The 64 bytes of `pool` starting at byte `offset` (0..511), wrapping from byte 511 to byte 0: the
// "any contiguous 64 byte range from this circular buffer" of RegisterFile.md. Throws tmu::Error
// (BadInput) for an offset past 511.
Row load_span(const Pool& pool, unsigned offset);
// Writes 64 bytes at `offset` with the same wrapping (for setting up state; matfp never writes X/Y).
void store_span(Pool& pool, unsigned offset, const Row& bytes);
// Register `reg` (0..7) of a pool: the span at byte 64 * reg.
Row pool_register(const Pool& pool, unsigned reg);

// Lane `lane` of a row viewed as little-endian elements of `bytes` bytes (1, 2, 4 or 8), as an
// unsigned bit pattern. Throws tmu::Error (BadInput) for a width or lane that does not fit.
uint64_t get_lane(const Row& row, unsigned bytes, unsigned lane);
void set_lane(Row& row, unsigned bytes, unsigned lane, uint64_t bits);
// The same without the checks, for loops that stay inside the row by construction (an
// instruction's lane loop is the model's innermost access). On a little-endian host the lane's bytes
// are its value's low bytes, and a lane of a constant width is one load or store.
inline uint64_t lane_bits(const Row& row, unsigned bytes, unsigned lane) {
  uint64_t v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, &row[lane * bytes], bytes);
  } else {
    for (unsigned b = 0; b < bytes; ++b) v |= uint64_t{row[lane * bytes + b]} << (8 * b);
  }
  return v;
}
inline void put_lane_bits(Row& row, unsigned bytes, unsigned lane, uint64_t bits) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&row[lane * bytes], &bits, bytes);
  } else {
    for (unsigned b = 0; b < bytes; ++b) row[lane * bytes + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
}

// The IEEE views of RegisterFile.md's amx_reg union (f16 is binary16, not bfloat16; bf16 lanes use
// the 16-bit view too).
inline uint16_t f16(const Row& r, unsigned lane) { return static_cast<uint16_t>(get_lane(r, 2, lane)); }
inline uint32_t f32(const Row& r, unsigned lane) { return static_cast<uint32_t>(get_lane(r, 4, lane)); }
inline uint64_t f64(const Row& r, unsigned lane) { return get_lane(r, 8, lane); }
inline void set_f16(Row& r, unsigned lane, uint16_t v) { set_lane(r, 2, lane, v); }
inline void set_f64(Row& r, unsigned lane, uint64_t v) { set_lane(r, 8, lane, v); }

}  // namespace tmu::amx
