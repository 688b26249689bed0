// Exact arithmetic for the precision audit, and the IEEE output formats it measures against.
//
// Every "exact" value in the audit is an MPFR number (mpfr::mpreal) of kExactBits bits. The audit's
// operands are binary numbers with at most 11 significant bits; their products have at most 22 and
// every sum the audit forms spans far fewer than kExactBits bits, so nothing should round. That is
// not assumed: an ExactScope clears MPFR's inexact flag, and verify() throws if any MPFR operation
// since then rounded. MPFR keeps its flags and default precision per thread.
//
// Output values of the model and of the IEEE references are FP32, BF16 or FP16 numbers; a host
// double holds each of them exactly, so they are kept as doubles and widened to mpreal for exact
// differences. Statistics (means, percentiles, logarithms) are computed in double: they are
// measurements, not part of the bit-exact path.
#pragma once

#include <cstdint>
#include <string>

#include <mpreal.h>

namespace tmu::audit {

using Real = mpfr::mpreal;

inline constexpr mpfr_prec_t kExactBits = 192;

// Sets this thread's mpreal default precision to kExactBits (call once per worker thread).
void use_exact_precision();

// use_exact_precision() for a scope: the caller's default precision comes back at its end, so a
// library call leaves the thread as it found it.
class ExactPrecision {
 public:
  ExactPrecision() : caller_(Real::get_default_prec()) { use_exact_precision(); }
  ~ExactPrecision() { Real::set_default_prec(caller_); }
  ExactPrecision(const ExactPrecision&) = delete;
  ExactPrecision& operator=(const ExactPrecision&) = delete;

 private:
  mpfr_prec_t caller_;
};

class ExactScope {
 public:
  explicit ExactScope(std::string what);
  void verify() const;  // throws std::runtime_error if an MPFR operation rounded since construction

 private:
  std::string what_;
};

// A binary floating-point format: precision p counts the implicit bit; normal numbers have
// exponents emin..emax (value in [2^e, 2^(e+1))).
struct OutFormat {
  const char* name;
  int precision;
  int emin;
  int emax;
};
inline constexpr OutFormat kFp32{"FP32", 24, -126, 127};
inline constexpr OutFormat kBf16{"BF16", 8, -126, 127};
inline constexpr OutFormat kFp16{"FP16", 11, -14, 15};

// IEEE 754 rounding of x into f: to nearest, ties to even, with gradual underflow (subnormals);
// magnitudes beyond the largest finite number become +-infinity. `out` gets f's precision and must
// not be x. The rounding is intended, so it leaves MPFR's flags (and an enclosing ExactScope) alone.
void round_to_format(mpfr_ptr out, mpfr_srcptr x, const OutFormat& f);
Real round_to_format(const Real& x, const OutFormat& f);

// The spacing of f's numbers at x: 2^(max(floor(log2|x|), emin) - p + 1); for x = 0 the subnormal
// spacing 2^(emin - p + 1).
double ulp_in_format(const Real& x, const OutFormat& f);
double ulp_in_format(double x, const OutFormat& f);

// The smallest positive normal number of f.
double min_normal(const OutFormat& f);

// Exact conversion of a value that f represents (and double holds) to double; throws otherwise.
double exact_double(const Real& x);

// IEEE-order bit patterns <-> values (normal numbers and zero; the caller never needs more).
double fp32_bits_value(uint32_t bits);
double bf16_bits_value(uint16_t bits);
// The Matrix Unit reads exponent 31 of FP16 as an ordinary exponent (FloatBitPatterns.md).
double fp16_bits_value_matrix_unit(uint16_t bits);
// Encodes a normal number or zero of f (exactly representable) as IEEE-order bits; throws otherwise.
uint32_t encode_bits(double value, const OutFormat& f);

}  // namespace tmu::audit
