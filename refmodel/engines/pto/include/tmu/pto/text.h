// The text forms programs and vector files share: lane values, shapes, and an operation's
// parameters.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "tmu/pto/ops.h"

namespace tmu::pto {

// One lane of an element type as text: floats as IEEE values exactly representable in the type
// (tmu/ieee_text.h: "1.5", "-0", "0x1p-24", "inf", "nan"); integers as decimal values in the type's
// range ("-128", "255") or as a 0x pattern of the type's width ("0xff" is -1 in i8); the 8-bit floats
// as the value the OCP encoding gives a pattern, written as for f32 ("448", "-0x1p-9", "inf" in
// f8e5m2, "nan"), or as a pattern of exactly two hex digits ("0x7f"). Throws tmu::Error (BadInput)
// with the reason.
uint64_t lane_from_text(ElemType t, std::string_view text);
// The value of a pattern: the text lane_from_text reads back to the same pattern, except for an IEEE
// NaN (printed without its payload, tmu/ieee_text.h). An 8-bit float NaN prints as its pattern
// ("0x7f", "0xfe"), which reads back: the value is the OCP meaning of the bits whichever profile
// computed them (the CPU simulator reads 0x7f in f8e4m3 as 480; docs/spec-deltas.md).
std::string lane_to_text(ElemType t, uint64_t bits);

// "ROWSxCOLS" (each at most 2^20); tmu::Error (BadInput) naming `what` otherwise.
std::pair<unsigned, unsigned> shape_from_text(std::string_view text, const char* what);

// One `key=value` word of an operation line: cmp=EQ|NE|LT|LE|GT|GE (TCMP), round=NONE|RINT|ROUND|
// FLOOR|CEIL|TRUNC|ODD and sat=on|off (TCVT), each at most once. tmu::Error (BadInput) naming the word
// otherwise.
struct ParamsGiven {
  bool cmp = false, round = false, sat = false;
};
void param_from_text(Op op, std::string_view word, OpParams& p, ParamsGiven& given);
// What an operation line must give: TCMP's cmp=.
void require_params(Op op, const ParamsGiven& given);
// The words param_from_text reads back to p, each after a space: " cmp=LT", " round=RINT sat=on".
std::string params_text(Op op, const OpParams& p);

}  // namespace tmu::pto
