// Integer lanes of the arithmetic operations, as the CPU simulator's C++ computes them
// (include/pto/cpu/ElementOp.h, TAdd.hpp, TSub.hpp, TMul.hpp, TDiv.hpp, TAbs.hpp, TPow.hpp): 8- and
// 16-bit operands promoted to int and converted back modulo 2^width (C++20); 32- and 64-bit
// overflow, which C++ leaves undefined, as the two's-complement wrap every target of the simulator
// produces. Division by zero and MIN / -1 at 32 and 64 bits trap on the simulator's host: refused.
#include "internal.h"
#include "profile_rules.h"

namespace tmu::pto::detail {

namespace {

bool negative(ElemType t, uint64_t v) { return is_signed_int(t) && signed_value(t, v) < 0; }

// The checks of src0 / src1 and src0 % src1 in the element type.
void check_divisor(const Lane& lane, uint64_t a, uint64_t b, const char* divisor_name) {
  if (b == 0)
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                std::string("integer division by zero (") + divisor_name +
                    " is 0): the ISA leaves it target-defined and the CPU simulator's host traps");
  const unsigned w = width_bits(lane.type);
  // 8- and 16-bit operands are divided as int, where -128 / -1 is 128: only the 32- and 64-bit
  // quotient overflows (x86's idiv traps).
  if (is_signed_int(lane.type) && w >= 32 && a == (uint64_t{1} << (w - 1)) && b == all_ones(lane.type))
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                "the most negative integer divided by -1 overflows (undefined in C++; the simulator's host traps)");
}

uint64_t quotient(const Lane& lane, uint64_t a, uint64_t b, const char* divisor_name) {
  check_divisor(lane, a, b, divisor_name);
  const ElemType t = lane.type;
  if (!is_signed_int(t)) return a / b;
  return wrap(t, static_cast<uint64_t>(signed_value(t, a) / signed_value(t, b)));
}

// ElementOp.h OP_REM (floor_to_divisor) and OP_FMOD: C++'s truncating %, then for TREM the
// divisor added when the operands' signs differ and the remainder is not zero.
uint64_t remainder(const Lane& lane, uint64_t a, uint64_t b, bool floor_to_divisor) {
  check_divisor(lane, a, b, "src1");
  const ElemType t = lane.type;
  if (!is_signed_int(t)) return a % b;  // (src0 >= 0) == (src1 >= 0) always: never corrected
  const int64_t x = signed_value(t, a), y = signed_value(t, b);
  int64_t r = x % y;
  if (floor_to_divisor && ((x >= 0) != (y >= 0)) && r != 0) r += y;
  return wrap(t, static_cast<uint64_t>(r));
}

// TPow.hpp integer_pow with exponent = static_cast<int64_t>(exp).
uint64_t power(const Lane& lane, uint64_t base, uint64_t exp) {
  const ElemType t = lane.type;
  const int64_t exponent = is_signed_int(t) ? signed_value(t, exp) : static_cast<int64_t>(exp);
  if (exponent == 0 || base == 1) return 1;
  if (exponent < 0) {
    // `base == -1` in C++: an unsigned base below int's width is promoted and never equals -1; a
    // 32- or 64-bit unsigned base equals -1 converted to its type, all ones.
    const bool minus_one = is_signed_int(t) ? signed_value(t, base) == -1
                                            : width_bits(t) >= 32 && base == all_ones(t);
    if (!minus_one) return 0;
    return exponent % 2 == 0 ? 1 : all_ones(t);
  }
  uint64_t result = 1, b = base;
  for (auto e = static_cast<uint64_t>(exponent); e > 0; e >>= 1) {
    if ((e & 1) != 0) result *= b;
    b *= b;
  }
  return wrap(t, result);
}

}  // namespace

uint64_t integer_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c) {
  const ElemType t = lane.type;
  switch (lane.op) {
    case Op::TADD: return wrap(t, a + b);
    case Op::TSUB: return wrap(t, a - b);
    case Op::TMUL: return wrap(t, a * b);
    case Op::TADDC: return wrap(t, a + b + c);
    case Op::TSUBC: return wrap(t, a - b + c);
    case Op::TNEG: return wrap(t, 0 - a);
    // std::min(a, b) is (b < a) ? b : a; std::max(a, b) is (a < b) ? b : a.
    case Op::TMIN: return less_than(t, b, a) ? b : a;
    case Op::TMAX: return less_than(t, a, b) ? b : a;
    case Op::TRELU: return negative(t, a) ? 0 : a;
    // TAbs.hpp: src < 0 ? -src : src, so the most negative integer stays itself.
    case Op::TABS: return negative(t, a) ? wrap(t, 0 - a) : a;
    // OP_PRELU: src0 > 0 ? src0 : src0 * src1.
    case Op::TPRELU: return less_than(t, 0, a) ? a : wrap(t, a * b);
    case Op::TDIV: return quotient(lane, a, b, "src1");
    case Op::TRECIP: return quotient(lane, 1, a, "src");  // TDIVS(dst, 1, src): 1 / src in the element type
    case Op::TREM:
      if (rules(lane.profile).remainder_sequence) return a2a3_remainder_i32(lane, a, b);
      return remainder(lane, a, b, true);
    case Op::TFMOD: return remainder(lane, a, b, false);
    case Op::TPOW: return rules(lane.profile).power_in_int32 ? a2a3_power(t, a, b) : power(lane, a, b);
    default: break;
  }
  refuse_lane(lane, ErrorKind::Unsupported, "not an integer arithmetic operation");
}

}  // namespace tmu::pto::detail
