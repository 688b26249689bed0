// GMPOOL's scaling, comparison and Dst packing (GMPOOL.md's ReadAndScaleSrc / ReadDst / WriteDst /
// AsComparable), on the ISA's 19-bit Src datums and the physical Dst layouts.
#include "tmu/tensix/fpu/gmpool_compare.h"

#include <array>

#include "tmu/bits.h"

namespace tmu::tensix::fpu {
namespace {

constexpr uint32_t kDatumExponentMask = 0x1FF;  // 9 bits
constexpr uint32_t kDatumMantissaMask = 0x3FF;  // 10 bits
constexpr uint32_t kBf16Bias = 127;
constexpr uint32_t kFp16Bias = 15;

SrcFields raw_fields(uint32_t datum19) { return unpack_src(datum19, SrcStyle::TF32); }

constexpr GmpoolDatum kMinusInfinity{1, kDatumExponentMask, kDatumMantissaMask};

// Field views of the 32-bit value GMPOOL works on: Dst32b as stored, or Dst16b in the high half.
// Each range is named once here, after Dst.md's diagrams.
constexpr uint32_t dst_sign(uint32_t v) { return bits<31, 31>(v); }
constexpr uint32_t hi_bf16_mantissa7(uint32_t v) { return bits<30, 24>(v); }
constexpr uint32_t hi_bf16_exponent8(uint32_t v) { return bits<23, 16>(v); }
constexpr uint32_t lo_tf32_mantissa3(uint32_t v) { return bits<15, 13>(v); }  // next three FP32 mantissa bits
constexpr uint32_t hi_fp16_mantissa10(uint32_t v) { return bits<30, 21>(v); }
constexpr uint32_t hi_fp16_exponent5(uint32_t v) { return bits<20, 16>(v); }
// INT32 magnitude bits 9:0 and 15:10 sit in the low half; magnitude bits 18:16 are the low three
// bits of the "middle" byte at 30:24.
constexpr uint32_t int32_mag_9_0(uint32_t v) { return bits<9, 0>(v); }
constexpr uint32_t int32_mag_15_10(uint32_t v) { return bits<15, 10>(v); }
constexpr uint32_t int32_mag_18_16(uint32_t v) { return bits<26, 24>(v); }

// The first eight rows are visited in the order 4..7, 0..3, and a winner among them is recorded as
// this transform of its row (GMPOOL.md).
constexpr unsigned visit_row(unsigned step) { return step < 8 ? (step ^ 4u) : step; }
constexpr std::array<uint32_t, 8> kArgmaxIndexTransform{0, 3, 6, 1, 4, 7, 2, 5};
// The argmax index phase: bits 11:8 of the previous Dst value, advanced by one.
constexpr uint32_t kIndexPhaseStep = 0x100;
constexpr uint32_t index_phase_of(uint32_t dst_value) {
  return with_bits<11, 8>(0, bits<11, 8>(dst_value + kIndexPhaseStep));
}

}  // namespace

const char* gmpool_dst_style_name(GmpoolDstStyle s) {
  switch (s) {
    case GmpoolDstStyle::BF16: return "BF16";
    case GmpoolDstStyle::TF32: return "TF32";
    case GmpoolDstStyle::FP16: return "FP16";
    case GmpoolDstStyle::INT32: return "INT32";
  }
  return "?";
}

GmpoolDstStyle gmpool_dst_style(SrcStyle srca_style, bool dst32, bool argmax) {
  switch (srca_style) {
    case SrcStyle::INT8: return GmpoolDstStyle::INT32;
    case SrcStyle::TF32:
      if (argmax) return GmpoolDstStyle::INT32;  // index only
      return dst32 ? GmpoolDstStyle::TF32 : GmpoolDstStyle::BF16;
    case SrcStyle::BF16:
      if (argmax && dst32) return GmpoolDstStyle::BF16;  // value in the high half, index in the low
      return dst32 ? GmpoolDstStyle::TF32 : GmpoolDstStyle::BF16;
    case SrcStyle::FP16:
      if (argmax && dst32) return GmpoolDstStyle::FP16;
      return dst32 ? GmpoolDstStyle::TF32 : GmpoolDstStyle::FP16;
  }
  return GmpoolDstStyle::BF16;
}

GmpoolDatum gmpool_read_and_scale_src(uint32_t srca_datum19, SrcStyle srca_style, uint32_t srcb_datum19) {
  const SrcFields a = raw_fields(srca_datum19);
  const SrcFields b = raw_fields(srcb_datum19);
  if (b.exponent == 0) return kMinusInfinity;  // scaling by zero
  if (a.exponent == 0) return GmpoolDatum{};   // SrcA denormals and zeros read as +0
  GmpoolDatum d;
  d.sign = a.sign;
  switch (srca_style) {
    case SrcStyle::INT8:
      d.exponent = 0;
      d.mag_or_man = a.mantissa;
      break;
    case SrcStyle::FP16:
      d.exponent = bits<4, 0>(a.exponent) + bits<4, 0>(b.exponent);
      d.mag_or_man = a.mantissa;
      break;
    case SrcStyle::TF32:
      d.exponent = a.exponent + b.exponent;
      d.mag_or_man = a.mantissa;
      break;
    case SrcStyle::BF16:
      d.exponent = a.exponent + b.exponent;
      d.mag_or_man = bits<9, 3>(a.mantissa) << 3;
      break;
  }
  d.exponent &= kDatumExponentMask;
  return d;
}

GmpoolDatum gmpool_read_dst(uint32_t dst_value, GmpoolDstStyle style) {
  GmpoolDatum d;
  d.sign = dst_sign(dst_value);
  switch (style) {
    case GmpoolDstStyle::INT32:
      d.mag_or_man = int32_mag_9_0(dst_value);
      d.exponent = int32_mag_15_10(dst_value) | (int32_mag_18_16(dst_value) << 6);
      break;
    case GmpoolDstStyle::FP16:
      d.exponent = hi_fp16_exponent5(dst_value) + kFp16Bias;
      d.mag_or_man = hi_fp16_mantissa10(dst_value);
      break;
    case GmpoolDstStyle::BF16:
    case GmpoolDstStyle::TF32:
      d.exponent = hi_bf16_exponent8(dst_value) + kBf16Bias;
      d.mag_or_man = hi_bf16_mantissa7(dst_value) << 3;
      if (style == GmpoolDstStyle::TF32) d.mag_or_man |= lo_tf32_mantissa3(dst_value);
      break;
  }
  return d;
}

uint32_t gmpool_write_dst(const GmpoolDatum& d, GmpoolDstStyle style) {
  const uint32_t sign = with_bits<31, 31>(0, d.sign);
  switch (style) {
    case GmpoolDstStyle::INT32:
      // Only 13 magnitude bits come back: the datum's mantissa and three exponent bits.
      return sign | with_bits<12, 10>(0, d.exponent) | with_bits<9, 0>(0, d.mag_or_man);
    case GmpoolDstStyle::FP16:
      if (bits<5, 0>(d.exponent) == 0) return 0;
      // Removing the bias wraps if SrcB's scale was not 1.0; the hardware keeps the low five bits.
      return sign | with_bits<30, 21>(0, d.mag_or_man) | with_bits<20, 16>(0, d.exponent - kFp16Bias);
    case GmpoolDstStyle::BF16:
    case GmpoolDstStyle::TF32: {
      if (d.exponent == 0) return 0;
      uint32_t v = sign | with_bits<30, 24>(0, bits<9, 3>(d.mag_or_man)) |
                   with_bits<23, 16>(0, d.exponent - kBf16Bias);
      if (style == GmpoolDstStyle::TF32) v |= with_bits<15, 13>(0, bits<2, 0>(d.mag_or_man));
      return v;
    }
  }
  return 0;
}

int32_t gmpool_comparison_key(const GmpoolDatum& d) {
  const auto magnitude =
      static_cast<int32_t>(((d.exponent & kDatumExponentMask) << 10) | (d.mag_or_man & kDatumMantissaMask));
  return d.sign ? -magnitude : magnitude;
}

bool gmpool_candidate_wins(const GmpoolDatum& candidate, const GmpoolDatum& current) {
  return gmpool_comparison_key(candidate) >= gmpool_comparison_key(current);
}

uint32_t gmpool_column(std::span<const uint32_t, 16> srca_column, std::span<const uint32_t, 16> srcb_row,
                       uint32_t dst_value, SrcStyle srca_style, bool dst32, bool argmax, GmpoolVisit visit) {
  const GmpoolDstStyle style = gmpool_dst_style(srca_style, dst32, argmax);
  GmpoolDatum best = gmpool_read_dst(dst_value, style);
  const uint32_t index_phase = index_phase_of(dst_value);
  uint32_t best_index = bits<7, 0>(dst_value);
  for (unsigned step = 0; step < 16; ++step) {
    const unsigned row = visit == GmpoolVisit::Hardware ? visit_row(step) : step;
    const GmpoolDatum candidate = gmpool_read_and_scale_src(srca_column[row], srca_style, srcb_row[row]);
    if (!gmpool_candidate_wins(candidate, best)) continue;
    best = candidate;
    // The index is decoded from the step (rtl/tmu_gmpool_column.sv: argmax_index(step ^ 4)), which in
    // the hardware's visit order is the winning row's.
    if (step < kArgmaxIndexTransform.size())
      best_index = bits<7, 0>((index_phase >> 4) + kArgmaxIndexTransform[visit_row(step)]);
  }
  if (!argmax) return gmpool_write_dst(best, style);
  const uint32_t index_result = index_phase | best_index;
  return style == GmpoolDstStyle::INT32 ? index_result : (gmpool_write_dst(best, style) | index_result);
}

uint32_t gmpool_other_row_value(uint32_t previous_dst_value, bool dst32, bool argmax) {
  return (dst32 && argmax) ? index_phase_of(previous_dst_value) : 0;
}

}  // namespace tmu::tensix::fpu
