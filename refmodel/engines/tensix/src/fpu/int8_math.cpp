// The integer "8" x integer "8" -> saturating integer "32" path of the Matrix Unit.
#include "tmu/tensix/fpu/int8_math.h"

#include "tmu/bits.h"
#include "tmu/tensix/formats.h"

namespace tmu::tensix::fpu {
namespace {

// Sign, the full 8-bit exponent field (the zero flag looks at all of it) and the 10-bit magnitude.
SrcFields raw_fields(uint32_t datum19) { return unpack_src(datum19, SrcStyle::TF32); }

int32_t signed_magnitude(uint32_t sign, uint32_t magnitude) {
  const auto m = static_cast<int32_t>(magnitude);
  return sign ? -m : m;
}

// The value with only the magnitude bits in keep_mask, or 0 if the zero flag fires.
int32_t masked_operand(uint32_t datum19, uint32_t keep_mask, bool zero_flag_disabled) {
  const SrcFields f = raw_fields(datum19);
  if (f.exponent == 0 && !zero_flag_disabled) return 0;
  return signed_magnitude(f.sign, f.mantissa & keep_mask);
}

constexpr uint32_t kWholeMagnitude = 0x3FF;

uint32_t accumulate(int32_t value, uint32_t dst32_stored, bool add_dst, Int8Trace* trace) {
  const int32_t dst = add_dst ? dst32_to_int32(dst32_stored) : 0;
  const int32_t result = add_dst ? saturating_add_int32(dst, value) : value;
  if (trace) *trace = Int8Trace{value, dst, result};
  return dst32_from_int32(result);
}

}  // namespace

uint32_t int8_srca_slice_mask(uint32_t phase) {
  // Magnitude bits 4:0 or 7:5; bits 9:8 are never multiplied.
  return bits<0, 0>(phase) ? 0x01Fu : 0x0E0u;
}

uint32_t int8_srcb_slice_mask(uint32_t phase) {
  // Magnitude bits 3:0 or 9:4.
  return bits<1, 1>(phase) ? 0x00Fu : 0x3F0u;
}

int32_t int8_operand(uint32_t datum19, bool zero_flag_disabled) {
  return masked_operand(datum19, kWholeMagnitude, zero_flag_disabled);
}

int32_t int8_srca_slice(uint32_t datum19, uint32_t phase) {
  // ttsim applies SrcA's zero flag even when the configuration disables it for SrcB.
  return masked_operand(datum19, int8_srca_slice_mask(phase), false);
}

int32_t int8_srcb_slice(uint32_t datum19, uint32_t phase, bool zero_flag_disabled) {
  return masked_operand(datum19, int8_srcb_slice_mask(phase), zero_flag_disabled);
}

int32_t saturating_add_int32(int32_t x, int32_t y) {
  const int64_t sum = int64_t{x} + int64_t{y};
  if (sum > kInt32SaturationLimit) return kInt32SaturationLimit;
  if (sum < -kInt32SaturationLimit) return -kInt32SaturationLimit;
  return static_cast<int32_t>(sum);
}

uint32_t int8_mvmul_element(std::span<const uint32_t, 16> srca_column, std::span<const uint32_t, 16> srcb_row,
                            uint32_t dst32_stored, uint32_t phase, Int8Trace* trace) {
  // 16 products of at most 255 * 1023 cannot overflow before Dst is added.
  int32_t dot = 0;
  for (unsigned k = 0; k < 16; ++k) {
    dot += int8_srca_slice(srca_column[k], phase) * int8_srcb_slice(srcb_row[k], phase);
  }
  return accumulate(dot, dst32_stored, true, trace);
}

uint32_t int8_elwmul_element(uint32_t srca, uint32_t srcb, uint32_t dst32_stored, uint32_t phase,
                             bool srcb_zero_flag_disabled, Int8Trace* trace) {
  const int32_t product =
      int8_srca_slice(srca, phase) * int8_srcb_slice(srcb, phase, srcb_zero_flag_disabled);
  return accumulate(product, dst32_stored, true, trace);
}

uint32_t int8_elwadd_element(uint32_t srca, uint32_t srcb, uint32_t dst32_stored, bool add_dst,
                             bool srcb_zero_flag_disabled, Int8Trace* trace) {
  const int32_t sum = int8_operand(srca) + int8_operand(srcb, srcb_zero_flag_disabled);
  return accumulate(sum, dst32_stored, add_dst, trace);
}

uint32_t int8_elwsub_element(uint32_t srca, uint32_t srcb, uint32_t dst32_stored, bool add_dst,
                             bool srcb_zero_flag_disabled, Int8Trace* trace) {
  const int32_t difference = int8_operand(srca) - int8_operand(srcb, srcb_zero_flag_disabled);
  return accumulate(difference, dst32_stored, add_dst, trace);
}

}  // namespace tmu::tensix::fpu
