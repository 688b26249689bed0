// tmu.tensix: the Tensix Matrix Unit's results for whole matrices, computed by the same LLK
// instruction sequences the precision audit runs on the bit-exact model (refmodel/audit/
// include/tmu/audit/sequence.h: tt-llk's llk_math_matmul.h replay per 32x32 tile pair, K tiles
// accumulating in Dst; llk_math_eltwise_binary.h's ELWMUL and ELWADD MOPs per tile). Inputs are
// float arrays whose values the source format holds exactly (or rounded, when a conversion is
// named); results are the Dst values as float64 (exact) and, on request, the Dst bits and the
// snapshot after every fidelity pass.
#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "tmu/audit/exact.h"
#include "tmu/audit/inputs.h"
#include "tmu/audit/sequence.h"
#include "tmu/audit/src_number.h"
#include "tmu/error.h"
#include "tmu/ieee.h"

namespace tmu::python {

namespace {

using audit::SrcFormat;
using audit::SrcNumber;
constexpr unsigned kTile = audit::kTile;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Options {
  audit::RunConfig cfg;
  std::optional<std::string> conversion;  // nullopt: values must be exact; "rne"
};

Options parse_options(const char* where, const std::string& fidelity, const std::string& src_format, const std::string& dst,
                      const std::string& arch, const py::object& conversion, const py::object& perturb) {
  Options o;
  const std::string fid = lower(fidelity);
  if (fid == "lofi") o.cfg.phases = 1;
  else if (fid == "hifi2") o.cfg.phases = 2;
  else if (fid == "hifi3") o.cfg.phases = 3;
  else if (fid == "hifi4") o.cfg.phases = 4;
  else value_error(where, "fidelity", fmt::format("unknown fidelity '{}' (expected LoFi, HiFi2, HiFi3 or HiFi4)", fidelity));
  auto f = audit::parse_src_format(lower(src_format));
  if (!f) value_error(where, "src_format", fmt::format("unknown source format '{}' (expected BF16, FP16 or TF32)", src_format));
  o.cfg.format = *f;
  const std::string d = lower(dst);
  const std::string dst16 = lower(audit::info(*f).dst16.name);
  if (d == "fp32") o.cfg.dst32 = true;
  else if (d == dst16 || d == "16") o.cfg.dst32 = false;
  else value_error(where, "dst", fmt::format("unknown Dst mode '{}' for {} sources (expected FP32, or {} for the 16-bit Dst)", dst,
                                            audit::info(*f).name, audit::info(*f).dst16.name));
  const std::string a = lower(arch);
  if (a == "blackhole") o.cfg.arch = Arch::Blackhole;
  else if (a == "wormhole") o.cfg.arch = Arch::Wormhole;
  else value_error(where, "arch", fmt::format("unknown arch '{}' (expected blackhole or wormhole)", arch));
  if (!perturb.is_none()) {
    if (!py::isinstance<py::str>(perturb)) type_error(where, "perturb", "expected a str or None");
    auto p = audit::parse_perturbation(perturb.cast<std::string>());
    if (!p) value_error(where, "perturb", fmt::format("unknown perturbation '{}' (expected none, skipN, repeatN, negateN with N "
                                                      "a phase 0..3, or swap)", perturb.cast<std::string>()));
    if (p->kind != audit::Perturbation::Kind::None && p->kind != audit::Perturbation::Kind::SwapOperands &&
        p->phase >= o.cfg.phases) {
      value_error(where, "perturb", fmt::format("'{}' names phase {}, but {} runs phases 0..{}", perturb.cast<std::string>(),
                                                p->phase, fidelity, o.cfg.phases - 1));
    }
    o.cfg.perturb = *p;
  }
  if (!conversion.is_none()) {
    if (!py::isinstance<py::str>(conversion) || conversion.cast<std::string>() != "rne") {
      value_error(where, "conversion", "expected None (values must be exact in the source format) or 'rne' (round to nearest, "
                                       "ties to even; below the smallest normal to zero, as the unpacker's format has no subnormals)");
    }
    o.conversion = "rne";
  }
  return o;
}

// The numbers of a float64 matrix in the source format: exact (ValueError naming the first index
// that is not a number of the format: the Matrix Unit has no subnormals, infinities or NaNs), or
// rounded to nearest even with values below the smallest normal flushed to zero.
std::vector<SrcNumber> to_src(const py::array_t<double, py::array::c_style>& a, SrcFormat f, bool round,
                              const char* where, const char* arg) {
  const audit::SrcFormatInfo& fi = audit::info(f);
  const int drop = 52 - fi.mantissa_bits;
  std::vector<SrcNumber> out(static_cast<size_t>(a.size()));
  const double* d = a.data();
  const auto cols = a.shape(1);
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    const ieee::Unpacked u = ieee::unpack(ieee::kBinary64, std::bit_cast<uint64_t>(d[i]));
    auto refuse = [&](const std::string& why) {
      value_error(where, arg, fmt::format("element ({}, {}) = {} {}", i / cols, i % cols, py::repr(py::float_(d[i])).cast<std::string>(), why));
    };
    if (u.cls == ieee::Class::Zero) {
      out[i] = SrcNumber{u.sign ? 1u : 0u, 0, 0};
      continue;
    }
    if (u.cls != ieee::Class::Normal && u.cls != ieee::Class::Subnormal) refuse(fmt::format("is not a number the Matrix Unit's {} holds", fi.name));
    // value = significand * 2^(exponent - 52); normalise subnormal binary64 (never a normal here anyway).
    uint64_t sig = u.significand;
    int e = u.exponent;
    while (!(sig >> 52)) sig <<= 1, --e;
    uint64_t kept = sig >> drop;
    const uint64_t rest = sig & ((uint64_t{1} << drop) - 1);
    if (rest != 0) {
      if (!round) refuse(fmt::format("is not exactly a {} number (pass conversion='rne' to round)", fi.name));
      const uint64_t half = uint64_t{1} << (drop - 1);
      if (rest > half || (rest == half && (kept & 1))) ++kept;
      if (kept >> (fi.mantissa_bits + 1)) kept >>= 1, ++e;
    }
    if (e < fi.emin) {
      if (!round) refuse(fmt::format("is below {}'s smallest normal 2^{} (the Matrix Unit has no subnormals)", fi.name, fi.emin));
      out[i] = SrcNumber{u.sign ? 1u : 0u, 0, 0};
      continue;
    }
    if (e > fi.emax) refuse(fmt::format("is beyond {}'s largest number", fi.name));
    out[i] = SrcNumber{u.sign ? 1u : 0u, e, static_cast<uint32_t>(kept)};
  }
  return out;
}

// A Dst value (exact in double) as the IEEE-order pattern of the output format: sign, biased
// exponent, fraction. The Matrix Unit's all-ones exponent is an ordinary number, which this keeps.
uint32_t dst_bits(double v, const audit::OutFormat& f) {
  const int frac = f.precision - 1;
  const int width = f.precision == 24 ? 32 : 16;
  const int bias = f.emax;
  const ieee::Unpacked u = ieee::unpack(ieee::kBinary64, std::bit_cast<uint64_t>(v));
  const uint32_t sign = u.sign ? 1u << (width - 1) : 0;
  if (u.cls == ieee::Class::Zero) return sign;
  const auto biased = static_cast<uint32_t>(u.exponent + bias);
  const auto fraction = static_cast<uint32_t>((u.significand >> (52 - frac)) & ((uint64_t{1} << frac) - 1));
  return sign | (biased << frac) | fraction;
}

py::array_t<double, py::array::c_style> matrix_arg(py::handle obj, const char* where, const char* arg) {
  auto a = as_float64(obj, where, arg);
  if (a.ndim() != 2) value_error(where, arg, fmt::format("expected a 2-D array, got {} dimensions", a.ndim()));
  if (a.shape(0) % kTile || a.shape(1) % kTile || a.shape(0) == 0 || a.shape(1) == 0) {
    value_error(where, arg, fmt::format("shape ({}, {}) is not a non-empty multiple of the 32x32 tile", a.shape(0), a.shape(1)));
  }
  return a;
}

// The result dict or array: values always; bits and snapshots when asked.
py::object result(const std::vector<double>& values, py::ssize_t rows, py::ssize_t cols, const audit::OutFormat& of, bool bits,
                  const std::vector<std::vector<double>>* snaps, py::ssize_t steps, py::ssize_t passes) {
  py::array_t<double> v({rows, cols});
  std::copy(values.begin(), values.end(), v.mutable_data());
  if (!bits && !snaps) return std::move(v);
  py::dict d;
  d["values"] = v;
  if (bits) {
    if (of.precision == 24) {
      py::array_t<uint32_t> b({rows, cols});
      for (size_t i = 0; i < values.size(); ++i) b.mutable_data()[i] = dst_bits(values[i], of);
      d["bits"] = b;
    } else {
      py::array_t<uint16_t> b({rows, cols});
      for (size_t i = 0; i < values.size(); ++i) b.mutable_data()[i] = static_cast<uint16_t>(dst_bits(values[i], of));
      d["bits"] = b;
    }
    d["bits_format"] = of.name;
  }
  if (snaps) {
    py::array_t<double> s({steps, passes, rows, cols});
    double* p = s.mutable_data();
    for (size_t k = 0; k < snaps->size(); ++k) std::copy((*snaps)[k].begin(), (*snaps)[k].end(), p + k * rows * cols);
    d["snapshots"] = s;
  }
  return std::move(d);
}

}  // namespace

