// Lane values, shapes and operation parameters as text (tmu/pto/text.h).
#include "tmu/pto/text.h"

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/exact_number.h"
#include "tmu/ieee_text.h"

namespace tmu::pto {

namespace {

std::optional<int64_t> signed_decimal(std::string_view text) {
  const bool negative = text.starts_with("-");
  if (negative || text.starts_with("+")) text.remove_prefix(1);
  if (text.empty() || text.starts_with("0x")) return std::nullopt;
  const auto v = parse_unsigned(text);
  if (!v || *v > (negative ? uint64_t{1} << 63 : ~uint64_t{0} >> 1)) return std::nullopt;
  return negative ? static_cast<int64_t>(0 - *v) : static_cast<int64_t>(*v);
}

unsigned dimension(std::string_view text, const char* what) {
  const auto v = parse_unsigned(text);
  if (!v || *v > 1u << 20 || text.starts_with("0x"))
    throw Error(ErrorKind::BadInput, fmt::format("{}: '{}' is not a number from 0 to 1048576", what, text));
  return static_cast<unsigned>(*v);
}

// An 8-bit float: two hex digits are the pattern; anything else is read as an f32 value and must be
// one of the format's values exactly (NaN reads as the format's NaN, fp8::nan).
uint64_t f8_from_text(ElemType t, std::string_view text) {
  if (text.size() == 4 && text.starts_with("0x")) {
    const auto v = parse_unsigned(text);
    if (v && *v <= 0xFF) return *v;
  }
  std::string reason;
  const auto f32 = ieee::from_text(ieee::kBinary32, text, &reason);
  const fp8::Kind k = f8_kind(t);
  if (f32) {
    const uint8_t bits = fp8::from_f32(k, static_cast<uint32_t>(*f32), ieee::Rounding::NearestEven,
                                       fp8::Overflow::NonSaturate);
    if (fp8::to_f32(k, bits) == *f32 || (fp8::is_nan(k, bits) && ieee::is_nan(ieee::kBinary32, *f32))) return bits;
    reason = fmt::format("not exactly an {} value (the nearest is {})", elem_name(t), lane_to_text(t, bits));
  }
  throw Error(ErrorKind::BadInput,
              fmt::format("'{}' is not an {} value: {} (or give the pattern as two hex digits, 0x00 to 0xff)", text,
                          elem_name(t), reason));
}

}  // namespace

uint64_t lane_from_text(ElemType t, std::string_view text) {
  if (is_f8(t)) return f8_from_text(t, text);
  if (is_float(t)) {
    std::string reason;
    const auto bits = ieee::from_text(float_format(t), text, &reason);
    if (!bits) throw Error(ErrorKind::BadInput, fmt::format("'{}' is not an {} value: {}", text, elem_name(t), reason));
    return *bits;
  }
  if (text.starts_with("0x")) {
    const auto v = parse_unsigned(text);
    if (!v || (*v & ~lane_mask(t)) != 0)
      throw Error(ErrorKind::BadInput, fmt::format("'{}' is not a {}-bit pattern", text, width_bits(t)));
    return *v;
  }
  if (is_unsigned_int(t)) {
    const auto v = parse_unsigned(text);
    if (!v || (*v & ~lane_mask(t)) != 0)
      throw Error(ErrorKind::BadInput, fmt::format("'{}' is not a {} value (0 to {})", text, elem_name(t), lane_mask(t)));
    return *v;
  }
  const auto v = signed_decimal(text);
  const int64_t hi = static_cast<int64_t>(lane_mask(t) >> 1), lo = -hi - 1;
  if (!v || *v < lo || *v > hi)
    throw Error(ErrorKind::BadInput, fmt::format("'{}' is not a {} value ({} to {})", text, elem_name(t), lo, hi));
  return static_cast<uint64_t>(*v) & lane_mask(t);
}

std::string lane_to_text(ElemType t, uint64_t bits) {
  if (is_f8(t)) {
    const fp8::Kind k = f8_kind(t);
    const auto b = static_cast<uint8_t>(bits);
    return fp8::is_nan(k, b) ? fmt::format("0x{:02x}", b) : ieee::to_text(ieee::kBinary32, fp8::to_f32(k, b));
  }
  if (is_float(t)) return ieee::to_text(float_format(t), bits);
  if (is_unsigned_int(t)) return std::to_string(bits);
  const uint64_t sign = uint64_t{1} << (width_bits(t) - 1);
  return (bits & sign) ? "-" + std::to_string(((~bits) & lane_mask(t)) + 1) : std::to_string(bits);
}

std::pair<unsigned, unsigned> shape_from_text(std::string_view text, const char* what) {
  const size_t x = text.find('x');
  if (x == std::string_view::npos || x == 0)
    throw Error(ErrorKind::BadInput, fmt::format("{} '{}' is not ROWSxCOLS (e.g. 16x64)", what, text));
  return {dimension(text.substr(0, x), what), dimension(text.substr(x + 1), what)};
}

void param_from_text(Op op, std::string_view word, OpParams& p, ParamsGiven& given) {
  const size_t eq = word.find('=');
  const std::string_view key = word.substr(0, eq), value = eq == std::string_view::npos ? "" : word.substr(eq + 1);
  if (key == "cmp" && op == Op::TCMP && !given.cmp) {
    const auto m = cmp_from_name(value);
    if (!m) throw Error(ErrorKind::BadInput, fmt::format("cmp={}: the modes are EQ NE LT LE GT GE", value));
    p.cmp = *m;
    given.cmp = true;
  } else if (key == "round" && op == Op::TCVT && !given.round) {
    const auto m = round_from_name(value);
    if (!m)
      throw Error(ErrorKind::BadInput, fmt::format("round={}: the modes are NONE RINT ROUND FLOOR CEIL TRUNC ODD", value));
    p.round = *m;
    given.round = true;
  } else if (key == "sat" && op == Op::TCVT && !given.sat) {
    if (value != "on" && value != "off") throw Error(ErrorKind::BadInput, fmt::format("sat={}: on or off", value));
    p.saturation = value == "on" ? SaturationMode::On : SaturationMode::Off;
    given.sat = true;
  } else {
    throw Error(ErrorKind::BadInput,
                fmt::format("'{}' is not a parameter of {} here (TCMP takes cmp=, TCVT round= and sat=, each once)",
                            word, op_name(op)));
  }
}

void require_params(Op op, const ParamsGiven& given) {
  if (op == Op::TCMP && !given.cmp) throw Error(ErrorKind::BadInput, "TCMP needs cmp=EQ|NE|LT|LE|GT|GE");
}

std::string params_text(Op op, const OpParams& p) {
  if (op == Op::TCMP) return fmt::format(" cmp={}", cmp_name(p.cmp));
  if (op != Op::TCVT) return "";
  std::string out = fmt::format(" round={}", round_name(p.round));
  if (p.saturation) out += *p.saturation == SaturationMode::On ? " sat=on" : " sat=off";
  return out;
}

}  // namespace tmu::pto
