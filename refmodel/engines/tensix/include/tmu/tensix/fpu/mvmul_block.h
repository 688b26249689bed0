// MVMUL / DOTPV / GAPOOL on a whole block at once: the fast path the instruction files run. For every
// element it computes exactly what mvmul_element (datapath.h) computes; that function and its three
// stages stay the reference definition, and tests/unit/test_fpu_mvmul_block.cpp checks this kernel
// against them, block by block and piece by piece.
//
// Why it is fast where mvmul_element is slow, stage by stage:
//   fidelity_slice   Each of the 256 SrcA and up to 128 SrcB datums is decoded once per instruction
//                    (not once per product) into the sign, exponent and slice the phase uses
//                    (OperandReader below: the style and phase turned into masks once), and everything
//                    that depends only on the mode (exponent adjustment, zero-product exponent) is
//                    hoisted.
//   align_group_sum  Eight output columns of one row are computed side by side in integer lanes. A
//                    product is aligned (ties away) on its signed value with the identity of
//                    round_signed_product_shift below, which needs no branch.
//   accum_normalize  The stage restated for eight elements at once, step for step, without the
//                    trace and without branches (each step computes its value for every lane and
//                    selects); accumulate_block_terms exposes it to the tests.
//
// INT8 math (SrcA style INT8) is not sped up: the block falls back to int8_mvmul_element per element.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tmu/bits.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {

inline constexpr unsigned kBlockColumns = 16;
inline constexpr unsigned kBlockMaxRows = 8;

// One instruction's operands and Dst block. The caller fills rows 0..rows-1 of srcb and dst and all
// of srca (left uninitialised here: an instruction fills it anyway, and zeroing 1.5 KiB per
// instruction is a measurable share of an MVMUL); mvmul_block replaces those rows of dst.
struct MvmulBlock {
  // srca[k][j]: SrcA row k of the instruction's 16-row block, column j (as stored, 19-bit datums).
  std::array<std::array<uint32_t, kBlockColumns>, kDotLength> srca;
  // srcb[i][k]: the SrcB row output row i dots with (a broadcast repeats one row).
  std::array<std::array<uint32_t, kDotLength>, kBlockMaxRows> srcb;
  // dst[i][j]: the stored Dst value of output element (i, j) (undefined rows already read as the
  // identity 0); replaced by the new stored value. 16-bit Dst values use the low 16 bits.
  std::array<std::array<uint32_t, kBlockColumns>, kBlockMaxRows> dst;
  unsigned rows = kBlockMaxRows;  // rows 0..rows-1 are computed, the others are left alone
};

// The instruction set the column lanes are compiled for. Results are identical on every one (integer
// arithmetic only); Portable runs anywhere, X86_64_Avx2 only where the CPU has AVX2 and BMI1/2,
// X86_64_Avx512 where it also has AVX-512 F, VL, BW, DQ and CD (the same eight-lane code, given 32
// vector registers instead of 16 and AVX-512's three-input logic).
enum class BlockKernelIsa : uint8_t { Portable, X86_64_Avx2, X86_64_Avx512 };
const char* block_kernel_isa_name(BlockKernelIsa isa);
bool block_kernel_isa_available(BlockKernelIsa isa);
BlockKernelIsa best_block_kernel_isa();

// dst[i][j] = mvmul_element(column j of srca, srcb[i], dst[i][j], mode) for i < rows, every j.
void mvmul_block(MvmulBlock& block, const FpuMode& mode);
void mvmul_block(MvmulBlock& block, const FpuMode& mode, BlockKernelIsa isa);  // isa must be available

