// The A5 cost model of pto-isa's formula backend (include/pto/costmodel/a5/vf_costmodel.hpp,
// formula_costmodel/formula_backend_vf.hpp and the fitted coefficients of formula_params.csv): each
// covered operation is one vector-function call whose cycles are a fitted curve of its loop counts.
// The path is 1D when the tile has one row or its valid columns are all its columns (TNEG, a
// scalar-VF op there, TMULS: valid columns only), else 2D; a repeat is 256 bytes (64 b32, 128 b16,
// 256 b8 lanes; TCVT's own rule below); 1D: loop = ceil(validRows x validCols / repeat); 2D:
// inner = ceil(validCols / repeat), outer = validRows. Linear curves give p0 x loop + p1, nested ones
// (p0 x inner + p1) x outer + p2, rounded to the nearest integer (llround; 0 if not positive). Only
// the default VFImplKind and algorithm are modelled (POST_UPDATE on 1D, NO_POST_UPDATE on 2D; TSEL
// NO_POST_UPDATE / DEFAULT; TCVT NO_POST_UPDATE / POST_UPDATE; TRECIP's "default"): the rows tmu
// keeps are the ones those select. The backend's full and tail rows are equal for every row kept.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "internal.h"
#include "tmu/pto/cycles.h"

namespace tmu::pto {

namespace {

using enum ElemType;

enum class Kind : uint8_t { Linear, Nested };
enum class Parity : uint8_t { Any, Even, Odd };  // TSEL f32 1D: TSel_b32_even / _odd by the loop count

struct Curve {
  Op op;
  ElemType type;
  bool two_d;
  Parity parity;
  Kind kind;
  double p0, p1, p2;
};

// formula_params.csv (hw-native-sys/pto-isa, the commit docs/sources.md pins), the rows of the
// tile-tile operations under the default impl kind.
constexpr Curve kCurves[] = {
    {Op::TADD, F16, false, Parity::Any, Kind::Linear, 1.2469671, 55.073657, 0},
    {Op::TADD, F16, true, Parity::Any, Kind::Nested, 1.8749443, 2.8762808, 44.344619},
    {Op::TADD, F32, false, Parity::Any, Kind::Linear, 1.2469671, 55.073657, 0},
    {Op::TADD, F32, true, Parity::Any, Kind::Nested, 1.8749443, 2.8762808, 44.344619},
    {Op::TEXP, F16, false, Parity::Any, Kind::Linear, 3.7622951, 65.934426, 0},
    {Op::TEXP, F16, true, Parity::Any, Kind::Nested, 3.9981682, -0.12080507, 64.159204},
    {Op::TEXP, F32, false, Parity::Any, Kind::Linear, 1.9670711, 62.656846, 0},
    {Op::TEXP, F32, true, Parity::Any, Kind::Nested, 1.8548854, 2.5442386, 60.598247},
    {Op::TMUL, F16, false, Parity::Any, Kind::Linear, 1.1941075, 56.285962, 0},
    {Op::TMUL, F16, true, Parity::Any, Kind::Nested, 1.8708194, 2.9123738, 44.844619},
    {Op::TMUL, F32, false, Parity::Any, Kind::Linear, 1.1941075, 56.285962, 0},
    {Op::TMUL, F32, true, Parity::Any, Kind::Nested, 1.8708194, 2.9123738, 44.844619},
    {Op::TNEG, F16, false, Parity::Any, Kind::Linear, 1.0589255, 55.140381, 0},
    {Op::TNEG, F16, true, Parity::Any, Kind::Nested, 1.0952879, 4.5652633, 51.508464},
    {Op::TNEG, F32, false, Parity::Any, Kind::Linear, 1.0589255, 55.140381, 0},
    {Op::TNEG, F32, true, Parity::Any, Kind::Nested, 1.0952879, 4.5652633, 51.508464},
    {Op::TRECIP, F16, false, Parity::Any, Kind::Linear, 3.5491803, 68.737705, 0},
    {Op::TRECIP, F16, true, Parity::Any, Kind::Nested, 3.9981682, -0.12080507, 65.159204},
    {Op::TRECIP, F32, false, Parity::Any, Kind::Linear, 1.9081456, 64.516464, 0},
    {Op::TRECIP, F32, true, Parity::Any, Kind::Nested, 1.8688724, 2.4753589, 62.942563},
    {Op::TRSQRT, F16, false, Parity::Any, Kind::Linear, 8.1065574, 81.098361, 0},
    {Op::TRSQRT, F16, true, Parity::Any, Kind::Nested, 8.011194, 0.05721393, 80.711443},
    {Op::TRSQRT, F32, false, Parity::Any, Kind::Linear, 4.0294627, 75.570191, 0},
    {Op::TRSQRT, F32, true, Parity::Any, Kind::Nested, 4, 0.032648126, 76.464329},
    {Op::TSEL, F16, false, Parity::Any, Kind::Linear, 2.0983607, 52.47541, 0},
    {Op::TSEL, F16, true, Parity::Any, Kind::Nested, 2.4617368, 1.427318, 48.616915},
    {Op::TSEL, F32, false, Parity::Even, Kind::Linear, 1.9336735, 58.846939, 0},
    {Op::TSEL, F32, false, Parity::Odd, Kind::Linear, 3.9142857, 63.885714, 0},
    {Op::TSEL, F32, true, Parity::Any, Kind::Nested, 3.0869132, 36.109522, 22.512394},
    {Op::TSEL, I8, false, Parity::Any, Kind::Linear, 2.0983607, 52.47541, 0},
    {Op::TSEL, I8, true, Parity::Any, Kind::Nested, 2.4617368, 1.427318, 48.616915},
    {Op::TSQRT, F16, false, Parity::Any, Kind::Linear, 3.7622951, 66.934426, 0},
    {Op::TSQRT, F16, true, Parity::Any, Kind::Nested, 3.9981682, -0.12080507, 65.159204},
    {Op::TSQRT, F32, false, Parity::Any, Kind::Linear, 1.9670711, 63.656846, 0},
    {Op::TSQRT, F32, true, Parity::Any, Kind::Nested, 1.8548854, 2.5442386, 61.598247},
    {Op::TSUB, F16, false, Parity::Any, Kind::Linear, 1.2469671, 55.073657, 0},
    {Op::TSUB, F16, true, Parity::Any, Kind::Nested, 1.8749443, 2.8762808, 44.344619},
    {Op::TSUB, F32, false, Parity::Any, Kind::Linear, 1.2469671, 55.073657, 0},
    {Op::TSUB, F32, true, Parity::Any, Kind::Nested, 1.8749443, 2.8762808, 44.344619},
};

// TCVT's rows of formula_params.csv between tmu's element types, every one keyed op_params
// CAST_RINT_SAT_ON_normal (the hifloat8 and 4-bit float rows are outside tmu's types). fp8_e4m3 and
// fp8_e5m2 share their curves, as do bf16 and f16 -> f32, and f32 -> f16 and bf16.
struct CvtCurve {
  ElemType from, to;
  bool two_d;
  Kind kind;
  double p0, p1, p2;
};
constexpr CvtCurve kCvtCurves[] = {
    {BF16, F16, false, Kind::Linear, 1.2131148, 53.196721, 0},
    {BF16, F16, true, Kind::Nested, 1.279308, 1.8333786, 51.80597},
    {BF16, F32, false, Kind::Linear, -1.7704918, 82.442623, 0},
    {BF16, F32, true, Kind::Nested, 1.2703528, 1.929896, 51.661692},
    {F16, F32, false, Kind::Linear, -1.7704918, 82.442623, 0},
    {F16, F32, true, Kind::Nested, 1.2703528, 1.929896, 51.661692},
    {F32, BF16, false, Kind::Linear, 1.3196721, 52.295082, 0},
    {F32, BF16, true, Kind::Nested, 2.2580054, 1.0422433, 55.18408},
    {F32, F16, false, Kind::Linear, 1.3196721, 52.295082, 0},
    {F32, F16, true, Kind::Nested, 2.2580054, 1.0422433, 55.18408},
    {F32, F8E4M3, false, Kind::Linear, 12.319672, 55.295082, 0},
    {F32, F8E4M3, true, Kind::Nested, 87.638195, -30.013071, 7.6069652},
    {F32, F8E5M2, false, Kind::Linear, 12.319672, 55.295082, 0},
    {F32, F8E5M2, true, Kind::Nested, 87.638195, -30.013071, 7.6069652},
    {F8E4M3, F32, false, Kind::Linear, 3.9344262, 81.016393, 0},
    {F8E4M3, F32, true, Kind::Nested, 5.1631615, -1.7589326, 69.099502},
    {F8E5M2, F32, false, Kind::Linear, 3.9344262, 81.016393, 0},
    {F8E5M2, F32, true, Kind::Nested, 5.1631615, -1.7589326, 69.099502},
};

uint64_t ceil_div(uint64_t x, uint64_t y) { return (x + y - 1) / y; }

// TryGetA5ElementsPerRepeatByDTypeKey: a type's lanes per 256-byte repeat; the backend lists the
// 8-bit floats with the 32-bit types.
uint64_t repeat_of(ElemType t) { return is_f8(t) ? 64 : 256 / width_bytes(t); }

// TryGetA5CvtElementsPerRepeat: a widening of a 16-bit float to f32 counts f32 lanes on both paths;
// on 2D, f32 -> f16 / bf16 / f8 and bf16 -> f16 count 16-bit lanes; otherwise the source's.
uint64_t cvt_repeat(ElemType from, ElemType to, bool two_d) {
  const bool half = from == F16 || from == BF16;
  if (half && to == F32) return 64;
  if (two_d && ((from == F32 && (to == F16 || to == BF16 || is_f8(to))) || (half && to == F16))) return 128;
  return repeat_of(from);
}

// ResolveShapePath for the ops that are not scalar-VF ones.
bool two_d_path(const Tile& t) { return t.rows != 1 && t.valid_cols != t.cols; }

// ResolveLoopCounts: 1D runs the valid lanes as one stream, 2D each valid row.
struct Loops {
  uint64_t inner, outer;
};
Loops loops_of(bool two_d, const Tile& t, uint64_t repeat) {
  if (two_d) return {ceil_div(t.valid_cols, repeat), t.valid_rows};
  return {ceil_div(uint64_t{t.valid_rows} * t.valid_cols, repeat), 1};
}

// EvalVfFormula: the curve at the loop counts, as one step.
CycleEstimate evaluate(std::string name, bool two_d, Kind kind, double p0, double p1, double p2, Loops l) {
  const uint64_t inner = l.inner, outer = l.outer, loop = inner * outer;
  const double v = kind == Kind::Linear ? p0 * static_cast<double>(loop) + p1
                                        : (p0 * static_cast<double>(inner) + p1) * static_cast<double>(outer) + p2;
  const uint64_t cycles = v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v));
  return CycleEstimate{cycles, {CycleStep{fmt::format("{} vf ({}, {})", name, two_d ? "2D" : "1D",
                                                       kind == Kind::Linear ? "linear" : "nested_loop"),
                                          static_cast<unsigned>(loop), cycles}}};
}

