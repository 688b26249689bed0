// IEEE 754 arithmetic on bit patterns, for the engines that are IEEE machines: one
// rounding per operation, computed with integers only, so a result is the same on every host and
// under every compiler flag. No host float, double or std::fma is used anywhere in src/ieee/: host
// arithmetic would tie the model to the host's rounding, flush and NaN conventions, which are exactly
// what the model must state for itself. (tmu/ieee_host.h is the one exception outside src/ieee/: an
// engine's lane loop may run a nearest-even fma of finite operands on the host where that is shown
// to give this file's bits, and its tests compare the two.)
//
// Where IEEE 754-2008 leaves a choice to the implementation (which NaN an operation returns, when
// tininess is detected, what flush-to-zero does), the default follows the Arm Architecture Reference
// Manual's shared pseudocode with FPCR.AH = 0, what an engine inside an Arm core follows; the options
// below select the alternatives other engines may need. See docs/architecture.md, "Shared plumbing".
#pragma once

#include <cstdint>
#include <optional>

namespace tmu::ieee {

// A binary format: a sign bit, exp_bits of biased exponent, frac_bits of fraction (the leading
// significand bit is implicit). Any 2 <= exp_bits <= 11 and 1 <= frac_bits <= 52 with a total width
// of at most 64 bits is handled; the four below are the ones the engines use.
struct Format {
  unsigned exp_bits;
  unsigned frac_bits;

  constexpr unsigned width() const { return 1 + exp_bits + frac_bits; }
  constexpr unsigned precision() const { return frac_bits + 1; }
  constexpr int bias() const { return (1 << (exp_bits - 1)) - 1; }
  constexpr int emin() const { return 1 - bias(); }  // exponent of the smallest normal number
  constexpr int emax() const { return bias(); }      // exponent of the largest finite number
  constexpr uint64_t frac_mask() const { return (uint64_t{1} << frac_bits) - 1; }
  constexpr uint64_t exp_field_max() const { return (uint64_t{1} << exp_bits) - 1; }
  constexpr uint64_t sign_bit() const { return uint64_t{1} << (exp_bits + frac_bits); }
  constexpr uint64_t quiet_bit() const { return uint64_t{1} << (frac_bits - 1); }

  constexpr uint64_t zero(bool sign) const { return sign ? sign_bit() : 0; }
  constexpr uint64_t infinity(bool sign) const { return zero(sign) | (exp_field_max() << frac_bits); }
  constexpr uint64_t max_finite(bool sign) const { return infinity(sign) - 1; }
  // Arm's FPDefaultNaN (FPCR.AH = 0): sign 0, quiet bit set, the rest of the fraction 0.
  constexpr uint64_t default_nan() const { return infinity(false) | quiet_bit(); }

  constexpr bool operator==(const Format&) const = default;
};

inline constexpr Format kBinary16{5, 10};
inline constexpr Format kBfloat16{8, 7};
inline constexpr Format kBinary32{8, 23};
inline constexpr Format kBinary64{11, 52};

enum class Class : uint8_t { Zero, Subnormal, Normal, Infinity, QuietNaN, SignalingNaN };

// A bit pattern taken apart. For finite numbers the value is
//   (-1)^sign * significand * 2^(exponent - frac_bits),
// with exponent the unbiased exponent (emin for zeros and subnormals) and significand the fraction
// with the implicit bit prepended for normals. Infinities and NaNs have exponent emax + 1; a NaN's
// significand is its fraction field (quiet bit and payload), an infinity's is 0.
struct Unpacked {
  bool sign = false;
  Class cls = Class::Zero;
  int exponent = 0;
  uint64_t significand = 0;

