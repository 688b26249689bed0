// TCVT on A5 (include/pto/npu/a5/TCvt.hpp): one castData overload per type pair, each a vcvt (vtrc
// for f32 -> f32), with the rounding type TCVT_IMPL picks from the mode and the CTRL register's
// saturation bits set from SaturationCtrlTraits. What the header leaves to the hardware is taken as
// follows. Float lanes rest on the assumption a5-ieee (profile_a5.cpp): a vcvt with a rounding type
// is one IEEE conversion in that direction (R nearest even, A nearest with ties away, F toward -inf,
// C toward +inf, Z toward zero), and the lanes the assumption does not cover (a subnormal operand, a
// tiny result, a NaN) are refused. vcvt's O type (round to odd) is not defined by the sources: its
// inexact lanes are refused. Saturation ON clamps an integer result to the destination's range;
// OFF keeps the rounded value's low bits, the rule A2/A3's TCvt.hpp states for the same CTRL
// setting ("truncate via bit masking, 300.0f -> int8 = 44"), on which A5's PyTorch-aligned OFF
// sequences (f32 -> s32 -> s16; f16 -> s16, AND 255, -> f16 -> s8) also rely. For a float
// destination OFF is IEEE (overflow and infinities as IEEE gives them); what ON writes there is not
// stated, so such lanes are refused.
#include <fmt/format.h>

#include "internal.h"

