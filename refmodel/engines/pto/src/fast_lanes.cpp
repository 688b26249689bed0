// Lane loops specialised per operation and element type, for the operations whose lanes are mostly
// one or two machine instructions: the op and type are decided once per tile, not once per lane, and
// each loop body is a small kernel the compiler inlines. A kernel answers only the lanes it is sure
// of; every other lane (a refusal, a NaN result, a profile-specific rule) goes to generic_lane, the
// one path every lane took before, so the results and the refusals (and which lane is refused first:
// the loops keep the row-then-column order) are the generic path's.
//
// f32 arithmetic runs on the host's float where IEEE 754 makes the host's result the one
// tmu/ieee.h computes: add, sub, mul, div and sqrt are correctly rounded, the build is checked to
// keep IEEE semantics (tmu/ieee_host.h's #error and static_assert), and the floating-point
// environment is probed once per tile (round to nearest even, no flush-to-zero, no
// denormals-are-zero). A NaN result is handed back, since which NaN PTO returns is the profile's
// rule (nan_result), not the host's. f16 and bf16 add, sub, mul, div and sqrt go through binary64
// and tmu/ieee_host.h's rounding (run_half); TCVT without saturation has a loop per kind of type
// pair (run_convert).
#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>

#include "internal.h"
#include "profile_rules.h"
#include "tmu/ieee_host.h"

