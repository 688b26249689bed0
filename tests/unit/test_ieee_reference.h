// The independent reference the tmu::ieee tests compare against. Numbers: MPFR computes each result
// correctly rounded at the format's precision with an unbounded exponent, then mpfr_check_range and
// mpfr_subnormalize impose the format's exponent range and subnormals (MPFR's documented recipe for
// emulating IEEE formats; its exponent convention is x = m * 2^E with 0.5 <= m < 1, so a format with
// normal exponents emin..emax and f fraction bits is E in [emin - f + 1, emax + 1]). NaNs: the test's
// own reading of Arm's pseudocode, written from the ARM ARM text, not from src/ieee/. Encodings: the
// helpers below. Nothing here calls the code under test; tmu/ieee.h is included for its types only.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <gmp.h>
#include <mpfr.h>

#include "tmu/ieee.h"

namespace tmu::ieee::test {

// A format's encoding arithmetic, restated from the format's two widths.
struct Enc {
  int e, f;  // exponent and fraction widths
  explicit Enc(Format fmt) : e(static_cast<int>(fmt.exp_bits)), f(static_cast<int>(fmt.frac_bits)) {}
  int bias() const { return (1 << (e - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  int emax() const { return bias(); }
  int p() const { return f + 1; }
  uint64_t sign_bit() const { return uint64_t{1} << (e + f); }
  uint64_t exp_ones() const { return ((uint64_t{1} << e) - 1) << f; }
  uint64_t frac_ones() const { return (uint64_t{1} << f) - 1; }
  uint64_t top_frac_bit() const { return uint64_t{1} << (f - 1); }
  uint64_t make(bool sign, uint64_t biased_exp, uint64_t frac) const {
    return (sign ? sign_bit() : 0) | (biased_exp << f) | (frac & frac_ones());
  }
  uint64_t field_e(uint64_t x) const { return (x & exp_ones()) >> f; }
  bool sign(uint64_t x) const { return (x & sign_bit()) != 0; }
  bool nan(uint64_t x) const { return (x & exp_ones()) == exp_ones() && (x & frac_ones()) != 0; }
  bool snan(uint64_t x) const { return nan(x) && (x & top_frac_bit()) == 0; }
  bool qnan(uint64_t x) const { return nan(x) && (x & top_frac_bit()) != 0; }
  bool inf(uint64_t x) const { return (x & ~sign_bit()) == exp_ones(); }
  bool zero(uint64_t x) const { return (x & ~sign_bit()) == 0; }
  bool subnormal(uint64_t x) const { return (x & exp_ones()) == 0 && (x & frac_ones()) != 0; }
  uint64_t default_nan() const { return exp_ones() | top_frac_bit(); }
  uint64_t infinity(bool s) const { return make(s, 0, 0) | exp_ones(); }
};

// `x` in `enc`'s encoding as an MPFR value: infinities as infinities, zeros with their sign, finite
// values as significand * 2^scale, exactly (a precision of 64 bits or more holds any significand).
inline void set_bits(mpfr_ptr v, const Enc& enc, uint64_t x) {
  const int s = enc.sign(x) ? -1 : 1;
  if (enc.inf(x)) return mpfr_set_inf(v, s);
  if (enc.zero(x)) return mpfr_set_zero(v, s);
  const uint64_t be = enc.field_e(x);
  const uint64_t sig = (x & enc.frac_ones()) | (be != 0 ? uint64_t{1} << enc.f : 0);
  const long scale = (be != 0 ? static_cast<long>(be) : 1) - enc.bias() - enc.f;
  mpfr_set_ui_2exp(v, sig, scale, MPFR_RNDN);
  if (s < 0) mpfr_neg(v, v, MPFR_RNDN);
}

// The bits of `r`, already rounded to `enc`'s precision and exponent range (mpfr_subnormalize),
// in `enc`'s encoding; `scratch` holds its significand on the way.
inline uint64_t encode_bits(const mpfr_t r, mpz_t scratch, const Enc& enc) {
  const uint64_t sign = mpfr_signbit(r) ? enc.sign_bit() : 0;
  if (mpfr_inf_p(r)) return sign | enc.exp_ones();
  if (mpfr_zero_p(r)) return sign;
  long e = mpfr_get_z_2exp(scratch, r);  // r = m * 2^e
  mpz_abs(scratch, scratch);
  uint64_t m = mpz_get_ui(scratch);
  while ((m & 1) == 0) m >>= 1, ++e;
  int len = 0;
  while ((m >> len) != 0) ++len;
  const long log2 = len - 1 + e;
  if (log2 >= enc.emin()) {
    const uint64_t frac = (m << (enc.f - (len - 1))) & enc.frac_ones();
    return sign | (static_cast<uint64_t>(log2 + enc.bias()) << enc.f) | frac;
  }
  return sign | (m << (e - (enc.emin() - enc.f)));
}

enum class Op { Add, Sub, Mul, Fma, Convert, Div, Sqrt, Fmod };

class Reference {
 public:
  Reference() {
    for (auto& v : in_) mpfr_init2(v, 64);
    mpfr_inits2(64, r_, u_, z_, static_cast<mpfr_ptr>(nullptr));
    mpz_init(m_);
    emin0_ = mpfr_get_emin();
    emax0_ = mpfr_get_emax();
  }
  ~Reference() {
    for (auto& v : in_) mpfr_clear(v);
    mpfr_clears(r_, u_, z_, static_cast<mpfr_ptr>(nullptr));
    mpz_clear(m_);
  }
  Reference(const Reference&) = delete;
  Reference& operator=(const Reference&) = delete;

  // `op` on operands in formats `in` (c in `out` for Fma: the addend has the result's format);
  // unused operands are ignored.
  Result run(Op op, Format in, Format out, uint64_t a, uint64_t b, uint64_t c, const Options& o) {
    const Enc ei(in), eo(out);
    std::vector<std::pair<Enc, uint64_t>> ops;  // in Arm's NaN priority order
    switch (op) {
      case Op::Fma: ops = {{eo, c}, {ei, a}, {ei, b}}; break;
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Fmod: ops = {{ei, a}, {ei, b}}; break;
      case Op::Convert:
      case Op::Sqrt: ops = {{ei, a}}; break;
    }
    Flags flags;
    if (o.flush_to_zero)
      for (auto& [enc, x] : ops)
        if (enc.subnormal(x)) {
          x &= enc.sign_bit();
          flags.input_denormal = true;
        }
    if (const auto nan = arm_nan(op, eo, ops, o, flags)) return *nan;
    // IEEE 754's divideByZero: an exact infinite result from finite operands.
    if (op == Op::Div && ei.zero(ops[1].second) && !ei.zero(ops[0].second) && !ei.inf(ops[0].second))
      flags.divide_by_zero = true;

    for (size_t i = 0; i < ops.size(); ++i) set_bits(in_[i], ops[i].first, ops[i].second);
    const mpfr_rnd_t rnd = to_mpfr(o.rounding);
    auto compute = [&](mpfr_ptr out_value, mpfr_rnd_t mode) {
      switch (op) {
        case Op::Fma: return mpfr_fma(out_value, in_[1], in_[2], in_[0], mode);
        case Op::Add: return mpfr_add(out_value, in_[0], in_[1], mode);
        case Op::Sub: return mpfr_sub(out_value, in_[0], in_[1], mode);
        case Op::Mul: return mpfr_mul(out_value, in_[0], in_[1], mode);
        case Op::Div: return mpfr_div(out_value, in_[0], in_[1], mode);
        case Op::Sqrt: return mpfr_sqrt(out_value, in_[0], mode);
        case Op::Fmod: return mpfr_fmod(out_value, in_[0], in_[1], mode);
        case Op::Convert: break;
      }
      return mpfr_set(out_value, in_[0], mode);
    };
    return finish(eo, compute, rnd, o, flags);
  }

 private:
  static mpfr_rnd_t to_mpfr(Rounding r) {
    switch (r) {
      case Rounding::NearestEven: return MPFR_RNDN;
      case Rounding::TowardPositive: return MPFR_RNDU;
      case Rounding::TowardNegative: return MPFR_RNDD;
      case Rounding::TowardZero: return MPFR_RNDZ;
    }
    return MPFR_RNDN;
  }


  // Arm's FPProcessNaNs / FPProcessNaNs3 (and FPMulAdd's override) as the test reads the ARM ARM:
  // the first signalling NaN in operand order, else the first quiet NaN; FPProcessNaN sets the
  // quiet bit and raises invalid for a signalling one; DN replaces the result by the default NaN;
  // FPConvertNaN moves the payload through a 51-bit left-aligned field.
  static std::optional<Result> arm_nan(Op op, const Enc& out, const std::vector<std::pair<Enc, uint64_t>>& ops,
                                       const Options& o, Flags flags) {
    const std::pair<Enc, uint64_t>* chosen = nullptr;
    for (const auto& x : ops)
      if (!chosen && x.first.snan(x.second)) chosen = &x;
    for (const auto& x : ops)
      if (!chosen && x.first.qnan(x.second)) chosen = &x;
    if (!chosen) return std::nullopt;
    if (chosen->first.snan(chosen->second)) flags.invalid = true;
    if (op == Op::Fma) {
      const auto& [ec, c] = ops[0];
      const auto& [ea, a] = ops[1];
      const auto& b = ops[2].second;
      if (ec.qnan(c) && ((ea.inf(a) && ea.zero(b)) || (ea.zero(a) && ea.inf(b)))) {
        flags.invalid = true;
        return Result{out.default_nan(), flags};
      }
    }
    if (o.default_nan) return Result{out.default_nan(), flags};
    const auto& [enc, x] = *chosen;
    const uint64_t frac51 = (x & (enc.top_frac_bit() - 1)) << (51 - (enc.f - 1));
    const uint64_t payload = frac51 >> (51 - (out.f - 1));
    return Result{(enc.sign(x) ? out.sign_bit() : 0) | out.exp_ones() | out.top_frac_bit() | payload, flags};
  }

  template <typename Compute>
  Result finish(const Enc& enc, Compute compute, mpfr_rnd_t rnd, const Options& o, Flags flags) {
    mpfr_set_prec(r_, enc.p());
    int t = compute(r_, rnd);  // rounded once to p bits, MPFR's (huge) exponent range
    if (mpfr_nan_p(r_)) {      // inf * 0, inf - inf
      flags.invalid = true;
      return {enc.default_nan(), flags};
    }
    if (t == 0 && mpfr_inf_p(r_)) return {enc.infinity(mpfr_signbit(r_) != 0), flags};
    if (t == 0 && mpfr_zero_p(r_)) return {mpfr_signbit(r_) ? enc.sign_bit() : 0, flags};

    // r_ is nonzero and finite here, and so is the exact value.
    mpfr_set_prec(u_, enc.p());
    mpfr_set(u_, r_, MPFR_RNDN);  // the unbounded-exponent rounding, for overflow and tininess
    const long exp_u = mpfr_get_exp(u_) - 1;  // floor(log2 |u|)
    const bool sign = mpfr_signbit(u_) != 0;
    bool tiny = exp_u < enc.emin();
    if (o.tininess == Tininess::BeforeRounding && exp_u <= enc.emin()) {
      mpfr_set_prec(z_, enc.p());
      compute(z_, MPFR_RNDZ);  // |exact| < 2^emin exactly when its truncation is
      tiny = mpfr_get_exp(z_) - 1 < enc.emin();
    }
    if (o.flush_to_zero && tiny) {
      flags.underflow = true;
      flags.inexact = flags.inexact || o.tininess == Tininess::AfterRounding;
      return {sign ? enc.sign_bit() : 0, flags};
    }

    mpfr_set_emin(enc.emin() - enc.f + 1);
    mpfr_set_emax(enc.emax() + 1);
    t = mpfr_check_range(r_, t, rnd);
    t = mpfr_subnormalize(r_, t, rnd);
    mpfr_set_emin(emin0_);
    mpfr_set_emax(emax0_);

    flags.inexact = flags.inexact || t != 0;
    flags.overflow = exp_u > enc.emax();
    flags.underflow = tiny && t != 0;
    return {encode_bits(r_, m_, enc), flags};
  }

  mpfr_t in_[3], r_, u_, z_;
  mpz_t m_;
  mpfr_exp_t emin0_, emax0_;
};

}  // namespace tmu::ieee::test
