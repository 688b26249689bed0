// Operand generators and the model-versus-reference comparison shared by the tmu::ieee MPFR tests.
// Every generator draws from tmu::Rng only, so a seed names the same cases on every host.
#pragma once

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_ieee_reference.h"
#include "tmu/rng.h"

namespace tmu::ieee::test {

inline constexpr uint64_t kSeed = 754;

inline std::string options_text(const Options& o) {
  static const char* const kModes[] = {"RNE", "RUP", "RDN", "RTZ"};
  return fmt::format("{}{}{}{}", kModes[static_cast<int>(o.rounding)], o.flush_to_zero ? " FZ" : "",
                     o.default_nan ? " DN" : "", o.tininess == Tininess::AfterRounding ? " tiny-after" : "");
}

inline std::string flags_text(const Flags& f) {
  return fmt::format("{}{}{}{}{}{}", f.invalid ? "I" : "-", f.overflow ? "O" : "-", f.underflow ? "U" : "-",
                     f.inexact ? "X" : "-", f.input_denormal ? "D" : "-", f.divide_by_zero ? "Z" : "-");
}

// How many reference results of each kind a test met, so that it can show it reaches them all.
struct Seen {
  uint64_t nan = 0, infinity = 0, zero = 0, subnormal = 0, exact = 0;
  uint64_t invalid = 0, overflow = 0, underflow = 0, inexact = 0;

  void add(const Enc& e, const Result& r) {
    nan += e.nan(r.bits), infinity += e.inf(r.bits), zero += e.zero(r.bits), subnormal += e.subnormal(r.bits);
    invalid += r.flags.invalid, overflow += r.flags.overflow, underflow += r.flags.underflow;
    inexact += r.flags.inexact;
    exact += !r.flags.inexact && !e.nan(r.bits) && !e.inf(r.bits) && !e.zero(r.bits);
  }
  // Every kind at least `n` times. Binary16 products into binary32 can neither underflow nor, in
  // RNE, overflow (|a * b| lies within [2^-48, 2^32]), so `extremes` = false leaves those two out.
  void expect_at_least(uint64_t n, bool extremes = true) const {
    EXPECT_GE(nan, n);
    EXPECT_GE(infinity, n);
    EXPECT_GE(zero, n);
    EXPECT_GE(subnormal, n);
    EXPECT_GE(exact, n);
    EXPECT_GE(invalid, n);
    EXPECT_GE(inexact, n);
    if (extremes) {
      EXPECT_GE(underflow, n);
      EXPECT_GE(overflow, n);
    }
  }
};

// Runs the model and the reference on one case, counts it, and reports the first few mismatches.
class Checker {
 public:
  void check(Op op, Format in, Format out, uint64_t a, uint64_t b, uint64_t c, const Options& o) {
    ++cases_;
    Result got{};
    switch (op) {
      case Op::Fma: got = fma_mixed(in, out, a, b, c, o); break;
      case Op::Add: got = add(in, a, b, o); break;
      case Op::Sub: got = sub(in, a, b, o); break;
      case Op::Mul: got = mul(in, a, b, o); break;
      case Op::Convert: got = convert(in, out, a, o); break;
      case Op::Div: got = div(in, a, b, o); break;
      case Op::Sqrt: got = sqrt(in, a, o); break;
      case Op::Fmod: got = fmod(in, a, b, o); break;
    }
    const Result want = reference_.run(op, in, out, a, b, c, o);
    seen_.add(Enc(out), want);
    if (got == want) return;
    if (++failures_ > 10) return;
    static const char* const kOps[] = {"add", "sub", "mul", "fma", "convert", "div", "sqrt", "fmod"};
    ADD_FAILURE() << fmt::format("{} e{}m{} -> e{}m{} [{}] a={:#x} b={:#x} c={:#x}: got {:#x} {}, want {:#x} {}",
                                 kOps[static_cast<int>(op)], in.exp_bits, in.frac_bits, out.exp_bits,
                                 out.frac_bits, options_text(o), a, b, c, got.bits, flags_text(got.flags),
                                 want.bits, flags_text(want.flags));
  }
  uint64_t cases() const { return cases_; }
  uint64_t failures() const { return failures_; }
  const Seen& seen() const { return seen_; }

 private:
  Reference reference_;
  Seen seen_;
  uint64_t cases_ = 0, failures_ = 0;
};

// floor(log2 |x|) of a finite nonzero encoding.
inline int ilog2(const Enc& e, uint64_t x) {
  const uint64_t be = e.field_e(x);
  if (be != 0) return static_cast<int>(be) - e.bias();
  int len = 0;
  while (((x & e.frac_ones()) >> len) != 0) ++len;
  return e.emin() - e.f + len - 1;
}

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  Rng& rng() { return rng_; }

  uint64_t raw(const Enc& e) { return rng_.next() >> (64 - (e.e + e.f + 1)); }
  bool coin() { return rng_.chance(1, 2); }
  uint64_t frac(const Enc& e) { return rng_.next() & e.frac_ones(); }