namespace tmu::pto::detail {

namespace {

// The loop: kernel(a, b, c, out) returns false for a lane it leaves to the generic path. Every tile
// has dst's shape (execute checks it); the loop needs one layout for all of them so that a lane has
// one offset.
template <typename Kernel>
bool run(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs, Kernel kernel) {
  for (const Tile* s : srcs)
    if (s->layout != out.layout) return false;
  // An absent source reads the last present one (kernels ignore it); the generic path gets 0, as
  // execute passes it.
  const size_t n = srcs.size();
  if (n == 0) return false;
  const uint64_t* src[3];
  for (size_t i = 0; i < 3; ++i) src[i] = srcs[std::min(i, n - 1)]->bits.data();
  uint64_t* dst = out.bits.data();
  const ElemType t = out.type;
  // Where subnormals are refused (a5), a float lane's host result is the one IEEE operation of the
  // assumption only away from what the lane function refuses or decides (zeros, subnormals, NaNs,
  // tiny results): every operand must be normal or infinite and the result above the smallest
  // normal's magnitude (an exact result just below it rounds up to it and is tiny), else the lane
  // goes to the generic path.
  const bool a5_float = rules(p).subnormals_refused && is_float(t);
  const ieee::Format f = is_float(t) ? float_format(t) : ieee::kBinary32;
  const uint64_t exp_max = f.exp_field_max(), frac = f.frac_mask();
  auto plain = [&](uint64_t x) {
    const uint64_t e = (x >> f.frac_bits) & exp_max;
    return e != 0 && (e != exp_max || (x & frac) == 0);
  };
  const uint64_t smallest_normal = uint64_t{1} << f.frac_bits;
  auto plain_result = [&](uint64_t v) { return plain(v) && (v & ~f.sign_bit()) != smallest_normal; };
  // Lane (r, c) is at first(r) + c * stride: contiguous within a row-major row.
  const bool row_major = out.layout == Layout::RowMajor;
  const size_t stride = row_major ? 1 : out.rows;
  for (unsigned r = 0; r < out.valid_rows; ++r) {
    const size_t first = row_major ? size_t{r} * out.cols : r;
    for (unsigned c = 0; c < out.valid_cols; ++c) {
      const size_t i = first + c * stride;
      const uint64_t a = src[0][i], b = src[1][i], x = src[2][i];
      uint64_t v;
      const bool a5_plain = !a5_float || (plain(a) && (n < 2 || plain(b)) && (n < 3 || plain(x)));
      if (!a5_plain || !kernel(a, b, x, v) || (a5_float && !plain_result(v))) v = generic_lane(Lane{p, op, t, r, c}, a, n > 1 ? b : 0, n > 2 ? x : 0);
      dst[i] = v;
    }
  }
  return true;
}

// Integer kernels: 64-bit arithmetic, then the low `width` bits (C++20's modular conversion).
// Signed comparisons compare the sign-extended patterns.
struct IntType {
  uint64_t mask;
  unsigned width;
  bool is_signed;
  int64_t value(uint64_t v) const {
    const unsigned s = 64 - width;
    return is_signed ? static_cast<int64_t>(v << s) >> s : static_cast<int64_t>(v);
  }
  // Unsigned 64-bit values above INT64_MAX order wrongly through value(): compare them as unsigned.
  bool less(uint64_t a, uint64_t b) const { return is_signed ? value(a) < value(b) : a < b; }
};

bool run_integer(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs) {
  const ElemType t = out.type;
  const IntType it{lane_mask(t), width_bits(t), is_signed_int(t)};
  const uint64_t m = it.mask;
  const uint64_t min = it.is_signed ? uint64_t{1} << (it.width - 1) : 0;
  auto loop = [&](auto kernel) { return run(p, op, out, srcs, kernel); };
  switch (op) {
    case Op::TADD: return loop([m](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = (a + b) & m, true; });
    case Op::TSUB: return loop([m](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = (a - b) & m, true; });
    case Op::TMUL: return loop([m](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = (a * b) & m, true; });
    case Op::TADDC:
      return loop([m](uint64_t a, uint64_t b, uint64_t c, uint64_t& v) { return v = (a + b + c) & m, true; });
    case Op::TSUBC:
      return loop([m](uint64_t a, uint64_t b, uint64_t c, uint64_t& v) { return v = (a - b + c) & m, true; });
    case Op::TNEG: return loop([m](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return v = (0 - a) & m, true; });
    case Op::TAND: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = a & b, true; });
    case Op::TOR: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = a | b, true; });
    case Op::TXOR: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = a ^ b, true; });
    case Op::TNOT: return loop([m](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return v = ~a & m, true; });
    case Op::TMIN:
      return loop([it](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = it.less(b, a) ? b : a, true; });
    case Op::TMAX:
      return loop([it](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = it.less(a, b) ? b : a, true; });
    case Op::TRELU:
      return loop([it](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return v = it.less(a, 0) ? 0 : a, true; });
    case Op::TABS:
      return loop([it](uint64_t a, uint64_t, uint64_t, uint64_t& v) {
        return v = it.less(a, 0) ? (0 - a) & it.mask : a, true;
      });
    // A count of width or more, or a negative one (a pattern of at least 2^(width - 1)), is refused
    // by the generic path.
    case Op::TSHL:
      return loop([it](uint64_t a, uint64_t b, uint64_t, uint64_t& v) {
        return b < it.width && (v = (a << b) & it.mask, true);
      });
    case Op::TSHR:
      return loop([it](uint64_t a, uint64_t b, uint64_t, uint64_t& v) {
        return b < it.width && (v = (it.is_signed ? static_cast<uint64_t>(it.value(a) >> b) : a >> b) & it.mask, true);
      });
    // Division by zero and the most negative 32- or 64-bit integer divided by -1 are the generic
    // path's refusals.
    case Op::TDIV:
      return loop([it, min](uint64_t a, uint64_t b, uint64_t, uint64_t& v) {
        if (b == 0 || (it.is_signed && it.width >= 32 && a == min && b == it.mask)) return false;
        v = it.is_signed ? static_cast<uint64_t>(it.value(a) / it.value(b)) & it.mask : a / b;
        return true;
      });
    case Op::TREM:
      if (rules(p).remainder_sequence) return false;  // A2/A3's goes through f32
      [[fallthrough]];
    case Op::TFMOD:
      return loop([it, min, floor = op == Op::TREM](uint64_t a, uint64_t b, uint64_t, uint64_t& v) {
        if (b == 0 || (it.is_signed && it.width >= 32 && a == min && b == it.mask)) return false;
        if (!it.is_signed) return v = a % b, true;
        const int64_t x = it.value(a), y = it.value(b);
        int64_t r = x % y;
        if (floor && (x >= 0) != (y >= 0) && r != 0) r += y;
        return v = static_cast<uint64_t>(r) & it.mask, true;
      });
    default: return false;
  }
}