// ---------------------------------------------------------------------------------------------
// The pieces, exposed so that tests can check each one on its own (the inline ones are also compiled
// into the kernel's loops).
// ---------------------------------------------------------------------------------------------
namespace block_detail {

// How one operand (SrcA or SrcB) is read in one fidelity phase, as masks and shifts, so that every
// datum of every style takes the same few operations: read_fp_operand's style masking followed by
// srca_fidelity_slice / srcb_fidelity_slice.
struct OperandReader {
  uint32_t exponent_mask = 0;    // of the exponent field: FP16 uses its low five bits
  uint32_t mantissa_mask = 0;    // of the 10-bit mantissa field: BF16 uses its top seven bits
  uint32_t slice_lsb = 0;        // lowest significand bit the phase's slice takes
  uint32_t slice_mask = 0;       // the slice's width
  uint32_t slice_port_shift = 0; // SrcB's low slice sits at the top of the 7-bit port
};

inline OperandReader style_reader(SrcStyle style) {
  OperandReader r;
  r.exponent_mask = style == SrcStyle::FP16 ? low_mask(5) : low_mask(8);
  r.mantissa_mask = style == SrcStyle::BF16 ? low_mask(7) << 3 : low_mask(10);
  return r;
}
// SrcA: phase bit 0 clear takes significand bits 10:6, set takes 5:1.
inline OperandReader srca_reader(SrcStyle style, uint32_t phase) {
  OperandReader r = style_reader(style);
  r.slice_lsb = bits<0, 0>(phase) ? 1 : 6;
  r.slice_mask = low_mask(kSrcASliceBits);
  return r;
}
// SrcB: phase bit 1 clear takes significand bits 10:4, set takes 3:0 shifted up by three.
inline OperandReader srcb_reader(SrcStyle style, uint32_t phase) {
  OperandReader r = style_reader(style);
  const bool low_slice = bits<1, 1>(phase) != 0;
  r.slice_lsb = low_slice ? 0 : 4;
  r.slice_mask = low_slice ? low_mask(4) : low_mask(kSrcBSliceBits);
  r.slice_port_shift = low_slice ? 3 : 0;
  return r;
}

// The Src datum's fields (formats.h src_layout: sign 18, mantissa 17:8, exponent 7:0) as `reader`
// reads them, for one datum or for a vector of datums lane by lane; hence plain shifts and masks
// rather than tmu::bits, and results through references (a vector returned by value would tie the
// function to one vector ABI).
inline constexpr unsigned kDatumSignBit = 18;
inline constexpr unsigned kDatumMantissaLsb = 8;
template <class T>
constexpr void read_datum(const T& datum, const OperandReader& reader, T& sign, T& exponent, T& slice) {
  constexpr uint32_t kImplicitOne = uint32_t{1} << (kSignificandBits - 1);
  sign = (datum >> kDatumSignBit) & 1u;
  exponent = datum & (low_mask(8) & reader.exponent_mask);
  const T significand = ((datum >> kDatumMantissaLsb) & (low_mask(10) & reader.mantissa_mask)) | kImplicitOne;
  slice = ((significand >> reader.slice_lsb) & reader.slice_mask) << reader.slice_port_shift;
}

// A Src datum as one fidelity phase uses it.
struct SlicedOperand {
  uint32_t sign = 0;
  uint32_t exponent = 0;  // the style's exponent field (5 bits for FP16, else 8)
  uint32_t slice = 0;     // the 5-bit (SrcA) or 7-bit (SrcB) multiplier input
  bool flushed = false;   // zero exponent: the product is a zero product
  friend bool operator==(const SlicedOperand&, const SlicedOperand&) = default;
};
inline SlicedOperand slice_operand(uint32_t datum19, const OperandReader& reader) {
  SlicedOperand op;
  read_datum(datum19, reader, op.sign, op.exponent, op.slice);
  op.flushed = op.exponent == 0;
  return op;
}

// Ties-away alignment of a signed product without a branch. With the product held doubled, x = 2m
// for a positive product of magnitude m and x = -2m - 1 for a negative one, and s the alignment
// shift (0..kProductShiftLimit):
//     ((x >> s) + 1) >> 1   (arithmetic shifts) = floor((x + 2^s) / 2^(s+1))
//   = sign * floor((m + 2^(s-1)) / 2^s)  for s >= 1,   sign * m  for s = 0,
// which is shift_right_round_half_away applied to the magnitude, with the sign put back. (For a
// negative product: floor((-2m - 1 + 2^s) / 2^(s+1)) = -ceil((2m + 1 - 2^s) / 2^(s+1))
// = -floor((2m + 2^s) / 2^(s+1)).) A 5x7 product is below 2^12, so any shift from 13 on leaves
// nothing; the shift is clamped just above that.
inline constexpr int32_t kProductShiftLimit = 14;
constexpr int32_t round_signed_product_shift(int32_t doubled_product, int32_t shift) {
  const int32_t x = doubled_product < 0 ? doubled_product - 1 : doubled_product;
  return ((x >> shift) + 1) >> 1;
}

// The kernel's accumulator stage on its own, so that tests can drive it with chosen terms:
// results[n] = accum_normalize(group0[n], group1[n], dst_words[n], config) for every n, for
// terms as align_group_sum makes them (exponent 0..1023, mantissa below 2^28) and any Dst word. All
// spans must have the same length.
void accumulate_block_terms(std::span<const AccTerm> group0, std::span<const AccTerm> group1,
                            std::span<const uint32_t> dst_words, const AccumConfig& config,
                            std::span<uint32_t> results, BlockKernelIsa isa);

}  // namespace block_detail
}  // namespace tmu::tensix::fpu
