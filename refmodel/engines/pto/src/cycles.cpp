// The A2/A3 cost model of pto-isa (include/pto/costmodel/): how the a2a3 implementation splits a
// tile into CCE calls (TBinOp.hpp's BinaryInstr for TADD, TSUB, TMUL, TDIV, TMIN, TMAX, TAND, TOR;
// TUnaryOp.hpp's TUNARY_IMPL for TABS, TRELU, TSQRT, TRSQRT, TEXP, TLOG, TNOT; TBinSOp.hpp's
// TBinSInstr for TNEG as TMULS and float TRECIP as TDIVS; the sequences of TXor.hpp, TCmp.hpp,
// TSel.hpp, TFmod.hpp, TPrelu.hpp with TCmps.hpp, TShl.hpp and TShr.hpp; TCvt.hpp's in
// cycles_convert.cpp), restated from those files; what each call costs,
// from cce_costmodel_core.hpp, _vector_compute.hpp, _vector_compare.hpp, _vector_convert_int.hpp
// and _sync.hpp; and how the calls add up, from trace.hpp (see docs/pto-cycles.md).
#include "tmu/pto/cycles.h"

#include <functional>

#include <fmt/format.h>

#include "cycles_trace.h"
#include "internal.h"

namespace tmu::pto {

namespace {

using detail::refuse_op;
using detail::Trace;
using detail::VectorCost;

constexpr unsigned kRepeatBytes = 256;  // constants.hpp REPEAT_BYTE
constexpr unsigned kBlockBytes = 32;    // BLOCK_BYTE_SIZE
constexpr unsigned kRepeatMax = 255;    // REPEAT_MAX, and REPEAT_STRIDE_MAX
constexpr unsigned kSmallRepeats = 4;   // SMALL_RPT_BINOP, SMALL_RPT

// What the paths issue for one tile piece of `repeats` repeats: one vector call for most
// operations, a short sequence for TRECIP.
using Piece = std::function<void(Trace&, unsigned repeats)>;
Piece one(const VectorCost& c) {
  return [&c](Trace& t, unsigned repeats) { t.vector(c, repeats); };
}

// The tile geometry every path reads: physical shape (RowStride = Cols for a row-major tile),
// valid region, in the lanes the instruction sees (TNOT's 8- and 32-bit tiles as 16-bit lanes).
struct Shape {
  unsigned rows, cols, valid_rows, valid_cols;
  unsigned per_repeat;  // elementsPerRepeat
  unsigned per_block;   // blockSizeElem
  bool static_full_cols;  // the tile type's ValidCol == Cols, tested at compile time on the
                          // element type itself
};

// Bin1LCountMode / Unary1LCountMode: the whole region as one count-mode call.
void count_mode_1l(Trace& t, const Piece& c) {
  t.scalar("set_mask_count");
  t.scalar("set_vector_mask");  // SetVectorCount(validRow * validCol)
  c(t, 0);
  t.scalar("set_mask_norm");
  t.scalar("set_vector_mask");  // SetFullVecMaskByDType
}

// Bin2LCountMode / Unary2LCountMode: one count-mode call per valid row.
void count_mode_2l(Trace& t, const Piece& c, const Shape& s) {
  t.scalar("set_mask_count");
  t.scalar("set_vector_mask");  // SetVectorCount(validCol)
  for (unsigned i = 0; i < s.valid_rows; ++i) c(t, 0);
  t.scalar("set_mask_norm");
  t.scalar("set_vector_mask");
}

// Bin1LNormMode / Unary1LNormMode: whole repeats over the region taken as contiguous (the call is
// issued even with 0 repeats), then one masked repeat for the rest.
void norm_mode_1l(Trace& t, const Piece& c, const Shape& s) {
  const unsigned n = s.valid_rows * s.valid_cols;
  c(t, n / s.per_repeat);
  if (n % s.per_repeat != 0) {
    t.scalar("set_vector_mask");  // SetContMaskByDType(tail)
    c(t, 1);
    t.scalar("set_vector_mask");
  }
}

// Bin2LNormModeHead / Unary2LNormModeHead: each row's whole repeats, at most 255 per call.
void row_heads(Trace& t, const Piece& c, const Shape& s, unsigned repeats_per_line) {
  if (repeats_per_line == 0) return;
  for (unsigned i = 0; i < s.valid_rows; ++i) {
    for (unsigned j = 0; j < repeats_per_line / kRepeatMax; ++j) c(t, kRepeatMax);
    if (repeats_per_line % kRepeatMax != 0) c(t, repeats_per_line % kRepeatMax);
  }
}

// Bin2LNormModeTail / Unary2LNormModeTail: the rows' remaining columns under one mask, a repeat per
// row, 255 rows per call (the loop only when the tile has more than 255 rows), or one call per row
// when the row stride in blocks does not fit a repeat stride.
void row_tails(Trace& t, const Piece& c, const Shape& s) {
  const bool stride_overflow = s.cols / s.per_block > kRepeatMax;
  t.scalar("set_vector_mask");
  unsigned rest = s.valid_rows;
  if (s.rows > kRepeatMax) {
    for (unsigned i = 0; i < s.valid_rows / kRepeatMax; ++i) {
      if (stride_overflow)
        for (unsigned j = 0; j < kRepeatMax; ++j) c(t, 1);
      else
        c(t, kRepeatMax);
    }
    rest = s.valid_rows % kRepeatMax;
  }
  if (rest != 0) {
    if (stride_overflow)
      for (unsigned j = 0; j < rest; ++j) c(t, 1);
    else
      c(t, rest);
  }
  t.scalar("set_vector_mask");
}

// Bin2LNormModeRowRpt / Unary2LNormModeRowRpt. With at most 255 rows and a row stride that fits a
// repeat stride, one call per 256-byte column slice repeats down the rows. Otherwise rows' heads
// (only when Rows > elementsPerRepeat, as both files test) and the masked tails. The two files
// differ there: TBinOp.hpp leaves the whole valid row to the tail when it skips the heads,
// TUnaryOp.hpp always leaves only validCol % elementsPerRepeat.
void row_repeat(Trace& t, const Piece& c, const Shape& s, bool binary) {
  if (s.rows <= kRepeatMax && s.cols / s.per_block <= kRepeatMax) {
    for (unsigned i = 0; i < s.valid_cols / s.per_repeat; ++i) c(t, s.valid_rows);
    if (s.valid_cols % s.per_repeat != 0) {
      t.scalar("set_vector_mask");
      c(t, s.valid_rows);
      t.scalar("set_vector_mask");
    }
    return;
  }
  unsigned remain = binary ? s.valid_cols : s.valid_cols % s.per_repeat;
  if (s.rows > s.per_repeat) {
    row_heads(t, c, s, s.valid_cols / s.per_repeat);
    remain = s.valid_cols % s.per_repeat;
  }
  if (remain != 0) row_tails(t, c, s);
}

// BinaryInstrGeneralPath's non-contiguous branch and Unary2LProcess (the same choice).
void two_level(Trace& t, const Piece& c, const Shape& s, bool binary) {
  const unsigned norm_col_repeats = s.cols / s.per_repeat;
  if (norm_col_repeats > 1 && s.rows * norm_col_repeats < kSmallRepeats) {
    count_mode_2l(t, c, s);
  } else if (s.rows < norm_col_repeats + 1) {
    if (s.valid_cols % s.per_repeat != 0) {
      count_mode_2l(t, c, s);
    } else {
      for (unsigned i = 0; i < s.valid_rows; ++i) c(t, s.valid_cols / s.per_repeat);
    }
  } else {
    row_repeat(t, c, s, binary);
  }
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// TNOT_IMPL runs vnot on 16-bit lanes (utils.hpp B322B16Trait, B82B16Trait): a 32-bit row is twice
// as many lanes, an 8-bit row half as many (the valid count rounded up); 16-bit rows stay.
Shape not_lanes(const Shape& s, unsigned bytes) {
  Shape n = s;
  n.per_repeat = kRepeatBytes / 2;
  n.per_block = kBlockBytes / 2;
  if (bytes == 4) {
    n.cols = s.cols * 2;
    n.valid_cols = s.valid_cols * 2;
  } else if (bytes == 1) {
    n.cols = s.cols / 2;
    n.valid_cols = static_cast<unsigned>(ceil_div(s.valid_cols, 2));
  }
  return n;
}

// TBinOp.hpp BinaryInstr for dst, src0, src1 of one shape.
void binary_calls(Trace& t, const Piece& c, const Shape& s) {
  if (s.rows <= kRepeatMax && s.cols < s.per_repeat) {  // Bin1LNormModeSmall: a repeat per row
    t.scalar("set_vector_mask");
    c(t, s.valid_rows);
    t.scalar("set_vector_mask");
    return;
  }
  uint64_t total_repeats = 0;
  bool non_vl_aligned = false;
  if (s.static_full_cols || s.rows == 1) {  // BinaryInstrFastPath: counts from the physical shape
    total_repeats = ceil_div(uint64_t{s.rows} * s.cols, s.per_repeat);
    non_vl_aligned = s.cols % s.per_repeat != 0 && s.cols > s.per_repeat;
  } else if (s.cols == s.valid_cols || s.valid_rows == 1) {  // BinaryInstrGeneralPath's run-time check
    total_repeats = ceil_div(uint64_t{s.valid_rows} * s.valid_cols, s.per_repeat);
    non_vl_aligned = s.valid_cols > s.per_repeat && s.valid_cols % s.per_repeat != 0;
  } else {
    two_level(t, c, s, true);
    return;
  }
  if (non_vl_aligned || total_repeats > kRepeatMax)
    count_mode_1l(t, c);
  else
    norm_mode_1l(t, c, s);
}

// TUnaryOp.hpp TUnaryOp for dst and src of one shape.
void unary_calls(Trace& t, const Piece& c, const Shape& s) {
  uint64_t total_repeats = 0;
  if (s.static_full_cols || s.rows == 1) {  // isCombined: counts from the physical shape
    total_repeats = ceil_div(uint64_t{s.rows} * s.cols, s.per_repeat);
  } else if (s.cols == s.valid_cols || s.valid_rows == 1) {  // run time, on the translated lanes
    total_repeats = ceil_div(uint64_t{s.valid_rows} * s.valid_cols, s.per_repeat);
  } else {
    two_level(t, c, s, false);
    return;
  }
  if (total_repeats > kRepeatMax)
    count_mode_1l(t, c);
  else
    norm_mode_1l(t, c, s);
}

// TBinSOp.hpp TBinSInstr (TMULS, TDIVS): the fast path's test and counts as BinaryInstr's, no
// small-shape path, and no run-time contiguity test: a partial region always takes the per-row
// paths.
void scalar_calls(Trace& t, const Piece& c, const Shape& s) {
  if (!(s.static_full_cols || s.rows == 1)) {
    two_level(t, c, s, true);
    return;
  }
  const uint64_t total_repeats = ceil_div(uint64_t{s.rows} * s.cols, s.per_repeat);
  const bool non_vl_aligned = s.cols % s.per_repeat != 0 && s.cols > s.per_repeat;
  if (non_vl_aligned || total_repeats > kRepeatMax)
    count_mode_1l(t, c);
  else
    norm_mode_1l(t, c, s);
}

// TNEG is TMULS(src, -1) (TUnaryOp.hpp): one vmuls per piece. TRECIP is TDIVS(dst, 1, src)
// (costmodel/pto_instr.hpp), whose float SDivOp (TDivS.hpp) issues per piece vector_dup of the
// scalar, a pipe_barrier, and vdiv.
constexpr VectorCost kMuls{"vmuls", 11, 1, 15}, kDup{"vector_dup", 11, 1, 13}, kVdiv{"vdiv", 11, 4, 19};
void negate_piece(Trace& t, unsigned r) { t.vector(kMuls, r); }
void reciprocal_piece(Trace& t, unsigned r) {
  t.vector(kDup, r);
  t.pipe_barrier();
  t.vector(kVdiv, r);
}

// TCmp.hpp TCmp: set_mask_norm and the full mask, then per valid row ceil(validCol /
// elementsPerRepeat) repeats in calls of at most 240; an int32 source always takes vcmpv_eq, and
// so does NE, which is then inverted by one count-mode vnot after a pipe_barrier.
// cce_costmodel_vector_compare.hpp: vcmpv_ge (14, 2, 22); vcmpv_eq, _lt, _gt, _le the default line
// (6, 2, 0).
void compare_calls(Trace& t, ElemType src, CmpMode mode, unsigned valid_rows, unsigned valid_cols) {
  static constexpr VectorCost kEq{"vcmpv_eq", 6, 2, 0}, kLt{"vcmpv_lt", 6, 2, 0}, kGt{"vcmpv_gt", 6, 2, 0},
      kLe{"vcmpv_le", 6, 2, 0}, kGe{"vcmpv_ge", 14, 2, 22}, kNot{"vnot", 8, 2, 12};
  constexpr unsigned kCmpRepeatMax = 240;  // TCMP_REPEAT_MAX
  const VectorCost* c = &kEq;
  if (src != ElemType::I32) {
    switch (mode) {
      case CmpMode::LT: c = &kLt; break;
      case CmpMode::GT: c = &kGt; break;
      case CmpMode::GE: c = &kGe; break;
      case CmpMode::LE: c = &kLe; break;
      default: break;
    }
  }
  const unsigned per_line = static_cast<unsigned>(ceil_div(valid_cols, kRepeatBytes / width_bytes(src)));
  t.scalar("set_mask_norm");
  t.scalar("set_vector_mask");
  for (unsigned i = 0; i < valid_rows; ++i) {
    for (unsigned j = 0; j < per_line / kCmpRepeatMax; ++j) t.vector(*c, kCmpRepeatMax);
    if (per_line % kCmpRepeatMax != 0) t.vector(*c, per_line % kCmpRepeatMax);
  }
  if (mode == CmpMode::NE) {
    t.pipe_barrier();
    t.scalar("set_mask_count");
    t.scalar("set_vector_mask");
    t.vector(kNot, 0);
    t.scalar("set_mask_norm");
    t.scalar("set_vector_mask");
  }
}

// TSel.hpp TSel: count mode, then per valid row the row's mask bits copied by a one-repeat
// vector_dup into the compare-mask buffer, a pipe_barrier, set_cmpmask, a pipe_barrier, the count
// of valid columns, and one vsel (13, 2, 14) of repeat 1; then norm mode and the full mask. Each
// first barrier charges vector_dup's tail (13), and after the barriers vsel pays its head again.
void select_calls(Trace& t, unsigned valid_rows) {
  static constexpr VectorCost kDup{"vector_dup", 11, 1, 13}, kSel{"vsel", 13, 2, 14};
  t.scalar("set_mask_count");
  for (unsigned i = 0; i < valid_rows; ++i) {
    t.scalar("set_vector_mask");
    t.vector(kDup, 1);
    t.pipe_barrier();
    t.scalar("set_cmpmask");
    t.pipe_barrier();
    t.scalar("set_vector_mask");
    t.vector(kSel, 1);
  }
  t.scalar("set_mask_norm");
  t.scalar("set_vector_mask");
}

// TShl.hpp, TShr.hpp: the shift is a scalar loop over the valid region between
// PtoSetWaitFlag<PIPE_V, PIPE_S> and PtoSetWaitFlag<PIPE_S, PIPE_V> (event.hpp: set_flag and
// wait_flag in manual mode, no __PTO_AUTO__). The cost model charges the four flag calls, 1 each,
// and nothing for the loop: the figure does not depend on the tile.
void shift_calls(Trace& t) {
  for (int i = 0; i < 2; ++i) {
    t.scalar("set_flag");
    t.scalar("wait_flag");
  }
}

// TFmod.hpp TFmod (f32): count mode with validCol lanes, then per valid row vdiv, vconv_f322f32z,
// vmul, vsub of one repeat, each followed by a pipe_barrier, which charges the call's tail and
// makes the next call pay its head; vconv's line is EstimateVconvCycles (14, 2, 18).
void fmod_calls(Trace& t, unsigned valid_rows) {
  static constexpr VectorCost kDiv{"vdiv", 11, 4, 19}, kConv{"vconv_f322f32z", 14, 2, 18}, kMul{"vmul", 10, 2, 15},
      kSub{"vsub", 10, 2, 14};
  t.scalar("set_mask_count");
  t.scalar("set_vector_mask");
  for (unsigned i = 0; i < valid_rows; ++i)
    for (const VectorCost* c : {&kDiv, &kConv, &kMul, &kSub}) {
      t.vector(*c, 1);
      t.pipe_barrier();
    }
  t.scalar("set_mask_norm");
  t.scalar("set_vector_mask");
}

// TCmps.hpp TCMPS_IMPL with a scalar (TPRELU's src0 > 0): set_mask_norm and the full mask, then
// per valid row its repeats (ceil(validCol / elementsPerRepeat)) in calls of 240, and after all
// rows each row's remainder; vcmpvs_gt has the default line (6, 2, 0) of
// cce_costmodel_vector_compare.hpp.
void compare_scalar_gt_calls(Trace& t, unsigned valid_rows, unsigned per_line) {
  static constexpr VectorCost kGt{"vcmpvs_gt", 6, 2, 0};
  constexpr unsigned kCmpRepeatMax = 240;  // TCMPS_REPEAT_MAX
  t.scalar("set_mask_norm");
  t.scalar("set_vector_mask");
  for (unsigned i = 0; i < valid_rows; ++i)
    for (unsigned j = 0; j < per_line / kCmpRepeatMax; ++j) t.vector(kGt, kCmpRepeatMax);
  if (per_line % kCmpRepeatMax != 0)
    for (unsigned i = 0; i < valid_rows; ++i) t.vector(kGt, per_line % kCmpRepeatMax);
}

// TPrelu.hpp TPRELU_IMPL: dst = src0 * src1 (TMUL_IMPL, BinaryInstr's paths), a pipe_barrier, the
// predicate tmp = src0 > 0 (TCMPS_IMPL), a pipe_barrier, TSUBVIEW (no call), a pipe_barrier, and
// TSEL_IMPL(dst, tmp, src0, dst): the select of TSel.hpp. The compare's tail is 0, so its barrier
// charges none; the select's vector_dup pays its head again.
void prelu_calls(Trace& t, const Shape& s, const VectorCost& mul) {
  binary_calls(t, one(mul), s);
  t.pipe_barrier();
  compare_scalar_gt_calls(t, s.valid_rows, static_cast<unsigned>(ceil_div(s.valid_cols, s.per_repeat)));
  t.pipe_barrier();
  t.pipe_barrier();
  select_calls(t, s.valid_rows);
}

// The ops this file models, with their instruction's line (head, slope) from
// cce_costmodel_vector_compute.hpp.
const VectorCost* binary_cost(Op op) {
  static constexpr VectorCost kAdd{"vadd", 10, 2, 14}, kSub{"vsub", 10, 2, 14}, kMul{"vmul", 10, 2, 15},
      kDiv{"vdiv", 11, 4, 19}, kMin{"vmin", 10, 2, 14}, kMax{"vmax", 10, 2, 14}, kAnd{"vand", 8, 2, 12},
      kOr{"vor", 8, 2, 12};
  switch (op) {
    case Op::TADD: return &kAdd;
    case Op::TSUB: return &kSub;
    case Op::TMUL: return &kMul;
    case Op::TDIV: return &kDiv;
    case Op::TMIN: return &kMin;
    case Op::TMAX: return &kMax;
    case Op::TAND: return &kAnd;
    case Op::TOR: return &kOr;
    default: return nullptr;
  }
}
const VectorCost* unary_cost(Op op) {
  static constexpr VectorCost kAbs{"vabs", 13, 1, 16}, kRelu{"vrelu", 10, 1, 13}, kSqrt{"vsqrt", 14, 2, 25},
      kRsqrt{"vrsqrt", 10, 1, 14}, kExp{"vexp", 13, 2, 18}, kLn{"vln", 13, 2, 20}, kNot{"vnot", 8, 2, 12};
  switch (op) {
    case Op::TABS: return &kAbs;
    case Op::TRELU: return &kRelu;
    case Op::TSQRT: return &kSqrt;
    case Op::TRSQRT: return &kRsqrt;  // the two-operand TRSQRT: one vrsqrt per piece
    case Op::TEXP: return &kExp;
    case Op::TLOG: return &kLn;
    case Op::TNOT: return &kNot;
    default: return nullptr;
  }
}

// The operations the cost model cannot run: the reason names what is missing.
const char* no_cost_model_entry(Op op) {
  switch (op) {
    case Op::TPOW:
      return "include/pto/costmodel/pto_instr.hpp, which stands in for the instruction API under __COSTMODEL, "
             "declares neither TPOW nor TPOWS, so the cost model records nothing for it";
    case Op::TREM:
      return "the cost model's TREM(dst, src0, src1) (costmodel/pto_instr.hpp) calls TREM_IMPL with three "
             "tiles, and a2a3/TRem.hpp's TREM_IMPL takes a fourth, the tmp tile: the cost model does not build a "
             "TREM, so it records nothing for it";
    default: return "its call sequence is not modelled";
  }
}

}  // namespace

CycleEstimate a2a3_cycles(Op op, const Tile& dst, std::span<const Tile* const> srcs, const OpParams& params) {
  constexpr Profile p = Profile::A2A3;
  if (srcs.size() != source_count(op))
    refuse_op(p, op, ErrorKind::BadInput,
              fmt::format("takes {} source tiles, {} given", source_count(op), srcs.size()));
  for (const Tile* s : srcs)
    if (s == nullptr) refuse_op(p, op, ErrorKind::BadInput, "a source tile is missing");
  if (op == Op::TCMP) {
    // The sources' type and valid region decide the calls; dst is the u8 predicate tile.
    const Tile& a = *srcs[0];
    const Tile& b = *srcs[1];
    if (b.type != a.type || b.rows != a.rows || b.cols != a.cols || b.valid_rows != a.valid_rows ||
        b.valid_cols != a.valid_cols)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour, "src0 and src1 must have one type, shape and valid region");
    if (dst.type != ElemType::U8 || !detail::a2a3_supports(op, a.type))
      refuse_op(p, op, ErrorKind::Unsupported,
                fmt::format("the A2/A3 cost model has no entry for TCMP on {} with a {} predicate", elem_name(a.type),
                            elem_name(dst.type)));
    if (a.layout != Layout::RowMajor || dst.layout != Layout::RowMajor)
      refuse_op(p, op, ErrorKind::Unsupported, "the A2/A3 implementation requires row-major tiles");
    Trace t;
    compare_calls(t, a.type, params.cmp, a.valid_rows, a.valid_cols);
    return t.estimate;
  }
  if (op == Op::TCVT) {
    // The source's type and dst's decide the vconv; dst's valid region the calls.
    const Tile& src = *srcs[0];
    if (!detail::a2a3_converts(src.type, dst.type))
      refuse_op(p, op, ErrorKind::Unsupported,
                fmt::format("A2/A3 TCvt.hpp has no vconv path from {} to {}", elem_name(src.type),
                            elem_name(dst.type)));
    if (src.valid_rows != dst.valid_rows || src.valid_cols != dst.valid_cols)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour, "src and dst must have one valid region");
    if (src.layout != Layout::RowMajor || dst.layout != Layout::RowMajor)
      refuse_op(p, op, ErrorKind::Unsupported, "tmu models TCvt.hpp's row strides for row-major tiles only");
    Trace t;
    detail::convert_calls(t, src.type, dst.type, params.round, dst.valid_rows, dst.valid_cols);
    return t.estimate;
  }
  if (op == Op::TSEL) {
    // srcs: mask, src0, src1; the mask is an integer tile of its own shape.
    if (is_float(srcs[0]->type))
      refuse_op(p, op, ErrorKind::UndefinedBehaviour, "the mask must be an integer tile");
    srcs = srcs.subspan(1);
  }
  for (const Tile* s : srcs) {
    if (s->type != dst.type)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                fmt::format("a source is {} but dst is {}: the element types must be identical",
                            elem_name(s->type), elem_name(dst.type)));
    if (s->rows != dst.rows || s->cols != dst.cols || s->valid_rows != dst.valid_rows ||
        s->valid_cols != dst.valid_cols)
      refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                "the source and dst tiles must have one physical shape and one valid region");
  }
  if (!detail::a2a3_supports(op, dst.type))
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("the A2/A3 cost model has no entry for {} on {}", op_name(op), elem_name(dst.type)));
  if (dst.layout != Layout::RowMajor)
    refuse_op(p, op, ErrorKind::Unsupported, "the A2/A3 implementation requires row-major tiles");
  const VectorCost* bin = binary_cost(op);
  const VectorCost* un = unary_cost(op);
  const bool scalar_form = op == Op::TNEG || (op == Op::TRECIP && is_float(dst.type));
  const bool shift = op == Op::TSHL || op == Op::TSHR;
  if (op == Op::TPOW || op == Op::TREM)
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("the A2/A3 cost model has no working entry for {} on {}: {}", op_name(op),
                          elem_name(dst.type), no_cost_model_entry(op)));
  if (bin == nullptr && un == nullptr && op != Op::TXOR && op != Op::TSEL && op != Op::TFMOD && !scalar_form &&
      !shift && op != Op::TPRELU && op != Op::TRECIP)
    refuse_op(p, op, ErrorKind::Unsupported,
              fmt::format("cycles for {} on {} are not modelled ({})", op_name(op), elem_name(dst.type),
                          no_cost_model_entry(op)));
  if (op == Op::TRECIP && !is_float(dst.type)) {
    // TRECIP is TDIVS(dst, 1, src); for TDIVS on int16 and int32 RecordInstr (costmodel/pto_instr.hpp)
    // discards the recorded calls and keeps perf_sim::EstimateInstrCycles (costmodel_provider.hpp),
    // which returns 4 for that opcode and those types before any table lookup: 4 for every tile.
    Trace t;
    t.add(fmt::format("EstimateInstrCycles(TDIVS, {})", dst.type == ElemType::I16 ? "int16" : "int32").c_str(), 0,
          4);
    return t.estimate;
  }
  const unsigned bytes = width_bytes(dst.type);
  const Shape s{dst.rows, dst.cols, dst.valid_rows, dst.valid_cols, kRepeatBytes / bytes, kBlockBytes / bytes,
                dst.cols == dst.valid_cols};
  Trace t;
  if (op == Op::TXOR) {
    // TXor.hpp: tmp = src0 | src1; dst = src0 & src1; dst = ~dst; dst = dst & tmp, a pipe_barrier
    // between each two (tmp taken with dst's shape).
    binary_calls(t, one(*binary_cost(Op::TOR)), s);
    t.pipe_barrier();
    binary_calls(t, one(*binary_cost(Op::TAND)), s);
    t.pipe_barrier();
    unary_calls(t, one(*unary_cost(Op::TNOT)), not_lanes(s, bytes));
    t.pipe_barrier();
    binary_calls(t, one(*binary_cost(Op::TAND)), s);
  } else if (op == Op::TPRELU) {
    prelu_calls(t, s, *binary_cost(Op::TMUL));
  } else if (op == Op::TFMOD) {
    fmod_calls(t, dst.valid_rows);
  } else if (shift) {
    shift_calls(t);
  } else if (op == Op::TSEL) {
    select_calls(t, dst.valid_rows);
  } else if (scalar_form) {
    scalar_calls(t, op == Op::TNEG ? Piece(negate_piece) : Piece(reciprocal_piece), s);
  } else if (bin != nullptr) {
    binary_calls(t, one(*bin), s);
  } else {
    unary_calls(t, one(*un), op == Op::TNOT ? not_lanes(s, bytes) : s);
  }
  return t.estimate;
}

}  // namespace tmu::pto
