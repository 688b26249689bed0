// Distributions and the matmul / element-wise cases built from them.
#include "tmu/audit/inputs.h"

#include <cctype>
#include <cmath>
#include <string>

namespace tmu::audit {
namespace {

// Real-valued draws need only modest precision; what matters is that MPFR rounds them the same way
// everywhere.
constexpr mpfr_prec_t kDrawBits = 64;

// A 53-bit integer from the generator, as the fraction n / 2^53 in [0, 1).
void unit_fraction(mpfr_ptr out, uint64_t word) { mpfr_set_ui_2exp(out, word >> 11, -53, MPFR_RNDN); }

// How far a cancelling partner is perturbed: a few units in the last place of the source format.
int cancellation_perturbation_log2(SrcFormat f) { return -(info(f).mantissa_bits - 2); }

// One real number of distribution d, before any rounding to a format.
Real draw_real(Rng& rng, Distribution d, int log_half_range) {
  switch (d) {
    case Distribution::Normal: return normal(rng);
    case Distribution::LogUniform: return log_uniform(rng, -log_half_range, log_half_range);
    case Distribution::Uniform:
    case Distribution::Cancellation: break;
  }
  return uniform_pm1(rng);
}

// -x * (1 + 2^e * u) for u uniform in [-1, 1): x's cancelling partner, before rounding.
Real perturbed_negation(Rng& rng, const Real& x, int e) {
  Real factor = uniform_pm1(rng);
  mpfr_mul_2si(factor.mpfr_ptr(), factor.mpfr_srcptr(), e, MPFR_RNDN);
  factor += 1;
  return -(x * factor);
}

SrcNumber draw(Rng& rng, Distribution d, SrcFormat f) {
  return round_to_src(draw_real(rng, d, log_uniform_half_range(f)), f);
}

// The matmul inputs of one stream, rounded by `round` (a real to a number of the format) and read
// back by `value`. One definition for the source formats and for the IEEE formats of
// the engines that keep subnormals, so both take their numbers from the generator in the same order: the same stream
// gives the same real draws whatever they are rounded to.
template <typename Number, typename Round, typename Value>
void draw_matmul(std::vector<Number>& in0, std::vector<Number>& in1, unsigned tiles, Rng& rng, Distribution d,
                 int log_half_range, int cancel_log2, Round round, Value value) {
  const unsigned depth = kTile * tiles;
  in0.resize(kTile * depth);
  in1.resize(depth * kTile);
  for (Number& x : in0) x = round(draw_real(rng, d, log_half_range));
  for (Number& x : in1) x = round(draw_real(rng, d, log_half_range));
  if (d != Distribution::Cancellation) return;
  constexpr unsigned kHalf = kTile / 2;
  for (unsigned t = 0; t < tiles; ++t) {
    for (unsigned k = t * kTile; k < t * kTile + kHalf; ++k) {
      for (unsigned i = 0; i < kTile; ++i) in0[i * depth + k + kHalf] = in0[i * depth + k];
      for (unsigned j = 0; j < kTile; ++j)
        in1[(k + kHalf) * kTile + j] = round(perturbed_negation(rng, value(in1[k * kTile + j]), cancel_log2));
    }
  }
}

}  // namespace

const char* distribution_name(Distribution d) {
  switch (d) {
    case Distribution::Uniform: return "uniform";
    case Distribution::Normal: return "normal";
    case Distribution::LogUniform: return "loguniform";
    case Distribution::Cancellation: return "cancel";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::LogUniform,
                         Distribution::Cancellation})
    if (lower == distribution_name(d)) return d;
  return std::nullopt;
}

Real uniform_pm1(Rng& rng) {
  Real u(0, kDrawBits);
  unit_fraction(u.mpfr_ptr(), rng.next());
  mpfr_mul_2ui(u.mpfr_ptr(), u.mpfr_srcptr(), 1, MPFR_RNDN);
  mpfr_sub_ui(u.mpfr_ptr(), u.mpfr_srcptr(), 1, MPFR_RNDN);
  return u;
}

