#include "tmu/ieee_text.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tmu/exact_number.h"

namespace tmu::ieee {

namespace {

std::string format_name(Format f) {
  if (f == kBinary16) return "f16";
  if (f == kBfloat16) return "bf16";
  if (f == kBinary32) return "f32";
  if (f == kBinary64) return "f64";
  return fmt::format("binary{}(e{},f{})", f.width(), f.exp_bits, f.frac_bits);
}

bool refuse(std::string* reason, std::string text) {
  if (reason) *reason = std::move(text);
  return false;
}

}  // namespace

std::optional<uint64_t> from_text(Format f, std::string_view text, std::string* reason) {
  ExactNumber n;
  std::string why;
  if (!parse_exact_number(text, n, &why)) {
    refuse(reason, fmt::format("malformed number '{}': {}", text, why));
    return std::nullopt;
  }
  const std::string name = format_name(f);
  if (n.kind == ExactNumber::Kind::NaN) return f.default_nan() | (n.negative ? f.sign_bit() : 0);
  if (n.kind == ExactNumber::Kind::Inf) return f.infinity(n.negative);
  if (n.out_of_range > 0) {
    refuse(reason, fmt::format("{} is beyond the largest finite {}", text, name));
    return std::nullopt;
  }
  if (n.out_of_range < 0 || !n.dyadic) {
    refuse(reason, fmt::format("{} is not a binary fraction, so no {} value equals it", text, name));
    return std::nullopt;
  }
  if (n.odd_bits == 0) return f.zero(n.negative);
  // The value is odd * 2^pow2: its leading bit at `leading`, its last at pow2. The format's grid
  // near it starts at the larger of leading - frac_bits (normals) and emin - frac_bits (subnormals).
  const int64_t leading = n.pow2 + static_cast<int64_t>(n.odd_bits) - 1;
  const int64_t frac = f.frac_bits;
  if (leading > f.emax()) {
    refuse(reason, fmt::format("{} is beyond the largest finite {}", text, name));
    return std::nullopt;
  }
  const int64_t lsb = std::max<int64_t>(leading, f.emin()) - frac;
  if (n.pow2 < lsb) {
    if (leading < f.emin() - frac)
      refuse(reason, fmt::format("{} is below the smallest {} subnormal 2^{}", text, name, f.emin() - frac));
    else
      refuse(reason, fmt::format("{} needs {} significant bits at that exponent, {} has {}", text,
                                 leading - n.pow2 + 1, name, leading - lsb + 1));
    return std::nullopt;
  }
  Unpacked u;
  u.sign = n.negative;
  u.cls = leading >= f.emin() ? Class::Normal : Class::Subnormal;
  u.exponent = static_cast<int>(std::max<int64_t>(leading, f.emin()));
  u.significand = n.odd << (n.pow2 - lsb);
  return pack(f, u);
}

double to_double(Format f, uint64_t bits) {
  const Unpacked u = unpack(f, bits);
  double magnitude = 0;
  switch (u.cls) {
    case Class::QuietNaN:
    case Class::SignalingNaN: magnitude = std::numeric_limits<double>::quiet_NaN(); break;
    case Class::Infinity: magnitude = std::numeric_limits<double>::infinity(); break;
    default:
      // significand < 2^53 and the exponent within binary64's range: the double is exact.
      magnitude = std::ldexp(static_cast<double>(u.significand), u.exponent - static_cast<int>(f.frac_bits));
  }
  return u.sign ? -magnitude : magnitude;
}

std::string to_text(Format f, uint64_t bits) {
  const Unpacked u = unpack(f, bits);
  const char* sign = u.sign ? "-" : "";
  switch (u.cls) {
    case Class::QuietNaN: return fmt::format("{}nan", sign);
    case Class::SignalingNaN: return fmt::format("{}snan", sign);
    case Class::Infinity: return fmt::format("{}inf", sign);
    default: break;
  }
  const double magnitude = std::fabs(to_double(f, bits));
  const std::string shortest = fmt::format("{}{}", sign, magnitude);
  if (from_text(f, shortest, nullptr) == bits) return shortest;
  return fmt::format("{}{:a}", sign, magnitude);
}

}  // namespace tmu::ieee
