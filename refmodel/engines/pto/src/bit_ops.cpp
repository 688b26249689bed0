// TAND, TOR, TXOR, TNOT, TSHL, TSHR: C++'s operators on the element type (ElementOp.h; A2/A3's
// TShl.hpp and TShr.hpp run the same C++ on the scalar unit). A signed TSHR is arithmetic, an
// unsigned one logical.
#include <fmt/format.h>

#include "internal.h"

namespace tmu::pto::detail {

namespace {

// The family page: "shift count MUST be < element bit-width"; a negative count of a signed type is
// undefined in C++ as well.
unsigned shift_count(const Lane& lane, uint64_t b) {
  const ElemType t = lane.type;
  const unsigned w = width_bits(t);
  if (is_signed_int(t) && signed_value(t, b) < 0)
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                fmt::format("shift count {} is negative (src1 is read as an unsigned count below {})",
                            signed_value(t, b), w));
  if (b >= w)
    refuse_lane(lane, ErrorKind::UndefinedBehaviour,
                fmt::format("shift count {} >= element width {} (the ISA: shift count MUST be < the element bit-width)",
                            b, w));
  return static_cast<unsigned>(b);
}

}  // namespace

uint64_t bitwise_lane(const Lane& lane, uint64_t a, uint64_t b) {
  const ElemType t = lane.type;
  switch (lane.op) {
    case Op::TAND: return a & b;
    case Op::TOR: return a | b;
    case Op::TXOR: return a ^ b;
    case Op::TNOT: return wrap(t, ~a);
    case Op::TSHL: return wrap(t, a << shift_count(lane, b));
    case Op::TSHR: {
      const unsigned n = shift_count(lane, b);
      if (is_signed_int(t)) return wrap(t, static_cast<uint64_t>(signed_value(t, a) >> n));
      return a >> n;
    }
    default: break;
  }
  refuse_lane(lane, ErrorKind::Unsupported, "not a bitwise operation");
}

}  // namespace tmu::pto::detail
