// The one entry point: checks the operands as the implementations' static_asserts and run-time
// asserts do, then runs the operation lane by lane over dst's valid region on a copy of dst, so that a
// refusal leaves dst as it was.
#include <string>

#include <fmt/format.h>

#include "internal.h"

namespace tmu::pto {

namespace {

using detail::refuse_op;

// A2/A3 implementations tmu has not read into a model yet (their vector sequences round in places
// the simulator does not), for the element types the implementation accepts.
const char* a2a3_not_modelled_reason(Op op, ElemType t) {
  switch (op) {
    case Op::TRSQRT:
      return "not modelled yet for a2a3 (TUnaryOp.hpp's vrsqrt, an instruction whose precision the sources do not "
             "give)";
    case Op::TEXP: case Op::TLOG:
      return "not modelled yet for a2a3 (TUnaryOp.hpp's vexp and vln, instructions whose precision the sources do "
             "not give)";
    case Op::TPOW:
      return is_float(t) ? "not modelled yet for a2a3 (TPow.hpp computes float powers through vln, vmul and vexp, "
                           "instructions whose precision the sources do not give)"
                         : nullptr;
    default: return nullptr;
  }
}

bool bitwise(Op op) {
  return op == Op::TAND || op == Op::TOR || op == Op::TXOR || op == Op::TNOT || op == Op::TSHL || op == Op::TSHR;
}

bool supports(Profile p, Op op, ElemType t) {
  switch (p) {
    case Profile::CpuSim: return detail::cpusim_supports(op, t);
    case Profile::A2A3: return detail::a2a3_supports(op, t);
    case Profile::A5: return detail::a5_supports(op, t);
  }
  return false;
}

std::string supported_list(Profile p, Op op) {
  std::string list;
  for (ElemType t : kAllElemTypes)
    if (supports(p, op, t)) {
      if (!list.empty()) list += ", ";
      list += elem_name(t);
    }
  return list.empty() ? "no element type" : list;
}

void check_elementwise(Profile p, Op op, const Tile& dst, std::span<const Tile* const> srcs) {
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
  if (!supports(p, op, t))
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("element type {} is not accepted; the {} implementation accepts {}", elem_name(t),
                          profile_name(p), supported_list(p, op)));
  if (p == Profile::A2A3)
    if (const char* why = a2a3_not_modelled_reason(op, t)) refuse_op(p, op, ErrorKind::Unsupported, why);
  if (p == Profile::A5)
    if (const char* why = detail::a5_not_modelled_reason(op, t)) refuse_op(p, op, ErrorKind::Unsupported, why);
}

// TAND and TOR read float lanes as bits; every other a5 float lane is computed under a5-ieee.
void check_a5_assumption(Op op, ElemType t, const OpParams& params) {
  if (params.a5_ieee || !is_float(t) || op == Op::TAND || op == Op::TOR) return;
  refuse_op(Profile::A5, op, ErrorKind::Unsupported,
            fmt::format("{} lanes on a5 are computed only under the assumption a5-ieee, which is switched off ({})",
                        elem_name(t), detail::kA5FloatAssumption));
}

// The operations the simulator computes through host libm (libm_ops.cpp).
bool through_libm(Op op, ElemType t) {
  return op == Op::TEXP || op == Op::TLOG || (op == Op::TPOW && is_float(t));
}

// TCvt.hpp reads src(i, j) and writes dst(i, j) over src's valid region; the page asks for
// compatible shapes and valid regions, which tmu takes as equal ones.
void run_convert(Profile p, Tile& out, const Tile& src, const OpParams& params) {
  if (src.rows != out.rows || src.cols != out.cols)
    refuse_op(p, Op::TCVT, ErrorKind::UndefinedBehaviour,
              fmt::format("src is {}x{} but dst is {}x{}: all tiles MUST have the same physical shape (Rows, Cols)",
                          src.rows, src.cols, out.rows, out.cols));
  if (src.valid_rows != out.valid_rows || src.valid_cols != out.valid_cols)
    refuse_op(p, Op::TCVT, ErrorKind::UndefinedBehaviour,
              fmt::format("src's valid region {}x{} differs from dst's {}x{} (the shapes MUST be compatible)",
                          src.valid_rows, src.valid_cols, out.valid_rows, out.valid_cols));
  if (p == Profile::A5) return detail::a5_convert(out, src, params);
  if (p == Profile::A2A3 && !detail::a2a3_converts(src.type, out.type))
    refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
              fmt::format("{} to {}: TCvt.hpp has no vconv path for the pair (it would write nothing)",
                          elem_name(src.type), elem_name(out.type)));
  const SaturationMode sat = p == Profile::A2A3 ? detail::a2a3_saturation(src.type, out.type, params.saturation)
                                                : params.saturation.value_or(SaturationMode::Off);
  // The specialised loops are the simulator's conversions.
  if (p == Profile::CpuSim && detail::run_specialised_convert(p, out, src, params.round, sat)) return;
  for (unsigned r = 0; r < src.valid_rows; ++r)
    for (unsigned c = 0; c < src.valid_cols; ++c) {
      const detail::Lane lane{p, Op::TCVT, src.type, r, c};
      out.bits[out.offset(r, c)] = p == Profile::A2A3
                                       ? detail::a2a3_convert_lane(lane, out.type, params.round, sat, src.at(r, c))
                                       : detail::convert_lane(lane, out.type, params.round, sat, src.at(r, c));
    }
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
  if (lane.profile == Profile::A5) return a5_lane(lane, a, b);
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
  bool f8 = is_f8(dst.type);
  for (const Tile* s : srcs) f8 = f8 || is_f8(s->type);
  if (f8)
    if (const char* why = detail::f8_refusal(p, op)) refuse_op(p, op, ErrorKind::Unsupported, why);
  if (p == Profile::A2A3 || p == Profile::A5) {
    const char* const who = p == Profile::A2A3 ? "A2/A3" : "A5";
    if (op == Op::TADDC || op == Op::TSUBC)
      refuse_op(p, op, ErrorKind::Unsupported,
                fmt::format("the {} sources have no implementation (include/pto/npu/{}/ defines no TADDC_IMPL or "
                            "TSUBC_IMPL)",
                            who, profile_name(p)));
    bool row_major = dst.layout == Layout::RowMajor;
    for (const Tile* s : srcs) row_major = row_major && s->layout == Layout::RowMajor;
    if (!row_major)  // A5: every implementation's static_assert (e.g. "Fix: TADD only support row major layout.")
      refuse_op(p, op, ErrorKind::Unsupported, fmt::format("the {} implementation requires row-major tiles", who));
  }
  if (p == Profile::A5 && (op == Op::TCMP || op == Op::TSEL))
    refuse_op(p, op, ErrorKind::Unsupported,
              "not modelled for a5: TCmp.hpp / TSel.hpp store and load predicates with psts/plds in the NORM and PK "
              "distributions (and pdintlv_b8 for 32-bit lanes), whose bit layout in memory the public sources do not "
              "define (psts.md says both 'exactly 64 bits' and 256 bits for i8; PK is not described); TCMP.md calls "
              "the packing target-defined");

  if (p == Profile::CpuSim && op == Op::TRECIP) {
    bool row_major = dst.layout == Layout::RowMajor;
    for (const Tile* s : srcs) row_major = row_major && s->layout == Layout::RowMajor;
    if (!row_major)
      refuse_op(p, op, ErrorKind::Unsupported,
                "the simulator's TRECIP is TDIVS(dst, 1, src) (pto_instr.hpp), whose tile checks (cpu/TBinSOps.hpp) "
                "accept row-major tiles only");
  }

  Tile out = dst;
  if (op == Op::TCMP) {
    detail::execute_tcmp(p, out, *srcs[0], *srcs[1], params.cmp);
  } else if (op == Op::TSEL) {
    detail::execute_tsel(p, out, *srcs[0], *srcs[1], *srcs[2]);
  } else if (op == Op::TCVT) {
    run_convert(p, out, *srcs[0], params);
  } else {
    check_elementwise(p, op, dst, srcs);
    if (p == Profile::A5) check_a5_assumption(op, dst.type, params);
    run_lanes(p, op, out, srcs);
  }
  dst = std::move(out);
}

}  // namespace tmu::pto
