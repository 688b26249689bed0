// TCVT on A2/A3 (include/pto/npu/a2a3/TCvt.hpp): one vconv per type pair, with a rounding suffix
// chosen from the mode, and the CTRL register's saturation bit. The sources give which vconv each
// pair and mode runs, which saturation setting is in force, and the two saturation behaviours
// ("ON: clamp to the datatype range, 300.0f -> int8 = 127; OFF: truncate via bit masking, 300.0f
// -> int8 = 44"), but not vconv's arithmetic: tmu takes a suffixed vconv as the IEEE conversion in
// that direction (r to nearest even, a to nearest with ties away from zero, f toward -inf, c toward
// +inf, z toward zero), subnormals kept. Where the sources leave a lane's result open - a NaN
// source, an infinity converted to a float type, a float result beyond the destination's range,
// an inexact lane of a vconv without a suffix or with the round-to-odd suffix - the lane is refused.
#include <fmt/format.h>

#include "internal.h"

namespace tmu::pto::detail {

namespace {

using enum ElemType;

// The vconv suffix a mode selects: the pair's own default for NONE and for modes the pair's switch
// does not list (its `default:` case), RoundMode::None standing for "no suffix".
struct Pair {
  ElemType from, to;
  RoundMode fallback;  // the `default:` case
  bool modes;          // the switch lists RINT..TRUNC
  bool odd;            // it also lists ODD (vconv_f322f16o)
};

constexpr Pair kPairs[] = {
    {F32, F16, RoundMode::Rint, true, true},    {F32, F32, RoundMode::Rint, true, false},
    {F32, I64, RoundMode::Trunc, true, false},  {F32, I32, RoundMode::Trunc, true, false},
    {F32, I16, RoundMode::Trunc, true, false},  {F32, BF16, RoundMode::Rint, true, false},
    {F16, I32, RoundMode::Trunc, true, false},  {F16, I16, RoundMode::Trunc, true, false},
    {F16, I8, RoundMode::Trunc, true, false},   {F16, U8, RoundMode::Trunc, true, false},
    {BF16, I32, RoundMode::Trunc, true, false}, {I16, F16, RoundMode::None, true, false},
    {I32, F32, RoundMode::None, true, false},   {I64, F32, RoundMode::Rint, true, false},
    // GenCastCallSpecialCases: one vconv each, the mode unused.
    {F16, F32, RoundMode::None, false, false},  {BF16, F32, RoundMode::None, false, false},
    {U8, F16, RoundMode::None, false, false},   {I8, F16, RoundMode::None, false, false},
    {I16, F32, RoundMode::None, false, false},  {I64, I32, RoundMode::None, false, false},
    {I32, I64, RoundMode::None, false, false},  {I32, I16, RoundMode::None, false, false},
    {I32, F16, RoundMode::None, false, false},  // vconv_deq with scale 1.0
};

const Pair* find_pair(ElemType from, ElemType to) {
  for (const Pair& p : kPairs)
    if (p.from == from && p.to == to) return &p;
  return nullptr;
}

RoundMode suffix(const Pair& p, RoundMode mode) {
  if (!p.modes) return RoundMode::None;
  if (mode == RoundMode::Odd) return p.odd ? RoundMode::Odd : p.fallback;
  if (mode == RoundMode::None) return p.fallback;
  return mode;
}

// TCvt.hpp's kIsNarrowingCvt: the pairs whose saturation setting is honoured (default OFF);
// TCVT_IMPL runs every other pair with saturation ON whatever was asked.
bool narrowing(ElemType from, ElemType to) {
  return (from == F16 && (to == U8 || to == I8 || to == I16)) || (from == F32 && to == I16) ||
         (from == I64 && to == I32) || (from == I32 && to == I16);
}

[[noreturn]] void refuse_open(const Lane& lane, ElemType to, const std::string& what) {
  refuse_lane(lane, ErrorKind::Unsupported,
              fmt::format("{} to {}: the A2/A3 sources do not give vconv's result for it", what, elem_name(to)));
}

ieee::Rounding directed(RoundMode m, bool negative) {
  switch (m) {
    case RoundMode::Floor: return ieee::Rounding::TowardNegative;
    case RoundMode::Ceil: return ieee::Rounding::TowardPositive;
    case RoundMode::Trunc: return ieee::Rounding::TowardZero;
    case RoundMode::Round: return negative ? ieee::Rounding::TowardNegative : ieee::Rounding::TowardPositive;
    default: return ieee::Rounding::NearestEven;
  }
}

// The clamp of saturation ON, for an integral value or an infinity.
uint64_t clamp(ElemType to, bool negative, bool beyond, const Integer& v) {
  if (!beyond && fits(to, v)) return pattern_of(to, v);
  if (is_unsigned_int(to)) return negative ? 0 : lane_mask(to);
  const uint64_t top = uint64_t{1} << (width_bits(to) - 1);
  return negative ? top : top - 1;
}

// Float to float: IEEE in the suffix's direction; ROUND (ties away) is nearest, except that a
// midpoint goes away from zero, found from the two neighbours in binary64 (exact for these types).
uint64_t float_to_float(const Lane& lane, ElemType to, RoundMode mode, uint64_t bits) {
  const ieee::Format f = float_format(lane.type), g = float_format(to);
  const ieee::Unpacked u = ieee::unpack(f, bits);
  if (u.cls == ieee::Class::Infinity) refuse_open(lane, to, "an infinity");
  if (lane.type == F32 && to == F32) {  // vconv_f322f32: to an integral value, as a float
    if (u.cls == ieee::Class::Zero || u.exponent >= static_cast<int>(f.frac_bits)) return bits;
    Integer v;
    round_to_integer(f, bits, mode, v);
    if (v.magnitude == 0) return f.zero(u.sign);  // roundToIntegral keeps the sign: -0.7 -> -0
    return ieee::from_integer(f, u.sign, static_cast<uint64_t>(v.magnitude)).bits;
  }
  ieee::Options toward_zero;
  toward_zero.rounding = ieee::Rounding::TowardZero;
  const ieee::Result t = ieee::convert(f, g, bits, toward_zero);
  if (t.flags.overflow || ((t.bits & ~g.sign_bit()) == g.max_finite(false) && t.flags.inexact))
    refuse_open(lane, to, "a value beyond the largest finite");
  if (!t.flags.inexact) return t.bits;
  if (mode == RoundMode::Odd || mode == RoundMode::None) refuse_open(lane, to, "an inexact value (no rounding given)");
  ieee::Options o;
  o.rounding = directed(mode, u.sign);
  const uint64_t r = ieee::convert(f, g, bits, o).bits;
  if (mode != RoundMode::Round) return r;
  const ieee::Format d = ieee::kBinary64;
  const uint64_t sum = ieee::add(d, ieee::convert(g, d, t.bits).bits, ieee::convert(g, d, r).bits).bits;
  const uint64_t twice = ieee::add(d, ieee::convert(f, d, bits).bits, ieee::convert(f, d, bits).bits).bits;
  return sum == twice ? r : ieee::convert(f, g, bits).bits;
}

// Integer to float, in the suffix's direction; no suffix: exact lanes only.
uint64_t integer_to_float(const Lane& lane, ElemType to, RoundMode mode, uint64_t bits) {
  const ieee::Format g = float_format(to);
  const Integer v = integer_of(lane.type, bits);
  const auto m = static_cast<uint64_t>(v.magnitude);
  const ieee::Result nearest = ieee::from_integer(g, v.negative, m);
  if (!nearest.flags.inexact && !nearest.flags.overflow) return nearest.bits;
  if (mode == RoundMode::None || mode == RoundMode::Odd || nearest.flags.overflow)
    refuse_open(lane, to, fmt::format("{}, not exactly a value of the type,", text(v)));
  ieee::Options o;
  o.rounding = directed(mode, v.negative);
  const uint64_t r = ieee::from_integer(g, v.negative, m, o).bits;
  if (mode != RoundMode::Round) return r;
  // A midpoint: m lies halfway between the value toward zero and the value away from it.
  ieee::Options z;
  z.rounding = ieee::Rounding::TowardZero;
  const auto value = [&](uint64_t p) {
    Integer w;
    round_to_integer(g, p, RoundMode::Trunc, w);
    return w.magnitude;
  };
  const u128 low = value(ieee::from_integer(g, v.negative, m, z).bits), high = value(r);
  return low + high == 2 * static_cast<u128>(m) ? r : nearest.bits;
}

}  // namespace

bool a2a3_converts(ElemType from, ElemType to) { return find_pair(from, to) != nullptr; }

// The intrinsic's name is vconv_<from>2<to><suffix> (f32, f16, bf16, s64, s32, s16, s8, u8; r, a,
// f, c, z, o); int32 to f16 is vconv_deq after set_deqscale (GenCastCallSpecialCases).
std::string a2a3_vconv_name(ElemType from, ElemType to, RoundMode mode) {
  const Pair* p = find_pair(from, to);
  if (p == nullptr) return {};
  if (from == I32 && to == F16) return "vconv_deq";
  const auto code = [](ElemType t) -> std::string_view {
    switch (t) {
      case F32: return "f32";
      case F16: return "f16";
      case BF16: return "bf16";
      case I64: return "s64";
      case I32: return "s32";
      case I16: return "s16";
      case I8: return "s8";
      default: return "u8";
    }
  };
  constexpr char kLetter[] = "-rafczo";  // by RoundMode's value (Rint = 1 ... Odd = 6)
  std::string name = fmt::format("vconv_{}2{}", code(from), code(to));
  const RoundMode r = suffix(*p, mode);
  if (r != RoundMode::None) name += kLetter[static_cast<unsigned>(r)];
  return name;
}

SaturationMode a2a3_saturation(ElemType from, ElemType to, std::optional<SaturationMode> asked) {
  if (!narrowing(from, to)) return SaturationMode::On;
  return asked.value_or(SaturationMode::Off);
}

void a2a3_convert(Profile p, Tile& out, const Tile& src, const OpParams& params) {
  if (!a2a3_converts(src.type, out.type))
    refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
              fmt::format("{} to {}: TCvt.hpp has no vconv path for the pair (it would write nothing)",
                          elem_name(src.type), elem_name(out.type)));
  const SaturationMode sat = a2a3_saturation(src.type, out.type, params.saturation);
  for (unsigned r = 0; r < src.valid_rows; ++r)
    for (unsigned c = 0; c < src.valid_cols; ++c)
      out.bits[out.offset(r, c)] =
          a2a3_convert_lane(Lane{p, Op::TCVT, src.type, r, c}, out.type, params.round, sat, src.at(r, c));
}

