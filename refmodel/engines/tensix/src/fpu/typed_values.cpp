// Typed values ("bf16:1.5"): parsing and encoding into Src/Dst patterns. Host floating point is
// allowed here: nothing in this file is on the bit-exact path. Exactness is decided on integers
// (tmu/exact_number.h) and on the binary64 bit fields, never by comparing rounded host values.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <strings.h>

#include "tmu/exact_number.h"
#include "tmu/tensix/formats.h"

namespace tmu::tensix {

namespace {

bool set_reason(std::string* reason, std::string text) {
  if (reason) *reason = std::move(text);
  return false;
}

// ---- Formats of typed values ----

struct FloatSpec {
  const char* name;
  int precision;  // significant bits including the implicit 1
  int emin, emax; // unbiased exponents of the smallest and largest normal
  int bias;
  // FloatBitPatterns.md: the Matrix Unit's overflow output has the all-ones exponent and a zero
  // mantissa, except FP16 whose overflow pattern has the all-ones mantissa too.
  bool overflow_mantissa_all_ones;
};
constexpr FloatSpec kBF16{"bf16", 8, -126, 128, 127, false};
constexpr FloatSpec kTF32{"tf32", 11, -126, 128, 127, false};
constexpr FloatSpec kFP32{"fp32", 24, -126, 128, 127, false};
constexpr FloatSpec kFP16{"fp16", 11, -14, 16, 15, true};

const FloatSpec* float_spec(std::string_view format) {
  if (format == "bf16") return &kBF16;
  if (format == "tf32") return &kTF32;
  if (format == "fp32") return &kFP32;
  if (format == "fp16") return &kFP16;
  return nullptr;
}

// Largest magnitude an integer format holds (sign-magnitude, so symmetric).
std::optional<uint32_t> int_format_max(std::string_view format) {
  if (format == "int8") return 1023u;
  if (format == "int32") return 0x7FFFFFFFu;
  return std::nullopt;
}

double spec_max(const FloatSpec& f) { return std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.emax); }
double spec_min(const FloatSpec& f) { return std::ldexp(1.0, f.emin); }

std::string hex_float_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string value_with_hex(double v) { return format_exact_value(v) + " (" + hex_float_text(v) + ")"; }

// "nearest bf16 values are A and B" for a positive magnitude that is not on the format's grid.
std::string neighbours_text(double magnitude, const FloatSpec& f, bool negative) {
  const double sign = negative ? -1.0 : 1.0;
  double lower = 0, upper = 0;
  if (magnitude < spec_min(f)) {
    upper = spec_min(f);
  } else if (magnitude > spec_max(f)) {
    return std::string("the largest ") + f.name + " magnitude is " + value_with_hex(spec_max(f));
  } else {
    int e2 = 0;
    std::frexp(magnitude, &e2);
    const double ulp = std::ldexp(1.0, (e2 - 1) - (f.precision - 1));
    lower = std::floor(magnitude / ulp) * ulp;
    upper = lower + ulp;
    if (lower == magnitude) return std::string("nearest ") + f.name + " value is " + value_with_hex(sign * lower);
    if (upper > spec_max(f)) return std::string("nearest ") + f.name + " value is " + value_with_hex(sign * lower);
  }
  return std::string("nearest ") + f.name + " values are " + value_with_hex(sign * lower) + " and " +
         value_with_hex(sign * upper);
}

bool check_float(const ExactNumber& n, const FloatSpec& f, const std::string& text, double& out,
                 std::string* reason) {
  if (n.kind == ExactNumber::Kind::NaN) {
    return set_reason(reason, "the Matrix Unit has no NaN (FloatBitPatterns.md); give raw bits instead");
  }
  if (n.kind == ExactNumber::Kind::Inf) {
    out = n.negative ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  const auto too_large = [&] {
    return set_reason(reason, text + " is too large for " + f.name + "; " + neighbours_text(n.approx, f, n.negative));
  };
  const auto too_small = [&] {
    return set_reason(reason, text + " is below the smallest normal " + f.name + " magnitude " +
                                  value_with_hex(spec_min(f)) + "; the Matrix Unit has no denormals");
  };
  if (!n.dyadic) {
    // Rejected either way; the range messages are the more useful ones when they apply.
    if (n.approx > spec_max(f)) return too_large();
    if (n.approx < spec_min(f)) return too_small();
    return set_reason(reason, text + " is not a binary fraction, so no " + f.name + " value equals it; " +
                                  neighbours_text(n.approx, f, n.negative));
  }
  if (n.odd_bits == 0) {
    out = n.negative ? -0.0 : 0.0;
    return true;
  }
  const int64_t width = n.odd_bits;
  const int64_t leading = n.pow2 + width - 1;
  if (leading > f.emax) return too_large();
  if (leading < f.emin) return too_small();
  if (width > f.precision) {
    return set_reason(reason, text + " needs " + std::to_string(width) + " significant bits, " + f.name + " has " +
                                  std::to_string(f.precision) + "; " + neighbours_text(n.approx, f, n.negative));
  }
  const double magnitude = std::ldexp(static_cast<double>(n.odd), static_cast<int>(n.pow2));
  out = n.negative ? -magnitude : magnitude;
  return true;
}

bool check_integer(const ExactNumber& n, std::string_view format, uint32_t max, const std::string& text,
                   double& out, std::string* reason) {
  if (n.kind != ExactNumber::Kind::Finite) return set_reason(reason, std::string(format) + " has no inf or NaN");
  if (n.out_of_range < 0 || (!n.dyadic && n.out_of_range == 0) || n.pow2 < 0)
    return set_reason(reason, text + " is not an integer");
  const int64_t width = n.odd_bits + n.pow2;
  if (n.out_of_range > 0 || width > 32 || (n.odd << n.pow2) > max) {
    return set_reason(reason, "the magnitude of " + text + " exceeds " + std::to_string(max) + ", the largest " +
                                  std::string(format) + " magnitude (sign-magnitude)");
  }
  const double magnitude = static_cast<double>(n.odd << n.pow2);
  out = n.negative ? -magnitude : magnitude;
  return true;
}

// ---- Encoding ----

struct FloatFields {
  uint32_t sign = 0;
  uint32_t exponent = 0;  // biased
  uint32_t mantissa = 0;  // precision - 1 bits
};

// Splits an (already exact) double into the format's fields, via its IEEE binary64 bits.
std::optional<FloatFields> float_fields(double v, const FloatSpec& f, std::string* reason) {
  const auto u = std::bit_cast<uint64_t>(v);
  FloatFields out;
  out.sign = static_cast<uint32_t>(bits64<63, 63>(u));
  const auto exp11 = static_cast<int64_t>(bits64<62, 52>(u));
  const uint64_t frac52 = bits64<51, 0>(u);
  const int man_bits = f.precision - 1;
  const uint32_t exp_all_ones = static_cast<uint32_t>(f.emax + f.bias);
  if (exp11 == 0x7FF) {
    if (frac52 != 0) {
      set_reason(reason, std::string("NaN has no ") + f.name + " encoding");
      return std::nullopt;
    }
    out.exponent = exp_all_ones;
    out.mantissa = f.overflow_mantissa_all_ones ? low_mask(static_cast<unsigned>(man_bits)) : 0;
    return out;
  }
  if (exp11 == 0 && frac52 == 0) return out;
  const int64_t e = exp11 - 1023;
  const uint64_t dropped = frac52 & ((uint64_t{1} << (52 - man_bits)) - 1);
  if (exp11 == 0 || e < f.emin || e > f.emax || dropped != 0) {
    set_reason(reason, format_exact_value(v) + " is not exactly representable in " + f.name);
    return std::nullopt;
  }
  out.exponent = static_cast<uint32_t>(e + f.bias);
  out.mantissa = static_cast<uint32_t>(frac52 >> (52 - man_bits));
  return out;
}

// Sign and magnitude of an integer-valued typed value, or nullopt with a reason.
std::optional<std::pair<uint32_t, uint32_t>> int_fields(double v, uint32_t max, std::string* reason) {
  if (!(std::fabs(v) <= max) || std::trunc(v) != v) {
    set_reason(reason, format_exact_value(v) + " is not an integer of magnitude <= " + std::to_string(max));
    return std::nullopt;
  }
  return std::make_pair(std::signbit(v) ? 1u : 0u, static_cast<uint32_t>(std::fabs(v)));
}

std::optional<uint32_t> raw_bits(const TypedValue& v, unsigned width, const char* where, std::string* reason) {
  if (!(v.value >= 0) || v.value > static_cast<double>(low_mask(width)) || std::trunc(v.value) != v.value) {
    set_reason(reason, "raw value does not fit the " + std::to_string(width) + " bits of " + where);
    return std::nullopt;
  }
  return static_cast<uint32_t>(v.value);
}

uint16_t ieee_bf16(const FloatFields& f) {
  return static_cast<uint16_t>(with_bits<15, 15>(with_bits<14, 7>(with_bits<6, 0>(0, f.mantissa), f.exponent), f.sign));
}

uint16_t ieee_fp16(const FloatFields& f) {
  return static_cast<uint16_t>(with_bits<15, 15>(with_bits<14, 10>(with_bits<9, 0>(0, f.mantissa), f.exponent), f.sign));
}

uint32_t ieee32(const FloatFields& f) {
  return with_bits<31, 31>(with_bits<30, 23>(with_bits<22, 0>(0, f.mantissa), f.exponent), f.sign);
}

uint32_t int8_datum(uint32_t sign, uint32_t magnitude) {
  return src_layout::assemble(sign, magnitude, magnitude ? src_layout::kInt8Marker : 0);
}

bool refuse(std::string* reason, const std::string& text) { return set_reason(reason, text); }

}  // namespace

std::optional<TypedValue> parse_typed_value(std::string_view text, std::string* reason) {
  std::string format = "raw";
  std::string_view number = text;
  if (const size_t colon = text.find(':'); colon != std::string_view::npos) {
    format.clear();
    for (char c : text.substr(0, colon)) format += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    number = text.substr(colon + 1);
  }
  const std::string quoted(number);
  ExactNumber n;
  std::string why;
  if (!parse_exact_number(number, n, &why)) {
    set_reason(reason, "malformed number '" + quoted + "': " + why);
    return std::nullopt;
  }
  TypedValue out;
  out.format = format;
  if (const FloatSpec* f = float_spec(format)) {
    if (!check_float(n, *f, quoted, out.value, reason)) return std::nullopt;
    return out;
  }
  if (const auto max = int_format_max(format)) {
    if (!check_integer(n, format, *max, quoted, out.value, reason)) return std::nullopt;
    return out;
  }
  if (format == "raw") {
    if (n.negative || !check_integer(n, "raw", 0xFFFFFFFFu, quoted, out.value, reason)) {
      if (n.negative) set_reason(reason, "raw bits cannot be negative");
      return std::nullopt;
    }
    return out;
  }
  set_reason(reason, "unknown format '" + format + "' (bf16, fp16, tf32, fp32, int8, int32, raw)");
  return std::nullopt;
}

std::optional<uint32_t> typed_to_src_datum(const TypedValue& v, std::string* reason) {
  if (v.format == "raw") return raw_bits(v, 19, "a Src datum", reason);
  if (v.format == "bf16" || v.format == "tf32" || v.format == "fp16") {
    const FloatSpec& spec = *float_spec(v.format);
    const auto f = float_fields(v.value, spec, reason);
    if (!f) return std::nullopt;
    const uint32_t mantissa10 = v.format == "bf16" ? f->mantissa << 3 : f->mantissa;
    return src_layout::assemble(f->sign, mantissa10, f->exponent);
  }
  if (v.format == "int8") {
    const auto f = int_fields(v.value, 1023, reason);
    if (!f) return std::nullopt;
    return int8_datum(f->first, f->second);
  }
  if (v.format == "fp32" || v.format == "int32") {
    refuse(reason, v.format + " does not fit a Src datum (Src holds at most TF32 / integer \"8\"); "
                              "write it as tf32/bf16/fp16/int8, or move it to Dst32b");
    return std::nullopt;
  }
  refuse(reason, "unknown format '" + v.format + "'");
  return std::nullopt;
}

std::optional<uint16_t> typed_to_dst16(const TypedValue& v, std::string* reason) {
  if (v.format == "raw") {
    const auto r = raw_bits(v, 16, "a Dst16b datum", reason);
    if (!r) return std::nullopt;
    return static_cast<uint16_t>(*r);
  }
  if (v.format == "bf16") {
    const auto f = float_fields(v.value, kBF16, reason);
    if (!f) return std::nullopt;
    return dst16_from_bf16(ieee_bf16(*f));
  }
  if (v.format == "fp16") {
    const auto f = float_fields(v.value, kFP16, reason);
    if (!f) return std::nullopt;
    return dst16_from_fp16(ieee_fp16(*f));
  }
  if (v.format == "int8") {
    const auto f = int_fields(v.value, 1023, reason);
    if (!f) return std::nullopt;
    uint32_t d = with_bits<15, 15>(0, f->first);
    d = with_bits<14, 5>(d, f->second);
    d = with_bits<4, 0>(d, f->second ? src_layout::kInt8Marker : 0);
    return static_cast<uint16_t>(d);
  }
  if (v.format == "tf32" || v.format == "fp32" || v.format == "int32") {
    refuse(reason, v.format + " needs the 32-bit Dst view (Dst32b); Dst16b holds bf16, fp16, int8 or raw bits");
    return std::nullopt;
  }
  refuse(reason, "unknown format '" + v.format + "'");
  return std::nullopt;
}

std::optional<uint32_t> typed_to_dst32(const TypedValue& v, std::string* reason) {
  if (v.format == "raw") return raw_bits(v, 32, "a Dst32b datum", reason);
  if (const FloatSpec* spec = float_spec(v.format)) {
    // Re-check in the value's own format first, then write its (exact) FP32 form.
    if (!float_fields(v.value, *spec, reason)) return std::nullopt;
    const auto f = float_fields(v.value, kFP32, reason);
    if (!f) return std::nullopt;
    return dst32_from_fp32(ieee32(*f));
  }
  if (const auto max = int_format_max(v.format)) {
    const auto f = int_fields(v.value, *max, reason);
    if (!f) return std::nullopt;
    // Built from sign and magnitude so that -0 keeps its sign bit.
    return dst32_from_fp32(with_bits<31, 31>(f->second, f->first));
  }
  refuse(reason, "unknown format '" + v.format + "'");
  return std::nullopt;
}

}  // namespace tmu::tensix
