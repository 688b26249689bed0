// TCVT as the CPU simulator's TCvt.hpp computes each lane: with saturation ON the source value is
// first clamped in double to the range both types share and converted back to the source type;
// then a float source going to an integer is rounded to an integral double by the rounding mode and
// cast, an integer going to a float is cast through double, and float-to-float and
// integer-to-integer conversions are plain casts (round to nearest even, and modulo 2^width). The
// rounding mode only matters from a float type to an integer type. Casts that C++ leaves undefined
// (a value outside the integer type, a NaN or an infinity) are refused: the simulator's result
// would be its host's.
#include <fmt/format.h>

#include "internal.h"

namespace tmu::pto::detail {

namespace {

constexpr ieee::Format kDouble = ieee::kBinary64;

}  // namespace

std::string text(const Integer& v) {
  const auto lo = static_cast<uint64_t>(v.magnitude);
  if ((v.magnitude >> 64) != 0) return v.negative ? "below -2^64" : "above 2^64";
  return fmt::format("{}{}", v.negative && lo != 0 ? "-" : "", lo);
}

Integer integer_of(ElemType t, uint64_t bits) {
  if (is_signed_int(t)) {
    const int64_t v = signed_value(t, bits);
    return {v < 0, v < 0 ? u128{0} - static_cast<u128>(static_cast<int64_t>(v)) : static_cast<u128>(v)};
  }
  return {false, bits};
}

// The bounds of an integer type, and whether v lies within them.
bool fits(ElemType t, const Integer& v) {
  const unsigned w = width_bits(t);
  if (is_signed_int(t)) return v.negative ? v.magnitude <= (u128{1} << (w - 1)) : v.magnitude < (u128{1} << (w - 1));
  return !v.negative || v.magnitude == 0 ? v.magnitude <= lane_mask(t) : false;
}

uint64_t pattern_of(ElemType t, const Integer& v) {
  const auto m = static_cast<uint64_t>(v.magnitude);
  return wrap(t, v.negative ? 0 - m : m);
}

// The value of a float pattern rounded to an integer by applyRoundingToIntegral's modes (CAST_NONE
// leaves the value, and the cast that follows truncates; CAST_ODD is round to nearest with ties to
// the odd integer). False for NaNs and infinities.
bool round_to_integer(ieee::Format f, uint64_t bits, RoundMode mode, Integer& out) {
  const ieee::Unpacked u = ieee::unpack(f, bits);
  out = {u.sign, 0};
  if (u.cls == ieee::Class::Infinity || u.cls == ieee::Class::QuietNaN || u.cls == ieee::Class::SignalingNaN)
    return false;
  if (u.cls == ieee::Class::Zero) return true;
  const int shift = u.exponent - static_cast<int>(f.frac_bits);
  if (shift >= 0) {
    out.magnitude = static_cast<u128>(u.significand) << shift;
    return true;
  }
  const int down = -shift;
  const u128 sig = u.significand;
  const u128 kept = down >= 64 ? 0 : sig >> down;
  const u128 rest = down >= 64 ? sig : sig & ((u128{1} << down) - 1);
  const u128 half = down > 64 ? 0 : u128{1} << (down - 1);  // below every rest when down > 64
  const bool above = down > 64 ? false : rest > half, tie = down > 64 ? false : rest == half;
  const bool inexact = rest != 0;
  bool up = false;
  switch (mode) {
    case RoundMode::Rint: up = above || (tie && (kept & 1) != 0); break;
    case RoundMode::Round: up = above || tie; break;
    case RoundMode::Floor: up = u.sign && inexact; break;
    case RoundMode::Ceil: up = !u.sign && inexact; break;
    case RoundMode::None: case RoundMode::Trunc: up = false; break;
    // floor(v) + 1 above the half, floor(v) below it, and at the half whichever of the two is odd:
    // in magnitudes, the tie goes to the odd one as well.
    case RoundMode::Odd: up = above || (tie && (kept & 1) == 0); break;
  }
  out.magnitude = kept + (up ? 1 : 0);
  return true;
}

namespace {

// A type's value as the simulator's double (to_double_value): exact for the float types and for
// integers below 2^53, rounded to nearest even above.
uint64_t to_double(ElemType t, uint64_t bits) {
  if (is_float(t)) return ieee::convert(float_format(t), kDouble, bits).bits;
  const Integer v = integer_of(t, bits);
  return ieee::from_integer(kDouble, v.negative, static_cast<uint64_t>(v.magnitude)).bits;
}

// SafeLimits<T>::lowest() and max() as doubles: F16_MAX for binary16, std::numeric_limits<T> for
// the others, so the 64-bit integers' maxima round to 2^63 and 2^64.
uint64_t limit(ElemType t, bool upper) {
  if (is_float(t)) return ieee::convert(float_format(t), kDouble, float_format(t).max_finite(!upper)).bits;
  const unsigned w = width_bits(t);
  if (!is_signed_int(t)) return upper ? ieee::from_integer(kDouble, false, lane_mask(t)).bits : 0;
  return upper ? ieee::from_integer(kDouble, false, (uint64_t{1} << (w - 1)) - 1).bits
               : ieee::from_integer(kDouble, true, uint64_t{1} << (w - 1)).bits;
}

// a < b for binary64 patterns, as C++ compares doubles (false when either is a NaN).
bool less(uint64_t a, uint64_t b) {
  if (ieee::is_nan(kDouble, a) || ieee::is_nan(kDouble, b)) return false;
  auto key = [](uint64_t x) {
    const auto m = static_cast<int64_t>(x & ~kDouble.sign_bit());
    return (x & kDouble.sign_bit()) != 0 ? -m : m;
  };
  return key(a) < key(b);
}

uint64_t max_of(uint64_t a, uint64_t b) { return less(a, b) ? b : a; }  // std::max(a, b)
uint64_t min_of(uint64_t a, uint64_t b) { return less(b, a) ? b : a; }  // std::min(a, b)

[[noreturn]] void refuse_cast(const Lane& lane, ElemType to, const std::string& what) {
  refuse_lane(lane, ErrorKind::UndefinedBehaviour,
              fmt::format("{} does not fit {}: the simulator's cast is undefined in C++ (its host decides)", what,
                          elem_name(to)));
}

// TCvt_Impl's saturation step: clamp the value in double to
// [max(lowest(S), lowest(D)), min(max(S), max(D))] (a NaN becomes the upper bound), then cast the
// double back to S, which rounds when the bound is not a value of S (2147483647 -> 2^31 in f32).
uint64_t saturate(const Lane& lane, ElemType from, ElemType to, uint64_t bits) {
  const uint64_t lo = max_of(limit(from, false), limit(to, false));
  const uint64_t hi = min_of(limit(from, true), limit(to, true));
  const uint64_t d = max_of(lo, min_of(hi, to_double(from, bits)));
  if (is_float(from)) return ieee::convert(kDouble, float_format(from), d).bits;
  Integer v;
  round_to_integer(kDouble, d, RoundMode::Trunc, v);
  if (!fits(from, v)) refuse_cast(lane, from, fmt::format("the saturation bound {}", text(v)));
  return pattern_of(from, v);
}

}  // namespace

// TCvt.hpp without a saturation argument runs with OFF. The specialised loops are the simulator's
// conversions, handing the lanes they are not sure of to convert_lane.
void cpusim_convert(Profile p, Tile& out, const Tile& src, const OpParams& params) {
  const SaturationMode sat = params.saturation.value_or(SaturationMode::Off);
  if (run_specialised_convert(p, out, src, params.round, sat)) return;
  for (unsigned r = 0; r < src.valid_rows; ++r)
    for (unsigned c = 0; c < src.valid_cols; ++c)
      out.bits[out.offset(r, c)] =
          convert_lane(Lane{p, Op::TCVT, src.type, r, c}, out.type, params.round, sat, src.at(r, c));
}

uint64_t convert_lane(const Lane& lane, ElemType to, RoundMode mode, SaturationMode saturation, uint64_t bits) {
  const ElemType from = lane.type;
  if (is_f8(from) || is_f8(to)) return cpusim_convert_f8_lane(lane, to, saturation, bits);
  if (saturation == SaturationMode::On) bits = saturate(lane, from, to, bits);
  if (from == to) return bits;  // static_cast to its own type: a signalling NaN stays signalling
  if (is_float(from) && is_float(to)) return ieee::convert(float_format(from), float_format(to), bits).bits;
  if (is_float(to)) return ieee::convert(kDouble, float_format(to), to_double(from, bits)).bits;
  if (!is_float(from)) return pattern_of(to, integer_of(from, bits));
  Integer v;
  if (!round_to_integer(float_format(from), bits, mode, v))
    refuse_cast(lane, to, ieee::is_nan(float_format(from), bits) ? "a NaN" : "an infinity");
  // uint8_t goes through int64_t first: the 64-bit cast must be defined, then it wraps modulo 256.
  const ElemType via = to == ElemType::U8 ? ElemType::I64 : to;
  if (!fits(via, v)) refuse_cast(lane, via, fmt::format("the rounded value {}", text(v)));
  return pattern_of(to, v);
}

uint64_t integer_to_double(ElemType t, uint64_t bits) { return to_double(t, bits); }

// static_cast<T>(double) to an integer type truncates toward zero; C++ leaves it undefined when the
// truncated value does not fit T (a NaN or an infinity never does).
uint64_t double_to_integer(const Lane& lane, uint64_t double_bits) {
  const ieee::Unpacked u = ieee::unpack(kDouble, double_bits);
  if (u.cls == ieee::Class::Normal && u.exponent >= 64)  // too wide for round_to_integer's 128 bits
    refuse_cast(lane, lane.type, fmt::format("the truncated value {}", text(Integer{u.sign, u128{1} << 64})));
  Integer v;
  if (!round_to_integer(kDouble, double_bits, RoundMode::Trunc, v))
    refuse_cast(lane, lane.type, ieee::is_nan(kDouble, double_bits) ? "a NaN" : "an infinity");
  if (!fits(lane.type, v)) refuse_cast(lane, lane.type, fmt::format("the truncated value {}", text(v)));
  return pattern_of(lane.type, v);
}

}  // namespace tmu::pto::detail
