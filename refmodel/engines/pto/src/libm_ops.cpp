// TEXP, TLOG and TPOW of floats as the CPU simulator computes them, through its host's libm:
//   ElementOp.h OP_EXP: half: (half)expf((float)x); other types: (T)std::exp((double)x)
//   ElementOp.h OP_LOG: (T)std::log((double)x)
//   TPow.hpp compute_pow: r = std::pow((double)base, (double)exp); half: (half)(float)r; else (T)r
// tmu reproduces a host whose libm rounds exp, expf, log and pow correctly (to nearest): MPFR gives
// that result at the intermediate precision (binary32 for half TEXP, binary64 otherwise), and the
// simulator's casts back are tmu/ieee.h conversions, round to nearest even. The special values
// (infinities, zeros, NaNs, a negative base) follow C's Annex F, decided here before MPFR is asked,
// and NaN results follow the engine's NaN rules (nan_result). The widening casts are exact, and
// they quiet a signalling NaN, so libm never sees one: pow(NaN, 0) and pow(1, NaN) are 1. For the
// integer types (TEXP and TLOG compile for them too) the value goes to double, and the result is cast
// back with truncation, refused where that cast is undefined.
#include <bit>
#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions

#include <gmp.h>
#include <mpfr.h>

#include "internal.h"
#include "tmu/mpfr_thread.h"

namespace tmu::pto::detail {

namespace {

constexpr ieee::Format kDouble = ieee::kBinary64;
constexpr ieee::Format kSingle = ieee::kBinary32;

enum class Fn : uint8_t { Exp, Log, Pow };

bool is_zero(ieee::Format f, uint64_t x) { return (x & (f.sign_bit() - 1)) == 0; }
bool is_inf(ieee::Format f, uint64_t x) { return (x & (f.sign_bit() - 1)) == f.infinity(false); }
bool sign_of(ieee::Format f, uint64_t x) { return (x & f.sign_bit()) != 0; }
uint64_t one(ieee::Format f) { return static_cast<uint64_t>(f.bias()) << f.frac_bits; }

// An MPFR number holding a finite pattern exactly (64 bits hold every significand of these formats).
class Operand {
 public:
  Operand(ieee::Format f, uint64_t bits) {
    mpfr_init2(v_, 64);
    const ieee::Unpacked u = ieee::unpack(f, bits);
    if (u.cls == ieee::Class::Zero) {
      mpfr_set_zero(v_, u.sign ? -1 : 1);
    } else {
      mpfr_set_uj_2exp(v_, u.significand, u.exponent - static_cast<int>(f.frac_bits), MPFR_RNDN);
      if (u.sign) mpfr_neg(v_, v_, MPFR_RNDN);
    }
  }
  ~Operand() { mpfr_clear(v_); }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  mpfr_srcptr get() const { return v_; }

