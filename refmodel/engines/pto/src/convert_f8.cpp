// The 8-bit float element types f8e4m3 and f8e5m2 (tmu/fp8.h for the encodings): which profile
// runs which operation on them, and TCVT lanes with an 8-bit float side.
//
// cpusim: the CPU simulator's float8_e4m3_t / float8_e5m2_t are MXType (cpu/MXTypes.hpp), and its
// TCvt.hpp converts a pair with one of them through double: MXType(double) (tmu::cpusim_from_f64:
// truncating, wrapped exponents) from a float or integer source, `operator double()` (cpusim_to_f64:
// no specials) to a float or integer destination. convert_value takes neither of its rounding branches
// for an MXType side (they test is_float_like_v and is_integral_v, which MXType is not), so the mode
// is unused and an 8-bit float goes to an integer by C++'s truncating cast. With saturation ON the
// clamp bounds come from std::numeric_limits<MXType>, which is not specialised: lowest() and max() are
// MXType() = 0, so every lane is clamped to 0 first.
//
// a5: TCvt.hpp has castData overloads for f32 -> f8 (cast32to8: one vcvt with ROUND_R whatever mode
// TCVT_IMPL dispatched) and f8 -> f32 (cast8to32: one vcvt, PART_P0), nothing else with an 8-bit float
// (no composed pair, so each lane rounds once). SaturationCtrlTraits touches no CTRL bit for these
// pairs (a float -> float pair that is neither fp32 -> fp16/bf16 nor an fp16/bf16 pair), so the asked
// saturation is ignored and overflow behaves as the CTRL register happens to be set, which the sources
// do not give: such lanes are refused. The rest rests on a5-ieee: the widening is exact, the narrowing
// one rounding to nearest even; subnormals and NaNs are refused as for the other float types.
#include <fmt/format.h>

#include "internal.h"
#include "tmu/pto/fp8_cpusim.h"

namespace tmu::pto::detail {

namespace {

using enum ElemType;

constexpr ieee::Format kDouble = ieee::kBinary64;

bool is_bitwise(Op op) {
  return op == Op::TAND || op == Op::TOR || op == Op::TXOR || op == Op::TNOT || op == Op::TSHL || op == Op::TSHR;
}

[[noreturn]] void refuse_a5(const Lane& lane, ElemType to, const std::string& what) {
  refuse_lane(lane, ErrorKind::Unsupported,
              fmt::format("{} to {}: {} ({})", what, elem_name(to),
                          "the A5 sources do not give vcvt's result for it", kA5FloatAssumption));
}

bool f8_subnormal(fp8::Kind k, uint64_t bits) {
  const fp8::Layout l = fp8::layout(k);
  return ((bits >> l.frac_bits) & ((1u << l.exp_bits) - 1)) == 0 && (bits & ((1u << l.frac_bits) - 1)) != 0;
}

// A value of the source type as the simulator's double: floats widen exactly, integers as C++
// converts them, an MXType through operator double.
uint64_t cpusim_double(ElemType t, uint64_t bits) {
  if (is_f8(t)) return cpusim_to_f64(f8_kind(t), static_cast<uint8_t>(bits));
  if (is_float(t)) return ieee::convert(float_format(t), kDouble, bits).bits;
  return integer_to_double(t, bits);
}

// MXType(double) of a binary64 pattern. Below 2^(-62 - bias) (e4m3: 2^-69, e5m2: 2^-77) the
// constructor shifts a uint64_t by 64 or more, which C++ leaves undefined, and GCC 12 on x86-64
// gives different bytes at -O0 and -O2 (f32 0x0000fff1 -> e4m3 0x07 and 0x0f): refused.
uint64_t cpusim_encode(const Lane& lane, fp8::Kind k, uint64_t d) {
  const auto e64 = static_cast<int>((d >> 52) & 0x7FF);
  if (e64 != 0 && e64 != 0x7FF && e64 - 1023 <= -63 - fp8::layout(k).bias)
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                "a magnitude below 2^(-62 - bias): MXType(double) shifts by 64 or more, undefined in C++ (GCC 12 on "
                "x86-64 gives different results at -O0 and -O2)");
  return cpusim_from_f64(k, d);
}

}  // namespace

// TSel.hpp (CPU) assigns src0 or src1 whole: MXType copies its byte. TAdd.hpp ... TDiv.hpp:
// cpusim_f8_lane.
const char* cpusim_f8_refusal(Op op) {
  if (op == Op::TCVT || op == Op::TSEL || op == Op::TADD || op == Op::TSUB || op == Op::TMUL || op == Op::TDIV ||
      is_bitwise(op) || op == Op::TABS || op == Op::TSQRT || op == Op::TRSQRT)
    return nullptr;
  return "not modelled for the 8-bit float types on cpusim: the simulator computes this operation on MXType "
         "through its conversion to double and truncating constructor, which tmu models for TCVT, TSEL, TADD, "
         "TSUB, TMUL and TDIV only";
}

