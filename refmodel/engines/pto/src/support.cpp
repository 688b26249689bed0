// Refusals and the integer and IEEE views every family shares.
#include <fmt/format.h>

#include "internal.h"

namespace tmu::pto::detail {

void refuse_lane(const Lane& lane, ErrorKind kind, const std::string& rule) {
  throw Error(kind, fmt::format("{} ({}, {}) lane ({}, {}): {}", op_name(lane.op), elem_name(lane.type),
                                profile_name(lane.profile), lane.row, lane.col, rule));
}

void refuse_op(Profile p, Op op, ErrorKind kind, const std::string& rule) {
  throw Error(kind, fmt::format("{} ({}): {}", op_name(op), profile_name(p), rule));
}

int64_t signed_value(ElemType t, uint64_t bits) {
  const unsigned w = width_bits(t);
  if (w == 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (w - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

uint64_t wrap(ElemType t, uint64_t v) { return v & lane_mask(t); }
uint64_t all_ones(ElemType t) { return lane_mask(t); }

namespace {

// An ordering key for a non-NaN IEEE pattern: -0 and +0 both map to 0.
int64_t float_key(ieee::Format f, uint64_t bits) {
  const auto magnitude = static_cast<int64_t>(bits & (f.sign_bit() - 1));
  return (bits & f.sign_bit()) != 0 ? -magnitude : magnitude;
}

}  // namespace

bool less_than(ElemType t, uint64_t a, uint64_t b) {
  if (is_float(t)) {
    const ieee::Format f = float_format(t);
    if (ieee::is_nan(f, a) || ieee::is_nan(f, b)) return false;
    return float_key(f, a) < float_key(f, b);
  }
  if (is_signed_int(t)) return signed_value(t, a) < signed_value(t, b);
  return a < b;
}

bool equal(ElemType t, uint64_t a, uint64_t b) {
  if (is_float(t)) {
    const ieee::Format f = float_format(t);
    if (ieee::is_nan(f, a) || ieee::is_nan(f, b)) return false;
    return float_key(f, a) == float_key(f, b);
  }
  return a == b;
}

}  // namespace tmu::pto::detail
