// What the PTO scoreboard says of a mismatching lane beyond its values (scoreboard.cpp): which
// nearby operation gives the design's value, and the profile rule that governs the operation.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tmu/pto/program.h"

namespace tmu::pto::detail {

// The step rerun from the tiles it read (`before`, in declaration order; `dst` indexes it) with one
// thing changed at a time: TCMP's mode, TCVT's rounding or saturation, the profile. Returns
// "diagnosis [CLASS] ..." for every change that gives `design` at element (r, c) of dst (joined by
// " or "), else "" . The classes: cmp-mode, tcvt-round, tcvt-saturation, profile.
std::string diagnose_step_lane(Profile p, const ProgramStep& step, std::span<const NamedTile> before, size_t dst,
                               unsigned r, unsigned c, uint64_t design);

// The rule of profile `p` that decides `op` on elements of type `t` where the profiles differ
// ("cpusim rule: TSQRT is (T)std::sqrt((double)src), two roundings"); "" when none does.
std::string profile_rule(Profile p, Op op, ElemType t);

}  // namespace tmu::pto::detail