const char* a2a3_f8_refusal(Op) {
  return "the 8-bit float types are A5-only: type-system.md marks f8e4m3 and f8e5m2 'No' for A2/A3, TCVT.md "
         "calls them an 'A5-only source type', and include/pto/npu/a2a3/ has no overload for them";
}

uint64_t cpusim_convert_f8_lane(const Lane& lane, ElemType to, SaturationMode sat, uint64_t bits) {
  const ElemType from = lane.type;
  if (sat == SaturationMode::On) bits = 0;  // clamped to [MXType(), MXType()] = [0, 0]: +0 of the source type
  if (from == to) return bits;
  if (is_f8(to)) return cpusim_encode(lane, f8_kind(to), cpusim_double(from, bits));
  // from is an 8-bit float.
  const uint64_t d = cpusim_double(from, bits);
  if (to == F32) return cpusim_to_f32(f8_kind(from), static_cast<uint8_t>(bits));
  // operator double, then double -> _Float16 / std::bfloat16_t: every value is exact there but
  // e5m2's 2^16 binade, beyond binary16's range (+-inf under any rounding to nearest). C++23 makes
  // that narrowing explicit-only ([conv.double]); GCC 12 compiles it (docs/spec-deltas.md).
  if (is_float(to)) return ieee::convert(kDouble, float_format(to), d).bits;
  return double_to_integer(Lane{lane.profile, lane.op, to, lane.row, lane.col}, d);
}

// TAdd.hpp, TSub.hpp, TMul.hpp, TDiv.hpp (CPU): `src0 + src1` on MXType is MXType::operator+, which
// adds the two values as doubles (operator double: exact); the double goes back through MXType(double).
// Sums, differences and products of two 8-bit values are exact in binary64; a quotient is rounded to
// nearest even there first. x / 0 is an infinity (MXType: +-1.0); 0 / 0 the host's NaN (nan_result:
// x86-64's, sign set), which MXType(double) writes as -1.5 in e4m3.
uint64_t cpusim_f8_lane(const Lane& lane, uint64_t a, uint64_t b) {
  const fp8::Kind k = f8_kind(lane.type);
  const uint64_t x = cpusim_to_f64(k, static_cast<uint8_t>(a)), y = cpusim_to_f64(k, static_cast<uint8_t>(b));
  uint64_t r = 0;
  switch (lane.op) {
    case Op::TADD: r = ieee::add(kDouble, x, y).bits; break;
    case Op::TSUB: r = ieee::sub(kDouble, x, y).bits; break;
    case Op::TMUL: r = ieee::mul(kDouble, x, y).bits; break;
    case Op::TDIV: r = ieee::div(kDouble, x, y).bits; break;
    default: refuse_lane(lane, ErrorKind::Unsupported, "not modelled for the 8-bit float types on cpusim");
  }
  if (ieee::is_nan(kDouble, r)) r = nan_result(lane, kDouble, {x, y});
  return cpusim_encode(lane, k, r);
}

bool a5_f8_pair(ElemType from, ElemType to) {
  return (from == F32 && is_f8(to)) || (is_f8(from) && to == F32);
}

uint64_t a5_convert_f8_lane(const Lane& lane, ElemType to, uint64_t bits) {
  const ElemType from = lane.type;
  if (is_f8(from)) {  // cast8to32: exact widening
    const fp8::Kind k = f8_kind(from);
    if (fp8::is_nan(k, static_cast<uint8_t>(bits))) refuse_a5(lane, to, "a NaN");
    if (f8_subnormal(k, bits))
      refuse_a5(lane, to, "a subnormal operand (A5 flushes denormals and the sources do not say how)");
    return fp8::to_f32(k, static_cast<uint8_t>(bits));
  }
  const fp8::Kind k = f8_kind(to);
  const ieee::Format f = ieee::kBinary32;
  if (ieee::is_nan(f, bits)) refuse_a5(lane, to, "a NaN");
  a5_check_no_subnormal_operand(lane, f, {bits});
  const auto u = static_cast<uint32_t>(bits);
  if ((u & 0x7FFFFFFFu) == 0) return (u >> 31) << 7;  // a zero of either sign
  if ((u & 0x7FFFFFFFu) == 0x7F800000u)
    refuse_a5(lane, to,
              "an infinity: TCVT sets no CTRL saturation bit for f32 -> f8, so whether vcvt saturates depends on "
              "the CTRL register's state");
  const uint8_t r = fp8::from_f32(k, u, ieee::Rounding::NearestEven, fp8::Overflow::NonSaturate);
  if (fp8::is_nan(k, r) || fp8::is_inf(k, r))
    refuse_a5(lane, to,
              "a value beyond the largest finite once rounded: TCVT sets no CTRL saturation bit for f32 -> f8, so "
              "whether vcvt saturates depends on the CTRL register's state");
  if ((r & 0x7F) == 0 || f8_subnormal(k, r))
    refuse_a5(lane, to, "a tiny result (A5 flushes denormals and the sources do not say when or to which zero)");
  return r;
}

}  // namespace tmu::pto::detail