 private:
  mpfr_t v_;
};

// A pattern of format f from an MPFR number already rounded to f's precision and subnormals.
uint64_t pattern_of(ieee::Format f, mpfr_srcptr r) {
  const bool neg = mpfr_signbit(r) != 0;
  if (mpfr_inf_p(r)) return f.infinity(neg);
  if (mpfr_zero_p(r)) return f.zero(neg);
  mpz_t z;
  mpz_init(z);
  const mpfr_exp_t e = mpfr_get_z_2exp(z, r);  // |r| = |z| * 2^e, |z| < 2^precision
  mpz_abs(z, z);
  uint64_t m = 0;
  mpz_export(&m, nullptr, -1, sizeof m, 0, 0, z);
  mpz_clear(z);
  const int bits = std::bit_width(m);
  const long top = static_cast<long>(e) + bits - 1;  // the exponent of the leading bit
  const uint64_t sign = neg ? f.sign_bit() : 0;
  if (top >= f.emin()) {
    const uint64_t sig = m << (static_cast<int>(f.precision()) - bits);
    return sign | (static_cast<uint64_t>(top + f.bias()) << f.frac_bits) | (sig & f.frac_mask());
  }
  const long shift = static_cast<long>(e) - (f.emin() - static_cast<long>(f.frac_bits));  // exact after subnormalize
  return sign | (shift >= 0 ? m << shift : m >> -shift);
}

// fn(x[, y]) correctly rounded (to nearest, ties to even) into format d, subnormals kept and
// overflow to infinity: MPFR with d's precision and exponent range (x = m * 2^E, 0.5 <= m < 1,
// E in [emin - frac_bits + 1, emax + 1]), then mpfr_subnormalize. x and y are finite patterns of
// d, in the function's domain. MPFR's exponent range is per thread; it is restored before return.
uint64_t correctly_rounded(Fn fn, ieee::Format d, uint64_t x, uint64_t y) {
  release_mpfr_caches_at_thread_exit();
  const Operand a(d, x), b(d, y);
  mpfr_t r;
  mpfr_init2(r, static_cast<mpfr_prec_t>(d.precision()));
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(d.emin() - static_cast<int>(d.frac_bits) + 1);
  mpfr_set_emax(d.emax() + 1);
  int t = 0;
  switch (fn) {
    case Fn::Exp: t = mpfr_exp(r, a.get(), MPFR_RNDN); break;
    case Fn::Log: t = mpfr_log(r, a.get(), MPFR_RNDN); break;
    case Fn::Pow: t = mpfr_pow(r, a.get(), b.get(), MPFR_RNDN); break;
  }
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const uint64_t bits = pattern_of(d, r);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  mpfr_clear(r);
  return bits;
}

// exp(x) and log(x) of a pattern of d that is not a NaN, as C's Annex F defines them: exp(+inf) =
// +inf, exp(-inf) = +0, log(±0) = -inf, log(+inf) = +inf, log(x < 0) is invalid (a NaN here;
// the caller decides which). Everything else correctly rounded into d.
uint64_t exp_or_log(Fn fn, ieee::Format d, uint64_t x) {
  if (fn == Fn::Exp) {
    if (is_inf(d, x)) return sign_of(d, x) ? d.zero(false) : x;
    return correctly_rounded(fn, d, x, 0);
  }
  if (is_zero(d, x)) return d.infinity(true);
  if (sign_of(d, x)) return d.default_nan();
  if (is_inf(d, x)) return x;
  return correctly_rounded(fn, d, x, 0);
}

// Whether a finite pattern of f is an integer, and an odd one.
struct Integrality {
  bool integer;
  bool odd;
};
Integrality integrality(ieee::Format f, uint64_t x) {
  const ieee::Unpacked u = ieee::unpack(f, x);
  if (u.cls == ieee::Class::Zero) return {true, false};
  const int shift = u.exponent - static_cast<int>(f.frac_bits);  // value = significand * 2^shift
  if (shift > 0) return {true, false};
  if (shift == 0) return {true, (u.significand & 1) != 0};
  if (-shift >= 64) return {false, false};
  const uint64_t fraction = u.significand & ((uint64_t{1} << -shift) - 1);
  return {fraction == 0, fraction == 0 && ((u.significand >> -shift) & 1) != 0};
}

// |x| < 1, |x| > 1 for a pattern of f that is not a NaN.
int compare_magnitude_to_one(ieee::Format f, uint64_t x) {
  const uint64_t m = x & (f.sign_bit() - 1);
  return m < one(f) ? -1 : m > one(f) ? 1 : 0;
}

// pow(x, y) in the element format f, through std::pow in double and the simulator's casts back. The
// cases of C's Annex F (F.10.4.4) are decided on the operands; they are exact in every format.
uint64_t power(const Lane& lane, ieee::Format f, uint64_t x, uint64_t y) {
  if (is_zero(f, y)) return one(f);                     // pow(x, ±0) = 1 for any x, even a NaN
  if (x == one(f)) return one(f);                       // pow(+1, y) = 1 for any y, even a NaN
  if (ieee::is_nan(f, x) || ieee::is_nan(f, y)) {
    const uint64_t r = nan_result(lane, f, {x, y});
    // glibc's pow (sysdeps/ieee754/dbl-64/e_pow.c) returns x * x for a NaN x and a finite y, negated
    // when x's sign is set and y is an odd integer: that NaN comes back with its sign cleared.
    const bool negated = ieee::is_nan(f, x) && !ieee::is_nan(f, y) && !is_inf(f, y) && sign_of(f, x) &&
                         integrality(f, y).odd;
    return negated ? r ^ f.sign_bit() : r;
  }
  const bool y_negative = sign_of(f, y);
  if (is_inf(f, y)) {
    const int c = compare_magnitude_to_one(f, x);
    if (c == 0) return one(f);  // pow(-1, ±inf) = 1
    return (c < 0) == y_negative ? f.infinity(false) : f.zero(false);
  }
  const Integrality n = integrality(f, y);
  const bool x_negative = sign_of(f, x);
  if (is_inf(f, x) || is_zero(f, x)) {
    // pow(±0, y) and pow(±inf, y): a zero or an infinity, negative only for a negative x and an odd
    // integer y; an infinity when |x| and y are on opposite sides (0 and y < 0, inf and y > 0).
    const bool sign = x_negative && n.odd;
    return is_inf(f, x) != y_negative ? f.infinity(sign) : f.zero(sign);
  }
  if (x_negative && !n.integer) return nan_result(lane, f, {x, y});  // invalid: the default NaN
  const uint64_t r = correctly_rounded(Fn::Pow, kDouble, ieee::convert(f, kDouble, x).bits,
                                       ieee::convert(f, kDouble, y).bits);
  if (f == ieee::kBinary16) return ieee::convert(kSingle, f, ieee::convert(kDouble, kSingle, r).bits).bits;
  return ieee::convert(kDouble, f, r).bits;
}

}  // namespace

uint64_t libm_lane(const Lane& lane, uint64_t a, uint64_t b) {
  const ElemType t = lane.type;
  if (lane.op == Op::TPOW) return power(lane, float_format(t), a, b);
  const Fn fn = lane.op == Op::TEXP ? Fn::Exp : Fn::Log;
  if (!is_float(t)) return double_to_integer(lane, exp_or_log(fn, kDouble, integer_to_double(t, a)));
  const ieee::Format f = float_format(t);
  if (ieee::is_nan(f, a)) return nan_result(lane, f, {a});
  // aclFloat16 is the simulator's half: its TEXP goes through expf in float.
  const ieee::Format d = fn == Fn::Exp && t == ElemType::F16 ? kSingle : kDouble;
  const uint64_t r = exp_or_log(fn, d, ieee::convert(f, d, a).bits);
  if (ieee::is_nan(d, r)) return nan_result(lane, f, {a});  // log of a negative number
  return ieee::convert(d, f, r).bits;
}

}  // namespace tmu::pto::detail