// binary32 patterns as host floats and back (the low 32 bits of a lane).
float as_float(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
uint64_t pattern(float x) { return std::bit_cast<uint32_t>(x); }
bool is_nan32(uint64_t bits) { return (bits & 0x7FFFFFFFu) > 0x7F800000u; }
// An ordering key of a non-NaN pattern in which -0 equals +0, as in support.cpp.
int64_t key(uint64_t bits) {
  const auto magnitude = static_cast<int64_t>(bits & 0x7FFFFFFFu);
  return (bits & 0x80000000u) != 0 ? -magnitude : magnitude;
}
// a < b as C++ compares floats: false when either is a NaN.
bool less(uint64_t a, uint64_t b) { return !is_nan32(a) && !is_nan32(b) && key(a) < key(b); }

// A host result is taken unless it is a NaN (then the profile's NaN rule decides).
bool take(float x, uint64_t& v) {
  v = pattern(x);
  return !is_nan32(v);
}

bool run_f32(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs) {
  auto loop = [&](auto kernel) { return run(p, op, out, srcs, kernel); };
  // Operations that copy or flip bits need no host arithmetic.
  switch (op) {
    case Op::TMIN: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = less(b, a) ? b : a, true; });
    case Op::TMAX: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return v = less(a, b) ? b : a, true; });
    case Op::TRELU: return loop([](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return v = less(a, 0) ? 0 : a, true; });
    case Op::TABS:  // the simulator's src < 0 ? -src : src; vabs is the lane function's
      if (rules(p).abs_is_vabs) return false;
      return loop([](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return v = less(a, 0) ? a ^ 0x80000000u : a, true; });
    case Op::TNEG:  // the simulator flips an f32's sign, NaN or not; TMULS multiplies by -1
      if (rules(p).neg_multiplies) return false;
      return loop([](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return v = a ^ 0x80000000u, true; });
    default: break;
  }
  if (!ieee::host::environment_is_default()) return false;
  switch (op) {
    case Op::TADD: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return take(as_float(a) + as_float(b), v); });
    case Op::TSUB: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return take(as_float(a) - as_float(b), v); });
    case Op::TMUL: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return take(as_float(a) * as_float(b), v); });
    case Op::TDIV: return loop([](uint64_t a, uint64_t b, uint64_t, uint64_t& v) { return take(as_float(a) / as_float(b), v); });
    // Rounded after each operation, as the simulator's float arithmetic does; a NaN in between makes
    // a NaN at the end.
    case Op::TADDC:
      return loop([](uint64_t a, uint64_t b, uint64_t c, uint64_t& v) {
        const float s = as_float(a) + as_float(b);
        return take(s + as_float(c), v);
      });
    case Op::TSUBC:
      return loop([](uint64_t a, uint64_t b, uint64_t c, uint64_t& v) {
        const float s = as_float(a) - as_float(b);
        return take(s + as_float(c), v);
      });
    // The simulator: the binary64 root rounded to binary32; vsqrt: one binary32 root.
    case Op::TSQRT:
      if (rules(p).sqrt_through_double)
        return loop([](uint64_t a, uint64_t, uint64_t, uint64_t& v) {
          return take(static_cast<float>(std::sqrt(static_cast<double>(as_float(a)))), v);
        });
      return loop([](uint64_t a, uint64_t, uint64_t, uint64_t& v) { return take(std::sqrt(as_float(a)), v); });
    default: return false;
  }
}

// binary16 and bfloat16: the exact operands as binary64 numbers, one host operation rounding the
// exact result to binary64, then ieee::host::round_nearest_even, which makes that the one rounding
// into the element type or declines (a midpoint, or a result that is not finite): see
// tmu/ieee_host.h. For TSQRT that is both profiles' result: the simulator's
// (T)std::sqrt((double)src) is these two roundings literally, and A2/A3's one vsqrt is the root
// rounded once. Operands that are not finite go to the generic path (to_double takes finite
// patterns only).
bool run_half(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs) {
  const ieee::Format f = float_format(out.type);
  const uint64_t exponent_mask = f.infinity(false);
  auto finite = [exponent_mask](uint64_t x) { return (x & exponent_mask) != exponent_mask; };
  auto take = [f](double d, uint64_t& v) {
    const std::optional<uint64_t> r = ieee::host::round_nearest_even(f, d);
    return r && (v = *r, true);
  };
  auto value = [f](uint64_t x) { return ieee::host::to_double(f, x); };
  auto binary = [&](auto operation) {
    return run(p, op, out, srcs, [=](uint64_t a, uint64_t b, uint64_t, uint64_t& v) {
      return finite(a) && finite(b) && take(operation(value(a), value(b)), v);
    });
  };
  if (!ieee::host::environment_is_default()) return false;
  switch (op) {
    case Op::TADD: return binary([](double x, double y) { return x + y; });
    case Op::TSUB: return binary([](double x, double y) { return x - y; });
    case Op::TMUL: return binary([](double x, double y) { return x * y; });
    case Op::TDIV: return binary([](double x, double y) { return x / y; });
    case Op::TSQRT:
      return run(p, op, out, srcs, [=](uint64_t a, uint64_t, uint64_t, uint64_t& v) {
        return finite(a) && take(std::sqrt(value(a)), v);  // a negative operand's NaN is declined
      });
    default: return false;
  }
}

