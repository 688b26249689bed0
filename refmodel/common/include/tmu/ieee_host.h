// The host's floating point standing in for tmu::ieee where it provably gives the same bits: an
// engine's lane loop may compute a round-to-nearest-even fused multiply-add of finite operands with
// the C library's fma / fmaf, which IEEE 754 (fusedMultiplyAdd) and C's Annex F require to be
// correctly rounded, as glibc's and musl's are. tmu/ieee.h stays the reference: NaNs, infinities, the
// other rounding modes, flush-to-zero and the exception flags are computed there, and the tests
// compare every path through here with it.
//
// Two conditions make a host result exact, and both are checked rather than assumed: the build keeps
// IEEE semantics (no -ffast-math, no excess precision such as x87's; the #error and static_assert
// below), and the floating-point environment is the default one (environment_is_default(), asked
// once per instruction).
#pragma once

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdint>
#include <optional>

#include "tmu/ieee.h"

#if defined(__FAST_MATH__)
#error "tmu/ieee_host.h needs IEEE arithmetic; build without -ffast-math"
#endif
static_assert(FLT_EVAL_METHOD == 0, "tmu/ieee_host.h needs float and double evaluated in their own precision");

namespace tmu::ieee::host {

// True when the host rounds to nearest-even and neither reads subnormal operands as zero nor writes
// subnormal results as zero (x86 MXCSR.RC/DAZ/FTZ, Arm FPCR.RMode/FZ), found by computing probes
// whose results each of those settings changes.
bool environment_is_default();

// The value of a finite pattern of f as a host number, exactly (no rounding happens: binary16,
// bfloat16 and binary32 values are all binary32 values, and every format here is a binary64 one).
inline double to_double(Format f, uint64_t bits);
inline float to_float(Format f, uint64_t bits);  // f of at most 8 exponent and 23 fraction bits

// d rounded to nearest-even into f (fewer than 52 fraction bits, at most 11 exponent bits), as
// tmu::ieee rounds with default options, overflow to infinity included; nothing when d is not finite
// or lies exactly halfway between two neighbours of f, the overflow threshold counting as such a
// midpoint (the caller then rounds the exact value itself).
//
// That makes a double rounding exact: if s is an exact value x rounded to nearest into binary64,
// then s rounded by this is x rounded once into f, or nothing. Rounding to binary64 is monotonic and
// every midpoint m of f is a binary64 number, so x < m gives s <= m and x > m gives s >= m; when s is
// no midpoint, x and s lie strictly between the same two midpoints and round to the same member of
// f. Zeros agree too: s is zero only with x's sign (x itself zero, with the sign the operation gives
// it, or x nonzero but below half of f's smallest subnormal, where both round to that zero).
inline std::optional<uint64_t> round_nearest_even(Format f, double d);

// Defined here so that an engine's lane loop specialises them for its formats. Integers throughout
// (but for binary16's narrowing to a normal binary32 in to_float, which is exact): no host
// conversion is trusted with a rounding or a subnormal.

namespace detail {  // binary64's fields
inline constexpr unsigned kDoubleFracBits = 52;
inline constexpr int kDoubleBias = 1023;
inline constexpr uint64_t kDoubleExpFieldMax = 0x7ff;
}  // namespace detail

inline double to_double(Format f, uint64_t bits) {
  if (f == kBinary64) return std::bit_cast<double>(bits);
  const uint64_t sign = (bits & f.sign_bit()) != 0 ? uint64_t{1} << 63 : 0;
  const uint64_t field = (bits >> f.frac_bits) & f.exp_field_max();
  uint64_t frac = bits & f.frac_mask();
  int exponent = static_cast<int>(field) - f.bias();
  if (field == 0) {
    if (frac == 0) return std::bit_cast<double>(sign);
    // A subnormal of f: its leading bit becomes binary64's implicit bit (binary64's exponent range
    // holds every narrower format's subnormals as normals).
    const int shift = static_cast<int>(f.frac_bits) - (std::bit_width(frac) - 1);
    exponent = f.emin() - shift;
    frac = (frac << shift) & f.frac_mask();
  }
  return std::bit_cast<double>(sign | static_cast<uint64_t>(exponent + detail::kDoubleBias) << detail::kDoubleFracBits |
                               frac << (detail::kDoubleFracBits - f.frac_bits));
}

inline float to_float(Format f, uint64_t bits) {
  // Same exponent field as binary32 (bfloat16, binary32): the pattern is binary32's top bits.
  if (f.exp_bits == kBinary32.exp_bits) return std::bit_cast<float>(static_cast<uint32_t>(bits << (32 - f.width())));
  // Otherwise (binary16) every value is a normal binary32 number, so the narrowing is exact.
  return static_cast<float>(to_double(f, bits));
}

inline std::optional<uint64_t> round_nearest_even(Format f, double d) {
  const auto b = std::bit_cast<uint64_t>(d);
  const uint64_t sign = f.zero((b >> 63) != 0);
  const auto field = static_cast<int>((b >> detail::kDoubleFracBits) & detail::kDoubleExpFieldMax);
  if (field == detail::kDoubleExpFieldMax) return std::nullopt;
  // A binary64 zero or subnormal is below half of f's smallest subnormal.
  if (field == 0) return sign;
  const int exponent = field - detail::kDoubleBias;
  if (exponent > f.emax()) return f.infinity(sign != 0);  // at least 2^(emax + 1), past the threshold

  const uint64_t sig = (b & ((uint64_t{1} << detail::kDoubleFracBits) - 1)) | uint64_t{1} << detail::kDoubleFracBits;
  // Places of sig below f's last place: more than the fraction widths' difference once d is below
  // f's normal range.
  const int drop = static_cast<int>(detail::kDoubleFracBits - f.frac_bits) + std::max(0, f.emin() - exponent);
  if (drop > static_cast<int>(detail::kDoubleFracBits) + 1) return sign;  // below half of the smallest subnormal
  const uint64_t half = uint64_t{1} << (drop - 1);
  const uint64_t rest = sig & ((half << 1) - 1);
  if (rest == half) return std::nullopt;
  const uint64_t rounded = (sig >> drop) + (rest > half ? 1 : 0);
  // A normal result: rounded carries the implicit bit into the exponent field, and a carry out of
  // the significand into the next binade, or from the largest finite number to infinity. A subnormal
  // one: rounded is the fraction field, and a carry makes the smallest normal.
  const uint64_t base = exponent >= f.emin() ? static_cast<uint64_t>(exponent + f.bias() - 1) << f.frac_bits : 0;
  return sign | (base + rounded);
}

}  // namespace tmu::ieee::host
