// A PTO tile as pto-isa's include/pto/common/pto_tile.hpp declares one: a physical shape
// (Rows, Cols), an element type, a layout, and a valid region (ValidRow x ValidCol, fixed or set at
// run time) that the elementwise operations iterate over. The storage is the Rows * Cols element
// patterns in memory order; lanes outside the valid region keep whatever they hold.
#pragma once

#include <cstdint>
#include <vector>

#include "tmu/pto/types.h"

namespace tmu::pto {

struct Tile {
  ElemType type = ElemType::F32;
  unsigned rows = 0;
  unsigned cols = 0;
  Layout layout = Layout::RowMajor;
  unsigned valid_rows = 0;
  unsigned valid_cols = 0;
  // Element (r, c) is bits[offset(r, c)], zero-extended to 64 bits.
  std::vector<uint64_t> bits;

  // pto_tile.hpp's plain-layout offset (tile_offsets.hpp GetTileElementOffsetPlain).
  unsigned offset(unsigned r, unsigned c) const { return layout == Layout::RowMajor ? r * cols + c : c * rows + r; }
  uint64_t at(unsigned r, unsigned c) const { return bits[offset(r, c)]; }
  bool in_valid_region(unsigned r, unsigned c) const { return r < valid_rows && c < valid_cols; }

  bool operator==(const Tile&) const = default;
};

// The most elements one tile may have (a 2048x2048 tile): far beyond any core's local buffer, and
// a bound on what a program or vector file can make tmu allocate.
inline constexpr uint64_t kMaxTileElements = uint64_t{1} << 22;

// A zero-filled tile (the CPU simulator's storage is a value-initialised std::vector). Refuses, with
// a tmu::Error (BadInput) naming the rule, what pto_tile.hpp's static_asserts refuse: a zero
// dimension, a valid region beyond the shape, and a row (row-major) or column (column-major) whose
// bytes are not a multiple of 32; and a tile of more than kMaxTileElements.
Tile make_tile(ElemType type, unsigned rows, unsigned cols, Layout layout = Layout::RowMajor);
Tile make_tile(ElemType type, unsigned rows, unsigned cols, Layout layout, unsigned valid_rows, unsigned valid_cols);

// The dynamic valid region (Tile::SetValidShape): the same bounds check.
void set_valid_region(Tile& t, unsigned valid_rows, unsigned valid_cols);

// Element access with the bounds and width checked (tmu::Error BadInput otherwise).
uint64_t get(const Tile& t, unsigned r, unsigned c);
void set(Tile& t, unsigned r, unsigned c, uint64_t bits);

}  // namespace tmu::pto