// TCVT: the source's type and the destination's pick the curve; the round mode and the saturation
// TCVT_IMPL runs with pick op_params (NONE or RINT with ON: CAST_RINT_SAT_ON_normal, the only key
// the CSV fits); src's shape and valid region (dst's, as execute() requires) the path and loops.
CycleEstimate tcvt_cycles(const Tile& dst, const Tile& src, const OpParams& params) {
  constexpr Profile p = Profile::A5;
  if (src.rows != dst.rows || src.cols != dst.cols || src.valid_rows != dst.valid_rows ||
      src.valid_cols != dst.valid_cols)
    detail::refuse_op(p, Op::TCVT, ErrorKind::UndefinedBehaviour, "src and dst must have one shape and one valid region");
  const ElemType from = src.type, to = dst.type;
  if (!detail::a5_converts(from, to))
    detail::refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
                      fmt::format("{} to {}: A5's TCvt.hpp has no castData overload for the pair", elem_name(from),
                                  elem_name(to)));
  const bool two_d = two_d_path(src);
  const CvtCurve* curve = nullptr;
  for (const CvtCurve& c : kCvtCurves)
    if (c.from == from && c.to == to && c.two_d == two_d) curve = &c;
  if (curve == nullptr)
    detail::refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
                      fmt::format("the A5 formula cost model (costmodel/a5/formula_costmodel/formula_params.csv) has "
                                  "no TCVT curve from {} to {}: its TCVT rows are f32 <-> f16/bf16 (f16/bf16 -> f32, "
                                  "f32 -> f16/bf16), bf16 -> f16, f32 <-> f8 and the hifloat8 and 4-bit float pairs",
                                  elem_name(from), elem_name(to)));
  const SaturationMode sat = detail::a5_saturation(from, to, params.saturation);
  if ((params.round != RoundMode::None && params.round != RoundMode::Rint) || sat != SaturationMode::On)
    detail::refuse_op(p, Op::TCVT, ErrorKind::Unsupported,
                      fmt::format("the A5 formula cost model fits TCVT only under CAST_RINT_SAT_ON_normal (round "
                                  "NONE or RINT, saturation ON); {} with saturation {} has no curve",
                                  round_name(params.round), sat == SaturationMode::On ? "ON" : "OFF"));
  return evaluate(fmt::format("TCVT {}->{}", elem_name(from), elem_name(to)), two_d, curve->kind, curve->p0,
                  curve->p1, curve->p2, loops_of(two_d, src, cvt_repeat(from, to, two_d)));
}

}  // namespace

