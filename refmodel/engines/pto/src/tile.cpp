// Tile construction with pto_tile.hpp's legality rules (its static_asserts on Rows, Cols, the valid
// region and the 32-byte alignment of a row or column), and checked element access.
#include "tmu/pto/tile.h"

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu::pto {

namespace {

// TileConfig::alignedSize: a row-major tile's row, or a column-major tile's column, is a whole
// number of 32-byte blocks.
constexpr unsigned kAlignedBytes = 32;

void check_valid(const Tile& t, unsigned valid_rows, unsigned valid_cols) {
  if (valid_rows > t.rows || valid_cols > t.cols)
    throw Error(ErrorKind::BadInput, fmt::format("tile {}x{}: valid region {}x{} exceeds the shape (ValidRow <= Rows, "
                                                 "ValidCol <= Cols)",
                                                 t.rows, t.cols, valid_rows, valid_cols));
}

}  // namespace

Tile make_tile(ElemType type, unsigned rows, unsigned cols, Layout layout) {
  return make_tile(type, rows, cols, layout, rows, cols);
}

Tile make_tile(ElemType type, unsigned rows, unsigned cols, Layout layout, unsigned valid_rows, unsigned valid_cols) {
  if (rows == 0 || cols == 0)
    throw Error(ErrorKind::BadInput, fmt::format("tile {}x{}: Rows and Cols must be positive", rows, cols));
  // Each dimension is read up to 2^20, so their product alone could ask for terabytes.
  if (uint64_t{rows} * cols > kMaxTileElements)
    throw Error(ErrorKind::BadInput,
                fmt::format("tile {}x{}: {} elements, more than tmu holds in one tile ({}, e.g. 2048x2048; no core's "
                            "local buffer holds a tile that large)",
                            rows, cols, uint64_t{rows} * cols, kMaxTileElements));
  const bool row_major = layout == Layout::RowMajor;
  const unsigned aligned_extent = row_major ? cols : rows;
  if (aligned_extent * width_bytes(type) % kAlignedBytes != 0)
    throw Error(ErrorKind::BadInput,
                fmt::format("tile {} {}x{} {}: {} * {} bytes is not a multiple of {} (a {} tile's {} must be 32-byte "
                            "aligned)",
                            elem_name(type), rows, cols, layout_name(layout), row_major ? "Cols" : "Rows",
                            width_bytes(type), kAlignedBytes, layout_name(layout), row_major ? "row" : "column"));
  Tile t;
  t.type = type;
  t.rows = rows;
  t.cols = cols;
  t.layout = layout;
  check_valid(t, valid_rows, valid_cols);
  t.valid_rows = valid_rows;
  t.valid_cols = valid_cols;
  t.bits.assign(static_cast<size_t>(rows) * cols, 0);
  return t;
}

void set_valid_region(Tile& t, unsigned valid_rows, unsigned valid_cols) {
  check_valid(t, valid_rows, valid_cols);
  t.valid_rows = valid_rows;
  t.valid_cols = valid_cols;
}

uint64_t get(const Tile& t, unsigned r, unsigned c) {
  if (r >= t.rows || c >= t.cols)
    throw Error(ErrorKind::BadInput, fmt::format("element ({}, {}) is outside the {}x{} tile", r, c, t.rows, t.cols));
  return t.at(r, c);
}

void set(Tile& t, unsigned r, unsigned c, uint64_t bits) {
  if (r >= t.rows || c >= t.cols)
    throw Error(ErrorKind::BadInput, fmt::format("element ({}, {}) is outside the {}x{} tile", r, c, t.rows, t.cols));
  if ((bits & ~lane_mask(t.type)) != 0)
    throw Error(ErrorKind::BadInput, fmt::format("0x{:x} does not fit a {} element", bits, elem_name(t.type)));
  t.bits[t.offset(r, c)] = bits;
}

}  // namespace tmu::pto
