// tmu.tensix.reduce: tt-llk's reduce LLK (llk_math_reduce.h) on the bit-exact model, per 32x32 tile,
// the tiles along the reduced dimension accumulating in one Dst tile as tt-metal's reduce kernels do
// (refmodel/engines/tensix/include/tmu/tensix/llk/reduce_sequence.h has the sequence). The options, operand
// conversion and result dict are tmu.tensix's (tensix_args.h).
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensix_args.h"
#include "tensix_bindings.h"
#include "tensix_threads.h"
#include "tmu/tensix/llk/reduce_sequence.h"

namespace tmu::python {

namespace {

using llk::PoolType;
using llk::ReduceDim;
constexpr unsigned kTile = audit::kTile;

PoolType parse_pool(const char* where, const std::string& name) {
  const std::string n = lower_name(name);
  if (n == "sum") return PoolType::Sum;
  if (n == "avg") return PoolType::Avg;
  if (n == "max") return PoolType::Max;
  value_error(where, "pool", fmt::format("unknown pool type '{}' (expected 'sum', 'avg' or 'max', tt-llk's PoolType)", name));
}

ReduceDim parse_dim(const char* where, const std::string& name) {
  std::string n = lower_name(name);
  if (n.rfind("reduce_", 0) == 0) n = n.substr(7);
  if (n == "row") return ReduceDim::Row;
  if (n == "col") return ReduceDim::Col;
  if (n == "scalar") return ReduceDim::Scalar;
  value_error(where, "dim", fmt::format("unknown dimension '{}' (expected 'row', 'col' or 'scalar', tt-llk's REDUCE_ROW, "
                                        "REDUCE_COL, REDUCE_SCALAR)", name));
}

// The default scaler: 1 for SUM and MAX; for AVG 1/N with N the reduced length (REDUCE_SCALAR applies
// the scaler twice, so 1/sqrt(N)), when that is a power of two the source format holds.
double default_scaler(const char* where, PoolType pool, ReduceDim dim, py::ssize_t rows, py::ssize_t cols) {
  if (pool != PoolType::Avg) return 1.0;
  const py::ssize_t n = dim == ReduceDim::Col ? rows : dim == ReduceDim::Row ? cols : rows * cols;
  const int log2n = std::ilogb(static_cast<double>(n));
  const bool power_of_two = (py::ssize_t{1} << log2n) == n;
  if (dim == ReduceDim::Scalar) {
    if (!power_of_two || log2n % 2) {
      value_error(where, "scaler", fmt::format("the average of {} elements needs 1/sqrt({}) (REDUCE_SCALAR applies the scaler "
                                               "twice), which is not a power of two: pass scaler= explicitly", n, n));
    }
    return std::ldexp(1.0, -log2n / 2);
  }
  if (!power_of_two) {
    value_error(where, "scaler", fmt::format("the average over {} needs 1/{}, which no source format holds exactly: pass "
                                             "scaler= explicitly (e.g. the value tt-metal's host code rounds to)", n, n));
  }
  return std::ldexp(1.0, -log2n);
}

}  // namespace

void bind_tensix_reduce(py::module_& m) {
  m.def(
      "reduce",
      [](py::handle a_obj, const std::string& pool_name, const std::string& dim_name, const py::object& scaler_obj,
         const std::string& fidelity, const std::string& src_format, const std::string& dst, const py::object& variant,
         const py::object& conversion, const std::string& input, bool bits, bool snapshots, bool argmax,
         const py::object& threads) {
        const char* where = "tmu.tensix.reduce";
        const unsigned nthreads = thread_count(where, threads);
        const PoolType pool = parse_pool(where, pool_name);
        const ReduceDim dim = parse_dim(where, dim_name);
        const TensixArgs o = parse_tensix_args(where, fidelity, src_format, dst, variant, conversion, py::none(), input);
        if (argmax && pool != PoolType::Max) value_error(where, "argmax", "only pool='max' (GMPOOL) has an index");
        const SrcMatrix an = to_src(a_obj, o, where, "a");
        require_tiles(an, where, "a");
        const py::ssize_t H = an.rows, W = an.cols, Ht = H / kTile, Wt = W / kTile;

        double scaler = 0;
        if (scaler_obj.is_none()) {
          scaler = default_scaler(where, pool, dim, H, W);
        } else {
          if (py::isinstance<py::bool_>(scaler_obj) ||
              !(py::isinstance<py::float_>(scaler_obj) || py::isinstance<py::int_>(scaler_obj))) {
            type_error(where, "scaler", "expected a real number or None");
          }
          scaler = scaler_obj.cast<double>();
        }
        TensixArgs scaler_args = o;
        scaler_args.input = InputKind::Values;
        py::array_t<double> scaler_array({1, 1});
        scaler_array.mutable_data()[0] = scaler;
        const SrcMatrix sn = to_src(scaler_array, scaler_args, where, "scaler");

        llk::ReduceConfig cfg;
        cfg.run = o.cfg;
        cfg.pool = pool;
        cfg.dim = dim;
        cfg.argmax = argmax;
        const py::ssize_t out_rows = dim == ReduceDim::Row ? H : 1, out_cols = dim == ReduceDim::Col ? W : 1;
        // Reductions: one per tile column (col), per tile row (row), or one (scalar), each over its tiles.
        const py::ssize_t groups = dim == ReduceDim::Col ? Wt : dim == ReduceDim::Row ? Ht : 1;
        const py::ssize_t steps = dim == ReduceDim::Col ? Ht : dim == ReduceDim::Row ? Wt : Ht * Wt;
        std::vector<double> out(static_cast<size_t>(out_rows * out_cols));
        std::vector<std::vector<double>> snaps;
        if (snapshots) snaps.assign(static_cast<size_t>(steps), std::vector<double>(out.size()));
        // Every group's results land at its own place, so the groups may finish in any order.
        const size_t per_group = static_cast<size_t>(out_rows * out_cols / groups);
        std::vector<int64_t> arg_rows(argmax ? out.size() : 0);
        std::vector<uint16_t> arg_raw(argmax ? out.size() : 0);
        const audit::OutFormat* of = nullptr;
        {
          py::gil_scoped_release release;
          std::vector<const audit::OutFormat*> formats(static_cast<size_t>(groups));
          parallel_for(static_cast<size_t>(groups), nthreads, [&](size_t gi) {
            const auto g = static_cast<py::ssize_t>(gi);
            llk::ReduceCase c;
            c.format = o.cfg.format;
            c.scaler = sn.v[0];
            for (py::ssize_t s = 0; s < steps; ++s) {
              const py::ssize_t ti = dim == ReduceDim::Col ? s : dim == ReduceDim::Row ? g : s / Wt;
              const py::ssize_t tj = dim == ReduceDim::Col ? g : dim == ReduceDim::Row ? s : s % Wt;
              std::vector<audit::SrcNumber> tile(kTile * kTile);
              for (unsigned i = 0; i < kTile; ++i)
                for (unsigned j = 0; j < kTile; ++j) tile[i * kTile + j] = an.at(ti * kTile + i, tj * kTile + j);
              c.tiles.push_back(std::move(tile));
            }
            const llk::ReduceTrace t = llk::run_reduce_sequence(c, cfg);
            formats[gi] = t.format;
            if (t.values.size() != per_group) throw std::logic_error("tmu.tensix.reduce: a group's result has an unexpected size");
            const size_t first = gi * per_group;
            for (size_t k = 0; k < t.values.size(); ++k) out[first + k] = t.values[k];
            if (snapshots)
              for (size_t s = 0; s < t.after_tile.size(); ++s)
                for (size_t k = 0; k < t.values.size(); ++k) snaps[s][first + k] = t.after_tile[s][k];
            for (size_t k = 0; k < t.argmax_row.size() && first + k < arg_rows.size(); ++k) {
              arg_rows[first + k] = t.argmax_row[k];
              arg_raw[first + k] = t.argmax_raw[k];
            }
          });
          of = formats.back();
        }
        py::object r = tensix_result(out, out_rows, out_cols, *of, bits, snapshots ? &snaps : nullptr, steps, 1);
        if (snapshots) r["snapshots"] = r["snapshots"].attr("reshape")(steps, out_rows, out_cols);
        if (!argmax) return r;
        py::dict d;
        if (py::isinstance<py::dict>(r)) d = r;
        else d["values"] = r;
        py::array_t<int64_t> rows_array({out_rows, out_cols});
        py::array_t<uint16_t> raw_array({out_rows, out_cols});
        std::copy(arg_rows.begin(), arg_rows.end(), rows_array.mutable_data());
        std::copy(arg_raw.begin(), arg_raw.end(), raw_array.mutable_data());
        d["argmax"] = rows_array;
        d["argmax_raw"] = raw_array;
        return py::object(d);
      },
      py::arg("a"), py::arg("pool"), py::arg("dim"), py::kw_only(), py::arg("scaler"),
      py::arg("fidelity"), py::arg("src_format"), py::arg("dst"), py::arg("variant"),
      py::arg("conversion"), py::arg("input"), py::arg("bits"), py::arg("snapshots"),
      py::arg("argmax"), py::arg("threads"),
      R"doc(a reduced as tt-llk's reduce LLK (llk_math_reduce.h) computes it on the Matrix Unit.

pool: 'sum', 'avg' (GAPOOL: Dst += SrcB @ SrcA, SrcB row 0 holding the scaler, SrcA the face; above
LoFi one GAPOOL per fidelity phase) or 'max' (GMPOOL). dim: 'col' (REDUCE_COL: over the rows, result
(1, W)), 'row' (REDUCE_ROW: over the columns, result (H, 1)), 'scalar' (REDUCE_SCALAR: result (1, 1)).
a: (H, W), multiples of 32; the tiles along the reduced dimension accumulate in one Dst tile, in
order (for 'scalar' row-major over the tile grid), as tt-metal's reduce kernels leave Dst between
tiles. The input conversion, fidelity, src_format, dst and variant are matmul's.

What the unpacker is taken to have delivered (llk_unpack_reduce.h), per face: SrcA zeroed, then
the 16x16 face in rows 0..15 (transposed within the face for 'row', the unpacker's haloize mode);
SrcB row 0 sixteen copies of the scaler (row 0 of tt-metal's scaler tile), its other rows zero.
Dst starts cleared (ZEROACC: GAPOOL reads it as 0, GMPOOL as minus infinity).

scaler: a number the source format holds exactly (or rounded with conversion='rne'). Default 1 for
'sum' and 'max'; for 'avg' 1/N with N the length reduced over (H for 'col', W for 'row'), and for
'scalar' 1/sqrt(H*W), because REDUCE_SCALAR pools twice and so multiplies by the scaler twice
(ValueError when that is not a power of two: pass scaler=). SUM and AVG are the same instructions;
the average is entirely the scaler. GMPOOL uses only the scaler's exponent (GMPOOL.md).
'row' moves each pooled row through SrcB (MOVD2B, TRNSPSRCB, ELWADD), so a 32-bit Dst result is
rounded to a Src datum on the way, as on the hardware (tt-llk's enforce_fp32_accumulation is off).

argmax=True (pool='max', dim='col', BF16 or FP16 sources, dst='FP32', H <= 256; tmu.Unsupported
otherwise) sets GMPOOL's ArgMax bit, which tt-llk leaves off, and returns the index the hardware
keeps: 'argmax' the input row it names and 'argmax_raw' Dst's low 12 bits (bits 11:8 the index
phase, 7:0 16 * phase + NONLINEAR_I_TRANSFORM[i]). GMPOOL tracks only the first 8 rows of each
16-row block (a maximum in rows 8..15 of a block moves the value, not the index); it visits rows
4..7, 0..3, 8..15 and a value >= the current maximum wins, so among equal maxima a row in 0..3 beats
one in 4..7, a higher row beats a lower one in the same group, and a later block beats an earlier one.
The values are then the BF16/FP16 maximum in Dst's high half.

Returns the float64 values (exact); with bits, snapshots or argmax a dict: 'values', 'bits' and
'bits_format', 'snapshots' ((tiles, rows, cols): the result after each tile), 'argmax', 'argmax_raw'.
threads: how many threads share the reductions (one per tile column for 'col', per tile row for
'row'; 'scalar' is one reduction, one thread); None: $TMU_THREADS, else the number of cores. The
bits are the same for any count.

>>> a = np.full((32, 32), 1.0078125)                 # BF16 1 + 2^-7
>>> tmu.tensix.reduce(a, 'sum', 'col')[0, 0]          # 32 (1 + 2^-7)
32.25
>>> tmu.tensix.reduce(a, 'sum', 'col', fidelity='LoFi')[0, 0]   # LoFi drops SrcA's low mantissa bits
32.0)doc");
}

}  // namespace tmu::python
