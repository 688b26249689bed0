// The operations: special operands decided in the order of Arm's pseudocode (FPMulAdd, FPMulAddH,
// FPMul, FPAdd, FPSub, FPConvert), finite values through the exact core in round.cpp.
#include "internal.h"

namespace tmu::ieee {

using detail::Operand;
using detail::Term;

Result fma_mixed(Format product_format, Format sum_format, uint64_t a, uint64_t b, uint64_t c, const Options& o) {
  Flags flags;
  // All three are read first, as FPUnpack is, so input_denormal is raised even for a NaN result.
  const Operand x = detail::read_operand(product_format, a, o, flags);
  const Operand y = detail::read_operand(product_format, b, o, flags);
  const Operand z = detail::read_operand(sum_format, c, o, flags);
  const bool inf_times_zero = (x.is(Class::Infinity) && y.is(Class::Zero)) || (x.is(Class::Zero) && y.is(Class::Infinity));

  if (const auto nan = detail::process_nans(sum_format, {&z, &x, &y}, o, flags)) {
    // FPMulAdd: a quiet NaN addend does not hide the product's invalid operation; the result is
    // then the default NaN whatever DN says.
    if (z.is(Class::QuietNaN) && inf_times_zero) {
      flags.invalid = true;
      return {sum_format.default_nan(), flags};
    }
    return {*nan, flags};
  }

  const bool product_sign = x.u.sign != y.u.sign;
  const bool product_infinite = x.is(Class::Infinity) || y.is(Class::Infinity);
  if (inf_times_zero || (product_infinite && z.is(Class::Infinity) && product_sign != z.u.sign)) {
    flags.invalid = true;
    return {sum_format.default_nan(), flags};
  }
  if (product_infinite) return {sum_format.infinity(product_sign), flags};
  if (z.is(Class::Infinity)) return {sum_format.infinity(z.u.sign), flags};

  const Term product = detail::multiply(x.term(), y.term());
  return {detail::round_sum(sum_format, product, z.term(), o, flags), flags};
}

Result fma(Format f, uint64_t a, uint64_t b, uint64_t c, const Options& o) { return fma_mixed(f, f, a, b, c, o); }

Result mul(Format f, uint64_t a, uint64_t b, const Options& o) {
  Flags flags;
  const Operand x = detail::read_operand(f, a, o, flags);
  const Operand y = detail::read_operand(f, b, o, flags);
  if (const auto nan = detail::process_nans(f, {&x, &y}, o, flags)) return {*nan, flags};

  const bool sign = x.u.sign != y.u.sign;
  const bool infinite = x.is(Class::Infinity) || y.is(Class::Infinity);
  const bool zero = x.is(Class::Zero) || y.is(Class::Zero);
  if (infinite && zero) {
    flags.invalid = true;
    return {f.default_nan(), flags};
  }
  if (infinite) return {f.infinity(sign), flags};
  if (zero) return {f.zero(sign), flags};
  return {detail::round_pack(f, detail::multiply(x.term(), y.term()), o, flags), flags};
}

namespace {

// a + b, or a - b with `negate_b`: b's sign is flipped only after the NaN check, so a NaN b
// propagates with its own sign (FPSub processes the unnegated operands).
Result add_or_sub(Format f, uint64_t a, uint64_t b, bool negate_b, const Options& o) {
  Flags flags;
  const Operand x = detail::read_operand(f, a, o, flags);
  const Operand y = detail::read_operand(f, b, o, flags);
  if (const auto nan = detail::process_nans(f, {&x, &y}, o, flags)) return {*nan, flags};

  const bool y_sign = y.u.sign != negate_b;
  const bool x_infinite = x.is(Class::Infinity), y_infinite = y.is(Class::Infinity);
  if (x_infinite && y_infinite && x.u.sign != y_sign) {
    flags.invalid = true;
    return {f.default_nan(), flags};
  }
  if (x_infinite) return {f.infinity(x.u.sign), flags};
  if (y_infinite) return {f.infinity(y_sign), flags};
  Term y_term = y.term();
  y_term.sign = y_sign;
  return {detail::round_sum(f, x.term(), y_term, o, flags), flags};
}

}  // namespace

Result add(Format f, uint64_t a, uint64_t b, const Options& o) { return add_or_sub(f, a, b, false, o); }
Result sub(Format f, uint64_t a, uint64_t b, const Options& o) { return add_or_sub(f, a, b, true, o); }

Result div(Format f, uint64_t a, uint64_t b, const Options& o) {
  Flags flags;
  const Operand x = detail::read_operand(f, a, o, flags);
  const Operand y = detail::read_operand(f, b, o, flags);
  if (const auto nan = detail::process_nans(f, {&x, &y}, o, flags)) return {*nan, flags};

  const bool sign = x.u.sign != y.u.sign;
  const bool x_infinite = x.is(Class::Infinity), y_infinite = y.is(Class::Infinity);
  const bool x_zero = x.is(Class::Zero), y_zero = y.is(Class::Zero);
  if ((x_infinite && y_infinite) || (x_zero && y_zero)) {
    flags.invalid = true;
    return {f.default_nan(), flags};
  }
  if (x_infinite) return {f.infinity(sign), flags};
  if (y_zero) {
    flags.divide_by_zero = true;
    return {f.infinity(sign), flags};
  }
  if (x_zero || y_infinite) return {f.zero(sign), flags};
  return {detail::round_pack(f, detail::divide(x.term(), y.term()), o, flags), flags};
}

Result sqrt(Format f, uint64_t a, const Options& o) {
  Flags flags;
  const Operand x = detail::read_operand(f, a, o, flags);
  if (const auto nan = detail::process_nans(f, {&x}, o, flags)) return {*nan, flags};
  if (x.is(Class::Zero)) return {f.zero(x.u.sign), flags};
  if (x.u.sign) {
    flags.invalid = true;
    return {f.default_nan(), flags};
  }
  if (x.is(Class::Infinity)) return {f.infinity(false), flags};
  return {detail::round_pack(f, detail::square_root(x.term()), o, flags), flags};
}

Result fmod(Format f, uint64_t a, uint64_t b, const Options& o) {
  Flags flags;
  const Operand x = detail::read_operand(f, a, o, flags);
  const Operand y = detail::read_operand(f, b, o, flags);
  if (const auto nan = detail::process_nans(f, {&x, &y}, o, flags)) return {*nan, flags};
  if (x.is(Class::Infinity) || y.is(Class::Zero)) {
    flags.invalid = true;
    return {f.default_nan(), flags};
  }
  if (y.is(Class::Infinity) || x.is(Class::Zero)) return {pack(f, x.u), flags};
  const Term xt = x.term(), yt = y.term();
  // A binade below y's leaves x. Otherwise x.exp >= y.exp (a smaller x.exp with a binade as high as
  // y's would need a subnormal y, whose exp is already the least), as truncated_remainder needs.
  if (detail::bit_length(xt.sig) + xt.exp < detail::bit_length(yt.sig) + yt.exp) return {pack(f, x.u), flags};
  const Term r = detail::truncated_remainder(xt, yt);
  if (r.sig == 0) return {f.zero(x.u.sign), flags};
  return {detail::round_pack(f, r, o, flags), flags};
}

Result convert(Format from, Format to, uint64_t a, const Options& o) {
  Flags flags;
  const Operand x = detail::read_operand(from, a, o, flags);
  if (const auto nan = detail::process_nans(to, {&x}, o, flags)) return {*nan, flags};
  if (x.is(Class::Infinity)) return {to.infinity(x.u.sign), flags};
  if (x.is(Class::Zero)) return {to.zero(x.u.sign), flags};
  return {detail::round_pack(to, x.term(), o, flags), flags};
}

Result from_integer(Format f, bool negative, uint64_t magnitude, const Options& o) {
  Flags flags;
  if (magnitude == 0) return {f.zero(false), flags};
  return {detail::round_pack(f, Term{negative, magnitude, 0}, o, flags), flags};
}

}  // namespace tmu::ieee
