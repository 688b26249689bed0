// The one entry point: checks the operands as the implementations' static_asserts and run-time
// asserts do, then runs the operation lane by lane over dst's valid region on a copy of dst, so that a
// refusal leaves dst as it was.
#include <string>

#include <fmt/format.h>

#include "internal.h"
#include "profile_rules.h"

namespace tmu::pto {

namespace {

using detail::ProfileRules;
using detail::refuse_op;

bool bitwise(Op op) {
  return op == Op::TAND || op == Op::TOR || op == Op::TXOR || op == Op::TNOT || op == Op::TSHL || op == Op::TSHR;
}

std::string supported_list(const ProfileRules& rules, Op op) {
  std::string list;
  for (ElemType t : kAllElemTypes)
    if (rules.supports(op, t)) {
      if (!list.empty()) list += ", ";
      list += elem_name(t);
    }
  return list.empty() ? "no element type" : list;
}

void check_elementwise(Profile p, const ProfileRules& rules, Op op, const Tile& dst,
                       std::span<const Tile* const> srcs) {
  const ElemType t = dst.type;
  for (size_t i = 0; i < srcs.size(); ++i) {
    const Tile& s = *srcs[i];
    const std::string name = srcs.size() == 1 ? "src" : fmt::format("src{}", i);
    if (s.type != t)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                fmt::format("{} is {} but dst is {}: the element types must be identical", name, elem_name(s.type),
                            elem_name(t)));
    if (s.rows != dst.rows || s.cols != dst.cols)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                fmt::format("{} is {}x{} but dst is {}x{}: all tiles MUST have the same physical shape (Rows, Cols)",
                            name, s.rows, s.cols, dst.rows, dst.cols));
    if (s.valid_rows != dst.valid_rows || s.valid_cols != dst.valid_cols)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                fmt::format("{}'s valid region {}x{} differs from dst's {}x{} (the implementations assert they match)",
                            name, s.valid_rows, s.valid_cols, dst.valid_rows, dst.valid_cols));
  }
  if (!rules.supports(op, t))
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("element type {} is not accepted; the {} implementation accepts {}", elem_name(t),
                          profile_name(p), supported_list(rules, op)));
  if (rules.not_modelled != nullptr)
    if (const char* why = rules.not_modelled(op, t)) refuse_op(p, op, ErrorKind::Unsupported, why);
}

// TAND and TOR read float lanes as bits; every other float lane is computed under the profile's
// assumption, if it has one.
void check_assumption(Profile p, const ProfileRules& rules, Op op, ElemType t, const OpParams& params) {
  if (rules.assumption == nullptr || params.a5_ieee || !is_float(t) || op == Op::TAND || op == Op::TOR) return;
  refuse_op(p, op, ErrorKind::Unsupported,
            fmt::format("{} lanes on {} are computed only under the assumption {}, which is switched off ({})",
                        elem_name(t), profile_name(p), rules.assumption_name, rules.assumption));
}

// The operations the simulator computes through host libm (libm_ops.cpp).
bool through_libm(Op op, ElemType t) {
  return op == Op::TEXP || op == Op::TLOG || (op == Op::TPOW && is_float(t));
}

// TCvt.hpp reads src(i, j) and writes dst(i, j) over src's valid region; the page asks for
// compatible shapes and valid regions, which tmu takes as equal ones.
void run_convert(Profile p, const ProfileRules& rules, Tile& out, const Tile& src, const OpParams& params) {
  if (src.rows != out.rows || src.cols != out.cols)
    refuse_op(p, Op::TCVT, ErrorKind::UndefinedBehaviour,
              fmt::format("src is {}x{} but dst is {}x{}: all tiles MUST have the same physical shape (Rows, Cols)",
                          src.rows, src.cols, out.rows, out.cols));
  if (src.valid_rows != out.valid_rows || src.valid_cols != out.valid_cols)
    refuse_op(p, Op::TCVT, ErrorKind::UndefinedBehaviour,
              fmt::format("src's valid region {}x{} differs from dst's {}x{} (the shapes MUST be compatible)",
                          src.valid_rows, src.valid_cols, out.valid_rows, out.valid_cols));
  rules.convert(p, out, src, params);
}

