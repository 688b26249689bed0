// The A5 cost model of pto-isa's formula backend (include/pto/costmodel/a5/vf_costmodel.hpp,
// formula_costmodel/formula_backend_vf.hpp and the fitted coefficients of formula_params.csv): each
// covered operation is one vector-function call whose cycles are a fitted curve of its loop counts.
// The path is 1D when the tile has one row or its valid columns are all its columns (TNEG, a
// scalar-VF op there, TMULS: valid columns only), else 2D; a repeat is 256 bytes (64 b32, 128 b16,
// 256 b8 lanes); 1D: loop = ceil(validRows x validCols / repeat); 2D: inner = ceil(validCols / repeat),
// outer = validRows. Linear curves give p0 x loop + p1, nested ones (p0 x inner + p1) x outer + p2,
// rounded to the nearest integer (llround; 0 if not positive). Only the default VFImplKind and
// algorithm are modelled (POST_UPDATE on 1D, NO_POST_UPDATE on 2D; TSEL NO_POST_UPDATE / DEFAULT;
// TRECIP's "default"): the rows tmu keeps are the ones those select. The backend's full and tail
// rows are equal for every row kept.
#include <cmath>

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

uint64_t ceil_div(uint64_t x, uint64_t y) { return (x + y - 1) / y; }

}  // namespace

CycleEstimate a5_cycles(Op op, const Tile& dst, std::span<const Tile* const> srcs, const OpParams&) {
  constexpr Profile p = Profile::A5;
  if (srcs.size() != source_count(op))
    detail::refuse_op(p, op, ErrorKind::BadInput, fmt::format("takes {} source tiles, {} given", source_count(op), srcs.size()));
  if (op != Op::TCVT && op != Op::TCMP && op != Op::TSEL) {
    for (const Tile* s : srcs)
      if (s == nullptr || s->type != dst.type || s->rows != dst.rows || s->cols != dst.cols ||
          s->valid_rows != dst.valid_rows || s->valid_cols != dst.valid_cols)
        detail::refuse_op(p, op, ErrorKind::UndefinedBehaviour,
                          "the sources must have dst's element type, shape and valid region");
  }
  if (!detail::a5_supports(op, dst.type))
    detail::refuse_op(p, op, ErrorKind::Unsupported,
                      fmt::format("the A5 implementation has no {} on {}", op_name(op), elem_name(dst.type)));
  const bool two_d = op == Op::TNEG ? dst.valid_cols != dst.cols : dst.rows != 1 && dst.valid_cols != dst.cols;
  const uint64_t repeat = 256 / width_bytes(dst.type);
  const uint64_t inner = two_d ? ceil_div(dst.valid_cols, repeat) : ceil_div(uint64_t{dst.valid_rows} * dst.valid_cols, repeat);
  const uint64_t outer = two_d ? dst.valid_rows : 1;
  const uint64_t loop = inner * outer;
  const Parity parity = inner % 2 == 0 ? Parity::Even : Parity::Odd;
  for (const Curve& c : kCurves) {
    if (c.op != op || c.type != dst.type || c.two_d != two_d || (c.parity != Parity::Any && c.parity != parity)) continue;
    const double v = c.kind == Kind::Linear ? c.p0 * static_cast<double>(loop) + c.p1
                                            : (c.p0 * static_cast<double>(inner) + c.p1) * static_cast<double>(outer) + c.p2;
    const uint64_t cycles = v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v));
    return CycleEstimate{cycles, {CycleStep{fmt::format("{} vf ({}, {})", op_name(op), two_d ? "2D" : "1D",
                                                         c.kind == Kind::Linear ? "linear" : "nested_loop"),
                                            static_cast<unsigned>(loop), cycles}}};
  }
  detail::refuse_op(p, op, ErrorKind::Unsupported,
                    fmt::format("the A5 formula cost model (costmodel/a5/formula_costmodel/formula_params.csv) has no "
                                "curve for {} on {} ({} path)",
                                op_name(op), elem_name(dst.type), two_d ? "2D" : "1D"));
}

}  // namespace tmu::pto
