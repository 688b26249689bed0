// What the engine's source files share: the lane being computed (for messages), the refusals, and
// the per-family lane functions execute.cpp dispatches to.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

#include "tmu/error.h"
#include "tmu/pto/ops.h"

namespace tmu::pto::detail {

// The lane a value is computed for: every refusal of a value names the operation, the lane and
// the rule.
struct Lane {
  Profile profile;
  Op op;
  ElemType type;
  unsigned row;
  unsigned col;
};

[[noreturn]] void refuse_lane(const Lane& lane, ErrorKind kind, const std::string& rule);
[[noreturn]] void refuse_op(Profile p, Op op, ErrorKind kind, const std::string& rule);

// Integer views of a lane's pattern.
int64_t signed_value(ElemType t, uint64_t bits);  // sign-extended from the type's width
uint64_t wrap(ElemType t, uint64_t v);            // the low width bits (C++20's modular conversion)
uint64_t all_ones(ElemType t);

// The families. a, b, c are the sources in order (unused ones 0). Each refuses what it does not
// model with refuse_lane.
uint64_t integer_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c);   // int_ops.cpp
uint64_t bitwise_lane(const Lane& lane, uint64_t a, uint64_t b);               // bit_ops.cpp
uint64_t float_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c);     // float_ops.cpp

// One lane of an arithmetic or bitwise operation under lane.profile (execute.cpp): the path every
// lane can take. family_lane is the families above, the simulator's and A2/A3's lanes.
uint64_t generic_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c);
uint64_t family_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c);
// dst = op(srcs) over dst's valid region in a loop specialised for op and dst's element type, which
// hands the lanes it is not sure of to generic_lane (fast_lanes.cpp). False, with out untouched, when
// there is no such loop for op, the type, the profile or the tiles' layouts.
bool run_specialised(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs);

// An integral value of any of the types, exactly: floats up to FLT_MAX < 2^128 (convert.cpp).
__extension__ typedef unsigned __int128 u128;
struct Integer {
  bool negative = false;
  u128 magnitude = 0;
};
std::string text(const Integer& v);             // "-5", "above 2^64"
Integer integer_of(ElemType t, uint64_t bits);  // an integer type's pattern
bool fits(ElemType t, const Integer& v);        // within the integer type's bounds
uint64_t pattern_of(ElemType t, const Integer& v);  // modulo 2^width
// A float pattern rounded to an integer: RINT to nearest even, ROUND half away from zero, FLOOR,
// CEIL, TRUNC and NONE toward zero, ODD to nearest with ties to the odd integer. False for NaNs and
// infinities.
bool round_to_integer(ieee::Format f, uint64_t bits, RoundMode mode, Integer& out);
// TCVT over dst's valid region in a loop specialised for the pair of types, handing the lanes it is
// not sure of to convert_lane (fast_lanes.cpp); false, with out untouched, when there is none.
bool run_specialised_convert(Profile p, Tile& out, const Tile& src, RoundMode mode, SaturationMode saturation);

// TCVT over src's valid region as the simulator computes it (saturation OFF unless asked), and one
// lane whose source type is lane.type (convert.cpp).
void cpusim_convert(Profile p, Tile& out, const Tile& src, const OpParams& params);
uint64_t convert_lane(const Lane& lane, ElemType to, RoundMode mode, SaturationMode saturation, uint64_t bits);
// TCVT on A2/A3 (convert_a2a3.cpp): over src's valid region, refusing a pair without a vconv path;
// whether TCvt.hpp has a vconv path for the pair, the saturation in force (narrowing pairs: as asked,
// OFF by default; the others: ON whatever was asked), and a lane.
void a2a3_convert(Profile p, Tile& out, const Tile& src, const OpParams& params);
bool a2a3_converts(ElemType from, ElemType to);
SaturationMode a2a3_saturation(ElemType from, ElemType to, std::optional<SaturationMode> asked);
// The vconv intrinsic TCvt.hpp issues for the pair and mode (vconv_f322f16r, ...); empty without one.
std::string a2a3_vconv_name(ElemType from, ElemType to, RoundMode mode);
uint64_t a2a3_convert_lane(const Lane& lane, ElemType to, RoundMode mode, SaturationMode saturation, uint64_t bits);
// An integer type's value as C++ converts it to double (exact below 2^53, nearest even above), and
// a binary64 pattern cast back to lane.type, truncated, refused where C++ leaves the cast undefined
// (convert.cpp).
uint64_t integer_to_double(ElemType t, uint64_t bits);
uint64_t double_to_integer(const Lane& lane, uint64_t double_bits);

// TEXP, TLOG and TPOW lanes computed by the simulator through host libm, for the float types and,
// for TEXP and TLOG, the integer types (libm_ops.cpp).
uint64_t libm_lane(const Lane& lane, uint64_t a, uint64_t b);

