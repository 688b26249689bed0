// Exactness guard, IEEE rounding with gradual underflow, ULPs and bit-pattern conversions.
#include "tmu/audit/exact.h"

#include <cmath>
#include <stdexcept>

#include "tmu/bits.h"
#include "tmu/mpfr_thread.h"

namespace tmu::audit {
namespace {

// IEEE-order fields of the three output formats.
constexpr uint32_t fp32_sign(uint32_t b) { return bits<31, 31>(b); }
constexpr uint32_t fp32_exponent(uint32_t b) { return bits<30, 23>(b); }
constexpr uint32_t fp32_mantissa(uint32_t b) { return bits<22, 0>(b); }
constexpr uint32_t half_sign(uint32_t b) { return bits<15, 15>(b); }
constexpr uint32_t bf16_exponent(uint32_t b) { return bits<14, 7>(b); }
constexpr uint32_t bf16_mantissa(uint32_t b) { return bits<6, 0>(b); }
constexpr uint32_t fp16_exponent(uint32_t b) { return bits<14, 10>(b); }
constexpr uint32_t fp16_mantissa(uint32_t b) { return bits<9, 0>(b); }

// (-1)^sign * (2^mantissa_bits + mantissa) * 2^(exponent - bias - mantissa_bits); zero exponent = 0
// (the Matrix Unit has no denormals, and neither do the values the audit decodes).
double normal_value(uint32_t sign, uint32_t exponent, uint32_t mantissa, int mantissa_bits, int bias) {
  if (exponent == 0) return sign ? -0.0 : 0.0;
  const double significand = static_cast<double>((uint64_t{1} << mantissa_bits) | mantissa);
  const double magnitude = std::ldexp(significand, static_cast<int>(exponent) - bias - mantissa_bits);
  return sign ? -magnitude : magnitude;
}

int bias_of(const OutFormat& f) { return -f.emin + 1; }

}  // namespace

void use_exact_precision() {
  release_mpfr_caches_at_thread_exit();
  Real::set_default_prec(kExactBits);
}

ExactScope::ExactScope(std::string what) : what_(std::move(what)) { mpfr_clear_inexflag(); }

void ExactScope::verify() const {
  if (mpfr_inexflag_p())
    throw std::runtime_error("precision audit: an exact computation rounded (" + what_ +
                             "); raise kExactBits in refmodel/audit/include/tmu/audit/exact.h");
}

namespace {

void round_to_format_unguarded(mpfr_ptr out, mpfr_srcptr x, const OutFormat& f) {
  mpfr_set_prec(out, f.precision);
  mpfr_set(out, x, MPFR_RNDN);  // correctly rounded to p bits, exponent unbounded
  if (mpfr_zero_p(out)) return;
  const long floor_log2 = mpfr_get_exp(out) - 1;  // MPFR: |out| in [2^(exp-1), 2^exp)
  if (floor_log2 > f.emax) {
    mpfr_set_inf(out, mpfr_sgn(out));
    return;
  }
  if (floor_log2 >= f.emin) return;
  // Below the normal range the grid is fixed at 2^(emin - p + 1): round x / spacing to an integer.
  // A p-bit rounding that reached 2^emin is also what the subnormal rounding gives, so only results
  // still below 2^emin need this.
  const long spacing_log2 = f.emin - f.precision + 1;
  mpfr_t scaled;
  mpfr_init2(scaled, mpfr_get_prec(x) + 2);
  mpfr_mul_2si(scaled, x, -spacing_log2, MPFR_RNDN);  // exact: a power-of-two scaling
  mpfr_rint(scaled, scaled, MPFR_RNDN);                 // ties to even
  mpfr_mul_2si(out, scaled, spacing_log2, MPFR_RNDN);   // at most p bits: exact
  mpfr_clear(scaled);
}

}  // namespace

// Rounding here is intended, so it leaves MPFR's flags (and any ExactScope around it) untouched.
void round_to_format(mpfr_ptr out, mpfr_srcptr x, const OutFormat& f) {
  const mpfr_flags_t saved = mpfr_flags_save();
  round_to_format_unguarded(out, x, f);
  mpfr_flags_restore(saved, MPFR_FLAGS_ALL);
}

Real round_to_format(const Real& x, const OutFormat& f) {
  Real out(0, f.precision);
  round_to_format(out.mpfr_ptr(), x.mpfr_srcptr(), f);
  return out;
}

double ulp_in_format(const Real& x, const OutFormat& f) {
  long e = f.emin;
  if (!mpfr_zero_p(x.mpfr_srcptr())) e = std::max<long>(mpfr_get_exp(x.mpfr_srcptr()) - 1, f.emin);
  return std::ldexp(1.0, static_cast<int>(e) - f.precision + 1);
}

double ulp_in_format(double x, const OutFormat& f) {
  int e = f.emin;
  if (x != 0) e = std::max(std::ilogb(x), f.emin);
  return std::ldexp(1.0, e - f.precision + 1);
}

double min_normal(const OutFormat& f) { return std::ldexp(1.0, f.emin); }

double exact_double(const Real& x) {
  const double d = mpfr_get_d(x.mpfr_srcptr(), MPFR_RNDN);
  if (mpfr_cmp_d(x.mpfr_srcptr(), d) != 0) throw std::runtime_error("precision audit: value is not exact in double");
  return d;
}

double fp32_bits_value(uint32_t b) {
  return normal_value(fp32_sign(b), fp32_exponent(b), fp32_mantissa(b), 23, 127);
}

double bf16_bits_value(uint16_t b) { return normal_value(half_sign(b), bf16_exponent(b), bf16_mantissa(b), 7, 127); }

double fp16_bits_value_matrix_unit(uint16_t b) {
  return normal_value(half_sign(b), fp16_exponent(b), fp16_mantissa(b), 10, 15);
}

uint32_t encode_bits(double value, const OutFormat& f) {
  const uint32_t sign = std::signbit(value) ? 1u : 0u;
  const int mantissa_bits = f.precision - 1;
  const int exponent_bits = f.precision == 11 ? 5 : 8;
  const int total_bits = 1 + exponent_bits + mantissa_bits;
  if (value == 0) return sign << (total_bits - 1);
  const int e = std::ilogb(value);
  if (e < f.emin || e > f.emax) throw std::runtime_error("precision audit: value outside the normal range");
  const double significand = std::ldexp(std::fabs(value), mantissa_bits - e);  // in [2^(p-1), 2^p)
  if (significand != std::floor(significand)) throw std::runtime_error("precision audit: value not representable");
  const auto mantissa = static_cast<uint32_t>(significand) - (uint32_t{1} << mantissa_bits);
  const auto biased = static_cast<uint32_t>(e + bias_of(f));
  return (sign << (total_bits - 1)) | (biased << mantissa_bits) | mantissa;
}

}  // namespace tmu::audit
