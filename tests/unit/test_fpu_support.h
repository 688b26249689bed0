// Test-side encoders and exact decoders for the FPU datapath tests. Written from the ISA's bit diagrams
// (Diagrams/Src/Bits32.lua: Src_*, Dst16_*, Dst32_*) and FloatBitPatterns.md, independently of
// refmodel/engines/tensix/src/fpu, so that the tests check the model rather than restate it. Host floating point is
// fine here: values are exact (long double has a 64-bit significand).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tmu_test {

// ---- Src: sign at 18, mantissa/magnitude at 17:8, exponent at 7:0 ----
constexpr uint32_t src_datum(uint32_t sign, uint32_t exponent, uint32_t mantissa10) {
  return (sign << 18) | ((mantissa10 & 0x3FF) << 8) | (exponent & 0xFF);
}
constexpr uint32_t bf16_datum(uint32_t sign, uint32_t exponent, uint32_t mantissa7) {
  return src_datum(sign, exponent, (mantissa7 & 0x7F) << 3);
}
constexpr uint32_t tf32_datum(uint32_t sign, uint32_t exponent, uint32_t mantissa10) {
  return src_datum(sign, exponent, mantissa10);
}
constexpr uint32_t fp16_datum(uint32_t sign, uint32_t exponent5, uint32_t mantissa10) {
  return src_datum(sign, exponent5 & 0x1F, mantissa10);
}
// Integer "8": exponent 16, or 0 when the magnitude is zero (as unpackers write it).
constexpr uint32_t int8_datum(int32_t value) {
  const uint32_t magnitude = static_cast<uint32_t>(value < 0 ? -value : value);
  return src_datum(value < 0 ? 1u : 0u, magnitude ? 16u : 0u, magnitude);
}

// Exact value of a BF16/TF32 (bias 127) or FP16 (bias 15) Src datum: zero exponent reads as zero.
inline long double src_value(uint32_t datum, bool fp16) {
  const uint32_t sign = (datum >> 18) & 1, mantissa = (datum >> 8) & 0x3FF;
  const uint32_t exponent = fp16 ? (datum & 0x1F) : (datum & 0xFF);
  if (exponent == 0) return 0.0L;
  const long double v = std::ldexp(1.0L + mantissa / 1024.0L, static_cast<int>(exponent) - (fp16 ? 15 : 127));
  return sign ? -v : v;
}

// ---- IEEE-order FP32 ----
inline uint32_t fp32_bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float fp32_float(uint32_t bits) { return std::bit_cast<float>(bits); }
// Bits of an FP32 value known to be exactly representable (checked by the caller with exact_in_fp32).
inline uint32_t fp32_bits_of(long double v) { return fp32_bits(static_cast<float>(v)); }
inline bool exact_in_fp32(long double v) { return static_cast<long double>(static_cast<float>(v)) == v; }
inline long double fp32_value(uint32_t bits) {
  const uint32_t exponent = (bits >> 23) & 0xFF;
  if (exponent == 0) return 0.0L;  // Matrix Unit reads denormals as zero
  const long double v = std::ldexp(1.0L + (bits & 0x7FFFFF) / 8388608.0L, static_cast<int>(exponent) - 127);
  return (bits >> 31) ? -v : v;
}

// ---- Dst32b physical: sign 31, mantissa high 7 at 30:24, exponent at 23:16, mantissa low 16 at 15:0.
// INT32 is sign-magnitude with magnitude bits 30:23 at 23:16, 22:16 at 30:24, 15:0 at 15:0.
constexpr uint32_t dst32_phys_from_ieee(uint32_t ieee) {
  return (ieee & 0x80000000u) | (((ieee >> 16) & 0x7F) << 24) | (((ieee >> 23) & 0xFF) << 16) |
         (ieee & 0xFFFF);
}
constexpr uint32_t dst32_ieee_from_phys(uint32_t phys) {
  return (phys & 0x80000000u) | (((phys >> 16) & 0xFF) << 23) | (((phys >> 24) & 0x7F) << 16) |
         (phys & 0xFFFF);
}
inline uint32_t dst32_phys_from_value(long double v) { return dst32_phys_from_ieee(fp32_bits_of(v)); }
inline long double dst32_value(uint32_t phys) { return fp32_value(dst32_ieee_from_phys(phys)); }
constexpr uint32_t dst32_phys_from_int(int64_t value) {
  const uint32_t magnitude = static_cast<uint32_t>(value < 0 ? -value : value);
  return dst32_phys_from_ieee((value < 0 ? 0x80000000u : 0u) | magnitude);
}
constexpr int64_t dst32_int_from_phys(uint32_t phys) {
  const uint32_t ieee = dst32_ieee_from_phys(phys);
  const int64_t magnitude = ieee & 0x7FFFFFFF;
  return (ieee >> 31) ? -magnitude : magnitude;
}

// ---- Dst16 physical: BF16 sign 15, mantissa 14:8, exponent 7:0; FP16 sign 15, mantissa 14:5, exponent 4:0.
constexpr uint16_t dst16_phys_bf16(uint32_t sign, uint32_t exponent, uint32_t mantissa7) {
  return static_cast<uint16_t>((sign << 15) | ((mantissa7 & 0x7F) << 8) | (exponent & 0xFF));
}
constexpr uint16_t dst16_phys_fp16(uint32_t sign, uint32_t exponent5, uint32_t mantissa10) {
  return static_cast<uint16_t>((sign << 15) | ((mantissa10 & 0x3FF) << 5) | (exponent5 & 0x1F));
}
// From an IEEE-order BF16 pattern (the top half of an FP32).
constexpr uint16_t dst16_phys_from_bf16_ieee(uint32_t bf16) {
  return dst16_phys_bf16((bf16 >> 15) & 1, (bf16 >> 7) & 0xFF, bf16 & 0x7F);
}

// Accumulator-word (IEEE FP32 order) helpers for stage-level tests.
constexpr uint32_t acc_word(uint32_t sign, uint32_t exponent, uint32_t mantissa23) {
  return (sign << 31) | ((exponent & 0xFF) << 23) | (mantissa23 & 0x7FFFFF);
}

}  // namespace tmu_test
