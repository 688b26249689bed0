// How an AMX instruction turns 64 bytes of X or Y into the lanes it computes with: indexed loads,
// shuffles and the per-lane enables, after corsix/amx RegisterFile.md ("Indexed loads",
// "Shuffles", "Per-byte write-enable") and the behaviour of its emulate.h / genlut.c helpers.
// Shared by every AMX instruction that has these features; matfp is the first user.
#pragma once

#include <cstdint>

#include "tmu/amx/state.h"

namespace tmu::amx {

// An indexed load (RegisterFile.md "Indexed loads"): lane k of the result (elements of elem_bytes,
// 2, 4 or 8) is lane idx_k of `table`, where idx_k is the little-endian bit field
// [k * index_bits, (k + 1) * index_bits) of `indices` (index_bits 2 or 4). An index past the
// table's last lane wraps (only 4-bit indices into 8 lanes of f64 can be), as the byte offset into
// the 64-byte table is taken modulo 64 (corsix/amx genlut.c).
Row indexed_load(const Row& indices, const Row& table, unsigned index_bits, unsigned elem_bytes);

// Shuffle S0..S3 of a vector of 64 / elem_bytes lanes (RegisterFile.md "Shuffles"): S0 is the
// identity; Sn views the 64 bytes as 2^n blocks of 64 >> n bytes and reads them column by column,
// so destination lane d takes source lane (d mod 2^n) * lanes / 2^n + d / 2^n. For f64, S3 is the
// identity again.
Row shuffle(const Row& v, unsigned s, unsigned elem_bytes);

// The lanes (bit i = lane i) a 9-bit X or Y enable selects among `lanes` (8, 16 or 32) lanes, after
// matfp.md's enable-mode table and corsix/amx emulate.h's parse_writemask, the value being the
// 5-bit field of the operand:
//   mode 0: value 0, 3, 4, 5 all lanes (3, 4, 5 have further effects the instruction applies),
//           1 odd lanes, 2 even lanes, anything else none;
//   mode 1: lane n only; mode 2: the first n, all when n = 0; mode 3: the last n, all when n = 0;
//   mode 4: the first n, none when n = 0; mode 5: the last n, none when n = 0; modes 6, 7: none;
// where n is the value modulo the lane count (the hardware scales the value to bytes modulo 64).
uint64_t lane_enables(unsigned mode, unsigned value, unsigned lanes);

}  // namespace tmu::amx