namespace tmu::pto::detail {

namespace {

using enum ElemType;

struct A5Pair {
  ElemType from, to;
  bool default_off;  // TCVT_IMPL without a SaturationMode runs the pair with saturation OFF
};

// The castData overloads among tmu's element types (the hifloat8 and 4-bit float overloads aside,
// the four 8-bit float ones in convert_f8.cpp); TCVT.md's A5 column lists the same pairs.
constexpr A5Pair kA5Pairs[] = {
    {U8, F16, false},   {U8, U16, false},   {I8, F16, false},   {I8, I16, false},   {I8, I32, false},
    {F16, F32, false},  {F16, I32, false},  {F16, I16, true},   {F16, I8, true},    {F16, U8, true},
    {BF16, F32, false}, {BF16, I32, false}, {BF16, F16, false}, {I16, U8, false},   {I16, F16, false},
    {I16, F32, false},  {I16, U32, false},  {I16, I32, false},  {F32, F32, false},  {F32, F16, false},
    {F32, BF16, false}, {F32, I16, true},   {F32, I32, false},  {F32, I64, false},  {I32, F32, false},
    {I32, I16, true},   {I32, U16, false},  {I32, I64, false},  {I32, U8, false},   {U32, U8, false},
    {U32, U16, false},  {U32, I16, false},  {I64, F32, false},  {I64, I32, true},
};

const A5Pair* find_pair(ElemType from, ElemType to) {
  for (const A5Pair& p : kA5Pairs)
    if (p.from == from && p.to == to) return &p;
  return nullptr;
}

// tcvtDispatchByRound: RINT, ROUND, FLOOR, CEIL, TRUNC select R, A, F, C, Z; ODD selects O for
// f32 -> f16 only; NONE and the other ODDs take the default, Z from a float to an integer, R else.
RoundMode rounding_type(ElemType from, ElemType to, RoundMode mode) {
  if (mode == RoundMode::Odd && from == F32 && to == F16) return mode;
  if (mode != RoundMode::None && mode != RoundMode::Odd) return mode;
  return is_float(from) && !is_float(to) ? RoundMode::Trunc : RoundMode::Rint;
}

// The direction of a directed mode; ROUND's is away from zero (its neighbour past a midpoint).
ieee::Rounding direction(RoundMode m, bool negative) {
  switch (m) {
    case RoundMode::Floor: return ieee::Rounding::TowardNegative;
    case RoundMode::Ceil: return ieee::Rounding::TowardPositive;
    case RoundMode::Trunc: case RoundMode::Odd: return ieee::Rounding::TowardZero;
    case RoundMode::Round: return negative ? ieee::Rounding::TowardNegative : ieee::Rounding::TowardPositive;
    default: return ieee::Rounding::NearestEven;
  }
}

ieee::Options options(ieee::Rounding r) {
  ieee::Options o;
  o.rounding = r;
  return o;
}

[[noreturn]] void refuse_open(const Lane& lane, ElemType to, const std::string& what) {
  refuse_lane(lane, ErrorKind::Unsupported,
              fmt::format("{} to {}: the A5 sources do not give vcvt's result for it", what, elem_name(to)));
}

// A float result under the mode: ROUND is nearest unless the value is a midpoint, found from its two
// neighbours (toward zero and away); ODD is refused where it would round.
template <typename Convert, typename Midpoint>
ieee::Result rounded(const Lane& lane, ElemType to, RoundMode m, bool negative, Convert convert, Midpoint midpoint) {
  const ieee::Result nearest = convert(ieee::Rounding::NearestEven);
  if (m == RoundMode::Odd) {
    if (nearest.flags.inexact) refuse_open(lane, to, "an inexact value under ODD (vcvt's round-to-odd type)");
    return nearest;
  }
  if (m != RoundMode::Round) return convert(direction(m, negative));
  const ieee::Result low = convert(ieee::Rounding::TowardZero);
  if (!low.flags.inexact) return low;
  const ieee::Result high = convert(direction(m, negative));
  return midpoint(low.bits, high.bits) ? high : nearest;
}

uint64_t float_to_float(const Lane& lane, ElemType to, RoundMode m, SaturationMode sat, uint64_t bits) {
  const ieee::Format f = float_format(lane.type), g = float_format(to);
  const ieee::Unpacked u = ieee::unpack(f, bits);
  if (u.cls == ieee::Class::Infinity) {
    if (lane.type == F32 && to == F32) return bits;  // vtrc: already integral
    if (sat == SaturationMode::On && width_bits(to) < width_bits(lane.type))
      refuse_open(lane, to, "an infinity with saturation ON");
    return ieee::convert(f, g, bits).bits;
  }
  if (lane.type == F32 && to == F32) {  // vtrc: roundToIntegral, the sign of a zero result kept
    if (u.cls == ieee::Class::Zero || u.exponent >= static_cast<int>(f.frac_bits)) return bits;
    Integer v;
    round_to_integer(f, bits, m, v);
    return v.magnitude == 0 ? f.zero(u.sign) : ieee::from_integer(f, u.sign, static_cast<uint64_t>(v.magnitude)).bits;
  }
  const ieee::Format d = ieee::kBinary64;  // neighbours, source and sums are exact there
  const auto to_d = [&](ieee::Format h, uint64_t x) { return ieee::convert(h, d, x).bits; };
  const ieee::Result r = rounded(
      lane, to, m, u.sign, [&](ieee::Rounding dir) { return ieee::convert(f, g, bits, options(dir)); },
      [&](uint64_t lo, uint64_t hi) {
        return ieee::add(d, to_d(g, lo), to_d(g, hi)).bits == ieee::add(d, to_d(f, bits), to_d(f, bits)).bits;
      });
  if (sat == SaturationMode::On && (r.flags.overflow || ieee::unpack(g, r.bits).cls == ieee::Class::Infinity))
    refuse_open(lane, to, "a value beyond the largest finite with saturation ON");
  return a5_checked_result(lane, g, r);
}

uint64_t integer_to_float(const Lane& lane, ElemType to, RoundMode m, uint64_t bits) {
  const ieee::Format g = float_format(to);
  const Integer v = integer_of(lane.type, bits);
  const auto mag = static_cast<uint64_t>(v.magnitude);
  const auto value = [&](uint64_t p) {
    Integer w;
    round_to_integer(g, p, RoundMode::Trunc, w);
    return w.magnitude;
  };
  return rounded(
             lane, to, m, v.negative,
             [&](ieee::Rounding dir) { return ieee::from_integer(g, v.negative, mag, options(dir)); },
             [&](uint64_t lo, uint64_t hi) { return value(lo) + value(hi) == 2 * v.magnitude; })
      .bits;
}

// An integral value (or an infinity) into an integer type under the saturation in force.
uint64_t to_integer(const Lane& lane, ElemType to, SaturationMode sat, bool infinite, const Integer& v) {
  if (!infinite && fits(to, v)) return pattern_of(to, v);
  if (sat == SaturationMode::On) {
    if (is_unsigned_int(to)) return v.negative ? 0 : lane_mask(to);
    const uint64_t top = uint64_t{1} << (width_bits(to) - 1);
    return v.negative ? top : top - 1;
  }
  if (infinite) refuse_open(lane, to, "an infinity with saturation OFF");
  return pattern_of(to, v);  // the low bits
}

}  // namespace

bool a5_converts(ElemType from, ElemType to) { return find_pair(from, to) != nullptr || a5_f8_pair(from, to); }

// The f8 pairs touch no CTRL bit: their lanes ignore it.
SaturationMode a5_saturation(ElemType from, ElemType to, std::optional<SaturationMode> asked) {
  const A5Pair* pair = find_pair(from, to);
  return asked.value_or(pair != nullptr && pair->default_off ? SaturationMode::Off : SaturationMode::On);
}

void a5_convert(Profile p, Tile& out, const Tile& src, const OpParams& params) {
  const ElemType from = src.type, to = out.type;
  if (!a5_converts(from, to))
    refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
              fmt::format("{} to {}: A5's TCvt.hpp has no castData overload for the pair (it does not compile)",
                          elem_name(from), elem_name(to)));
  if ((is_float(from) || is_float(to)) && !params.a5_ieee)
    refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
              fmt::format("{} to {} lanes on a5 are computed only under the assumption a5-ieee, which is switched "
                          "off ({})",
                          elem_name(from), elem_name(to), kA5FloatAssumption));
  const SaturationMode sat = a5_saturation(from, to, params.saturation);
  const RoundMode m = rounding_type(from, to, params.round);
  for (unsigned r = 0; r < src.valid_rows; ++r)
    for (unsigned c = 0; c < src.valid_cols; ++c)
      out.bits[out.offset(r, c)] = a5_convert_lane(Lane{p, Op::TCVT, from, r, c}, to, m, sat, src.at(r, c));
}

