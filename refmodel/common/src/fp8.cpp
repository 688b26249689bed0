#include "tmu/fp8.h"

#include <bit>

namespace tmu::fp8 {

namespace {

constexpr uint8_t sign_bit(bool sign) { return sign ? 0x80 : 0x00; }

// The largest finite magnitude as (exponent field, fraction): e4m3 gives up the top fraction of its
// top binade to the NaN, e5m2 its whole top binade to infinities and NaNs.
constexpr unsigned max_exp_field(Kind k) { return k == Kind::E4M3 ? 15 : 30; }
constexpr unsigned max_frac(Kind k) { return k == Kind::E4M3 ? 6 : 3; }

bool rounds_away(ieee::Rounding r, bool sign) {
  return r == ieee::Rounding::NearestEven || (r == ieee::Rounding::TowardPositive && !sign) ||
         (r == ieee::Rounding::TowardNegative && sign);
}

uint8_t overflowed(Kind k, bool sign, ieee::Rounding r, Overflow o) {
  if (o == Overflow::Saturate || !rounds_away(r, sign)) return max_finite(k, sign);
  return k == Kind::E4M3 ? nan(k, sign) : static_cast<uint8_t>(sign_bit(sign) | 0x7C);
}

// Whether to add one unit to a truncated magnitude n, given the discarded bits rem out of a unit of
// 2^shift (shift >= 1; shift beyond the width of rem means rem is all below the half).
bool round_up(uint64_t n, uint64_t rem, unsigned shift, bool sign, ieee::Rounding r) {
  if (rem == 0) return false;
  switch (r) {
    case ieee::Rounding::NearestEven: {
      if (shift > 40) return false;
      const uint64_t half = uint64_t{1} << (shift - 1);
      return rem > half || (rem == half && (n & 1) != 0);
    }
    case ieee::Rounding::TowardPositive: return !sign;
    case ieee::Rounding::TowardNegative: return sign;
    case ieee::Rounding::TowardZero: return false;
  }
  return false;
}

}  // namespace

uint8_t max_finite(Kind k, bool sign) {
  return static_cast<uint8_t>(sign_bit(sign) | (max_exp_field(k) << layout(k).frac_bits) | max_frac(k));
}

uint8_t nan(Kind k, bool sign) { return static_cast<uint8_t>(sign_bit(sign) | (k == Kind::E4M3 ? 0x7F : 0x7E)); }

bool is_nan(Kind k, uint8_t bits) {
  const uint8_t mag = bits & 0x7F;
  return k == Kind::E4M3 ? mag == 0x7F : mag > 0x7C;
}

bool is_inf(Kind k, uint8_t bits) { return k == Kind::E5M2 && (bits & 0x7F) == 0x7C; }

uint32_t to_f32(Kind k, uint8_t bits) {
  const Layout l = layout(k);
  const uint32_t sign = static_cast<uint32_t>(bits >> 7) << 31;
  const uint32_t exp = (bits >> l.frac_bits) & ((1u << l.exp_bits) - 1);
  const uint32_t frac = bits & ((1u << l.frac_bits) - 1);
  if (is_nan(k, bits)) return sign | 0x7F800000u | (k == Kind::E4M3 ? 0x00400000u : frac << (23 - l.frac_bits));
  if (is_inf(k, bits)) return sign | 0x7F800000u;
  if (exp == 0) {
    if (frac == 0) return sign;
    // frac * 2^(1 - bias - frac_bits): normalise so the top set bit becomes the implicit one.
    const int top = std::bit_width(frac) - 1;
    const uint32_t e32 = static_cast<uint32_t>(1 - l.bias - static_cast<int>(l.frac_bits) + top + 127);
    const uint32_t f32 = (frac & ((1u << top) - 1)) << (23 - top);
    return sign | (e32 << 23) | f32;
  }
  return sign | ((exp - l.bias + 127) << 23) | (frac << (23 - l.frac_bits));
}

uint8_t from_f32(Kind k, uint32_t f32_bits, ieee::Rounding rounding, Overflow overflow) {
  const Layout l = layout(k);
  const bool sign = (f32_bits >> 31) != 0;
  const uint32_t exp = (f32_bits >> 23) & 0xFF;
  const uint32_t frac = f32_bits & 0x7FFFFF;
  if (exp == 0xFF) {
    if (frac != 0) return nan(k, sign);
    return overflow == Overflow::Saturate ? max_finite(k, sign) : overflowed(k, sign, ieee::Rounding::NearestEven, overflow);
  }
  if (exp == 0 && frac == 0) return sign_bit(sign);
  // The exact value is sig * 2^q.
  const uint64_t sig = exp == 0 ? frac : (frac | 0x800000u);
  const int q = exp == 0 ? -149 : static_cast<int>(exp) - 150;
  const int top = std::bit_width(sig) - 1 + q;                          // floor(log2 |value|)
  const int quantum_min = 1 - l.bias - static_cast<int>(l.frac_bits);  // the subnormal spacing
  int qr = top - static_cast<int>(l.frac_bits);
  if (qr < quantum_min) qr = quantum_min;
  uint64_t n = 0;
  if (qr <= q) {
    n = sig << (q - qr);
  } else {
    const unsigned shift = static_cast<unsigned>(qr - q);
    const uint64_t rem = shift >= 64 ? sig : sig & ((uint64_t{1} << shift) - 1);
    n = shift >= 64 ? 0 : sig >> shift;
    if (round_up(n, rem, shift, sign, rounding)) ++n;
  }
  if (n == 0) return sign_bit(sign);
  const uint64_t implicit = uint64_t{1} << l.frac_bits;
  if (n >= 2 * implicit) {  // rounding carried into the next binade; n is 2 * implicit, even
    n >>= 1;
    ++qr;
  }
  const bool normal = n >= implicit;
  const int field = normal ? qr + static_cast<int>(l.frac_bits) + l.bias : 0;
  const unsigned frac8 = static_cast<unsigned>(normal ? n - implicit : n);
  if (field > static_cast<int>(max_exp_field(k)) ||
      (field == static_cast<int>(max_exp_field(k)) && frac8 > max_frac(k)))
    return overflowed(k, sign, rounding, overflow);
  return static_cast<uint8_t>(sign_bit(sign) | (static_cast<unsigned>(field) << l.frac_bits) | frac8);
}

}  // namespace tmu::fp8
