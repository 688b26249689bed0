// GMPOOL's arithmetic: reading and exponent-scaling SrcA by SrcB, reading the running maximum from
// Dst, the comparison key, and writing the maximum back (GMPOOL.md: ReadAndScaleSrc, ReadDst,
// WriteDst, AsComparable).
//
// Everything here is the ISA model's "Datum" (sign, 9-bit exponent, 10-bit mantissa or magnitude).
// ttsim implements only BF16/TF32 with a SrcB scale of exactly 1.0 and no argmax; there it keeps the
// maximum as a raw FP32 pattern compared in sign-magnitude total order. For that subset the two give
// identical Dst values (tests/unit/test_fpu_gmpool.cpp checks it), so the ISA model is used for every
// style: it is the only definition of FP16, INT8, SrcB scaling and argmax.
#pragma once

#include <cstdint>
#include <span>

#include "tmu/tensix/formats.h"

namespace tmu::tensix::fpu {

// How the running maximum is stored in Dst.
enum class GmpoolDstStyle : uint8_t {
  BF16,   // high 16 bits: DstBits BF16 layout
  TF32,   // Dst32b FP32 layout, only the top ten mantissa bits used (the rest written as zero)
  FP16,   // high 16 bits: DstBits FP16 layout
  INT32,  // Dst32b sign-magnitude integer; 19 magnitude bits read, 13 written
};
const char* gmpool_dst_style_name(GmpoolDstStyle s);
GmpoolDstStyle gmpool_dst_style(SrcStyle srca_style, bool dst32, bool argmax);

// Undefined Dst rows read as all ones, the smallest value in the comparison order (ZEROACC.md).
inline constexpr uint32_t kGmpoolUndefinedDst16 = 0xFFFF;
inline constexpr uint32_t kGmpoolUndefinedDst32 = 0xFFFFFFFF;

struct GmpoolDatum {
  uint32_t sign = 0;
  uint32_t exponent = 0;    // 9 bits; biased by SrcA's + SrcB's bias (Dst: its own bias + 127 or 15)
  uint32_t mag_or_man = 0;  // 10 bits
  friend bool operator==(const GmpoolDatum&, const GmpoolDatum&) = default;
};

// SrcA scaled by 2^(exponent of SrcB): the exponents add. SrcB exponent 0 gives "minus infinity"
// (all ones); SrcA exponent 0 gives +0; BF16 keeps seven mantissa bits; INT8 keeps the magnitude
// and ignores the scale unless it is zero.
GmpoolDatum gmpool_read_and_scale_src(uint32_t srca_datum19, SrcStyle srca_style, uint32_t srcb_datum19);
// dst_value is Dst32b as stored, or Dst16b as stored shifted into the high half.
GmpoolDatum gmpool_read_dst(uint32_t dst_value, GmpoolDstStyle style);
uint32_t gmpool_write_dst(const GmpoolDatum& d, GmpoolDstStyle style);
// sign ? -(exponent:mantissa) : +(exponent:mantissa). A candidate replaces the running maximum when
// its key is >= (so on a tie the later datum wins, which only matters for argmax).
int32_t gmpool_comparison_key(const GmpoolDatum& d);
bool gmpool_candidate_wins(const GmpoolDatum& candidate, const GmpoolDatum& current);

// One column of GMPOOL: folds the 16 scaled SrcA datums of the column into the running maximum read
// from Dst, visiting rows 4..7, 0..3, 8..15, and returns the new 32-bit Dst value for the block's top
// row (for a 16-bit Dst the caller stores the high half). srcb_row[i] scales srca_column[i] (SrcB's
// row is transposed onto SrcA's rows). With argmax the index of the winner among the first eight
// rows goes into the low bits, after GMPOOL.md's non-linear transform and index phase.
// Plain visits the rows 0..15 in order while the argmax index is still decoded from the step, as the
// hardware decodes it: a winner among rows 0..7 is recorded with row r ^ 4's index, and on a tie
// another row wins. A fault (the break-demo.sh argmax-order break) the scoreboard's diagnosis
// recomputes with; nothing else asks for it.
enum class GmpoolVisit : uint8_t { Hardware, Plain };
uint32_t gmpool_column(std::span<const uint32_t, 16> srca_column, std::span<const uint32_t, 16> srcb_row,
                       uint32_t dst_value, SrcStyle srca_style, bool dst32, bool argmax,
                       GmpoolVisit visit = GmpoolVisit::Hardware);
// The value GMPOOL leaves in the other three rows of the 4-row block (GMPOOL.md): zero, or with argmax
// and a 32-bit Dst, the index phase advanced from whatever those rows held.
uint32_t gmpool_other_row_value(uint32_t previous_dst_value, bool dst32, bool argmax);

}  // namespace tmu::tensix::fpu