  // A normal number with unbiased exponent in [lo, hi] (clamped to the format's).
  uint64_t normal(const Enc& e, int lo, int hi) {
    lo = std::clamp(lo, e.emin(), e.emax());
    hi = std::clamp(hi, lo, e.emax());
    return e.make(coin(), static_cast<uint64_t>(rng_.between(lo, hi) + e.bias()), frac(e));
  }
  uint64_t subnormal(const Enc& e) { return e.make(coin(), 0, std::max<uint64_t>(frac(e), 1)); }

  uint64_t special(const Enc& e) {
    const uint64_t q = e.top_frac_bit();
    const uint64_t kinds[] = {0,
                              e.exp_ones(),
                              e.exp_ones() | q,
                              e.exp_ones() | q | 1,
                              e.exp_ones() | 1,
                              e.exp_ones() | (q - 1),
                              1,
                              e.frac_ones(),
                              uint64_t{1} << e.f,
                              e.exp_ones() - 1,
                              static_cast<uint64_t>(e.bias()) << e.f};
    return kinds[rng_.below(std::size(kinds))] | (coin() ? e.sign_bit() : 0);
  }

  // Mostly normals: a third anywhere in the range, the rest within a few binades of 1, so that the
  // operands of a sum meet; then raw patterns, special values and subnormals.
  uint64_t operand(const Enc& e) {
    const uint32_t r = rng_.below(16);
    if (r < 2) return raw(e);
    if (r < 3) return special(e);
    if (r < 4) return subnormal(e);
    if (r < 8) return normal(e, e.emin(), e.emax());
    return normal(e, -e.p() - 2, e.p() + 2);
  }

  // a * b + c with c either independent or within [-2p-4, p+4] binades of the product.
  void general(const Enc& ep, const Enc& es, uint64_t& a, uint64_t& b, uint64_t& c) {
    a = operand(ep);
    b = operand(ep);
    const bool finite_product = !ep.nan(a) && !ep.inf(a) && !ep.zero(a) && !ep.nan(b) && !ep.inf(b) && !ep.zero(b);
    if (coin() || !finite_product) {
      c = operand(es);
      return;
    }
    const int near = ilog2(ep, a) + ilog2(ep, b) + rng_.between(-2 * es.p() - 4, es.p() + 4);
    c = near < es.emin() && coin() ? subnormal(es) : normal(es, near, near);
  }

  // c close to -(a * b): its significand is the product's leading p bits plus -2..2 in the last
  // place, so the sum cancels to a few bits, to zero, or (same sign, one time in eight) carries.
  void cancellation(const Enc& ep, const Enc& es, uint64_t& a, uint64_t& b, uint64_t& c) {
    for (;;) {
      const int half = ep.emax() / 2;
      const bool wide = rng_.chance(1, 4);
      a = normal(ep, wide ? ep.emin() : -half, wide ? ep.emax() : half);
      b = normal(ep, wide ? ep.emin() : -half, wide ? ep.emax() : half);
      using u128 = unsigned __int128;
      const u128 p = static_cast<u128>((a & ep.frac_ones()) | (uint64_t{1} << ep.f)) *
                     ((b & ep.frac_ones()) | (uint64_t{1} << ep.f));
      int lsb = ilog2(ep, a) - ep.f + ilog2(ep, b) - ep.f;
      int len = 0;
      while ((p >> len) != 0) ++len;
      u128 top = p;
      if (len > es.p()) top >>= len - es.p(), lsb += len - es.p();
      else top <<= es.p() - len, lsb -= es.p() - len;
      const int64_t sig = static_cast<int64_t>(top) + rng_.between(-2, 2);
      const int exponent = lsb + es.f;
      if (sig < (int64_t{1} << es.f) || sig >= (int64_t{1} << es.p())) continue;
      if (exponent < es.emin() || exponent > es.emax()) continue;
      const bool product_sign = ep.sign(a) != ep.sign(b);
      const bool sign = rng_.chance(1, 8) ? product_sign : !product_sign;
      c = es.make(sign, static_cast<uint64_t>(exponent + es.bias()), static_cast<uint64_t>(sig));
      return;
    }
  }

  // a odd (last significand bit set) times b = +-2^k placed so that a's last bit lands on half of
  // c's last place (shifted by -2..2 places a quarter of the time): exact ties, and near ties.
  void ties(const Enc& ep, const Enc& es, uint64_t& a, uint64_t& b, uint64_t& c) {
    for (;;) {
      a = normal(ep, ep.emin(), ep.emax()) | 1;
      const int k = rng_.between(ep.emin() - ep.f, ep.emax());
      const int shift = rng_.chance(1, 4) ? rng_.between(-2, 2) : 0;
      const int ec = ilog2(ep, a) - ep.f + k + es.f + 1 + shift;
      if (ec < es.emin() || ec > es.emax()) continue;
      b = (k >= ep.emin() ? ep.make(coin(), static_cast<uint64_t>(k + ep.bias()), 0)
                          : ep.make(coin(), 0, uint64_t{1} << (k - (ep.emin() - ep.f))));
      c = es.make(coin(), static_cast<uint64_t>(ec + es.bias()), frac(es));
      return;
    }
  }

 private:
  Rng rng_;
};

}  // namespace tmu::ieee::test