void bind_tensix(py::module_& m) {
  m.def(
      "matmul",
      [](py::handle a_obj, py::handle b_obj, const std::string& fidelity, const std::string& src_format, const std::string& dst,
         const std::string& arch, const py::object& conversion, const py::object& perturb, bool bits, bool snapshots) {
        const char* where = "tmu.tensix.matmul";
        const Options o = parse_options(where, fidelity, src_format, dst, arch, conversion, perturb);
        const auto a = matrix_arg(a_obj, where, "a");
        const auto b = matrix_arg(b_obj, where, "b");
        const py::ssize_t M = a.shape(0), K = a.shape(1), N = b.shape(1);
        if (b.shape(0) != K) value_error(where, "b", fmt::format("has {} rows, a has {} columns (expected a (M, K) @ b (K, N))", b.shape(0), K));
        const auto an = to_src(a, o.cfg.format, o.conversion.has_value(), where, "a");
        const auto bn = to_src(b, o.cfg.format, o.conversion.has_value(), where, "b");
        const unsigned tiles = static_cast<unsigned>(K / kTile);
        std::vector<double> out(static_cast<size_t>(M * N));
        const py::ssize_t passes = o.cfg.phases + 1;
        std::vector<std::vector<double>> snaps;  // [k tile][pass] flattened into (M, N) planes
        if (snapshots) snaps.assign(static_cast<size_t>(tiles * passes), std::vector<double>(static_cast<size_t>(M * N)));
        {
          py::gil_scoped_release release;
          for (py::ssize_t ti = 0; ti < M / kTile; ++ti) {
            for (py::ssize_t tj = 0; tj < N / kTile; ++tj) {
              audit::MatmulCase c;
              c.format = o.cfg.format;
              c.tiles = tiles;
              c.in0.resize(kTile * K);
              c.in1.resize(K * kTile);
              for (unsigned i = 0; i < kTile; ++i)
                for (py::ssize_t k = 0; k < K; ++k) c.in0[i * K + k] = an[(ti * kTile + i) * K + k];
              for (py::ssize_t k = 0; k < K; ++k)
                for (unsigned j = 0; j < kTile; ++j) c.in1[k * kTile + j] = bn[k * N + tj * kTile + j];
              const audit::SequenceTrace t = audit::run_matmul_sequence(c, o.cfg);
              for (unsigned i = 0; i < kTile; ++i)
                for (unsigned j = 0; j < kTile; ++j) out[(ti * kTile + i) * N + tj * kTile + j] = t.result[i * kTile + j];
              if (snapshots) {
                for (size_t s = 0; s < t.steps.size(); ++s)
                  for (size_t p = 0; p < t.steps[s].snapshots.size() && p < static_cast<size_t>(passes); ++p)
                    for (unsigned i = 0; i < kTile; ++i)
                      for (unsigned j = 0; j < kTile; ++j)
                        snaps[s * passes + p][(ti * kTile + i) * N + tj * kTile + j] = t.steps[s].snapshots[p][i * kTile + j];
              }
            }
          }
        }
        return result(out, M, N, audit::output_format(o.cfg.format, o.cfg.dst32), bits, snapshots ? &snaps : nullptr, tiles, passes);
      },
      py::arg("a"), py::arg("b"), py::kw_only(), py::arg("fidelity") = "HiFi4", py::arg("src_format") = "BF16",
      py::arg("dst") = "FP32", py::arg("arch") = "blackhole", py::arg("conversion") = py::none(), py::arg("perturb") = py::none(),
      py::arg("bits") = false, py::arg("snapshots") = false,
      "a @ b as the Tensix Matrix Unit computes it under tt-llk's matmul LLK (llk_math_matmul.h): per\n"
      "32x32 output tile, the 16-MVMUL replay once per fidelity pass for each K tile, accumulating in\n"
      "Dst (the sequence of tmu audit and of vectors/programs/matmul_32x32_hifi4.tmu).\n"
      "a: (M, K), b: (K, N), multiples of 32, real numbers the source format holds exactly (the Matrix\n"
      "Unit has no subnormals, infinities or NaNs): otherwise ValueError naming the first offending\n"
      "element, unless conversion='rne' (round to nearest even, below the smallest normal to zero).\n"
      "fidelity: LoFi, HiFi2, HiFi3, HiFi4; src_format: BF16, FP16, TF32; dst: FP32 or the 16-bit Dst\n"
      "(BF16 for BF16/TF32 sources, FP16 for FP16); arch: blackhole, wormhole; perturb: a mistake of\n"
      "the audit's (skipN, repeatN, negateN, swap) to show what a wrong golden looks like.\n"
      "Returns the (M, N) float64 values (exact); with bits=True or snapshots=True a dict with\n"
      "'values', 'bits' (IEEE-order patterns of 'bits_format': uint32 FP32 or uint16 BF16/FP16) and\n"
      "'snapshots' ((K/32, passes + 1, M, N): Dst before the first pass and after each pass of each K tile).\n\n"
      ">>> a = np.full((32, 32), 2.0); b = np.full((32, 32), 1.0078125)\n"
      ">>> tmu.tensix.matmul(a, b, fidelity='HiFi4')[0, 0]     # 32 * 2 * (1 + 2^-7)\n64.5\n"
      ">>> tmu.tensix.matmul(a, b, fidelity='LoFi')[0, 0]      # LoFi drops SrcA's low mantissa bits\n64.0");
  m.def(
      "eltwise_binary",
      [](const std::string& op, py::handle a_obj, py::handle b_obj, const std::string& fidelity, const std::string& src_format,
         const std::string& dst, const std::string& arch, const py::object& conversion, const py::object& perturb, bool bits,
         bool snapshots) {
        const char* where = "tmu.tensix.eltwise_binary";
        const std::string u = lower(op);
        if (u != "elwmul" && u != "elwadd" && u != "elwsub") {
          value_error(where, "op", fmt::format("unknown operation '{}' (expected ELWMUL, ELWADD or ELWSUB)", op));
        }
        if (u == "elwsub") throw Error(ErrorKind::Unsupported, "ELWSUB: the audit has no LLK sequence for it yet (ELWMUL and ELWADD have)");
        const Options o = parse_options(where, fidelity, src_format, dst, arch, conversion, perturb);
        if (u == "elwadd" && o.cfg.perturb.kind != audit::Perturbation::Kind::None) {
          value_error(where, "perturb", "ELWADD's MOP has no fidelity passes to perturb");
        }
        const auto a = matrix_arg(a_obj, where, "a");
        const auto b = matrix_arg(b_obj, where, "b");
        if (a.shape(0) != b.shape(0) || a.shape(1) != b.shape(1)) {
          value_error(where, "b", fmt::format("shape ({}, {}) differs from a's ({}, {})", b.shape(0), b.shape(1), a.shape(0), a.shape(1)));
        }
        const py::ssize_t M = a.shape(0), N = a.shape(1);
        const auto an = to_src(a, o.cfg.format, o.conversion.has_value(), where, "a");
        const auto bn = to_src(b, o.cfg.format, o.conversion.has_value(), where, "b");
        std::vector<double> out(static_cast<size_t>(M * N));
        const py::ssize_t passes = u == "elwadd" ? 1 : o.cfg.phases + 1;
        std::vector<std::vector<double>> snaps;
        if (snapshots) snaps.assign(static_cast<size_t>(passes), std::vector<double>(static_cast<size_t>(M * N)));
        {
          py::gil_scoped_release release;
          for (py::ssize_t ti = 0; ti < M / kTile; ++ti) {
            for (py::ssize_t tj = 0; tj < N / kTile; ++tj) {
              audit::EltwiseCase c;
              c.format = o.cfg.format;
              c.a.resize(kTile * kTile), c.b.resize(kTile * kTile);
              c.dst_init.assign(kTile * kTile, 0.0);
              for (unsigned i = 0; i < kTile; ++i)
                for (unsigned j = 0; j < kTile; ++j) {
                  c.a[i * kTile + j] = an[(ti * kTile + i) * N + tj * kTile + j];
                  c.b[i * kTile + j] = bn[(ti * kTile + i) * N + tj * kTile + j];
                }
              const audit::SequenceTrace t = u == "elwadd" ? audit::run_eltwise_add_sequence(c, o.cfg) : audit::run_eltwise_sequence(c, o.cfg);
              for (unsigned i = 0; i < kTile; ++i)
                for (unsigned j = 0; j < kTile; ++j) out[(ti * kTile + i) * N + tj * kTile + j] = t.result[i * kTile + j];
              if (snapshots) {
                // One step per face; each writes its own elements, so the planes merge.
                for (const auto& step : t.steps)
                  for (size_t p = 0; p < step.snapshots.size() && p < static_cast<size_t>(passes); ++p)
                    for (unsigned e : step.elements)
                      snaps[p][(ti * kTile + e / kTile) * N + tj * kTile + e % kTile] = step.snapshots[p][e];
              }
            }
          }
        }
        return result(out, M, N, audit::output_format(o.cfg.format, o.cfg.dst32), bits, snapshots ? &snaps : nullptr, 1, passes);
      },
      py::arg("op"), py::arg("a"), py::arg("b"), py::kw_only(), py::arg("fidelity") = "HiFi4", py::arg("src_format") = "BF16",
      py::arg("dst") = "FP32", py::arg("arch") = "blackhole", py::arg("conversion") = py::none(), py::arg("perturb") = py::none(),
      py::arg("bits") = false, py::arg("snapshots") = false,
      "op(a, b) element by element as the Matrix Unit computes it under tt-llk's eltwise binary LLK\n"
      "(llk_math_eltwise_binary.h): ELWMUL's high-fidelity MOP (one pass per fidelity phase) or ELWADD's\n"
      "MOP (no fidelity loop), per 32x32 tile, a to SrcA and b to SrcB, Dst starting at zero. Arguments,\n"
      "refusals and the result as for matmul; a and b have the same shape, a multiple of 32x32.\n"
      "ELWSUB raises tmu.Unsupported (no LLK sequence for it in the audit yet); no broadcast yet.\n\n"
      ">>> x = np.full((32, 32), 1.0078125)            # BF16 1 + 2^-7\n"
      ">>> tmu.tensix.eltwise_binary('ELWMUL', x, x)[0, 0]        # (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14, exact in FP32\n1.01568603515625");
  m.def("fidelities", [] { return py::make_tuple("LoFi", "HiFi2", "HiFi3", "HiFi4"); }, "The fidelity names, fewest passes first.");
}

}  // namespace tmu::python