uint64_t a2a3_convert_lane(const Lane& lane, ElemType to, RoundMode mode, SaturationMode sat, uint64_t bits) {
  const ElemType from = lane.type;
  const Pair& pair = *find_pair(from, to);
  const RoundMode r = suffix(pair, mode);
  if (is_float(from) && ieee::is_nan(float_format(from), bits)) refuse_open(lane, to, "a NaN");
  if (is_float(from) && is_float(to)) return float_to_float(lane, to, r, bits);
  if (!is_float(from) && is_float(to)) return integer_to_float(lane, to, r, bits);
  if (!is_float(from)) {  // s642s32, s322s64, s322s16
    const Integer v = integer_of(from, bits);
    return sat == SaturationMode::On ? clamp(to, v.negative, false, v) : pattern_of(to, v);
  }
  // Float to integer: rounded by the suffix (an infinity saturates: "clamps inf/overflow").
  Integer v;
  const bool infinite = !round_to_integer(float_format(from), bits, r, v);
  const bool negative = ieee::unpack(float_format(from), bits).sign;
  if (sat == SaturationMode::On) return clamp(to, negative, infinite, v);
  // OFF. f32 -> i16, f16 -> i16 and f16 -> i8 go through int32 with saturation ON, then keep the
  // low bits (the NonSatTorch paths); f16 -> u8 masks the rounded value directly.
  if (from == F16 && to == U8) {
    if (infinite) refuse_open(lane, to, "an infinity without saturation");
    return pattern_of(U8, v);
  }
  const uint64_t as_i32 = clamp(I32, negative, infinite, v);
  return as_i32 & lane_mask(to);
}

}  // namespace tmu::pto::detail
