// Float lanes (f32, f16, bf16) of the arithmetic operations. The CPU simulator computes in the
// element type (_Float16, std::bfloat16_t, float): one operation in float rounded back to a 16-bit
// type is the correctly rounded result (binary32 has more than 2p + 2 bits for p = 11 and p = 8), so
// each operation here is one tmu/ieee.h operation, round to nearest even, subnormals kept (the
// simulator's host runs without flush-to-zero). TADDC and TSUBC round after each of their two
// operations, left to right.
#include "internal.h"
#include "profile_rules.h"

namespace tmu::pto::detail {

namespace {

uint64_t rounded(const Lane& lane, ieee::Format f, const ieee::Result& r, std::initializer_list<uint64_t> operands) {
  return ieee::is_nan(f, r.bits) ? nan_result(lane, f, operands) : r.bits;
}

uint64_t add(const Lane& lane, ieee::Format f, uint64_t a, uint64_t b) { return rounded(lane, f, ieee::add(f, a, b), {a, b}); }
uint64_t sub(const Lane& lane, ieee::Format f, uint64_t a, uint64_t b) { return rounded(lane, f, ieee::sub(f, a, b), {a, b}); }
uint64_t mul(const Lane& lane, ieee::Format f, uint64_t a, uint64_t b) { return rounded(lane, f, ieee::mul(f, a, b), {a, b}); }
uint64_t div(const Lane& lane, ieee::Format f, uint64_t a, uint64_t b) { return rounded(lane, f, ieee::div(f, a, b), {a, b}); }

bool is_zero(ieee::Format f, uint64_t a) { return (a & (f.sign_bit() - 1)) == 0; }

// OP_REM and OP_FMOD (ElementOp.h) assert src1 != 0, then take (T)std::fmod((double)src0,
// (double)src1), which is exact and fits T. OP_REM then adds src1, rounded in T, when
// (src0 >= 0) != (src1 >= 0) and the remainder is not 0: so a zero remainder keeps src0's sign, and
// a tiny remainder plus src1 can round to src1 itself.
uint64_t remainder(const Lane& lane, ieee::Format f, uint64_t a, uint64_t b, bool floor_to_divisor) {
  if (is_zero(f, b))
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                "remainder by zero: the ISA leaves division by zero target-defined and the CPU simulator asserts "
                "src1 != 0");
  const uint64_t r = rounded(lane, f, ieee::fmod(f, a, b), {a, b});
  if (!floor_to_divisor) return r;
  const ElemType t = lane.type;
  const uint64_t zero = f.zero(false);
  auto non_negative = [&](uint64_t x) { return !ieee::is_nan(f, x) && !less_than(t, x, zero); };  // x >= 0
  if (non_negative(a) != non_negative(b) && !equal(t, r, zero)) return add(lane, f, r, b);
  return r;
}

// TSqrt.hpp: (T)std::sqrt((double)src); TRSqrt.hpp: (T)(1.0 / std::sqrt((double)src)), with no
// zero check (1 / sqrt(-0) = -inf). Each step is one IEEE rounding in binary64, then one into T.
uint64_t root(const Lane& lane, ieee::Format f, uint64_t a, bool reciprocal) {
  if (ieee::is_nan(f, a)) return nan_result(lane, f, {a});
  const ieee::Format d = ieee::kBinary64;
  const uint64_t s = ieee::sqrt(d, ieee::convert(f, d, a).bits).bits;
  if (ieee::is_nan(d, s)) return nan_result(lane, f, {a});  // a negative operand
  const uint64_t one = static_cast<uint64_t>(d.bias()) << d.frac_bits;
  return ieee::convert(d, f, reciprocal ? ieee::div(d, one, s).bits : s).bits;
}

}  // namespace

uint64_t float_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c) {
  const ElemType t = lane.type;
  const ieee::Format f = float_format(t);
  const uint64_t zero = f.zero(false);
  const ProfileRules& rules = detail::rules(lane.profile);
  switch (lane.op) {
    case Op::TADD: return add(lane, f, a, b);
    case Op::TSUB: return sub(lane, f, a, b);
    case Op::TMUL: return mul(lane, f, a, b);
    case Op::TDIV: return div(lane, f, a, b);
    case Op::TADDC: return add(lane, f, add(lane, f, a, b), c);
    case Op::TSUBC: return add(lane, f, sub(lane, f, a, b), c);
    // TRECIP is TDIVS(dst, 1, src) (pto_instr.hpp): the simulator's OP_RDIVS asserts src != 0 (-0
    // included) before 1 / src; A2/A3's divides with vdiv, with no check.
    case Op::TRECIP:
      if (rules.recip_asserts_nonzero && is_zero(f, a))
        refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                    "reciprocal of zero: the ISA leaves division by zero target-defined and the CPU simulator asserts");
      return div(lane, f, static_cast<uint64_t>(f.bias()) << f.frac_bits, a);  // 1.0
    // std::min / std::max copy an operand: (b < a) ? b : a and (a < b) ? b : a, IEEE comparisons, so
    // a NaN src1 or equal zeros give src0 back.
    case Op::TMIN: return less_than(t, b, a) ? b : a;
    case Op::TMAX: return less_than(t, a, b) ? b : a;
    // std::max(src, 0): -0 and NaN are kept.
    case Op::TRELU: return less_than(t, a, zero) ? zero : a;
    // OP_PRELU: src0 > 0 ? src0 : src0 * src1.
    case Op::TPRELU: return less_than(t, zero, a) ? a : mul(lane, f, a, b);
    case Op::TABS:
      if (rules.abs_is_vabs) return a2a3_abs(lane, f, a);
      // TAbs.hpp: src < 0 ? -src : src. -0 < 0 is false: -0 and NaNs come back unchanged.
      return less_than(t, a, zero) ? a ^ f.sign_bit() : a;
    case Op::TNEG: return rules.neg_multiplies ? a2a3_negate(lane, f, a) : cpusim_negate(t, f, a);
    case Op::TREM: return rules.remainder_sequence ? a2a3_remainder_f32(lane, a, b) : remainder(lane, f, a, b, true);
    case Op::TFMOD: return rules.remainder_sequence ? a2a3_remainder_f32(lane, a, b) : remainder(lane, f, a, b, false);
    case Op::TSQRT:
      if (!rules.sqrt_through_double) {  // TUnaryOp.hpp: one vsqrt in the element type
        const ieee::Result r = ieee::sqrt(f, a);
        return ieee::is_nan(f, r.bits) ? nan_result(lane, f, {a}) : r.bits;
      }
      return root(lane, f, a, false);
    case Op::TRSQRT: return root(lane, f, a, true);
    default: break;
  }
  refuse_lane(lane, ErrorKind::Unsupported, "not a float arithmetic operation");
}

}  // namespace tmu::pto::detail
