// The A5 profile: what pto-isa's include/pto/npu/a5/ implementation files accept (their
// static_asserts), and the lanes tmu models from the intrinsic each one issues. Integer and raw-bit
// lanes follow from the headers alone; float lanes rest on kA5FloatAssumption, and what that
// assumption does not cover (denormals, NaN results, the -0 of vabs/vrelu, vmin/vmax on NaN) is
// refused lane by lane.
#include <fmt/format.h>

#include "internal.h"
#include "profile_rules.h"

namespace tmu::pto::detail {

namespace {

using enum ElemType;

bool is_int64(ElemType t) { return t == I64 || t == U64; }

[[noreturn]] void refuse_float(const Lane& lane, const std::string& what) {
  refuse_lane(lane, ErrorKind::Unsupported, fmt::format("{} ({})", what, kA5FloatAssumption));
}

// The type-system page says A5 flushes denormals, but not whether inputs and outputs both flush,
// with which sign, nor whether tininess is judged before or after rounding: lanes that meet a
// subnormal are refused.
void check_no_subnormal_operand(const Lane& lane, ieee::Format f, std::initializer_list<uint64_t> operands) {
  for (uint64_t x : operands)
    if (ieee::unpack(f, x).cls == ieee::Class::Subnormal)
      refuse_float(lane, "a subnormal operand: A5 flushes denormals and the sources do not say how");
}

uint64_t checked_result(const Lane& lane, ieee::Format f, const ieee::Result& r) {
  if (ieee::is_nan(f, r.bits)) refuse_float(lane, rules(lane.profile).nan_refusal);
  if (r.flags.underflow || ieee::unpack(f, r.bits).cls == ieee::Class::Subnormal)
    refuse_float(lane, "the result is tiny: A5 flushes denormals and the sources do not say when or to which zero");
  return r.bits;
}

// vtrc under the assumption: IEEE roundToIntegral in f32 toward -inf (ROUND_F) or toward zero
// (ROUND_Z), a zero result keeping the sign; zeros, infinities and values of 2^23 or more are
// already integral.
uint64_t vtrc(uint64_t x, bool floor) {
  const ieee::Format f = ieee::kBinary32;
  const ieee::Unpacked u = ieee::unpack(f, x);
  if (u.cls != ieee::Class::Normal || u.exponent >= static_cast<int>(f.frac_bits)) return x;
  Integer v;
  round_to_integer(f, x, floor ? RoundMode::Floor : RoundMode::Trunc, v);
  return v.magnitude == 0 ? f.zero(u.sign) : ieee::from_integer(f, u.sign, static_cast<uint64_t>(v.magnitude)).bits;
}

// TRem.hpp / TFMod.hpp, DEFAULT algorithm: in f32 (f16 widened exactly, vcvt PART_EVEN/ODD),
// q = vdiv(src0, src1), vtrc(q) (ROUND_F for TREM, ROUND_Z for TFMOD), d = src0 - q x src1 (vmul,
// vsub), each rounding once; f16 narrows d toward zero (vcvt ROUND_Z, RS_ENABLE). TREM then adds
// src1 where src1 x d < 0 (vmul, vcmps_lt, vadd in the element type). Every step's result passes the
// assumption's checks, so large quotients keep the sequence's rounding error (f32 fmod(1e10, 3) is
// 0 here, 1 exactly).
uint64_t remainder_lane(const Lane& lane, uint64_t a, uint64_t b) {
  const ieee::Format h = float_format(lane.type), f = ieee::kBinary32;
  check_no_subnormal_operand(lane, h, {a, b});
  const bool rem = lane.op == Op::TREM;
  const uint64_t a32 = ieee::convert(h, f, a).bits, b32 = ieee::convert(h, f, b).bits;
  const uint64_t q = vtrc(checked_result(lane, f, ieee::div(f, a32, b32)), rem);
  uint64_t d = checked_result(lane, f, ieee::sub(f, a32, checked_result(lane, f, ieee::mul(f, q, b32))));
  if (h != f) {
    ieee::Options toward_zero;
    toward_zero.rounding = ieee::Rounding::TowardZero;
    const ieee::Result n = ieee::convert(f, h, d, toward_zero);
    if (n.flags.overflow || ieee::unpack(h, n.bits).cls == ieee::Class::Infinity)
      refuse_float(lane, "an infinite or overflowing f32 remainder narrowed with RS_ENABLE: what vcvt writes is not "
                         "stated");
    d = checked_result(lane, h, n);
  }
  if (rem && less_than(lane.type, checked_result(lane, h, ieee::mul(h, b, d)), h.zero(false)))
    d = checked_result(lane, h, ieee::add(h, d, b));
  return d;
}

// One vector intrinsic on float lanes, under the assumption.
uint64_t a5_float_lane(const Lane& lane, uint64_t a, uint64_t b) {
  const ieee::Format f = float_format(lane.type);
  const uint64_t one = static_cast<uint64_t>(f.bias()) << f.frac_bits;
  switch (lane.op) {
    case Op::TADD: check_no_subnormal_operand(lane, f, {a, b}); return checked_result(lane, f, ieee::add(f, a, b));
    case Op::TSUB: check_no_subnormal_operand(lane, f, {a, b}); return checked_result(lane, f, ieee::sub(f, a, b));
    case Op::TMUL: check_no_subnormal_operand(lane, f, {a, b}); return checked_result(lane, f, ieee::mul(f, a, b));
    // TDiv.hpp's default algorithm is one vdiv (the HIGH_PRECISION compensation is not selectable here).
    case Op::TDIV: check_no_subnormal_operand(lane, f, {a, b}); return checked_result(lane, f, ieee::div(f, a, b));
    // TRECIP is TDIVS(dst, 1, src) (pto_instr.hpp); TDivS.hpp's DivSOpS: one vdiv of the broadcast 1 by src.
    case Op::TRECIP: check_no_subnormal_operand(lane, f, {a}); return checked_result(lane, f, ieee::div(f, one, a));
    case Op::TREM: case Op::TFMOD: return remainder_lane(lane, a, b);
    // TSQRT's default algorithm is one vsqrt (TUnaryOp.hpp).
    case Op::TSQRT: check_no_subnormal_operand(lane, f, {a}); return checked_result(lane, f, ieee::sqrt(f, a));
    // TUnaryOp.hpp: TNEG_IMPL is TMULS_IMPL(dst, src, -1), one vmuls by -1.
    case Op::TNEG: {
      check_no_subnormal_operand(lane, f, {a});
      return checked_result(lane, f, ieee::mul(f, a, one | f.sign_bit()));
    }
    // vmin / vmax: the sources say nothing of NaN operands or of which zero wins between -0 and +0.
    case Op::TMIN: case Op::TMAX: {
      check_no_subnormal_operand(lane, f, {a, b});
      if (ieee::is_nan(f, a) || ieee::is_nan(f, b))
        refuse_float(lane, "a NaN operand: the A5 sources do not say what vmin/vmax return for NaN");
      if (equal(lane.type, a, b) && a != b)
        refuse_float(lane, "-0 against +0: the A5 sources do not say which zero vmin/vmax return");
      const bool take_b = lane.op == Op::TMIN ? less_than(lane.type, b, a) : less_than(lane.type, a, b);
      return take_b ? b : a;
    }
    // TPrelu.hpp: one vprelu, src0 where src0 > 0, else src0 x src1 rounded once. Which side a zero
    // src0 takes (+0 x -1 is -0) and what vprelu makes of NaN operands are not stated.
    case Op::TPRELU: {
      check_no_subnormal_operand(lane, f, {a, b});
      if (ieee::is_nan(f, a) || ieee::is_nan(f, b))
        refuse_float(lane, "a NaN operand: the A5 sources do not say what vprelu returns for NaN");
      if ((a & ~f.sign_bit()) == 0)
        refuse_float(lane, "src0 is a zero: the A5 sources do not say whether vprelu returns it or src0 x src1");
      return less_than(lane.type, f.zero(false), a) ? a : checked_result(lane, f, ieee::mul(f, a, b));
    }
    // vabs / vrelu: the magnitude, or max(x, 0); their -0 and NaN results are not stated.
    case Op::TABS: case Op::TRELU: {
      check_no_subnormal_operand(lane, f, {a});
      if (ieee::is_nan(f, a))
        refuse_float(lane, "a NaN operand: the A5 sources do not say what the vector unit returns");
      if (a == f.zero(true))
        refuse_float(lane, "-0: the A5 sources do not say whether vabs/vrelu keep the sign of -0");
      if (lane.op == Op::TABS) return a & ~f.sign_bit();
      return less_than(lane.type, a, f.zero(false)) ? f.zero(false) : a;
    }
    default: break;
  }
  refuse_lane(lane, ErrorKind::Unsupported, "not modelled for a5");
}

// TPow.hpp PowI: 8-bit lanes widened to 16 bits (vcvt PART_EVEN, exact); dst = 1, then once per
// bit of the widened type: dst *= base where exp's low bit is set, exp >>= 1, base *= base (vmul,
// modulo the width; the 8-bit results are the low bytes, vpack LOWER). Then exp == 0 or base == 1
// gives 1 and, for signed types, exp < 0 with base != -1 gives 0. The loop covers every bit of an
// unsigned exponent (u32 2^31 is a power, where A2/A3 reads it as a negative int); for base -1 and a
// negative exponent it leaves -1 or 1 by the exponent's parity whichever shift vshrs is.
uint64_t a5_power(ElemType t, uint64_t base, uint64_t exp) {
  const bool is_signed = is_signed_int(t);
  const int64_t e = is_signed ? signed_value(t, exp) : static_cast<int64_t>(exp);
  const int64_t b = is_signed ? signed_value(t, base) : static_cast<int64_t>(base);
  if (e == 0 || b == 1) return 1;
  if (e < 0) return b != -1 ? 0 : (e & 1) != 0 ? all_ones(t) : 1;
  uint64_t result = 1, x = base;
  for (auto k = static_cast<uint64_t>(e); k != 0; k >>= 1) {
    if ((k & 1) != 0) result *= x;
    x *= x;
  }
  return wrap(t, result);
}

}  // namespace

// The assumption's checks, shared with TCVT (convert_a5.cpp).
void a5_check_no_subnormal_operand(const Lane& lane, ieee::Format f, std::initializer_list<uint64_t> operands) {
  check_no_subnormal_operand(lane, f, operands);
}
uint64_t a5_checked_result(const Lane& lane, ieee::Format f, const ieee::Result& r) {
  return checked_result(lane, f, r);
}

const char kA5FloatAssumption[] =
    "assumption a5-ieee: each A5 vector intrinsic on float lanes is one IEEE 754 operation rounded to nearest "
    "even; lanes meeting a subnormal, a NaN result or a sign of zero the sources leave open are refused";

// The static_asserts of include/pto/npu/a5/: TAdd.hpp ... TPrelu.hpp, TUnaryOp.hpp (TUnaryCheck and
// the per-op asserts), TMulS.hpp (TNEG), TDivS.hpp (TRECIP), TPow.hpp (PowCheckType, default
// algorithm), TCmp.hpp, TSel.hpp (any 1-, 2-, 4- or 8-byte type, the 8-bit floats too).
bool a5_supports(Op op, ElemType t) {
  switch (op) {
    // TAdd.hpp, TSub.hpp, TMin.hpp, TMax.hpp, TCmp.hpp list the eleven types without an 8-bit float.
    case Op::TADD: case Op::TSUB: case Op::TMIN: case Op::TMAX: case Op::TCMP: return !is_f8(t);
    case Op::TSEL: return true;
    case Op::TMUL: return !one_of(t, {I8, U8}) && !is_f8(t);
    case Op::TDIV: return one_of(t, {I64, U64, I32, U32, F32, I16, U16, F16});
    case Op::TRECIP: return one_of(t, {U64, I64, U32, I32, U16, I16, F16, F32});
    case Op::TNEG: return one_of(t, {I64, U64, I32, I16, U32, U16, F16, F32, BF16});
    // sizeof(T) is 1, 2 or 4, the lanes reinterpreted as unsigned (TAnd.hpp's AndOp): floats too.
    case Op::TAND: case Op::TOR: return width_bits(t) <= 32;
    case Op::TXOR: case Op::TNOT: return one_of(t, {U8, I8, U16, I16, U32, I32});
    case Op::TSHL: case Op::TSHR: return !is_float(t);
    case Op::TREM: return one_of(t, {I64, U64, F16, F32, U16, I16, U32, I32});
    case Op::TFMOD: return one_of(t, {F16, F32, U16, I16, U32, I32});
    case Op::TPOW: return one_of(t, {F32, F16, I32, U32, I16, U16, I8, U8});
    case Op::TPRELU: case Op::TEXP: case Op::TLOG: case Op::TSQRT: case Op::TRSQRT: return one_of(t, {F16, F32});
    case Op::TABS: return one_of(t, {F32, F16, I8, I16, I32});
    case Op::TRELU: return one_of(t, {F16, F32, I32});
    case Op::TADDC: case Op::TSUBC: return false;  // no implementation under include/pto/npu/a5/
    case Op::TCVT: return true;                    // decided per type pair
  }
  return false;
}

// TDiv.hpp and TFMod.hpp issue vdiv on 16- and 32-bit integer lanes, which vdiv.md says
// does not exist on A5 ("f16, f32 only (no integer division)"); the 64-bit ones refine a reciprocal
// seeded by f32 intrinsics (Int64Div.hpp).
constexpr const char* kIntegerDivision =
    "not modelled for a5: integer division goes through vdiv on integer lanes, which vdiv.md documents for f16 and "
    "f32 only, or (64-bit) through Int64Div.hpp's reciprocal refinement seeded by f32 intrinsics of unstated "
    "precision";

const char* a5_not_modelled_reason(Op op, ElemType t) {
  switch (op) {
    case Op::TMUL: case Op::TABS: return nullptr;
    case Op::TEXP: case Op::TLOG:
      return "not modelled for a5: TUnaryOp.hpp's vexp and vln are instructions whose precision the sources do not "
             "give";
    case Op::TRSQRT:
      return "not modelled for a5: TRsqrt.hpp's default algorithm is vsqrt then vdiv, and the HIGH_PRECISION one a "
             "Newton sequence; tmu has not read them into a model yet";
    case Op::TPOW:
      return is_float(t) ? "not modelled for a5: TPow.hpp computes float powers through a log2/exp polynomial "
                           "sequence whose intrinsics' precision the sources do not give"
                         : nullptr;
    case Op::TREM:
      if (is_float(t)) return nullptr;
      return is_int64(t) ? kIntegerDivision
                         : "not modelled for a5: TRem.hpp computes integer remainders with vmod, which no public page "
                           "describes (the sign of a remainder, division by zero)";
    case Op::TFMOD: return is_float(t) ? nullptr : kIntegerDivision;
    case Op::TDIV: return is_float(t) ? nullptr : kIntegerDivision;
    // TDivS.hpp: 16- and 32-bit integers through the scalar loop TSDiv_naive (C++'s 1 / src), the
    // 64-bit ones through Int64DivScalar's float-seeded reciprocal refinement.
    case Op::TRECIP:
      return is_int64(t) ? "not modelled for a5: Int64DivScalar (Int64Div.hpp) refines a reciprocal seeded by f32 "
                           "intrinsics (Int64DivFloatPreprocess) whose precision the sources do not give"
                         : nullptr;
    default: return nullptr;
  }
}

// One A5 lane of an accepted, modelled operation.
uint64_t a5_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t) {
  const ElemType t = lane.type;
  switch (lane.op) {
    // vand / vor on the lanes' bits (floats reinterpreted), vxor, vnot; vshl / vshr with counts the
    // ISA requires below the width (bitwise_lane refuses the others: TShl.hpp hands an unsigned
    // count to vshl as a signed one, so a count of 2^(w-1) or more is negative there).
    case Op::TAND: case Op::TOR: case Op::TXOR: case Op::TNOT: case Op::TSHL: case Op::TSHR: {
      Lane as_bits = lane;
      if (is_float(t)) as_bits.type = width_bits(t) == 32 ? U32 : width_bits(t) == 16 ? U16 : U8;
      return bitwise_lane(as_bits, a, b);
    }
    default: break;
  }
  if (is_float(t)) return a5_float_lane(lane, a, b);
  switch (lane.op) {
    // 64-bit TMUL: Int64Binary.hpp's vmull of the low words and vmula of the cross terms into the
    // high word is the product modulo 2^64, as vmul is modulo 2^w.
    case Op::TADD: case Op::TSUB: case Op::TMUL: case Op::TMIN: case Op::TMAX: case Op::TRELU: case Op::TNEG:
      return integer_lane(lane, a, b, 0);  // modular vadd/vsub/vmul(s), vmin/vmax/vrelu: exact
    // TSDiv_naive: C++'s 1 / src on the scalar unit (by zero: undefined, refused).
    case Op::TRECIP: return integer_lane(lane, a, b, 0);
    case Op::TPOW: return a5_power(t, a, b);
    case Op::TABS:
      if (a == (uint64_t{1} << (width_bits(t) - 1)))
        refuse_lane(lane, ErrorKind::Unsupported,
                    "the most negative integer: the A5 sources do not say what vabs returns for it");
      return integer_lane(lane, a, b, 0);
    default: break;
  }
  refuse_lane(lane, ErrorKind::Unsupported, "not modelled for a5");
}

}  // namespace tmu::pto::detail

namespace tmu::pto {

std::string_view a5_float_assumption() { return detail::kA5FloatAssumption; }

}  // namespace tmu::pto
