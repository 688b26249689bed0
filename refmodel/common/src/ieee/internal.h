// The pieces every IEEE operation is assembled from (private to src/ieee/).
#pragma once

#include <initializer_list>
#include <optional>

#include "tmu/ieee.h"

namespace tmu::ieee::detail {

// A GCC and Clang extension; __extension__ keeps -Wpedantic quiet about it.
__extension__ typedef unsigned __int128 u128;

// An exact finite value (-1)^sign * sig * 2^exp. sig == 0 is a zero of that sign. Products of two
// binary64 significands need 106 bits; every Term the operations form fits in 126.
struct Term {
  bool sign = false;
  u128 sig = 0;
  int exp = 0;
};

// One operand as the operation sees it: the bits as given (a propagated NaN is made from them) and
// their unpacking after flush_to_zero has read subnormals as zeros.
struct Operand {
  Format format;
  uint64_t bits;
  Unpacked u;

  bool is(Class c) const { return u.cls == c; }
  bool is_nan() const { return is(Class::QuietNaN) || is(Class::SignalingNaN); }
  Term term() const;  // finite operands only
};

Operand read_operand(Format f, uint64_t bits, const Options& o, Flags& flags);

// Arm's FPProcessNaNs / FPProcessNaNs3 once some operand is a NaN: the NaN result for the operands
// in priority order.
uint64_t select_nan(Format out, std::initializer_list<const Operand*> order, const Options& o, Flags& flags);

// FPProcessNaNs / FPProcessNaNs3: the NaN result, or nothing when no operand is a NaN. Inline, so
// that the common case - no NaN - costs a few compares in every operation's lane loop.
inline std::optional<uint64_t> process_nans(Format out, std::initializer_list<const Operand*> order, const Options& o,
                                            Flags& flags) {
  for (const Operand* op : order)
    if (op->is_nan()) return select_nan(out, order, o, flags);
  return std::nullopt;
}

int bit_length(u128 x);

// The exact product of two finite terms.
Term multiply(const Term& x, const Term& y);
// x / y for nonzero terms: the quotient truncated to at least 64 significant bits, rounded to odd
// (the last bit set when the division leaves a remainder), which every format's rounding then
// reads as it would the exact quotient.
Term divide(const Term& x, const Term& y);
// sqrt(x) for a positive term, with at least 62 significant bits and rounded to odd as divide's
// quotient is.
Term square_root(const Term& x);
// x - trunc(x / y) * y for finite terms with |x| >= |y| and x.exp >= y.exp: exact, x's sign.
Term truncated_remainder(const Term& x, const Term& y);
// x + y, exact, or rounded to odd far below any format's last place when the addends are too far
// apart for 128 bits (see round.cpp). A zero result is returned with sig == 0.
Term add_terms(const Term& x, const Term& y);
// A nonzero term rounded into f under o, with the flags it raises.
uint64_t round_pack(Format f, const Term& t, const Options& o, Flags& flags);
// x + y rounded into f, including IEEE 754-2008 section 6.3's signs of zero sums: the common sign
// when both addends are zeros of one sign, otherwise +0 (-0 when rounding toward negative).
uint64_t round_sum(Format f, const Term& x, const Term& y, const Options& o, Flags& flags);

}  // namespace tmu::ieee::detail
