// What each profile's implementation accepts, and the places where A2/A3 (include/pto/npu/a2a3/)
// or the simulator's host decides a result the ISA pages leave open. Each function is one such place.
#include <fmt/format.h>

#include "internal.h"
#include "profile_rules.h"

namespace tmu::pto::detail {

namespace {

using enum ElemType;

}  // namespace

// What compiles in the simulator: the static_asserts of TAbs.hpp, TSqrt.hpp, TRSqrt.hpp, and C++'s
// bitwise operators needing an integer type; everything else is generic.
bool cpusim_supports(Op op, ElemType t) {
  switch (op) {
    case Op::TABS: return one_of(t, {I8, I16, I32, F16, BF16, F32});
    case Op::TAND: case Op::TOR: case Op::TXOR: case Op::TNOT: case Op::TSHL: case Op::TSHR: return !is_float(t);
    case Op::TSQRT: return is_ieee_float(t);
    case Op::TRSQRT: return one_of(t, {F16, F32});
    default: return true;
  }
}

// The static_asserts of the A2/A3 implementation files (which in places are narrower or wider than
// the per-op pages' lists; docs/spec-deltas.md, PTO).
bool a2a3_supports(Op op, ElemType t) {
  switch (op) {
    case Op::TADD: case Op::TSUB: case Op::TMUL: case Op::TMIN: case Op::TMAX:  // TAdd.hpp ... TMin.hpp
    case Op::TNEG:                                                              // TMULS_IMPL
      return one_of(t, {I32, I16, F16, F32});
    case Op::TRECIP: return one_of(t, {I32, I16, F16, F32});  // pto_instr.hpp: TRECIP is TDIVS(dst, 1, src)
    case Op::TDIV: case Op::TABS: case Op::TEXP: case Op::TLOG: case Op::TSQRT: case Op::TRSQRT:
    case Op::TPRELU:
      return one_of(t, {F16, F32});  // TDiv.hpp; TUnaryOp.hpp's float-only TunaryCheck; TPrelu.hpp
    case Op::TAND: case Op::TOR: case Op::TXOR: case Op::TSHL: case Op::TSHR: case Op::TNOT:
      return one_of(t, {U8, I8, U16, I16, U32, I32});
    case Op::TRELU: return one_of(t, {F16, F32, I32});
    case Op::TCMP: return one_of(t, {I32, F16, F32});
    case Op::TSEL: return one_of(t, {I16, U16, I32, U32, F16, BF16, F32});
    case Op::TREM: return one_of(t, {F32, I32});
    case Op::TFMOD: return t == F32;
    case Op::TPOW: return one_of(t, {F32, I32, U32, I16, U16, I8, U8});  // TPow.hpp PowCheckType
    case Op::TADDC: case Op::TSUBC: return false;  // no implementation under include/pto/npu/a2a3/
    case Op::TCVT: return true;                    // decided per type pair
  }
  return false;
}

// A2/A3 implementations tmu has not read into a model yet (their vector sequences round in places
// the simulator does not), for the element types the implementation accepts.
const char* a2a3_not_modelled_reason(Op op, ElemType t) {
  switch (op) {
    case Op::TRSQRT:
      return "not modelled yet for a2a3 (TUnaryOp.hpp's vrsqrt, an instruction whose precision the sources do not "
             "give)";
    case Op::TEXP: case Op::TLOG:
      return "not modelled yet for a2a3 (TUnaryOp.hpp's vexp and vln, instructions whose precision the sources do "
             "not give)";
    case Op::TPOW:
      return is_float(t) ? "not modelled yet for a2a3 (TPow.hpp computes float powers through vln, vmul and vexp, "
                           "instructions whose precision the sources do not give)"
                         : nullptr;
    default: return nullptr;
  }
}

// The simulator's host (x86-64, where its CMake builds it) decides NaN results. An invalid
// operation without NaN operands returns the "real indefinite" QNaN, whose sign bit is set
// (0xFFC00000; 0xFE00 once narrowed to _Float16). One NaN operand comes back quieted. With two NaN
// operands SSE returns its first source operand, but which C++ operand that is depends on the
// compiler's code generation (GCC 12 at -O2 returns src2's NaN from TADDC's (inf - inf) + NaN):
// refused. The NPUs' vector units are not described by the sources: their NaN results are refused
// (ProfileRules::nan_refusal).
uint64_t nan_result(const Lane& lane, ieee::Format f, std::initializer_list<uint64_t> operands) {
  if (const char* why = rules(lane.profile).nan_refusal) refuse_lane(lane, ErrorKind::Unsupported, why);
  unsigned nans = 0;
  uint64_t first = 0;
  for (uint64_t x : operands)
    if (ieee::is_nan(f, x) && nans++ == 0) first = x;
  if (nans > 1)
    refuse_lane(lane, ErrorKind::Unsupported,
                "two NaN operands meet in one operation: which one the CPU simulator returns depends on its host "
                "compiler's operand order");
  return nans == 1 ? first | f.quiet_bit() : f.default_nan() | f.sign_bit();
}

// -src on a _Float16 (and std::bfloat16_t) is computed in float: the widening quiets a signalling
// NaN before the sign flips (0x7D00 -> 0xFF00 with GCC on x86-64). A float negation flips the sign
// bit alone.
uint64_t cpusim_negate(ElemType t, ieee::Format f, uint64_t a) {
  const uint64_t flipped = a ^ f.sign_bit();
  return t != F32 && ieee::is_nan(f, a) ? flipped | f.quiet_bit() : flipped;
}

// TUnaryOp.hpp: TNEG_IMPL is TMULS_IMPL(dst, src, -1), a rounded multiplication by -1.
uint64_t a2a3_negate(const Lane& lane, ieee::Format f, uint64_t a) {
  const uint64_t minus_one = f.sign_bit() | (static_cast<uint64_t>(f.bias()) << f.frac_bits);
  const ieee::Result r = ieee::mul(f, a, minus_one);
  return ieee::is_nan(f, r.bits) ? nan_result(lane, f, {a, minus_one}) : r.bits;
}

// TUnaryOp.hpp: TABS_IMPL is vabs, an absolute value, where the simulator's `src < 0 ? -src : src`
// keeps -0. What vabs makes of -0 is not stated by the sources: refused, as NaNs are.
uint64_t a2a3_abs(const Lane& lane, ieee::Format f, uint64_t a) {
  if (ieee::is_nan(f, a)) nan_result(lane, f, {a});
  if (a == f.zero(true))
    refuse_lane(lane, ErrorKind::Unsupported,
                "-0: the A2/A3 sources use vabs without saying whether it clears the sign of -0 (the CPU simulator "
                "keeps -0)");
  return a & ~f.sign_bit();
}

// TPow.hpp TPowICore(int base, int exp): both operands converted to int first, so a u32
// exponent of 2^31 or more is negative; then exp == 0 -> 1, base 0 -> 0, base 1 -> 1, base -1 ->
// +-1 by parity, a negative exponent -> 0, else square and multiply in int (wrapping).
uint64_t a2a3_power(ElemType t, uint64_t base_bits, uint64_t exp_bits) {
  auto as_int = [&](uint64_t bits) {
    return is_signed_int(t) ? static_cast<int32_t>(signed_value(t, bits)) : static_cast<int32_t>(static_cast<uint32_t>(bits));
  };
  const int32_t base = as_int(base_bits), exp = as_int(exp_bits);
  if (exp == 0) return 1;
  if (base == 0) return 0;
  if (base == 1) return 1;
  if (base == -1) return (exp & 1) != 0 ? all_ones(t) : 1;
  if (exp < 0) return 0;
  uint32_t result = 1, b = static_cast<uint32_t>(base);
  for (auto e = static_cast<uint32_t>(exp); e != 0; e >>= 1) {
    if ((e & 1) != 0) result *= b;
    b *= b;
  }
  return wrap(t, result);
}

namespace {

// vconv_f322f32f and vconv_f322f32z: a finite f32 rounded to an integral f32 toward -inf or toward
// zero. Infinities, NaNs and zeros are refused by the callers before they get here.
uint64_t integral_f32(uint64_t bits, bool floor) {
  const ieee::Format f = ieee::kBinary32;
  const ieee::Unpacked u = ieee::unpack(f, bits);
  const int shift = u.exponent - static_cast<int>(f.frac_bits);
  if (shift >= 0) return bits;  // already an integer
  const uint64_t kept = -shift >= 64 ? 0 : u.significand >> -shift;
  const bool fraction = (-shift >= 64 ? u.significand : u.significand - (kept << -shift)) != 0;
  const uint64_t magnitude = kept + (floor && u.sign && fraction ? 1 : 0);
  return magnitude == 0 ? f.zero(u.sign) : ieee::from_integer(f, u.sign, magnitude).bits;
}

bool is_f32_zero(uint64_t x) { return (x & 0x7FFFFFFF) == 0; }

}  // namespace

// TFmod.hpp (FmodF32Instr) and TRem.hpp (RemF32Instr): the quotient rounded by vdiv, made
// integral by vconv (toward zero for TFMOD, toward -inf for TREM), multiplied back and subtracted,
// each step one f32 rounding, so large quotients leave a rounding error where the simulator's fmod
// is exact. TREM then adds src1 where (result * src1) < 0. The vector instructions' arithmetic is
// taken as IEEE (round to nearest even, subnormals kept); what vconv makes of -0, infinities and
// NaNs is not in the sources, so lanes that reach them are refused.
uint64_t a2a3_remainder_f32(const Lane& lane, uint64_t a, uint64_t b) {
  const ieee::Format f = ieee::kBinary32;
  if (ieee::is_nan(f, a) || ieee::is_nan(f, b)) nan_result(lane, f, {a, b});
  if (a == f.zero(true))
    refuse_lane(lane, ErrorKind::Unsupported,
                "src0 is -0: the sign of the result depends on what vconv makes of -0, which the A2/A3 sources do "
                "not say");
  const uint64_t q = ieee::div(f, a, b).bits;
  if (ieee::is_nan(f, q) || (q & 0x7FFFFFFF) == f.infinity(false))
    refuse_lane(lane, ErrorKind::Unsupported,
                "the quotient src0 / src1 is not finite: what vconv makes of it is not in the A2/A3 sources");
  const bool rem = lane.op == Op::TREM;
  auto step = [&](const ieee::Result& r, std::initializer_list<uint64_t> operands) {
    return ieee::is_nan(f, r.bits) ? nan_result(lane, f, operands) : r.bits;
  };
  // A zero quotient (src0 = +0, or one that underflowed) gives src0 back whatever its sign.
  const uint64_t whole = is_f32_zero(q) ? q : integral_f32(q, rem);
  const uint64_t product = step(ieee::mul(f, whole, b), {whole, b});
  const uint64_t d = step(ieee::sub(f, a, product), {a, product});
  if (!rem) return d;
  const uint64_t t = step(ieee::mul(f, d, b), {d, b});
  return less_than(ElemType::F32, t, 0) ? step(ieee::add(f, d, b), {d, b}) : d;
}

// TRem.hpp (RemInt32Instr): both sources converted to f32 (exact within the page's +-2^24), the
// quotient rounded by vdiv and floored to an int32 by vconv_f322s32f, then src0 - q * src1 in int32
// and the divisor added back where the f32 product of that and src1 is negative. Within the range
// every step after vdiv is exact.
uint64_t a2a3_remainder_i32(const Lane& lane, uint64_t a_bits, uint64_t b_bits) {
  const int64_t a = signed_value(ElemType::I32, a_bits), b = signed_value(ElemType::I32, b_bits);
  constexpr int64_t kLimit = int64_t{1} << 24;
  if (a < -kLimit || a > kLimit || b < -kLimit || b > kLimit)
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                fmt::format("src0 = {}, src1 = {}: on A2/A3 int32 operands MUST lie in [-2^24, 2^24] (TRem.hpp "
                            "computes through f32)",
                            a, b));
  if (b == 0)
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                "integer division by zero (src1 is 0): the ISA leaves it target-defined");
  const ieee::Format f = ieee::kBinary32;
  auto to_f32 = [&](int64_t v) { return ieee::from_integer(f, v < 0, static_cast<uint64_t>(v < 0 ? -v : v)).bits; };
  const uint64_t q = ieee::div(f, to_f32(a), to_f32(b)).bits;
  const ieee::Unpacked u = ieee::unpack(f, integral_f32(q, true));
  int64_t whole = 0;
  if (u.cls != ieee::Class::Zero) {
    const int shift = u.exponent - static_cast<int>(f.frac_bits);  // <= 0: |q| <= 2^24
    whole = static_cast<int64_t>(shift >= 0 ? u.significand << shift : u.significand >> -shift);
    if (u.sign) whole = -whole;
  }
  int64_t d = a - whole * b;
  if ((d < 0) != (b < 0) && d != 0) d += b;  // the sign of the f32 product d * src1
  return wrap(ElemType::I32, static_cast<uint64_t>(d));
}

}  // namespace tmu::pto::detail