  constexpr bool operator==(const Unpacked&) const = default;
};

Unpacked unpack(Format f, uint64_t bits);
// How far `b` lies from `a` in units in the last place of f: the count of representable values
// stepped over from a to b, positive when b is above a (the zeros of both signs are one value, an
// infinity the step after the largest finite number); nullopt when either is a NaN. A scoreboard
// says with it how a design's result differs from the model's ("1 ulp below").
std::optional<int64_t> ulps_between(Format f, uint64_t a, uint64_t b);
// The inverse of unpack for anything unpack can return; pack trusts cls and reads only the fields
// that class defines (exponent of normals, the low frac_bits of the significand).
uint64_t pack(Format f, const Unpacked& u);

constexpr bool is_nan(Format f, uint64_t bits) {
  return ((bits >> f.frac_bits) & f.exp_field_max()) == f.exp_field_max() && (bits & f.frac_mask()) != 0;
}

// Enumerators in the order of Arm's FPCR.RMode encoding (RN, RP, RM, RZ), so an engine can cast the
// field.
enum class Rounding : uint8_t { NearestEven, TowardPositive, TowardNegative, TowardZero };

// When a nonzero result counts as tiny, for the underflow flag and for flush_to_zero's output:
// before rounding (|exact| < 2^emin: Arm with FPCR.AH = 0) or after rounding to the format's precision
// with an unbounded exponent (x86, RISC-V, Arm with FPCR.AH = 1).
enum class Tininess : uint8_t { BeforeRounding, AfterRounding };

struct Options {
  Rounding rounding = Rounding::NearestEven;
  // FZ: subnormal inputs read as zeros of their sign (raising input_denormal), and tiny results are
  // written as zeros of their sign (raising underflow; with AfterRounding also inexact, as Arm's
  // FPRoundBase does under FPCR.AH = 1, while AH = 0 raises underflow alone). Applies to every
  // operand and to the result alike; an engine with Arm's separate FZ16 passes the right value per
  // operation.
  bool flush_to_zero = false;
  // DN: every NaN result is the result format's default_nan(); otherwise NaNs propagate (below).
  bool default_nan = false;
  Tininess tininess = Tininess::BeforeRounding;
};

// IEEE 754's exception flags as sticky booleans (Arm FPSR IOC, OFC, UFC, IXC, DZC), plus Arm's IDC.
struct Flags {
  bool invalid = false;
  bool overflow = false;
  bool underflow = false;
  bool inexact = false;
  bool input_denormal = false;  // a subnormal input was read as zero under flush_to_zero
  bool divide_by_zero = false;  // div only: a finite nonzero dividend over a zero divisor

  constexpr Flags& operator|=(const Flags& o) {
    invalid |= o.invalid, overflow |= o.overflow, underflow |= o.underflow, inexact |= o.inexact;
    input_denormal |= o.input_denormal, divide_by_zero |= o.divide_by_zero;
    return *this;
  }
  constexpr bool operator==(const Flags&) const = default;
};

struct Result {
  uint64_t bits;
  Flags flags;
  constexpr bool operator==(const Result&) const = default;
};

// NaN results. With default_nan set, every NaN result is default_nan(). Otherwise an operation with
// NaN operands returns the first signalling NaN in its operand order, else the first quiet NaN, with
// the quiet bit set (raising invalid if it was signalling), re-encoded into the result format by
// keeping the sign and the payload's leading bits (Arm's FPProcessNaN / FPProcessNaNs /
// FPProcessNaNs3 and FPConvertNaN). The operand orders are Arm's: (a, b) for add, sub and mul, and
// (c, a, b) for fma, the addend first (FPMulAdd and FPMulAddH call FPProcessNaNs3(addend, op1, op2)).
// Invalid operations without a NaN operand (inf * 0, inf - inf) return default_nan(); so does
// fma(inf, 0, qNaN) and fma(0, inf, qNaN), which also raises invalid: FPMulAdd overrides the addend
// NaN in that one case.

// a * b + c with one rounding, all three operands and the result in format f.
Result fma(Format f, uint64_t a, uint64_t b, uint64_t c, const Options& o = {});
// a * b + c with a and b in product_format, c and the result in sum_format, one rounding: the inputs
// enter exactly, as in a matrix engine's binary16 products accumulated into binary32 (kBinary16, kBinary32) and
// Arm's FMLAL (FPMulAddH). A NaN a or b is quieted in product_format, then re-encoded.
Result fma_mixed(Format product_format, Format sum_format, uint64_t a, uint64_t b, uint64_t c,
                 const Options& o = {});
Result mul(Format f, uint64_t a, uint64_t b, const Options& o = {});
Result add(Format f, uint64_t a, uint64_t b, const Options& o = {});
Result sub(Format f, uint64_t a, uint64_t b, const Options& o = {});  // a - b; a NaN b keeps its sign
// a / b, one rounding (Arm's FPDiv): NaN operands in the order (a, b); inf / inf and 0 / 0 are
// invalid (default_nan); a finite nonzero a over a zero b is an infinity of the quotient's sign,
// raising divide_by_zero.
Result div(Format f, uint64_t a, uint64_t b, const Options& o = {});
// The square root, one rounding (Arm's FPSqrt): -0 gives -0; any other negative operand, -inf
// included, is invalid (default_nan).
Result sqrt(Format f, uint64_t a, const Options& o = {});
// C's fmod: a - trunc(a / b) * b, exact (it always fits the format), with a's sign when it is zero.
// NaN operands as for div; an infinite a or a zero b is invalid (default_nan); an infinite b gives a.
Result fmod(Format f, uint64_t a, uint64_t b, const Options& o = {});
// The value of a in format `from`, rounded into format `to` (exact when `to` is wider).
Result convert(Format from, Format to, uint64_t a, const Options& o = {});
// The integer (-1)^negative * magnitude rounded into f, as C converts an integer type to a
// floating one; zero is +0.
Result from_integer(Format f, bool negative, uint64_t magnitude, const Options& o = {});

}  // namespace tmu::ieee