uint64_t a5_convert_lane(const Lane& lane, ElemType to, RoundMode m, SaturationMode sat, uint64_t bits) {
  const ElemType from = lane.type;
  if (is_f8(from) || is_f8(to)) return a5_convert_f8_lane(lane, to, bits);
  if (!is_float(from)) {
    if (is_float(to)) return integer_to_float(lane, to, m, bits);
    const Integer v = integer_of(from, bits);
    // i16 -> u32 is a "type expansion" (PART_EVEN, no CTRL bit): the header does not say whether a
    // negative value sign-extends or clamps.
    if (width_bits(to) > width_bits(from) && !fits(to, v))
      refuse_open(lane, to, fmt::format("the negative value {} in a widening without saturation control", text(v)));
    return to_integer(lane, to, sat, false, v);
  }
  const ieee::Format f = float_format(from);
  if (ieee::is_nan(f, bits)) refuse_open(lane, to, "a NaN");
  a5_check_no_subnormal_operand(lane, f, {bits});
  if (is_float(to)) return float_to_float(lane, to, m, sat, bits);
  Integer v;
  const bool infinite = !round_to_integer(f, bits, m, v);  // v keeps the sign, also of an infinity
  return to_integer(lane, to, sat, infinite, v);
}

}  // namespace tmu::pto::detail
