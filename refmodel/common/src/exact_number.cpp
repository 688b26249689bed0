#include "tmu/exact_number.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include <gmpxx.h>
#include <strings.h>

namespace tmu {

namespace {

constexpr int64_t kMaxExponentText = 100000;  // larger exponents in the text are rejected outright
constexpr size_t kMaxDigits = 400;
constexpr int64_t kMaxDecimalMagnitude = 60;  // beyond 10^±60 nothing here is representable

bool set_reason(std::string* reason, std::string text) {
  if (reason) *reason = std::move(text);
  return false;
}

bool equal_ignoring_case(std::string_view a, const char* b) {
  return a.size() == std::strlen(b) && strncasecmp(a.data(), b, a.size()) == 0;
}

bool is_digit(char c, int base) {
  return base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Reads [+-]digits of an exponent suffix starting at s[pos]; advances pos.
bool parse_exponent_suffix(std::string_view s, size_t& pos, int64_t& exponent, std::string* reason) {
  bool negative = false;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) negative = s[pos++] == '-';
  const size_t start = pos;
  int64_t value = 0;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
    value = std::min<int64_t>(value * 10 + (s[pos++] - '0'), kMaxExponentText + 1);
  }
  if (pos == start) return set_reason(reason, "exponent has no digits");
  if (value > kMaxExponentText) return set_reason(reason, "exponent is out of range");
  exponent = negative ? -value : value;
  return true;
}

// Digits with at most one point, then an optional exponent suffix ('p' for hex: a power of two; 'e'
// for decimal: a power of ten), then nothing. The digits from the first non-zero one go to
// `significant`. The digit limit counts the significant digits of a decimal but every digit of a hex
// number up to the last significant one.
struct NumberText {
  std::string significant;
  int64_t frac_digits = 0;  // digits after the point, leading zeros included
  int64_t exponent = 0;
};

bool scan_number(std::string_view s, size_t pos, int base, NumberText& t, std::string* reason) {
  size_t digits = 0;
  bool seen_point = false;
  for (; pos < s.size(); ++pos) {
    if (s[pos] == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (!is_digit(s[pos], base)) break;
    ++digits;
    if (seen_point) ++t.frac_digits;
    if (t.significant.empty() && s[pos] == '0') continue;
    t.significant += s[pos];
    if ((base == 16 ? digits : t.significant.size()) > kMaxDigits) return set_reason(reason, "too many digits");
  }
  if (digits == 0) return set_reason(reason, base == 16 ? "hex number has no digits" : "no digits");
  const char exponent_mark = base == 16 ? 'p' : 'e';
  if (pos < s.size() && std::tolower(static_cast<unsigned char>(s[pos])) == exponent_mark) {
    ++pos;
    if (!parse_exponent_suffix(s, pos, t.exponent, reason)) return false;
  }
  if (pos != s.size()) return set_reason(reason, "unexpected '" + std::string(s.substr(pos)) + "' after the number");
  return true;
}

// Sets odd * 2^pow2 = integer * 2^pow2 with odd odd (or zero, and then pow2 = 0).
void set_dyadic(ExactNumber& n, const mpz_class& integer, int64_t pow2) {
  n.odd = 0;
  n.odd_bits = 0;
  n.pow2 = 0;
  if (integer == 0) return;
  const auto tz = mpz_scan1(integer.get_mpz_t(), 0);
  mpz_class odd;
  mpz_tdiv_q_2exp(odd.get_mpz_t(), integer.get_mpz_t(), tz);
  n.odd_bits = static_cast<unsigned>(mpz_sizeinbase(odd.get_mpz_t(), 2));
  // The low 64 bits; the whole integer when odd_bits <= 64 (the only case a caller reads it).
  mpz_class low;
  mpz_fdiv_r_2exp(low.get_mpz_t(), odd.get_mpz_t(), 64);
  n.odd = static_cast<uint64_t>(mpz_getlimbn(low.get_mpz_t(), 0));
  if (sizeof(mp_limb_t) < 8 && mpz_size(low.get_mpz_t()) > 1)
    n.odd |= static_cast<uint64_t>(mpz_getlimbn(low.get_mpz_t(), 1)) << 32;
  n.pow2 = pow2 + static_cast<int64_t>(tz);
}

bool parse_hex_number(std::string_view s, size_t pos, ExactNumber& n, std::string* reason) {
  NumberText t;
  if (!scan_number(s, pos, 16, t, reason)) return false;
  set_dyadic(n, t.significant.empty() ? mpz_class(0) : mpz_class(t.significant, 16), t.exponent - 4 * t.frac_digits);
  return true;
}

bool parse_decimal_number(std::string_view s, size_t pos, ExactNumber& n, std::string* reason) {
  NumberText t;
  if (!scan_number(s, pos, 10, t, reason)) return false;
  if (t.significant.empty()) return true;
  // value = integer * 10^e10; keep the big-integer work bounded by rejecting absurd magnitudes.
  const int64_t e10 = t.exponent - t.frac_digits;
  const int64_t magnitude = e10 + static_cast<int64_t>(t.significant.size()) - 1;
  if (magnitude > kMaxDecimalMagnitude || magnitude < -kMaxDecimalMagnitude) {
    n.out_of_range = magnitude > 0 ? 1 : -1;
    n.approx = magnitude > 0 ? HUGE_VAL : 0x1p-1000;
    n.dyadic = false;
    return true;
  }
  mpz_class integer(t.significant, 10);
  mpz_class power;
  if (e10 >= 0) {
    mpz_ui_pow_ui(power.get_mpz_t(), 10, static_cast<unsigned long>(e10));
    set_dyadic(n, integer * power, 0);
    return true;
  }
  // integer * 10^e10 = (integer / 5^-e10) * 2^e10: a binary fraction exactly when 5^-e10 divides.
  mpz_ui_pow_ui(power.get_mpz_t(), 5, static_cast<unsigned long>(-e10));
  if (!mpz_divisible_p(integer.get_mpz_t(), power.get_mpz_t())) {
    n.dyadic = false;
    return true;
  }
  mpz_divexact(integer.get_mpz_t(), integer.get_mpz_t(), power.get_mpz_t());
  set_dyadic(n, integer, e10);
  return true;
}

}  // namespace

bool parse_exact_number(std::string_view s, ExactNumber& n, std::string* reason) {
  if (s.empty()) return set_reason(reason, "empty number");
  size_t pos = 0;
  if (s[0] == '+' || s[0] == '-') n.negative = s[pos++] == '-';
  const std::string_view body = s.substr(pos);
  if (equal_ignoring_case(body, "inf") || equal_ignoring_case(body, "infinity")) {
    n.kind = ExactNumber::Kind::Inf;
    return true;
  }
  if (equal_ignoring_case(body, "nan")) {
    n.kind = ExactNumber::Kind::NaN;
    return true;
  }
  const bool hex = body.size() >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
  const bool ok = hex ? parse_hex_number(s, pos + 2, n, reason) : parse_decimal_number(s, pos, n, reason);
  if (!ok) return false;
  if (n.out_of_range == 0) {
    // strtod is only for messages; exactness is decided on the integer fields.
    const std::string text(s);
    n.approx = std::fabs(std::strtod(text.c_str(), nullptr));
  }
  return true;
}

std::optional<uint64_t> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace tmu
