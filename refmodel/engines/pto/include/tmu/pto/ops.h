// The 29 elementwise tile-tile operations of pto-isa's docs/isa/tile/elementwise-tile-tile.md and
// their execution on tiles under a profile.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "tmu/pto/tile.h"
#include "tmu/pto/types.h"

namespace tmu::pto {

enum class Op : uint8_t {
  TADD, TABS, TAND, TOR, TSUB, TMUL, TMIN, TMAX, TCMP, TDIV, TSHL, TSHR, TXOR, TLOG, TRECIP,
  TPRELU, TADDC, TSUBC, TCVT, TSEL, TRSQRT, TSQRT, TEXP, TPOW, TNOT, TRELU, TNEG, TREM, TFMOD,
};
inline constexpr unsigned kOpCount = 29;

std::string_view op_name(Op op);  // "TADD", ...
std::optional<Op> op_from_name(std::string_view name);  // "TADD" or "tadd" or "pto.tadd"
// "unknown operation 'TADDD' (did you mean 'TADD'?)": the refusal of a name op_from_name does not know.
std::string unknown_operation(std::string_view name);
// Source tiles the operation reads: 1 (unary, TCVT), 2 (binary, TCMP), 3 (TADDC, TSUBC; TSEL's
// mask, src0, src1).
unsigned source_count(Op op);

// The operands that are not tiles. cmp: TCMP's mode. round, saturation: TCVT's; a saturation
// left out is the implementation's default (OFF in the CPU simulator; per type pair on A2/A3).
struct OpParams {
  CmpMode cmp = CmpMode::EQ;
  RoundMode round = RoundMode::Rint;
  std::optional<SaturationMode> saturation;
  // a5 only: whether float lanes may rest on the assumption a5-ieee (a5_float_assumption()). Off,
  // every a5 operation that would compute float lanes under it is refused with the reason.
  bool a5_ieee = true;
};

// dst = op(srcs...) over dst's valid region, lane by lane. srcs in the C++ intrinsic's order (TSEL:
// mask, src0, src1). Throws tmu::Error, naming the operation and, for a lane's value, the lane and
// the rule: Unsupported for an element type, layout or operation the profile has no implementation
// of (or that tmu does not model yet), UndefinedBehaviour for what the ISA says programs must not
// do or leaves undefined (shift counts >= the width, integer division by zero, mismatched shapes
// or valid regions), BadInput for a wrong number of sources. dst is unchanged when it throws.
void execute(Profile profile, Op op, Tile& dst, std::span<const Tile* const> srcs, const OpParams& params = {});
// The assumption every a5 float lane rests on (the A5 vector intrinsics' arithmetic is not specified
// bit for bit by the public sources); results that depend on it carry this text.
std::string_view a5_float_assumption();

}  // namespace tmu::pto