void run_lanes(Profile p, Op op, Tile& out, std::span<const Tile* const> srcs) {
  if (detail::run_specialised(p, op, out, srcs)) return;
  const ElemType t = out.type;
  for (unsigned r = 0; r < out.valid_rows; ++r)
    for (unsigned c = 0; c < out.valid_cols; ++c) {
      uint64_t v[3] = {0, 0, 0};
      for (size_t i = 0; i < srcs.size(); ++i) v[i] = srcs[i]->at(r, c);
      out.bits[out.offset(r, c)] = detail::generic_lane(detail::Lane{p, op, t, r, c}, v[0], v[1], v[2]);
    }
}

}  // namespace

namespace detail {

uint64_t generic_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c) {
  return rules(lane.profile).lane(lane, a, b, c);
}

uint64_t family_lane(const Lane& lane, uint64_t a, uint64_t b, uint64_t c) {
  if (is_f8(lane.type)) return cpusim_f8_lane(lane, a, b);
  if (bitwise(lane.op)) return bitwise_lane(lane, a, b);
  if (through_libm(lane.op, lane.type)) return libm_lane(lane, a, b);
  return is_float(lane.type) ? float_lane(lane, a, b, c) : integer_lane(lane, a, b, c);
}

}  // namespace detail

void execute(Profile p, Op op, Tile& dst, std::span<const Tile* const> srcs, const OpParams& params) {
  if (srcs.size() != source_count(op))
    refuse_op(p, op, ErrorKind::BadInput,
              fmt::format("takes {} source tiles, {} given", source_count(op), srcs.size()));
  for (const Tile* s : srcs)
    if (s == nullptr) refuse_op(p, op, ErrorKind::BadInput, "a source tile is missing");
  const ProfileRules& rules = detail::rules(p);
  bool f8 = is_f8(dst.type);
  for (const Tile* s : srcs) f8 = f8 || is_f8(s->type);
  if (f8 && rules.f8_refusal != nullptr)
    if (const char* why = rules.f8_refusal(op)) refuse_op(p, op, ErrorKind::Unsupported, why);
  if (!rules.carry_ops && (op == Op::TADDC || op == Op::TSUBC))
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("the {} sources have no implementation (include/pto/npu/{}/ defines no TADDC_IMPL or "
                          "TSUBC_IMPL)",
                          rules.implementation, profile_name(p)));
  bool row_major = dst.layout == Layout::RowMajor;
  for (const Tile* s : srcs) row_major = row_major && s->layout == Layout::RowMajor;
  if (!row_major && rules.row_major_only)
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("the {} implementation requires row-major tiles", rules.implementation));
  if (rules.predicates_not_modelled != nullptr && (op == Op::TCMP || op == Op::TSEL))
    refuse_op(p, op, ErrorKind::Unsupported, rules.predicates_not_modelled);
  if (!row_major && op == Op::TRECIP && rules.recip_row_major != nullptr)
    refuse_op(p, op, ErrorKind::Unsupported, rules.recip_row_major);

  Tile out = dst;
  if (op == Op::TCMP) {
    detail::execute_tcmp(p, out, *srcs[0], *srcs[1], params.cmp);
  } else if (op == Op::TSEL) {
    detail::execute_tsel(p, out, *srcs[0], *srcs[1], *srcs[2]);
  } else if (op == Op::TCVT) {
    run_convert(p, rules, out, *srcs[0], params);
  } else {
    check_elementwise(p, rules, op, dst, srcs);
    check_assumption(p, rules, op, dst.type, params);
    run_lanes(p, op, out, srcs);
  }
  dst = std::move(out);
}

}  // namespace tmu::pto
