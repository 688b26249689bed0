// An MPFR reference for the PTO float lanes whose simulator expressions chain a libm call and
// casts (TSQRT, TRSQRT, TEXP, TLOG, TPOW): each step is rounded by MPFR into the format the
// simulator holds it in (binary64, binary32, the element type), nearest even, subnormals kept,
// overflow to infinity, with MPFR's documented recipe (compute at the format's precision, then
// mpfr_check_range and mpfr_subnormalize in the format's exponent range). Patterns are read and
// written with the ieee tests' Enc, never with tmu/ieee.h's functions. NaNs are left to the callers:
// a NaN result comes back as std::nullopt.
#pragma once

#include <cstdint>
#include <optional>

#include <gmp.h>
#include <mpfr.h>

#include "test_ieee_reference.h"

namespace tmu::pto::test {

using ieee::test::Enc;

class MpfrLanes {
 public:
  MpfrLanes() {
    mpfr_inits2(64, x_, y_, r_, static_cast<mpfr_ptr>(nullptr));
    mpz_init(m_);
    emin0_ = mpfr_get_emin();
    emax0_ = mpfr_get_emax();
  }
  ~MpfrLanes() {
    mpfr_clears(x_, y_, r_, static_cast<mpfr_ptr>(nullptr));
    mpz_clear(m_);
  }
  MpfrLanes(const MpfrLanes&) = delete;
  MpfrLanes& operator=(const MpfrLanes&) = delete;

  // f(x) rounded into `out`, x a pattern of `in` that is not a NaN; f is called as
  // f(result, x, MPFR_RNDN) and returns MPFR's ternary value.
  template <typename F>
  std::optional<uint64_t> unary(const Enc& in, uint64_t x, const Enc& out, F f) {
    ieee::test::set_bits(x_, in, x);
    return finish(out, [&](mpfr_ptr r) { return f(r, x_, MPFR_RNDN); });
  }
  template <typename F>
  std::optional<uint64_t> binary(const Enc& in, uint64_t x, uint64_t y, const Enc& out, F f) {
    ieee::test::set_bits(x_, in, x);
    ieee::test::set_bits(y_, in, y);
    return finish(out, [&](mpfr_ptr r) { return f(r, x_, y_, MPFR_RNDN); });
  }
  // A pattern of `in` that is not a NaN, rounded into `out` (a cast between float types).
  uint64_t cast(const Enc& in, uint64_t x, const Enc& out) {
    return *unary(in, x, out, [](mpfr_ptr r, mpfr_srcptr v, mpfr_rnd_t m) { return mpfr_set(r, v, m); });
  }
  // Whether x, a pattern of `in` that is not a NaN, is an odd integer.
  bool odd_integer(const Enc& in, uint64_t x) {
    ieee::test::set_bits(x_, in, x);
    if (!mpfr_integer_p(x_)) return false;
    mpfr_div_2ui(y_, x_, 1, MPFR_RNDN);  // exact
    return !mpfr_integer_p(y_);
  }
  // x's sign as MPFR sees it: -1, 0 (either zero) or 1.
  int sign(const Enc& in, uint64_t x) {
    ieee::test::set_bits(x_, in, x);
    return mpfr_sgn(x_);
  }

 private:

  template <typename Compute>
  std::optional<uint64_t> finish(const Enc& out, Compute compute) {
    mpfr_set_prec(r_, out.p());
    int t = compute(r_);
    if (mpfr_nan_p(r_)) return std::nullopt;
    mpfr_set_emin(out.emin() - out.f + 1);
    mpfr_set_emax(out.emax() + 1);
    t = mpfr_check_range(r_, t, MPFR_RNDN);
    mpfr_subnormalize(r_, t, MPFR_RNDN);
    mpfr_set_emin(emin0_);
    mpfr_set_emax(emax0_);
    return ieee::test::encode_bits(r_, m_, out);
  }

  mpfr_t x_, y_, r_;
  mpz_t m_;
  mpfr_exp_t emin0_, emax0_;
};

}  // namespace tmu::pto::test
