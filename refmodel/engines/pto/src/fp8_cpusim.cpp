#include "tmu/pto/fp8_cpusim.h"

#include <bit>

namespace tmu::pto {

using fp8::Kind;
using fp8::Layout;
using fp8::layout;

uint64_t cpusim_to_f64(Kind k, uint8_t bits) {
  const Layout l = layout(k);
  const uint64_t sign = static_cast<uint64_t>(bits >> 7) << 63;
  const uint64_t exp = (bits >> l.frac_bits) & ((1u << l.exp_bits) - 1);
  const uint64_t frac = bits & ((1u << l.frac_bits) - 1);
  if (exp > 0) return sign | ((exp + 1023 - l.bias) << 52) | (frac << (52 - l.frac_bits));
  // `retVal = -0` is the integer 0: the negative zero pattern reads as +0.
  if ((bits & 0x7F) == 0) return 0;
  const int top = std::bit_width(frac) - 1;
  const uint64_t e64 = static_cast<uint64_t>(1023 - l.bias + 1 + (top - static_cast<int>(l.frac_bits)));
  return sign | (e64 << 52) | ((frac & ((uint64_t{1} << top) - 1)) << (52 - top));
}

uint32_t cpusim_to_f32(Kind k, uint8_t bits) {
  // Every value cpusim_to_f64 gives is a normal binary64 number of at most 3 significant bits with
  // exponent in [-16, 16]: a binary32 normal, so narrowing is a re-bias.
  const uint64_t d = cpusim_to_f64(k, bits);
  if ((d << 1) == 0) return static_cast<uint32_t>(d >> 32);
  const uint32_t sign = static_cast<uint32_t>(d >> 63) << 31;
  const uint32_t e = static_cast<uint32_t>(((d >> 52) & 0x7FF) - 1023 + 127);
  return sign | (e << 23) | static_cast<uint32_t>((d & ((uint64_t{1} << 52) - 1)) >> 29);
}

uint8_t cpusim_from_f64(Kind k, uint64_t f64_bits) {
  const Layout l = layout(k);
  if ((f64_bits << 1) == 0) return 0;  // `value == 0.0` holds for both zeros
  const uint64_t sign = f64_bits >> 63;
  const int64_t exp = static_cast<int64_t>((f64_bits >> 52) & 0x7FF);
  const uint64_t mant = f64_bits & ((uint64_t{1} << 52) - 1);
  // The "out-of-bounds" branch of the constructor only assigns values the normal branch then
  // overwrites, so it has no effect and is not modelled.
  if (exp == 0) return 0;  // binary64 subnormals
  uint64_t out_mant = mant >> (52 - l.frac_bits);
  int64_t out_exp = exp + l.bias - 1023;
  if (out_exp < 0) {
    const unsigned shift = static_cast<unsigned>(1 - out_exp) & 63;  // x86-64 shr takes the count mod 64
    out_mant = (out_mant | (uint64_t{1} << l.frac_bits)) >> shift;
    out_exp = 0;
  }
  const uint64_t exp_mask = (uint64_t{1} << l.exp_bits) - 1;
  return static_cast<uint8_t>((sign << 7) | ((static_cast<uint64_t>(out_exp) & exp_mask) << l.frac_bits) |
                              (out_mant & ((uint64_t{1} << l.frac_bits) - 1)));
}

uint8_t cpusim_from_f32(Kind k, uint32_t f32_bits) {
  // float -> double is exact: re-bias normals, normalise subnormals.
  const uint64_t sign = uint64_t{f32_bits >> 31} << 63;
  const uint32_t exp = (f32_bits >> 23) & 0xFF;
  const uint64_t frac = f32_bits & 0x7FFFFF;
  uint64_t d = 0;
  if (exp == 0xFF) {
    d = sign | (uint64_t{0x7FF} << 52) | (frac << 29);
  } else if (exp != 0) {
    d = sign | (uint64_t{exp - 127 + 1023} << 52) | (frac << 29);
  } else if (frac != 0) {
    const int top = std::bit_width(frac) - 1;  // value = frac * 2^-149
    d = sign | (static_cast<uint64_t>(top - 149 + 1023) << 52) | ((frac & ((uint64_t{1} << top) - 1)) << (52 - top));
  } else {
    d = sign;
  }
  return cpusim_from_f64(k, d);
}

}  // namespace tmu::pto
