// The PTO scoreboard's lane diagnosis (scoreboard_diagnosis.h): the step rerun by pto::execute under
// each alternative, and the profile's rules (profile_rules.h) in words.
#include "scoreboard_diagnosis.h"

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "profile_rules.h"
#include "tmu/pto/ops.h"

namespace tmu::pto::detail {

namespace {

constexpr Profile kProfiles[] = {Profile::CpuSim, Profile::A2A3, Profile::A5};
constexpr CmpMode kCmpModes[] = {CmpMode::EQ, CmpMode::NE, CmpMode::LT, CmpMode::LE, CmpMode::GT, CmpMode::GE};
constexpr RoundMode kRoundModes[] = {RoundMode::None, RoundMode::Rint,  RoundMode::Round, RoundMode::Floor,
                                     RoundMode::Ceil, RoundMode::Trunc, RoundMode::Odd};

size_t index_of(std::span<const NamedTile> tiles, const std::string& name) {
  size_t i = 0;
  while (i < tiles.size() && tiles[i].name != name) ++i;
  return i;
}

// Element (r, c) of dst after the step under `profile` and `params`; nullopt when the model refuses.
std::optional<uint64_t> rerun(Profile profile, const ProgramStep& step, const OpParams& params,
                              std::span<const NamedTile> before, size_t dst, unsigned r, unsigned c) {
  Tile out = before[dst].tile;
  std::vector<const Tile*> srcs;
  for (const std::string& name : step.srcs) {
    const size_t i = index_of(before, name);
    if (i == before.size()) return std::nullopt;
    srcs.push_back(&before[i].tile);
  }
  try {
    execute(profile, step.op, out, srcs, params);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return out.at(r, c);
}

}  // namespace

std::string diagnose_step_lane(Profile p, const ProgramStep& step, std::span<const NamedTile> before, size_t dst,
                               unsigned r, unsigned c, uint64_t design) {
  std::vector<std::string> found;
  const auto gives = [&](Profile profile, const OpParams& params) {
    return rerun(profile, step, params, before, dst, r, c) == std::optional(design);
  };
  if (step.op == Op::TCMP)
    for (CmpMode m : kCmpModes) {
      OpParams o = step.params;
      o.cmp = m;
      if (m != step.params.cmp && gives(p, o))
        found.push_back(fmt::format("[cmp-mode] the design's predicates are cmp={}'s where the operation asks cmp={}",
                                    cmp_name(m), cmp_name(step.params.cmp)));
    }
  if (step.op == Op::TCVT) {
    for (RoundMode m : kRoundModes) {
      OpParams o = step.params;
      o.round = m;
      if (m != step.params.round && gives(p, o))
        found.push_back(fmt::format("[tcvt-round] the design converts with round={} where the operation asks round={}",
                                    round_name(m), round_name(step.params.round)));
    }
    for (SaturationMode s : {SaturationMode::On, SaturationMode::Off}) {
      OpParams o = step.params;
      o.saturation = s;
      if (step.params.saturation != s && gives(p, o))
        found.push_back(fmt::format("[tcvt-saturation] the design converts with sat={} where the operation {}",
                                    s == SaturationMode::On ? "on" : "off",
                                    step.params.saturation ? "asks the other" : "takes the profile's default"));
    }
  }
  for (Profile other : kProfiles)
    if (other != p && gives(other, step.params)) {
      const std::string rule = profile_rule(p, step.op, before[dst].tile.type);
      found.push_back(fmt::format("[profile] the design computes what the {} profile does, not {}{}", profile_name(other),
                                  profile_name(p), rule.empty() ? "" : " (" + rule + ")"));
    }
  std::string out;
  for (const std::string& f : found) out += (out.empty() ? "diagnosis " : " or ") + f;
  return out;
}

std::string profile_rule(Profile p, Op op, ElemType t) {
  const ProfileRules& r = rules(p);
  const auto said = [&](const std::string& rule) { return fmt::format("{} rule: {}", profile_name(p), rule); };
  switch (op) {
    case Op::TSQRT:
      if (!is_float(t)) return "";
      return said(r.sqrt_through_double ? "TSQRT is (T)std::sqrt((double)src), two roundings"
                                        : "TSQRT is one vsqrt in the element type, one rounding");
    case Op::TNEG:
      return said(r.neg_multiplies ? "TNEG is TMULS(src, -1), one rounded multiplication" : "TNEG is the simulator's negation");
    case Op::TABS:
      return said(r.abs_is_vabs ? "TABS is vabs; -0 and the most negative integer are refused"
                                : "TABS is src < 0 ? -src : src");
    case Op::TREM:
    case Op::TFMOD:
      return said(r.remainder_sequence ? "TREM and TFMOD are vector sequences (vdiv, vconv or vtrc, vmul, vsub), each step rounded"
                                       : "TREM and TFMOD are the exact fmod and C++'s %");
    case Op::TPOW:
      if (is_float(t)) return "";
      return said(r.power_in_int32 ? "integer TPOW converts both operands to int first" : "integer TPOW is exact integer power, wrapping");
    case Op::TRECIP:
      if (!is_float(t)) return "";
      return said(r.recip_asserts_nonzero ? "float TRECIP asserts src != 0" : "float TRECIP divides with no check of src");
    case Op::TCMP:
      if (!r.tcmp) return "";
      return said(r.tcmp_repeat_bytes != 0
                      ? fmt::format("TCMP compares each row in whole {}-byte repeats; bit k of predicate byte j is source lane 8j + k",
                                    r.tcmp_repeat_bytes)
                      : std::string("TCMP compares lane by lane; bit k of predicate byte j is source lane 8j + k of the row"));
    default:
      if (r.assumption_name && is_float(t) && op != Op::TAND && op != Op::TOR)
        return said(fmt::format("float lanes rest on the assumption {}", r.assumption_name));
      return "";
  }
}

}  // namespace tmu::pto::detail