// TCVT without saturation, one loop per kind of pair, each step one C++ conversion the simulator
// makes too (TCvt.hpp) and IEEE 754 defines exactly in the default environment: integer to
// integer modulo 2^width; integer to float through double, (float)(double)v, or for f16 and bf16
// round_nearest_even of that double; float to float through exact widening to double and
// round_nearest_even; float to integer by the mode (nearbyint, round, floor, ceil, trunc, all exact
// on an integral-or-not double) and the range check. NaNs, infinities, out-of-range values, CAST_ODD,
// midpoints and saturation ON go to convert_lane.
bool run_convert(Profile p, Tile& out, const Tile& src, RoundMode mode, SaturationMode saturation) {
  if (saturation != SaturationMode::Off || src.layout != out.layout) return false;
  const ElemType from = src.type, to = out.type;
  const bool row_major = out.layout == Layout::RowMajor;
  const size_t stride = row_major ? 1 : out.rows;
  auto loop = [&](auto kernel) {
    for (unsigned r = 0; r < out.valid_rows; ++r) {
      const size_t first = row_major ? size_t{r} * out.cols : r;
      for (unsigned c = 0; c < out.valid_cols; ++c) {
        const size_t i = first + c * stride;
        const uint64_t a = src.bits[i];
        uint64_t v;
        if (!kernel(a, v)) v = convert_lane(Lane{p, Op::TCVT, from, r, c}, to, mode, saturation, a);
        out.bits[i] = v;
      }
    }
    return true;
  };
  const uint64_t to_mask = lane_mask(to);
  const unsigned from_shift = 64 - width_bits(from);
  const bool from_signed = is_signed_int(from);
  // A signed integer source's value, sign-extended.
  auto int_value = [=](uint64_t a) { return static_cast<int64_t>(a << from_shift) >> from_shift; };
  if (!is_float(from) && !is_float(to))
    return loop([=](uint64_t a, uint64_t& v) { return v = (from_signed ? static_cast<uint64_t>(int_value(a)) : a) & to_mask, true; });
  if (!ieee::host::environment_is_default()) return false;
  if (!is_float(from)) {
    auto as_double = [=](uint64_t a) {
      return from_signed ? static_cast<double>(int_value(a)) : static_cast<double>(a);
    };
    if (to == ElemType::F32)
      return loop([=](uint64_t a, uint64_t& v) { return v = pattern(static_cast<float>(as_double(a))), true; });
    const ieee::Format f = float_format(to);
    return loop([=](uint64_t a, uint64_t& v) {
      const std::optional<uint64_t> r = ieee::host::round_nearest_even(f, as_double(a));
      return r && (v = *r, true);
    });
  }
  const ieee::Format ff = float_format(from);
  const uint64_t exponent_mask = ff.infinity(false);
  auto finite = [=](uint64_t a) { return (a & exponent_mask) != exponent_mask; };
  if (is_float(to)) {
    const ieee::Format f = float_format(to);
    return loop([=](uint64_t a, uint64_t& v) {
      if (!finite(a)) return false;
      const std::optional<uint64_t> r = ieee::host::round_nearest_even(f, ieee::host::to_double(ff, a));
      return r && (v = *r, true);
    });
  }
  // To an integer: uint8_t goes through int64_t (the range checked there), then wraps.
  const ElemType via = to == ElemType::U8 ? ElemType::I64 : to;
  const unsigned w = width_bits(via);
  const bool via_signed = is_signed_int(via);
  const double lo = via_signed ? -std::ldexp(1.0, static_cast<int>(w) - 1) : 0.0;
  const double hi = std::ldexp(1.0, via_signed ? static_cast<int>(w) - 1 : static_cast<int>(w));  // excluded
  auto integral = [=](uint64_t a, double (*round)(double), uint64_t& v) {
    if (!finite(a)) return false;
    const double d = round(ieee::host::to_double(ff, a));
    if (!(d >= lo && d < hi)) return false;
    v = (via_signed ? static_cast<uint64_t>(static_cast<int64_t>(d)) : static_cast<uint64_t>(d)) & to_mask;
    return true;
  };
  double (*round)(double) = nullptr;
  switch (mode) {
    case RoundMode::Rint: round = [](double d) { return std::nearbyint(d); }; break;  // RNE, checked above
    case RoundMode::Round: round = [](double d) { return std::round(d); }; break;
    case RoundMode::Floor: round = [](double d) { return std::floor(d); }; break;
    case RoundMode::Ceil: round = [](double d) { return std::ceil(d); }; break;
    case RoundMode::None: case RoundMode::Trunc: round = [](double d) { return std::trunc(d); }; break;
    case RoundMode::Odd: return false;
  }
  return loop([=](uint64_t a, uint64_t& v) { return integral(a, round, v); });
}

}  // namespace

bool run_specialised_convert(Profile p, Tile& out, const Tile& src, RoundMode mode, SaturationMode saturation) {
  if (is_f8(out.type) || is_f8(src.type)) return false;  // convert_lane's MXType path
  return run_convert(p, out, src, mode, saturation);
}

bool run_specialised(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs) {
  if (op == Op::TABS && rules(p).abs_is_vabs) return false;  // vabs of the most negative integer is refused
  if (is_f8(out.type)) return false;  // a5's TAND / TOR on the bits: the generic lanes
  if (out.type == ElemType::F32) return run_f32(p, op, out, srcs);
  if (!is_float(out.type)) return run_integer(p, op, out, srcs);
  return run_half(p, op, out, srcs);
}

}  // namespace tmu::pto::detail
