// Where the profiles' behaviour differs, in one place: one ProfileRules per profile
// (profile_rules.cpp), as SoftFloat keeps each platform's choices in its specialize.h. The engine's
// code asks the rules of the profile it runs under; Profile itself only names a profile (names.cpp).
// Each field says which behaviour it selects and whose sources it follows.
#pragma once

#include <span>

#include "internal.h"
#include "tmu/pto/cycles.h"

namespace tmu::pto::detail {

struct ProfileRules {
  // --- Which operations run, checked by execute() in this order.
  // How a refusal names the implementation ("the A2/A3 implementation requires row-major tiles").
  const char* implementation;
  // Why an operation on an 8-bit float tile is refused before any other check (nullptr from it: the
  // other checks decide); a null pointer when the other checks always decide (convert_f8.cpp).
  const char* (*f8_refusal)(Op op);
  // TADDC and TSUBC have an implementation (include/pto/npu/<profile>/ defines no TADDC_IMPL or
  // TSUBC_IMPL).
  bool carry_ops;
  // Every implementation static_asserts row-major tiles ("Fix: TADD only support row major
  // layout."): column-major tiles are refused, and the vector generator draws row-major ones only.
  bool row_major_only;
  // Why TRECIP alone refuses column-major tiles (nullptr: it takes what the other operations take).
  const char* recip_row_major;
  // Why TCMP and TSEL are refused outright (nullptr: tcmp and tsel below model them).
  const char* predicates_not_modelled;
  // The element types each operation's implementation accepts (its static_asserts).
  bool (*supports)(Op op, ElemType t);
  // Why an accepted operation and type is not modelled (nullptr from it: modelled); a null pointer
  // when every accepted one is.
  const char* (*not_modelled)(Op op, ElemType t);

  // --- TCMP and TSEL (compare_select.cpp), after the checks every profile makes.
  // The source and predicate types TCMP accepts, and the same in words for the refusal.
  bool (*tcmp_accepts)(ElemType src, ElemType predicate);
  const char* tcmp_accepted;
  // How TCMP packs the predicate bits and TSEL addresses the mask bits.
  void (*tcmp)(Profile p, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode);
  void (*tsel)(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1);
  // TCMP compares each row in whole repeats of this many bytes (0: lane by lane), so the vector
  // generator draws whole repeats.
  unsigned tcmp_repeat_bytes;
  // The widest TSEL row the vector generator draws (0: no limit): one compare mask per row.
  unsigned tsel_generated_cols;
  // TSEL reads one stream of mask bits over the valid region (the simulator's TSel.hpp), rather
  // than mask row i for row i: the vector generator shapes the mask tile to match.
  bool tsel_mask_stream;

  // --- TCVT over src's valid region, shapes already checked (convert.cpp, convert_a2a3.cpp,
  // convert_a5.cpp): the pairs converted, the saturation in force and the lanes.
  void (*convert)(Profile p, Tile& out, const Tile& src, const OpParams& params);

  // --- Lanes of the arithmetic and bitwise operations.
  // One lane: the families (family_lane) or the profile's own model (a5_lane).
  uint64_t (*lane)(const Lane& lane, uint64_t a, uint64_t b, uint64_t c);
  // The assumption every float lane but TAND's and TOR's rests on, by name and in full (nullptr:
  // none); OpParams::a5_ieee = false switches it off and those lanes are refused.
  const char* assumption_name;
  const char* assumption;
  // Lanes meeting a subnormal operand or a tiny result are refused (A5 flushes denormals, the sources
  // do not say how): the specialised loops hand them to the lane function.
  bool subnormals_refused;
  // Why a NaN result is refused (nullptr: the simulator's host decides which NaN, nan_result).
  const char* nan_refusal;
  // Float TRECIP asserts src != 0 (the simulator's OP_RDIVS); otherwise vdiv divides with no check.
  bool recip_asserts_nonzero;
  // TNEG is TMULS(src, -1), one rounded multiplication (TUnaryOp.hpp); otherwise the simulator's
  // negation (cpusim_negate).
  bool neg_multiplies;
  // TABS is vabs, whose result for -0 and the most negative integer the sources do not state
  // (refused); otherwise the simulator's src < 0 ? -src : src.
  bool abs_is_vabs;
  // TSQRT is (T)std::sqrt((double)src), two roundings (the simulator); otherwise one vsqrt in the
  // element type.
  bool sqrt_through_double;
  // TREM and TFMOD are vector sequences (vdiv, vconv or vtrc, vmul, vsub), each step rounded, with
  // TREM's int32 through f32; otherwise the exact fmod and C++'s %.
  bool remainder_sequence;
  // Integer TPOW converts both operands to int first (A2/A3's TPowICore); otherwise integer_pow.
  bool power_in_int32;

  // --- The profile's own cost model, reported beside the A2/A3 one every profile reports, and how
  // the report names it (nullptr: none besides).
  CycleEstimate (*own_cycles)(Op op, const Tile& dst, std::span<const Tile* const> srcs, const OpParams& params);
  const char* own_cycles_model;
};

const ProfileRules& rules(Profile p);

}  // namespace tmu::pto::detail
