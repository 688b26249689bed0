// tmu.tensix's shared argument parsing and operand conversion (tensix_args.h).
#include "tensix_args.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>

#include "tmu/ieee.h"
#include "tmu/tensix/fidelity.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::python {

namespace {

using audit::SrcFormat;
using audit::SrcNumber;

std::string element(py::ssize_t i, py::ssize_t cols) { return fmt::format("element ({}, {})", i / cols, i % cols); }

std::string repr(double d) { return py::repr(py::float_(d)).cast<std::string>(); }

// A float64 value as a number of the source format: exact (refused otherwise) or rounded to nearest
// even with magnitudes below the smallest normal flushed to zero. `refuse` does not return.
template <typename Refuse>
SrcNumber value_to_src(double d, const audit::SrcFormatInfo& fi, bool round, const Refuse& refuse) {
  const ieee::Unpacked u = ieee::unpack(ieee::kBinary64, std::bit_cast<uint64_t>(d));
  if (u.cls == ieee::Class::Zero) return SrcNumber{u.sign ? 1u : 0u, 0, 0};
  if (u.cls != ieee::Class::Normal && u.cls != ieee::Class::Subnormal) {
    refuse(fmt::format("is not a number the Matrix Unit's {} holds", fi.name));
  }
  const int drop = 52 - fi.mantissa_bits;
  uint64_t sig = u.significand;
  int e = u.exponent;
  while (!(sig >> 52)) sig <<= 1, --e;  // a binary64 subnormal, normalised (always below emin here)
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
    return SrcNumber{u.sign ? 1u : 0u, 0, 0};
  }
  if (e > fi.emax) refuse(fmt::format("is beyond {}'s largest number", fi.name));
  return SrcNumber{u.sign ? 1u : 0u, e, static_cast<uint32_t>(kept)};
}

// The FP32 pattern of a float64 value FP32 holds exactly (subnormals and infinities included).
template <typename Refuse>
uint32_t value_to_fp32(double d, const Refuse& refuse) {
  const uint64_t bits = std::bit_cast<uint64_t>(d);
  if (ieee::is_nan(ieee::kBinary64, bits)) {
    refuse("is NaN, which has no one FP32 pattern (pass the uint32 patterns with input='bits')");
  }
  const ieee::Result r = ieee::convert(ieee::kBinary64, ieee::kBinary32, bits);
  if (r.flags.inexact || r.flags.overflow || r.flags.underflow) {
    refuse("is not exactly an FP32 number (conversion='unpacker' reads FP32 data; round it to float32 first)");
  }
  return static_cast<uint32_t>(r.bits);
}

template <typename T, typename Each>
void each_pattern(py::handle obj, const char* where, const char* arg, SrcMatrix& m, const Each& each) {
  const auto a = exact_dtype<T>(obj, where, arg);
  if (a.ndim() != 2) value_error(where, arg, fmt::format("expected a 2-D array, got {} dimensions", a.ndim()));
  m.rows = a.shape(0), m.cols = a.shape(1);
  m.v.resize(static_cast<size_t>(a.size()));
  const T* p = a.data();
  for (py::ssize_t i = 0; i < a.size(); ++i) m.v[static_cast<size_t>(i)] = each(static_cast<uint32_t>(p[i]), i);
}

}  // namespace

