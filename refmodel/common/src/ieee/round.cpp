// Exact sums and products of terms, and the one rounding every operation ends with.
#include <algorithm>
#include <bit>

#include "internal.h"

namespace tmu::ieee::detail {

int bit_length(u128 x) {
  const auto hi = static_cast<uint64_t>(x >> 64), lo = static_cast<uint64_t>(x);
  return hi != 0 ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(lo);
}

Term multiply(const Term& x, const Term& y) { return Term{x.sign != y.sign, x.sig * y.sig, x.exp + y.exp}; }

// Operand significands have at most 53 bits, so x's shifted to 64 bits above y's length stays
// within 117 bits and the quotient keeps at least 64: rounding to odd at more than two places below
// any format's last place is as good as the exact quotient, for the value and for every flag.
Term divide(const Term& x, const Term& y) {
  const int shift = 64 + bit_length(y.sig) - bit_length(x.sig);
  const u128 num = x.sig << shift;
  const u128 q = num / y.sig;
  const bool remainder = q * y.sig != num;
  return Term{x.sign != y.sign, q | (remainder ? 1 : 0), x.exp - shift - y.exp};
}

// The radicand is lifted by an even number of places to 125 or 126 bits (an odd exponent takes one
// more), so its integer root has 63 bits; a nonzero remainder sets the last bit, as in divide.
Term square_root(const Term& x) {
  int lift = 125 - bit_length(x.sig);
  if (((x.exp - lift) & 1) != 0) ++lift;
  const u128 radicand = x.sig << lift;
  u128 root = 0, rem = 0;
  for (int i = 126; i >= 0; i -= 2) {  // two radicand bits per root bit, from the top
    rem = (rem << 2) | ((radicand >> i) & 3);
    const u128 trial = (root << 2) | 1;
    root <<= 1;
    if (rem >= trial) {
      rem -= trial;
      root |= 1;
    }
  }
  return Term{false, root | (rem != 0 ? 1 : 0), (x.exp - lift) / 2};
}

// (x.sig * 2^(x.exp - y.exp)) mod y.sig, one doubling per place: at most the width of the exponent
// range (about 2,100 places for binary64).
Term truncated_remainder(const Term& x, const Term& y) {
  u128 r = x.sig % y.sig;
  for (int places = x.exp - y.exp; places > 0; --places) {
    r <<= 1;
    if (r >= y.sig) r -= y.sig;
  }
  return Term{x.sign, r, y.exp};
}

namespace {

// x / 2^n rounded to odd: truncated, with the last bit forced to 1 when anything nonzero was cut.
u128 shift_right_odd(u128 x, int n) {
  if (n <= 0) return x;
  if (n >= 128) return x != 0 ? 1 : 0;
  const bool cut = (x & ((u128{1} << n) - 1)) != 0;
  return (x >> n) | (cut ? 1 : 0);
}

// Where the part of a significand below the last kept place lies, as a fraction of that place.
enum class Rest { Exact, BelowHalf, Half, AboveHalf };

struct Split {
  u128 kept;
  Rest rest;
};

// sig / 2^n as its integer part and the Rest of it. n <= 0 shifts left; the callers keep that
// within 128 bits.
Split split(u128 sig, int n) {
  if (n <= 0) return {sig << -n, Rest::Exact};
  if (n > 128) return {0, sig == 0 ? Rest::Exact : Rest::BelowHalf};  // sig < 2^128 <= 2^(n-1)
  const u128 kept = n == 128 ? 0 : sig >> n;
  const u128 rem = n == 128 ? sig : sig & ((u128{1} << n) - 1);
  const u128 half = u128{1} << (n - 1);
  const Rest rest = rem == 0 ? Rest::Exact : rem < half ? Rest::BelowHalf : rem == half ? Rest::Half : Rest::AboveHalf;
  return {kept, rest};
}

bool rounds_up(Rounding r, bool sign, bool kept_odd, Rest rest) {
  if (rest == Rest::Exact) return false;
  switch (r) {
    case Rounding::NearestEven:
      return rest == Rest::AboveHalf || (rest == Rest::Half && kept_odd);
    case Rounding::TowardPositive:
      return !sign;
    case Rounding::TowardNegative:
      return sign;
    case Rounding::TowardZero:
      return false;
  }
  return false;
}

// The significand of t rounded to `bits` significant bits with no exponent limit carries out to the
// next power of two.
bool carries_unbounded(const Term& t, int bits, Rounding r) {
  const Split s = split(t.sig, bit_length(t.sig) - bits);
  const u128 rounded = s.kept + (rounds_up(r, t.sign, (s.kept & 1) != 0, s.rest) ? 1 : 0);
  return bit_length(rounded) > bits;
}

}  // namespace

// The sum is formed in one 128-bit word with the larger-magnitude addend's leading bit at bit 125
// (bits 126-127 take the carry). Its lowest set bit is then at bit 20 or above (it has at most 106
// bits), so it is a multiple of 2. The smaller addend is aligned to the same unit and, if bits fall off
// the bottom, rounded to odd. Adding or subtracting an even integer commutes with rounding to odd,
// so the word holds the exact sum rounded to odd in that unit. Bits only fall off when the smaller
// addend starts more than 20 places below the larger, so the sum keeps its leading bit within two
// places of bit 125: more than 70 places above the unit, while every format's last place is at most
// 53 below the leading bit. Rounding to odd at two or more places below the final last place gives
// the same final rounding, in every mode, as rounding the exact value; inexact and tininess agree
// too, since the word is exact only when the sum is and lies on the same side of 2^emin.
Term add_terms(const Term& x, const Term& y) {
  if (x.sig == 0) return y;
  if (y.sig == 0) return x;
  const bool x_larger = bit_length(x.sig) + x.exp >= bit_length(y.sig) + y.exp;
  const Term& big = x_larger ? x : y;
  const Term& small = x_larger ? y : x;
  const int lift = 125 - (bit_length(big.sig) - 1);
  const u128 b = big.sig << lift;
  const int unit = big.exp - lift;
  const int offset = small.exp - unit;  // small's leading bit lands at or below bit 125
  const u128 s = offset >= 0 ? small.sig << offset : shift_right_odd(small.sig, -offset);
  if (big.sign == small.sign) return Term{big.sign, b + s, unit};
  if (b >= s) return Term{big.sign, b - s, unit};
  return Term{small.sign, s - b, unit};  // only when nothing was cut: both start at bit 125
}

uint64_t round_pack(Format f, const Term& t, const Options& o, Flags& flags) {
  const int frac = static_cast<int>(f.frac_bits);
  const int exponent = bit_length(t.sig) - 1 + t.exp;  // floor(log2 |value|)
  const bool tiny_before = exponent < f.emin();
  if (o.flush_to_zero && o.tininess == Tininess::BeforeRounding && tiny_before) {
    flags.underflow = true;  // Arm FPRoundBase, FPCR.AH = 0: flushed before rounding, no inexact
    return f.zero(t.sign);
  }

  // The last kept place: frac places below the leading bit, but never below the subnormals' place.
  int last = std::max(exponent, f.emin()) - frac;
  const Split s = split(t.sig, last - t.exp);
  u128 kept = s.kept + (rounds_up(o.rounding, t.sign, (s.kept & 1) != 0, s.rest) ? 1 : 0);
  if (bit_length(kept) > frac + 1) {  // rounded up to the next power of two
    kept >>= 1;
    ++last;
  }
  const bool inexact = s.rest != Rest::Exact;

  bool tiny = tiny_before;
  if (o.tininess == Tininess::AfterRounding)
    tiny = exponent < f.emin() - 1 || (exponent == f.emin() - 1 && !carries_unbounded(t, frac + 1, o.rounding));
  if (o.flush_to_zero && tiny) {  // AfterRounding: Arm FPRoundBase with FPCR.AH = 1, x86 FTZ
    flags.underflow = flags.inexact = true;
    return f.zero(t.sign);
  }
  flags.underflow |= tiny && inexact;
  flags.inexact |= inexact;

  if (bit_length(kept) <= frac) return f.zero(t.sign) | static_cast<uint64_t>(kept);  // subnormal or zero
  const int e = last + frac;
  if (e > f.emax()) {
    flags.overflow = flags.inexact = true;
    const bool to_infinity = o.rounding == Rounding::NearestEven || (o.rounding == Rounding::TowardPositive && !t.sign) ||
                             (o.rounding == Rounding::TowardNegative && t.sign);
    return to_infinity ? f.infinity(t.sign) : f.max_finite(t.sign);
  }
  return f.zero(t.sign) | (static_cast<uint64_t>(e + f.bias()) << f.frac_bits) |
         (static_cast<uint64_t>(kept) & f.frac_mask());
}

uint64_t round_sum(Format f, const Term& x, const Term& y, const Options& o, Flags& flags) {
  const bool zero_sign_by_mode = o.rounding == Rounding::TowardNegative;
  if (x.sig == 0 && y.sig == 0) return f.zero(x.sign == y.sign ? x.sign : zero_sign_by_mode);
  const Term sum = add_terms(x, y);
  if (sum.sig == 0) return f.zero(zero_sign_by_mode);
  return round_pack(f, sum, o, flags);
}

}  // namespace tmu::ieee::detail