CycleEstimate a5_cycles(Op op, const Tile& dst, std::span<const Tile* const> srcs, const OpParams& params) {
  constexpr Profile p = Profile::A5;
  if (srcs.size() != source_count(op))
    detail::refuse_op(p, op, ErrorKind::BadInput, fmt::format("takes {} source tiles, {} given", source_count(op), srcs.size()));
  for (const Tile* s : srcs)
    if (s == nullptr) detail::refuse_op(p, op, ErrorKind::BadInput, "a source tile is missing");
  if (op == Op::TCVT) return tcvt_cycles(dst, *srcs[0], params);
  if (op != Op::TCMP && op != Op::TSEL) {
    for (const Tile* s : srcs)
      if (s->type != dst.type || s->rows != dst.rows || s->cols != dst.cols ||
          s->valid_rows != dst.valid_rows || s->valid_cols != dst.valid_cols)
        detail::refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                          "the sources must have dst's element type, shape and valid region");
  }
  if (!detail::a5_supports(op, dst.type))
    detail::refuse_op(p, op, ErrorKind::Unsupported,
                      fmt::format("the A5 implementation has no {} on {}", op_name(op), elem_name(dst.type)));
  const bool two_d = op == Op::TNEG ? dst.valid_cols != dst.cols : two_d_path(dst);
  const Loops l = loops_of(two_d, dst, repeat_of(dst.type));
  const Parity parity = l.inner % 2 == 0 ? Parity::Even : Parity::Odd;
  for (const Curve& c : kCurves) {
    if (c.op != op || c.type != dst.type || c.two_d != two_d || (c.parity != Parity::Any && c.parity != parity)) continue;
    return evaluate(std::string(op_name(op)), two_d, c.kind, c.p0, c.p1, c.p2, l);
  }
  detail::refuse_op(p, op, ErrorKind::Unsupported,
                    fmt::format("the A5 formula cost model (costmodel/a5/formula_costmodel/formula_params.csv) has no "
                                "curve for {} on {} ({} path)",
                                op_name(op), elem_name(dst.type), two_d ? "2D" : "1D"));
}

}  // namespace tmu::pto
