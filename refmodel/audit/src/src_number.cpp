// Source formats: rounding into them and values.
#include "tmu/audit/src_number.h"

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tmu::audit {
namespace {

// Exponent fields 1..255 (BF16/TF32) and 1..31 (FP16) are all ordinary numbers of a source that
// has no infinities or NaNs, so the largest exponent is one above IEEE's.
const SrcFormatInfo kInfo[] = {
    {SrcFormat::BF16, "BF16", 7, 127, -126, 128, kBf16},
    {SrcFormat::FP16, "FP16", 10, 15, -14, 16, kFp16},
    {SrcFormat::TF32, "TF32", 10, 127, -126, 128, kBf16},
};

}  // namespace

const SrcFormatInfo& info(SrcFormat f) { return kInfo[static_cast<unsigned>(f)]; }

const OutFormat& output_format(SrcFormat f, bool dst32) { return dst32 ? kFp32 : info(f).acc16; }

std::optional<SrcFormat> parse_src_format(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const SrcFormatInfo& i : kInfo) {
    std::string n = i.name;
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n == lower) return i.id;
  }
  return std::nullopt;
}

SrcNumber round_to_src(const Real& x, SrcFormat f) {
  const SrcFormatInfo& fi = info(f);
  const int p = fi.mantissa_bits + 1;
  if (mpfr_zero_p(x.mpfr_srcptr())) return SrcNumber{};
  // Rounding to p bits with an unbounded exponent; the value is discarded below the normal range.
  const mpfr_flags_t saved = mpfr_flags_save();
  mpfr_t r;
  mpfr_init2(r, p);
  mpfr_set(r, x.mpfr_srcptr(), MPFR_RNDN);
  mpz_t z;
  mpz_init(z);
  const mpfr_exp_t scale = mpfr_get_z_2exp(z, r);  // r = z * 2^scale with |z| < 2^p
  SrcNumber n;
  n.sign = mpz_sgn(z) < 0 ? 1u : 0u;
  mpz_abs(z, z);
  const auto bits = static_cast<int>(mpz_sizeinbase(z, 2));
  // Normalise the significand to exactly p bits (MPFR gives p bits already; be explicit).
  mpz_mul_2exp(z, z, static_cast<mp_bitcnt_t>(p - bits));
  n.significand = static_cast<uint32_t>(mpz_get_ui(z));
  n.exponent = static_cast<int32_t>(scale + bits - 1);
  mpz_clear(z);
  mpfr_clear(r);
  mpfr_flags_restore(saved, MPFR_FLAGS_ALL);
  if (n.exponent < fi.emin) return SrcNumber{};
  if (n.exponent > fi.emax) throw std::runtime_error(std::string("precision audit: value too large for ") + fi.name);
  return n;
}

SrcNumber src_from_fields(uint32_t sign, int32_t exponent, uint32_t mantissa, SrcFormat f) {
  const int m = info(f).mantissa_bits;
  return SrcNumber{sign, exponent, (uint32_t{1} << m) | mantissa};
}

Real value_of(const SrcNumber& x, SrcFormat f) {
  Real v(0);
  if (x.is_zero()) return v;
  mpfr_set_ui_2exp(v.mpfr_ptr(), x.significand, x.exponent - info(f).mantissa_bits, MPFR_RNDN);
  if (x.sign) mpfr_neg(v.mpfr_ptr(), v.mpfr_srcptr(), MPFR_RNDN);
  return v;
}

double double_of(const SrcNumber& x, SrcFormat f) {
  if (x.is_zero()) return 0.0;
  const double magnitude = std::ldexp(static_cast<double>(x.significand), x.exponent - info(f).mantissa_bits);
  return x.sign ? -magnitude : magnitude;
}

SrcNumber negated(SrcNumber x) {
  x.sign ^= 1u;
  return x;
}

}  // namespace tmu::audit