// C++ comparison of two patterns of one type (IEEE for floats: NaN unordered, -0 == +0).
bool less_than(ElemType t, uint64_t a, uint64_t b);
bool equal(ElemType t, uint64_t a, uint64_t b);

// TCMP and TSEL, which read and write packed predicate bits (compare_select.cpp): the checks every
// profile makes, then the profile's rules; and each profile's accepted types, packing and addressing.
void execute_tcmp(Profile p, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode);
void execute_tsel(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1);
bool cpusim_tcmp_accepts(ElemType src, ElemType predicate);
bool a2a3_tcmp_accepts(ElemType src, ElemType predicate);
void cpusim_tcmp(Profile p, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode);
void a2a3_tcmp(Profile p, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode);
void cpusim_tsel(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1);
void a2a3_tsel(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1);

// Whether t is one of the types a header's static_assert lists.
inline bool one_of(ElemType t, std::initializer_list<ElemType> types) {
  for (ElemType u : types)
    if (u == t) return true;
  return false;
}
// The element types each profile's implementation of an operation accepts (profiles.cpp).
bool cpusim_supports(Op op, ElemType t);
bool a2a3_supports(Op op, ElemType t);
bool a5_supports(Op op, ElemType t);
// A2/A3 implementations tmu has not read into a model yet: why (nullptr: modelled) (profiles.cpp).
const char* a2a3_not_modelled_reason(Op op, ElemType t);
// A5 (profile_a5.cpp): why an accepted operation and type is not modelled (nullptr: modelled), the
// lanes of the modelled ones, and the assumption every float lane rests on.
const char* a5_not_modelled_reason(Op op, ElemType t);
uint64_t a5_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c);
extern const char kA5FloatAssumption[];
// The assumption's refusals of a subnormal operand and of a NaN or tiny result (profile_a5.cpp).
void a5_check_no_subnormal_operand(const Lane& lane, ieee::Format f, std::initializer_list<uint64_t> operands);
uint64_t a5_checked_result(const Lane& lane, ieee::Format f, const ieee::Result& r);
// TCVT on A5 (convert_a5.cpp): the pair's castData overload over src's valid region, refusing a pair
// without one and, with a5-ieee off, every pair with a float side; and one lane, `mode` already the
// rounding type TCVT_IMPL picks.
void a5_convert(Profile p, Tile& out, const Tile& src, const OpParams& params);
// Whether A5's TCvt.hpp has a castData overload from `from` to `to` (the f8 pairs included), and the
// saturation TCVT_IMPL runs the pair with when the program names none (`asked` empty).
bool a5_converts(ElemType from, ElemType to);
SaturationMode a5_saturation(ElemType from, ElemType to, std::optional<SaturationMode> asked);
uint64_t a5_convert_lane(const Lane& lane, ElemType to, RoundMode mode, SaturationMode saturation, uint64_t bits);

// The 8-bit float types (convert_f8.cpp): why the simulator and A2/A3 refuse an operation on f8
// tiles before any type check (nullptr: the usual checks decide), and TCVT lanes with an f8 side: the
// simulator's MXType conversions through double (the mode unused), and A5's f32 <-> f8 pairs.
const char* cpusim_f8_refusal(Op op);
const char* a2a3_f8_refusal(Op op);
uint64_t cpusim_convert_f8_lane(const Lane& lane, ElemType to, SaturationMode saturation, uint64_t bits);
uint64_t cpusim_f8_lane(const Lane& lane, uint64_t a, uint64_t b);  // TADD, TSUB, TMUL, TDIV through double
bool a5_f8_pair(ElemType from, ElemType to);
uint64_t a5_convert_f8_lane(const Lane& lane, ElemType to, uint64_t bits);

// The NaN a float operation returns when its result is not a number, given its operands in the
// source order, or the profile's refusal of it (profiles.cpp).
uint64_t nan_result(const Lane& lane, ieee::Format f, std::initializer_list<uint64_t> operands);

// Where a profile decides a result, one function each (profiles.cpp). A2/A3's TNEG is
// TMULS(src, -1) (TUnaryOp.hpp) and its TABS is vabs; the simulator negates.
uint64_t a2a3_negate(const Lane& lane, ieee::Format f, uint64_t a);
uint64_t a2a3_abs(const Lane& lane, ieee::Format f, uint64_t a);
// A2/A3's TREM and TFMOD: f32 for both, and TREM's int32 through f32.
uint64_t a2a3_remainder_f32(const Lane& lane, uint64_t a, uint64_t b);
uint64_t a2a3_remainder_i32(const Lane& lane, uint64_t a, uint64_t b);
// A2/A3's integer TPOW.
uint64_t a2a3_power(ElemType t, uint64_t base, uint64_t exp);
// The simulator's negation, which quiets a binary16 or bfloat16 signalling NaN.
uint64_t cpusim_negate(ElemType t, ieee::Format f, uint64_t a);

}  // namespace tmu::pto::detail