std::string lower_name(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

TensixArgs parse_tensix_args(const char* where, const std::string& fidelity, const std::string& src_format,
                             const std::string& dst, const py::object& variant, const py::object& conversion,
                             const py::object& perturb, const std::string& input) {
  TensixArgs o;
  if (const auto phases = fidelity_phases(fidelity)) o.cfg.phases = *phases;
  else value_error(where, "fidelity", fmt::format("unknown fidelity '{}' (expected LoFi, HiFi2, HiFi3 or HiFi4, any case, "
                                                  "or 0..3, the level's last phase)", fidelity));
  auto f = audit::parse_src_format(lower_name(src_format));
  if (!f) value_error(where, "src_format", fmt::format("unknown source format '{}' (expected BF16, FP16 or TF32)", src_format));
  o.cfg.format = *f;
  const audit::SrcFormatInfo& fi = audit::info(*f);
  const std::string d = lower_name(dst);
  if (d == "fp32") o.cfg.dst32 = true;
  else if (d == lower_name(fi.acc16.name) || d == "16") o.cfg.dst32 = false;
  else value_error(where, "dst", fmt::format("unknown Dst mode '{}' for {} sources (expected FP32, or {} for the 16-bit Dst)", dst,
                                            fi.name, fi.acc16.name));
  const std::string arch = variant.is_none() ? "blackhole" : str_arg(variant, where, "variant");
  const std::string a = lower_name(arch);
  if (a == "blackhole") o.cfg.arch = Arch::Blackhole;
  else if (a == "wormhole") o.cfg.arch = Arch::Wormhole;
  else value_error(where, "variant", fmt::format("unknown arch '{}' (expected blackhole or wormhole)", arch));
  if (!perturb.is_none()) {
    if (!py::isinstance<py::str>(perturb)) type_error(where, "perturb", "expected a str or None");
    auto p = audit::parse_perturbation(perturb.cast<std::string>());
    if (!p) value_error(where, "perturb", fmt::format("unknown perturbation '{}' (expected none, skipN with N a phase "
                                                      "1..3, repeatN or negateN with N 0..3, or swap)", perturb.cast<std::string>()));
    if (p->kind != audit::Perturbation::Kind::None && p->kind != audit::Perturbation::Kind::SwapOperands &&
        p->phase >= o.cfg.phases) {
      value_error(where, "perturb", fmt::format("'{}' names phase {}, but {} runs phases 0..{}", perturb.cast<std::string>(),
                                                p->phase, fidelity, o.cfg.phases - 1));
    }
    o.cfg.perturb = *p;
  }
  const std::string in = lower_name(input);
  if (in == "values") o.input = InputKind::Values;
  else if (in == "bits") o.input = InputKind::Bits;
  else value_error(where, "input", fmt::format("unknown input kind '{}' (expected 'values' or 'bits')", input));
  if (!conversion.is_none()) {
    const std::string c = py::isinstance<py::str>(conversion) ? conversion.cast<std::string>() : std::string();
    if (c == "rne") o.conversion = Conversion::Rne;
    else if (c == "unpacker") o.conversion = Conversion::Unpacker;
    else value_error(where, "conversion", "expected None (values must be exact in the source format), 'rne' (round to nearest, "
                                          "ties to even; below the smallest normal to zero, as the Matrix Unit has no subnormals) "
                                          "or 'unpacker' (FP32 data converted as the unpacker does)");
  }
  if (o.conversion == Conversion::Rne && o.input == InputKind::Bits) {
    value_error(where, "conversion", "'rne' rounds values; input='bits' patterns are already the source format's (pass "
                                     "conversion=None, or 'unpacker' for FP32 patterns)");
  }
  if (o.conversion == Conversion::Unpacker && *f == SrcFormat::FP16) {
    value_error(where, "conversion", "'unpacker' for FP16 sources: the ISA's UNPACR functional model names FP32ToFP16 without "
                                     "defining it (rounding, denormals and overflow unknown), so the model does not guess");
  }
  return o;
}

std::optional<uint32_t> unpacker_from_fp32(uint32_t fp32, SrcFormat f) {
  switch (f) {
    // The unpacker's conversions (tmu/tensix/l1_formats.h), from the Src datum back to binary32's frame.
    case SrcFormat::TF32: {
      const uint32_t d = tensix::fp32_truncate_to_src_tf32(fp32);
      return tensix::src_layout::sign(d) << 31 | tensix::src_layout::exponent(d) << 23 | tensix::src_layout::mantissa(d) << 13;
    }
    case SrcFormat::BF16: {
      const uint32_t d = tensix::fp32_truncate_to_src_bf16(fp32);
      return tensix::src_layout::sign(d) << 15 | tensix::src_layout::exponent(d) << 7 | tensix::src_layout::mantissa_hi7(d);
    }
    case SrcFormat::FP16: return std::nullopt;
  }
  return std::nullopt;
}

SrcNumber src_number_of_pattern(uint32_t pattern, SrcFormat f) {
  const audit::SrcFormatInfo& fi = audit::info(f);
  const unsigned exp_bits = f == SrcFormat::FP16 ? 5 : 8;
  const uint32_t p = f == SrcFormat::TF32 ? pattern >> 13 : pattern;  // TF32 from binary32's frame: 19 bits
  const uint32_t mantissa = p & ((uint32_t{1} << fi.mantissa_bits) - 1);
  const uint32_t exponent = (p >> fi.mantissa_bits) & ((uint32_t{1} << exp_bits) - 1);
  const uint32_t sign = (p >> (fi.mantissa_bits + exp_bits)) & 1u;
  if (exponent == 0) return SrcNumber{sign, 0, 0};
  return audit::src_from_fields(sign, static_cast<int32_t>(exponent) - fi.bias, mantissa, f);
}

SrcMatrix to_src(py::handle obj, const TensixArgs& args, const char* where, const char* arg) {
  const SrcFormat f = args.cfg.format;
  const audit::SrcFormatInfo& fi = audit::info(f);
  SrcMatrix m;
  if (args.input == InputKind::Bits) {
    auto refuse = [&](py::ssize_t i, uint32_t bits, const std::string& why) {
      value_error(where, arg, fmt::format("{} = {:#x} {}", element(i, m.cols), bits, why));
    };
    if (args.conversion == Conversion::Unpacker) {
      each_pattern<uint32_t>(obj, where, arg, m, [&](uint32_t b, py::ssize_t) { return src_number_of_pattern(*unpacker_from_fp32(b, f), f); });
    } else if (f == SrcFormat::TF32) {
      each_pattern<uint32_t>(obj, where, arg, m, [&](uint32_t b, py::ssize_t i) {
        if (b & 0x1FFF) refuse(i, b, "is not a TF32 pattern: TF32 keeps bits 12:0 zero in binary32's frame");
        return src_number_of_pattern(b, f);
      });
    } else {
      each_pattern<uint16_t>(obj, where, arg, m, [&](uint32_t b, py::ssize_t) { return src_number_of_pattern(b, f); });
    }
    return m;
  }
  const auto a = as_float64(obj, where, arg);
  if (a.ndim() != 2) value_error(where, arg, fmt::format("expected a 2-D array, got {} dimensions", a.ndim()));
  m.rows = a.shape(0), m.cols = a.shape(1);
  m.v.resize(static_cast<size_t>(a.size()));
  const double* d = a.data();
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    auto refuse = [&](const std::string& why) { value_error(where, arg, fmt::format("{} = {} {}", element(i, m.cols), repr(d[i]), why)); };
    if (args.conversion == Conversion::Unpacker) {
      m.v[static_cast<size_t>(i)] = src_number_of_pattern(*unpacker_from_fp32(value_to_fp32(d[i], refuse), f), f);
    } else {
      m.v[static_cast<size_t>(i)] = value_to_src(d[i], fi, args.conversion == Conversion::Rne, refuse);
    }
  }
  return m;
}

void require_tiles(const SrcMatrix& m, const char* where, const char* arg) {
  if (m.rows % audit::kTile || m.cols % audit::kTile || m.rows == 0 || m.cols == 0) {
    value_error(where, arg, fmt::format("shape ({}, {}) is not a non-empty multiple of the 32x32 tile", m.rows, m.cols));
  }
}

namespace {

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

}  // namespace

py::object tensix_result(const std::vector<double>& values, py::ssize_t rows, py::ssize_t cols, const audit::OutFormat& of,
                         bool bits, const std::vector<std::vector<double>>* snaps, py::ssize_t steps, py::ssize_t passes) {
  py::array_t<double> v({rows, cols});
  std::copy(values.begin(), values.end(), v.mutable_data());
  if (!bits && !snaps) return v;
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
  return d;
}

}  // namespace tmu::python
