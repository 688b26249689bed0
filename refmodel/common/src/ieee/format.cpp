// Encodings: unpack/pack, operands under flush-to-zero, and NaN selection and re-encoding.
#include "internal.h"

namespace tmu::ieee {

Unpacked unpack(Format f, uint64_t bits) {
  Unpacked u;
  u.sign = (bits & f.sign_bit()) != 0;
  const uint64_t e = (bits >> f.frac_bits) & f.exp_field_max();
  const uint64_t frac = bits & f.frac_mask();
  if (e == 0) {
    u.cls = frac == 0 ? Class::Zero : Class::Subnormal;
    u.exponent = f.emin();
    u.significand = frac;
  } else if (e == f.exp_field_max()) {
    u.cls = frac == 0 ? Class::Infinity : (frac & f.quiet_bit()) ? Class::QuietNaN : Class::SignalingNaN;
    u.exponent = f.emax() + 1;
    u.significand = frac;
  } else {
    u.cls = Class::Normal;
    u.exponent = static_cast<int>(e) - f.bias();
    u.significand = frac | (uint64_t{1} << f.frac_bits);
  }
  return u;
}

std::optional<int64_t> ulps_between(Format f, uint64_t a, uint64_t b) {
  if (is_nan(f, a) || is_nan(f, b)) return std::nullopt;
  // Below the sign bit the patterns count up with the magnitude, so a signed position on one line
  // of representable values is the magnitude bits, negated for a negative sign.
  const auto position = [&](uint64_t x) {
    const auto magnitude = static_cast<int64_t>(x & (f.sign_bit() - 1));
    return (x & f.sign_bit()) ? -magnitude : magnitude;
  };
  return position(b) - position(a);
}

uint64_t pack(Format f, const Unpacked& u) {
  const uint64_t sign = f.zero(u.sign);
  const uint64_t frac = u.significand & f.frac_mask();
  switch (u.cls) {
    case Class::Zero:
      return sign;
    case Class::Subnormal:
      return sign | frac;
    case Class::Normal:
      return sign | (static_cast<uint64_t>(u.exponent + f.bias()) << f.frac_bits) | frac;
    case Class::Infinity:
      return f.infinity(u.sign);
    case Class::QuietNaN:
    case Class::SignalingNaN:
      break;
  }
  return f.infinity(u.sign) | frac;
}

namespace detail {

Term Operand::term() const {
  return Term{u.sign, u.significand, u.exponent - static_cast<int>(format.frac_bits)};
}

Operand read_operand(Format f, uint64_t bits, const Options& o, Flags& flags) {
  Operand op{f, bits, unpack(f, bits)};
  if (o.flush_to_zero && op.is(Class::Subnormal)) {
    op.u.cls = Class::Zero;
    op.u.significand = 0;
    flags.input_denormal = true;  // Arm's FPUnpack raises IDC even when a NaN operand decides the result
  }
  return op;
}

namespace {

// FPProcessNaN then FPConvertNaN: set the quiet bit, then carry the sign and the payload (the fraction
// bits below the quiet bit) left-aligned into `out`, cutting or zero-filling its tail. The quiet bit
// keeps the result a NaN even when cutting leaves no payload.
uint64_t quiet_in(Format out, const Operand& nan) {
  const Format in = nan.format;
  const uint64_t payload = nan.bits & (in.quiet_bit() - 1);
  const unsigned in_bits = in.frac_bits - 1, out_bits = out.frac_bits - 1;
  const uint64_t moved = out_bits >= in_bits ? payload << (out_bits - in_bits) : payload >> (in_bits - out_bits);
  return out.infinity(nan.u.sign) | out.quiet_bit() | moved;
}

}  // namespace

uint64_t select_nan(Format out, std::initializer_list<const Operand*> order, const Options& o, Flags& flags) {
  const Operand* chosen = nullptr;
  for (const Operand* op : order)
    if (op->is(Class::SignalingNaN)) {
      chosen = op;
      break;
    }
  if (chosen) {
    flags.invalid = true;
  } else {
    for (const Operand* op : order)
      if (op->is(Class::QuietNaN)) {
        chosen = op;
        break;
      }
  }
  return o.default_nan ? out.default_nan() : quiet_in(out, *chosen);
}

}  // namespace detail
}  // namespace tmu::ieee
