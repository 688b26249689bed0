// tmu.tensix: the Tensix Matrix Unit's results for whole matrices, computed by the same LLK
// instruction sequences the precision audit runs on the bit-exact model (refmodel/engines/tensix/
// include/tmu/tensix/llk/sequence.h: tt-llk's llk_math_matmul.h replay per 32x32 tile pair, K tiles
// accumulating in Dst; llk_math_eltwise_binary.h's ELWMUL and ELWADD/ELWSUB MOPs per tile, with
// the SrcB broadcasts). Operands arrive as values or bit patterns and become Src numbers in
// tensix_args.cpp; results are the Dst values as float64 (exact) and, on request, the Dst bits and
// the snapshot after every fidelity pass.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "tensix_args.h"
#include "tensix_bindings.h"
#include "tensix_threads.h"
#include "tmu/audit/inputs.h"
#include "tmu/tensix/llk/matmul_tiles.h"
#include "tmu/tensix/llk/sequence.h"
#include "tmu/tensix/llk/src_datum.h"
#include "tmu/error.h"

namespace tmu::python {

namespace {

constexpr unsigned kTile = audit::kTile;

// The route= argument: which way the matmul's tiles are computed (matmul_tiles.h).
llk::Route matmul_route(const char* where, const std::string& route, const llk::RunConfig& cfg, bool snapshots) {
  llk::RunConfig c = cfg;
  c.pass_snapshots = snapshots;
  const bool tiles_apply = llk::tile_route_applies(c);
  if (route == "instructions") return llk::Route::Instructions;
  if (route == "auto") return tiles_apply ? llk::Route::Tiles : llk::Route::Instructions;
  if (route == "tiles") {
    if (!tiles_apply) value_error(where, "route", "'tiles' computes no perturbation and no snapshots (use 'instructions')");
    return llk::Route::Tiles;
  }
  value_error(where, "route", fmt::format("'{}' is not one of 'auto', 'instructions', 'tiles'", route));
}

// How b's shape broadcasts against a's (M, N), numpy-style; ValueError naming b otherwise.
llk::Broadcast broadcast_of(const SrcMatrix& b, py::ssize_t M, py::ssize_t N, const char* where) {
  if (b.rows == M && b.cols == N) return llk::Broadcast::None;
  if (b.rows == 1 && b.cols == 1) return llk::Broadcast::Scalar;
  if (b.rows == 1 && b.cols == N) return llk::Broadcast::Row;
  if (b.rows == M && b.cols == 1) return llk::Broadcast::Col;
  value_error(where, "b", fmt::format("shape ({}, {}) does not broadcast against a's ({}, {}) (expected ({}, {}), ({}, {}) for a row, "
                                      "({}, {}) for a column or (1, 1) for a scalar)",
                                      b.rows, b.cols, M, N, M, N, 1, N, M, 1));
}

// b's 32x32 tile in L1 for output tile (ti, tj): the broadcast row, column or scalar where the
// unpacker reads it (row 0, column 0, element (0, 0)), zeros elsewhere.
std::vector<audit::SrcNumber> b_tile(const SrcMatrix& b, llk::Broadcast bc, py::ssize_t ti, py::ssize_t tj) {
  std::vector<audit::SrcNumber> t(kTile * kTile);
  for (unsigned i = 0; i < kTile; ++i)
    for (unsigned j = 0; j < kTile; ++j) {
      switch (bc) {
        case llk::Broadcast::None: t[i * kTile + j] = b.at(ti * kTile + i, tj * kTile + j); break;
        case llk::Broadcast::Row: if (i == 0) t[j] = b.at(0, tj * kTile + j); break;
        case llk::Broadcast::Col: if (j == 0) t[i * kTile] = b.at(ti * kTile + i, 0); break;
        case llk::Broadcast::Scalar: if (i == 0 && j == 0) t[0] = b.at(0, 0); break;
      }
    }
  return t;
}

}  // namespace

void bind_tensix(py::module_& m) {
  m.def(
      "matmul",
      [](py::handle a_obj, py::handle b_obj, const std::string& fidelity, const std::string& src_format, const std::string& dst,
         const py::object& variant, const py::object& conversion, const py::object& perturb, const std::string& input, bool bits,
         bool snapshots, const py::object& threads, const std::string& route) {
        const char* where = "tmu.tensix.matmul";
        const TensixArgs o = parse_tensix_args(where, fidelity, src_format, dst, variant, conversion, perturb, input);
        const unsigned nthreads = thread_count(where, threads);
        const llk::Route how = matmul_route(where, route, o.cfg, snapshots);
        // Every operand converted to Src datums once: each row panel of a (column panel of b) is read
        // by a whole row (column) of output tiles. The numbers (12 bytes each) are not read again, so
        // each operand's are freed as soon as its datums (4 bytes each) exist, before the next
        // operand's numbers and the result are made: a large golden's peak memory is one operand's
        // numbers and the two operands' datums.
        const auto datums = [&](SrcMatrix& m) {
          py::gil_scoped_release release;
          std::vector<uint32_t> d(m.v.size());
          for (size_t i = 0; i < d.size(); ++i) d[i] = llk::src_datum(m.v[i], o.cfg.format);
          std::vector<audit::SrcNumber>().swap(m.v);
          return d;
        };
        SrcMatrix an = to_src(a_obj, o, where, "a");
        require_tiles(an, where, "a");
        std::vector<uint32_t> ad = datums(an);
        SrcMatrix bn = to_src(b_obj, o, where, "b");
        require_tiles(bn, where, "b");
        const py::ssize_t M = an.rows, K = an.cols, N = bn.cols;
        if (bn.rows != K) value_error(where, "b", fmt::format("has {} rows, a has {} columns (expected a (M, K) @ b (K, N))", bn.rows, K));
        std::vector<uint32_t> bd = datums(bn);
        const unsigned tiles = static_cast<unsigned>(K / kTile);
        std::vector<double> out(static_cast<size_t>(M * N));
        const py::ssize_t passes = o.cfg.phases + 1;
        std::vector<std::vector<double>> snaps;  // [k tile][pass] flattened into (M, N) planes
        if (snapshots) snaps.assign(static_cast<size_t>(tiles * passes), std::vector<double>(static_cast<size_t>(M * N)));
        {
          py::gil_scoped_release release;
          const py::ssize_t Nt = N / kTile;
          parallel_for(static_cast<size_t>((M / kTile) * Nt), nthreads, [&](size_t tile) {
            const py::ssize_t ti = static_cast<py::ssize_t>(tile) / Nt, tj = static_cast<py::ssize_t>(tile) % Nt;
            audit::MatmulCase c;
            c.format = o.cfg.format;
            c.tiles = tiles;
            // a's rows ti*32.. are contiguous; b's panel is 32 columns of each of its K rows.
            c.in0_datums.assign(ad.begin() + ti * kTile * K, ad.begin() + (ti + 1) * kTile * K);
            c.in1_datums.resize(K * kTile);
            for (py::ssize_t k = 0; k < K; ++k)
              for (unsigned j = 0; j < kTile; ++j) c.in1_datums[k * kTile + j] = bd[k * N + tj * kTile + j];
            llk::RunConfig cfg = o.cfg;
            cfg.pass_snapshots = snapshots;
            if (how == llk::Route::Tiles) {
              const std::vector<double> r = llk::matmul_tile_result(c, cfg);
              for (unsigned i = 0; i < kTile; ++i)
                for (unsigned j = 0; j < kTile; ++j) out[(ti * kTile + i) * N + tj * kTile + j] = r[i * kTile + j];
              return;
            }
            const llk::SequenceTrace t = llk::run_matmul_sequence(c, cfg);
            for (unsigned i = 0; i < kTile; ++i)
              for (unsigned j = 0; j < kTile; ++j) out[(ti * kTile + i) * N + tj * kTile + j] = t.result[i * kTile + j];
            if (snapshots) {
              for (size_t s = 0; s < t.steps.size(); ++s)
                for (size_t p = 0; p < t.steps[s].snapshots.size() && p < static_cast<size_t>(passes); ++p)
                  for (unsigned i = 0; i < kTile; ++i)
                    for (unsigned j = 0; j < kTile; ++j)
                      snaps[s * passes + p][(ti * kTile + i) * N + tj * kTile + j] = t.steps[s].snapshots[p][i * kTile + j];
            }
          });
        }
        std::vector<uint32_t>().swap(ad);  // the result is copied into numpy next: hold no more than it
        std::vector<uint32_t>().swap(bd);
        return tensix_result(out, M, N, audit::output_format(o.cfg.format, o.cfg.dst32), bits, snapshots ? &snaps : nullptr, tiles, passes);
      },
      py::arg("a"), py::arg("b"), py::kw_only(), py::arg("fidelity"), py::arg("src_format"),
      py::arg("dst"), py::arg("variant"), py::arg("conversion"), py::arg("perturb"),
      py::arg("input"), py::arg("bits"), py::arg("snapshots"), py::arg("threads"), py::arg("route") = "auto",
      "a @ b as the Tensix Matrix Unit computes it under tt-llk's matmul LLK (llk_math_matmul.h): per\n"
      "32x32 output tile, the 16-MVMUL replay once per fidelity pass for each K tile, accumulating in\n"
      "Dst (the sequence of tmu audit and of vectors/programs/matmul_32x32_hifi4.tmu).\n"
      "a: (M, K), b: (K, N), multiples of 32, real numbers the source format holds exactly (the Matrix\n"
      "Unit has no subnormals, infinities or NaNs): otherwise ValueError naming the first offending\n"
      "element, unless conversion='rne' (round to nearest even, below the smallest normal to zero) or\n"
      "conversion='unpacker' (FP32 values truncated as the unpacker converts them). input='bits' takes\n"
      "the source format's patterns instead (uint16 BF16/FP16, uint32 TF32; uint32 FP32 with\n"
      "conversion='unpacker'); see eltwise_binary for how patterns and the unpacker's conversion read.\n"
      "fidelity: LoFi, HiFi2, HiFi3, HiFi4 (any case) or 0..3; src_format: BF16, FP16, TF32; dst: FP32 or the\n"
      "16-bit Dst (BF16 for BF16/TF32 sources, FP16 for FP16); variant: blackhole (None), wormhole; perturb: a mistake of\n"
      "the audit's (skipN, repeatN, negateN, swap) to show what a wrong golden looks like.\n"
      "Returns the (M, N) float64 values (exact); with bits=True or snapshots=True a dict with\n"
      "'values', 'bits' (IEEE-order patterns of 'bits_format': uint32 FP32 or uint16 BF16/FP16) and\n"
      "'snapshots' ((K/32, passes + 1, M, N): Dst before the first pass and after each pass of each K tile).\n"
      "threads: how many threads share the output tiles (None: $TMU_THREADS, else the number of cores);\n"
      "each tile runs its own LLK sequence, so the bits are the same for any count.\n"
      "route: 'auto' (the default), 'instructions' or 'tiles'. 'instructions' issues the sequence's\n"
      "instructions on the model; 'tiles' runs the same MVMULs' arithmetic straight on the block kernel\n"
      "(bit-identical, checked by the fuzz harness diff_matmul_tiles); 'auto' takes 'tiles' unless a\n"
      "perturbation or snapshots need the instructions, and 'tiles' with either is a ValueError.\n\n"
      ">>> a = np.full((32, 32), 2.0); b = np.full((32, 32), 1.0078125)\n"
      ">>> tmu.tensix.matmul(a, b, fidelity='HiFi4')[0, 0]     # 32 * 2 * (1 + 2^-7)\n64.5\n"
      ">>> tmu.tensix.matmul(a, b, fidelity='LoFi')[0, 0]      # LoFi drops SrcA's low mantissa bits\n64.0");
  m.def(
      "eltwise_binary",
      [](const std::string& op, py::handle a_obj, py::handle b_obj, const std::string& fidelity, const std::string& src_format,
         const std::string& dst, const py::object& variant, const py::object& conversion, const py::object& perturb,
         const std::string& input, bool bits, bool snapshots, const py::object& threads) {
        const char* where = "tmu.tensix.eltwise_binary";
        const unsigned nthreads = thread_count(where, threads);
        const std::string u = lower_name(op);
        if (u != "elwmul" && u != "elwadd" && u != "elwsub") {
          value_error(where, "op", fmt::format("unknown operation '{}' (expected ELWMUL, ELWADD or ELWSUB)", op));
        }
        const bool mul = u == "elwmul";
        const TensixArgs o = parse_tensix_args(where, fidelity, src_format, dst, variant, conversion, perturb, input);
        if (!mul && o.cfg.perturb.kind != audit::Perturbation::Kind::None) {
          value_error(where, "perturb", fmt::format("{}'s MOP has no fidelity passes to perturb", u == "elwadd" ? "ELWADD" : "ELWSUB"));
        }
        const SrcMatrix an = to_src(a_obj, o, where, "a");
        require_tiles(an, where, "a");
        const SrcMatrix bn = to_src(b_obj, o, where, "b");
        const py::ssize_t M = an.rows, N = an.cols;
        const llk::Broadcast bc = broadcast_of(bn, M, N, where);
        if (bc != llk::Broadcast::None && o.cfg.perturb.kind == audit::Perturbation::Kind::SwapOperands) {
          value_error(where, "perturb", "'swap' with a broadcast b: b's broadcast tile cannot stand in for SrcA's");
        }
        std::vector<double> out(static_cast<size_t>(M * N));
        const py::ssize_t passes = mul ? o.cfg.phases + 1 : 1;
        std::vector<std::vector<double>> snaps;
        if (snapshots) snaps.assign(static_cast<size_t>(passes), std::vector<double>(static_cast<size_t>(M * N)));
        {
          py::gil_scoped_release release;
          const py::ssize_t Nt = N / kTile;
          parallel_for(static_cast<size_t>((M / kTile) * Nt), nthreads, [&](size_t tile) {
            const py::ssize_t ti = static_cast<py::ssize_t>(tile) / Nt, tj = static_cast<py::ssize_t>(tile) % Nt;
            audit::EltwiseCase c;
            c.format = o.cfg.format;
            c.a.resize(kTile * kTile);
            c.b = b_tile(bn, bc, ti, tj);
            c.dst_init.assign(kTile * kTile, 0.0);
            for (unsigned i = 0; i < kTile; ++i)
              for (unsigned j = 0; j < kTile; ++j) c.a[i * kTile + j] = an.at(ti * kTile + i, tj * kTile + j);
            const llk::SequenceTrace t =
                mul ? llk::run_eltwise_sequence(c, o.cfg, bc)
                    : llk::run_eltwise_addsub_sequence(c, o.cfg, u == "elwadd" ? llk::AddSub::Add : llk::AddSub::Sub, bc);
            for (unsigned i = 0; i < kTile; ++i)
              for (unsigned j = 0; j < kTile; ++j) out[(ti * kTile + i) * N + tj * kTile + j] = t.result[i * kTile + j];
            if (snapshots) {
              // One step per face; each writes its own elements, so the planes merge.
              for (const auto& step : t.steps)
                for (size_t p = 0; p < step.snapshots.size() && p < static_cast<size_t>(passes); ++p)
                  for (size_t n = 0; n < step.elements.size(); ++n) {
                    // snapshots[p][n] is element elements[n] of the tile (the face's, not the tile's order).
                    const unsigned e = step.elements[n];
                    snaps[p][(ti * kTile + e / kTile) * N + tj * kTile + e % kTile] = step.snapshots[p][n];
                  }
            }
          });
        }
        return tensix_result(out, M, N, audit::output_format(o.cfg.format, o.cfg.dst32), bits, snapshots ? &snaps : nullptr, 1, passes);
      },
      py::arg("op"), py::arg("a"), py::arg("b"), py::kw_only(), py::arg("fidelity"), py::arg("src_format"),
      py::arg("dst"), py::arg("variant"), py::arg("conversion"), py::arg("perturb"),
      py::arg("input"), py::arg("bits"), py::arg("snapshots"), py::arg("threads"),
      "op(a, b) element by element as the Matrix Unit computes it under tt-llk's eltwise binary LLK\n"
      "(llk_math_eltwise_binary.h), per 32x32 tile, a to SrcA and b to SrcB (llk_unpack_AB.h), Dst\n"
      "starting at zero:\n"
      "  ELWMUL  a * b: the high-fidelity MOP, one pass per fidelity phase;\n"
      "  ELWADD  a + b, ELWSUB  a - b (ELWSUB.md: Dst = SrcA - SrcB): one MOP for both, no fidelity\n"
      "          loop (the LLK allows LoFi only; other fidelities change nothing).\n"
      "a: (M, N), multiples of 32. b broadcasts numpy-style (tt-llk's BroadcastType):\n"
      "  (M, N)  no broadcast;\n"
      "  (1, N)  ROW: b[0, j] for every row (the ELW instructions' BroadcastSrcBRow; SrcB row 0 of\n"
      "          each face is assumed to hold b's row, as llk_unpack_AB.h's ROW unpack leaves it);\n"
      "  (M, 1)  COL: b[i, 0] for every column (BroadcastSrcBCol0; SrcB column 0 holds b's column,\n"
      "          one SrcB fill per face row);\n"
      "  (1, 1)  SCALAR: b[0, 0] everywhere (both fields; SrcB[0][0] holds it, one fill per tile).\n"
      "  Any other shape of b is a ValueError naming b and these shapes.\n"
      "input='values' (default): real numbers the source format holds exactly (ValueError naming the\n"
      "first offending element) unless conversion='rne' (round to nearest even, below the smallest\n"
      "normal to zero). input='bits': numpy arrays of the format's patterns, dtype exactly uint16\n"
      "(BF16, FP16) or uint32 (TF32 in binary32's frame, bits 12:0 zero), read as the Matrix Unit\n"
      "reads Src: exponent field 0 (zeros and IEEE subnormals) is zero, and the all-ones exponent is\n"
      "an ordinary number (FloatBitPatterns.md; no infinities or NaNs on the Matrix Unit).\n"
      "conversion='unpacker': FP32 data converted as the unpacker does when it reads L1 into Src\n"
      "(UNPACR_Regular.md, FormatConversion): TF32 drops the low 13 mantissa bits, BF16 flushes\n"
      "FP32 denormals to signed zero then drops the low 16 bits; truncation, never rounding. Values\n"
      "must then be exactly FP32 numbers; with input='bits', uint32 FP32 patterns (NaN and infinity\n"
      "patterns keep their bits and become all-ones-exponent numbers). FP16 is refused: the ISA page\n"
      "leaves its FP32->FP16 conversion undefined.\n"
      "fidelity, src_format, dst, variant, perturb (ELWMUL only; 'swap' not with a broadcast), bits,\n"
      "snapshots and threads as for matmul.\n\n"
      ">>> x = np.full((32, 32), 1.0078125)            # BF16 1 + 2^-7\n"
      ">>> tmu.tensix.eltwise_binary('ELWMUL', x, x)[0, 0]        # (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14, exact in FP32\n"
      "1.01568603515625\n"
      ">>> row = np.arange(32.0).reshape(1, 32)        # 0, 1, ..., 31\n"
      ">>> tmu.tensix.eltwise_binary('ELWSUB', x, row)[5, 3]      # 1.0078125 - 3\n"
      "-1.9921875\n"
      ">>> one = np.full((32, 32), 0x3f80, np.uint16)  # BF16 1.0; 0x0001 is an IEEE subnormal: 0 here\n"
      ">>> tmu.tensix.eltwise_binary('ELWADD', one, np.array([[0x0001]], np.uint16), input='bits')[0, 0]\n"
      "1.0\n"
      ">>> f = np.full((32, 32), 1.00390625)           # FP32 1 + 2^-8: not a BF16 number\n"
      ">>> tmu.tensix.eltwise_binary('ELWADD', f, f, conversion='unpacker')[0, 0]   # truncated to 1 each\n"
      "2.0");
  m.def(
      "unpacker_conversion",
      [](py::handle bits_obj, const std::string& src_format) {
        const char* where = "tmu.tensix.unpacker_conversion";
        auto f = audit::parse_src_format(lower_name(src_format));
        if (!f) value_error(where, "src_format", fmt::format("unknown source format '{}' (expected BF16 or TF32)", src_format));
        if (!unpacker_from_fp32(0, *f)) {
          value_error(where, "src_format", "FP16: the ISA's UNPACR functional model names FP32ToFP16 without defining it");
        }
        const auto in = exact_dtype<uint32_t>(bits_obj, where, "bits");
        std::vector<py::ssize_t> shape(in.shape(), in.shape() + in.ndim());
        const uint32_t* p = in.data();
        if (*f == audit::SrcFormat::TF32) {
          py::array_t<uint32_t> out(shape);
          for (py::ssize_t i = 0; i < in.size(); ++i) out.mutable_data()[i] = *unpacker_from_fp32(p[i], *f);
          return py::object(std::move(out));
        }
        py::array_t<uint16_t> out(shape);
        for (py::ssize_t i = 0; i < in.size(); ++i) out.mutable_data()[i] = static_cast<uint16_t>(*unpacker_from_fp32(p[i], *f));
        return py::object(std::move(out));
      },
      py::arg("bits"), py::arg("src_format"),
      "The Src patterns the unpacker writes for FP32 patterns read from L1 (uint32 array): BF16 as\n"
      "uint16, TF32 as uint32 in binary32's frame. ISA UNPACR_Regular.md, FormatConversion: TF32 keeps\n"
      "bits 31:13 (truncation); BF16 turns an exponent-0 input (zero or denormal) into a zero of its\n"
      "sign, then keeps bits 31:16. NaN and infinity patterns pass through as bits. FP16 is refused\n"
      "(the page leaves FP32ToFP16 undefined).\n\n"
      ">>> tmu.tensix.unpacker_conversion(np.array([0x3f81ffff, 0x00400000], np.uint32), 'BF16')\n"
      "array([16257,     0], dtype=uint16)");
  m.def("fidelities", [] { return py::make_tuple("LoFi", "HiFi2", "HiFi3", "HiFi4"); }, "The fidelity names, fewest passes first.");
}

void bind_engine_tensix(py::module_& parent) {
  auto m = parent.def_submodule("tensix", "The Tensix Matrix Unit through tt-llk's LLK sequences.");
  bind_tensix(m);
  bind_tensix_reduce(m);
  bind_tensix_l1(m);
  bind_tensix_machine(m);
}

}  // namespace tmu::python