Real normal(Rng& rng) {
  // Box-Muller: sqrt(-2 ln u1) * cos(2 pi u2), with u1 in (0, 1].
  mpfr_t u1, u2, r, t;
  mpfr_inits2(kDrawBits, u1, u2, r, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_ui_2exp(u1, (rng.next() >> 11) + 1, -53, MPFR_RNDN);
  unit_fraction(u2, rng.next());
  mpfr_log(r, u1, MPFR_RNDN);
  mpfr_mul_si(r, r, -2, MPFR_RNDN);
  mpfr_sqrt(r, r, MPFR_RNDN);
  mpfr_const_pi(t, MPFR_RNDN);
  mpfr_mul(t, t, u2, MPFR_RNDN);
  mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
  mpfr_cos(t, t, MPFR_RNDN);
  Real out(0, kDrawBits);
  mpfr_mul(out.mpfr_ptr(), r, t, MPFR_RNDN);
  mpfr_clears(u1, u2, r, t, static_cast<mpfr_ptr>(nullptr));
  return out;
}

Real log_uniform(Rng& rng, int lo_exponent, int hi_exponent) {
  const bool negative = rng.next() & 1;
  Real e(0, kDrawBits);
  unit_fraction(e.mpfr_ptr(), rng.next());
  mpfr_mul_si(e.mpfr_ptr(), e.mpfr_srcptr(), hi_exponent - lo_exponent, MPFR_RNDN);
  mpfr_add_si(e.mpfr_ptr(), e.mpfr_srcptr(), lo_exponent, MPFR_RNDN);
  Real out(0, kDrawBits);
  mpfr_exp2(out.mpfr_ptr(), e.mpfr_srcptr(), MPFR_RNDN);
  if (negative) mpfr_neg(out.mpfr_ptr(), out.mpfr_srcptr(), MPFR_RNDN);
  return out;
}

int log_uniform_half_range(SrcFormat f) { return f == SrcFormat::FP16 ? 6 : 16; }

MatmulCase make_matmul_case(SrcFormat f, Distribution d, unsigned tiles, uint64_t seed) {
  MatmulCase c;
  c.format = f;
  c.tiles = tiles;
  Rng rng(seed);
  draw_matmul(
      c.in0, c.in1, tiles, rng, d, log_uniform_half_range(f), cancellation_perturbation_log2(f),
      [f](const Real& x) { return round_to_src(x, f); }, [f](const SrcNumber& x) { return value_of(x, f); });
  return c;
}

IeeeMatmulInputs make_ieee_matmul_inputs(SrcFormat stream, const OutFormat& f, Distribution d, unsigned tiles,
                                         uint64_t seed) {
  IeeeMatmulInputs c;
  Rng rng(seed);
  draw_matmul(
      c.in0, c.in1, tiles, rng, d, log_uniform_half_range(stream), cancellation_perturbation_log2(stream),
      [&f](const Real& x) { return exact_double(round_to_format(x, f)); }, [](double x) { return Real(x); });
  return c;
}

EltwiseCase make_eltwise_case(SrcFormat f, Distribution d, uint64_t seed) {
  EltwiseCase c;
  c.format = f;
  constexpr unsigned kElements = kTile * kTile;
  c.a.resize(kElements);
  c.b.resize(kElements);
  c.dst_init.assign(kElements, 0.0);
  Rng rng(seed);
  for (SrcNumber& x : c.a) x = draw(rng, d, f);
  for (SrcNumber& x : c.b) x = draw(rng, d, f);
  if (d != Distribution::Cancellation) return c;
  const OutFormat& acc16 = info(f).acc16;
  for (unsigned e = 0; e < kElements; ++e) {
    const Real product = value_of(c.a[e], f) * value_of(c.b[e], f);
    const Real init = round_to_format(perturbed_negation(rng, product, cancellation_perturbation_log2(f)), acc16);
    // The accumulator holds no subnormals: a start value below the normal range is zero.
    const double v = exact_double(init);
    c.dst_init[e] = std::fabs(v) < min_normal(acc16) ? 0.0 : v;
  }
  return c;
}

}  // namespace tmu::audit
