// tmu.tensix.pack and tmu.tensix.unpack: the packer's and unpackers' L1 format conversions
// (refmodel/engines/tensix/include/tmu/tensix/l1_formats.h) on numpy arrays. The model does the
// conversions; this file turns arrays and names into its arguments and its results into arrays.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "tensix_bindings.h"
#include "tmu/error.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::python {

namespace {

using tensix::L1Format;
using tensix::PackSource;

tensix::Arch arch_arg(const char* where, const py::object& variant) {
  if (variant.is_none()) return tensix::Arch::Blackhole;
  const auto a = tensix::parse_arch(str_arg(variant, where, "variant"));
  if (!a) value_error(where, "variant", fmt::format("unknown variant '{}' (expected 'blackhole' or 'wormhole')", py::str(variant).cast<std::string>()));
  return *a;
}

L1Format l1_format_arg(const char* where, const char* arg, const std::string& name) {
  const auto f = tensix::parse_l1_format(name);
  if (!f) {
    std::string names;
    for (L1Format g : tensix::kL1Formats) names += fmt::format("{}{}", names.empty() ? "" : ", ", tensix::l1_format_name(g));
    value_error(where, arg, fmt::format("unknown L1 format '{}' (expected one of {})", name, names));
  }
  return *f;
}

// A real value as the Dst pattern of `from` (IEEE order), when that format holds it exactly.
std::optional<uint32_t> dst_pattern_of_value(PackSource from, double v) {
  switch (from) {
    case PackSource::FP32:
    case PackSource::BF16: {
      const auto f = static_cast<float>(v);
      if (!(static_cast<double>(f) == v || std::isnan(v))) return std::nullopt;
      const uint32_t b = std::bit_cast<uint32_t>(f);
      if (from == PackSource::FP32) return b;
      if (b & 0xFFFFu) return std::nullopt;
      return b >> 16;
    }
    case PackSource::FP16: {
      const uint32_t s = std::signbit(v) ? 0x8000u : 0u;
      const double m = std::fabs(v);
      if (m == 0) return s;
      if (!std::isfinite(m)) return std::nullopt;
      int e;
      const double f = std::frexp(m, &e);  // m = 2f * 2^(e-1); Tensix FP16 normals: exponent field 1..31
      const double frac = std::ldexp(2 * f - 1, 10);
      if (e - 1 + 15 < 1 || e - 1 + 15 > 31 || frac != std::floor(frac)) return std::nullopt;
      return s | static_cast<uint32_t>(e - 1 + 15) << 10 | static_cast<uint32_t>(frac);
    }
    case PackSource::INT32: {
      if (v != std::floor(v) || std::fabs(v) > 2147483647.0) return std::nullopt;
      return (v < 0 ? 0x80000000u : 0u) | static_cast<uint32_t>(std::fabs(v));
    }
    case PackSource::INT16: return std::nullopt;
  }
  return std::nullopt;
}

std::vector<uint32_t> dst_data(const char* where, py::handle obj, PackSource from) {
  const bool wide = tensix::pack_source_is_32bit(from);
  const InputArray in = input_array(obj, where, "data", Bf16As::Bits, true);
  const std::string dt = dtype_name(in.array);
  std::vector<uint32_t> out;
  if (dt == "uint32" || dt == "uint16") {
    if ((dt == "uint32") != wide) {
      type_error(where, "data", fmt::format("{} Dst patterns are {}, got {}", tensix::pack_source_name(from), wide ? "uint32" : "uint16", dt));
    }
    if (wide) {
      const auto a = exact_dtype<uint32_t>(in.array, where, "data");
      out.assign(a.data(), a.data() + a.size());
    } else {
      const auto a = exact_dtype<uint16_t>(in.array, where, "data");
      out.assign(a.data(), a.data() + a.size());
    }
    return out;
  }
  if (from == PackSource::INT16) type_error(where, "data", fmt::format("INT16 Dst data is raw bits: expected dtype uint16, got {}", dt));
  const auto a = as_float64(in.array, where, "data");
  out.resize(static_cast<size_t>(a.size()));
  const std::vector<py::ssize_t> shape = shape_of(a);
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    const auto p = dst_pattern_of_value(from, a.data()[i]);
    if (!p) {
      value_error(where, "data", fmt::format("element {} ({}) is not a {} Dst value (pass the bit patterns to choose any)",
                                             index_text(shape, i), a.data()[i], tensix::pack_source_name(from)));
    }
    out[static_cast<size_t>(i)] = *p;
  }
  return out;
}

}  // namespace

void bind_tensix_l1(py::module_& m) {
  m.def(
      "pack",
      [](py::handle data, const std::string& out_format, const std::string& dst, const py::object& intermediate,
         const py::object& variant, const py::object& l1, const py::object& exp_threshold, bool stochastic_rounding) {
        const char* where = "tmu.tensix.pack";
        tensix::PackConfig c;
        c.arch = arch_arg(where, variant);
        c.to = l1_format_arg(where, "out_format", out_format);
        const auto from = tensix::parse_pack_source(dst);
        if (!from) value_error(where, "dst", fmt::format("unknown Dst format '{}' (expected FP32, INT32, BF16, FP16 or INT16)", dst));
        c.from = *from;
        if (!intermediate.is_none()) {
          const std::string name = str_arg(intermediate, where, "intermediate");
          c.intermediate = tensix::parse_data_format(name);
          if (!c.intermediate) value_error(where, "intermediate", fmt::format("unknown format '{}' (the ALU_FORMAT_SPEC names: FP32, BF16, BFP8, ...)", name));
        }
        if (!exp_threshold.is_none()) c.exp_threshold = static_cast<uint8_t>(uint_arg(exp_threshold, where, "exp_threshold", 255));
        c.stochastic_rounding = stochastic_rounding;
        c.l1_acc = !l1.is_none();
        const tensix::PackPlan plan = tensix::plan_pack(c);
        const std::vector<uint32_t> d = dst_data(where, data, c.from);
        std::vector<uint8_t> before;
        if (c.l1_acc) {
          const auto b = exact_dtype<uint8_t>(l1, where, "l1");
          before.assign(b.data(), b.data() + b.size());
        }
        const std::vector<uint8_t> bytes = tensix::pack_to_l1(plan, d, before);
        py::array_t<uint8_t> out(static_cast<py::ssize_t>(bytes.size()));
        std::copy(bytes.begin(), bytes.end(), out.mutable_data());
        return out;
      },
      py::arg("data"), py::arg("out_format"), py::kw_only(), py::arg("dst") = "FP32", py::arg("intermediate") = py::none(),
      py::arg("variant") = py::none(), py::arg("l1") = py::none(), py::arg("exp_threshold") = py::none(),
      py::arg("stochastic_rounding") = false,
      "The L1 bytes a packer writes for Dst data (docs/l1-formats.md). data: Dst patterns in IEEE bit order\n"
      "(uint32 for dst='FP32'/'INT32', INT32 as sign-magnitude; uint16 for 'BF16'/'FP16'/'INT16'), or real\n"
      "values the Dst format holds exactly (not for INT16). out_format: an L1 format (FP32, BF16, FP16, FP8,\n"
      "BFP8, BFP4, BFP2, INT32, INT16, INT8, UINT8, ...). intermediate: the early conversion's format\n"
      "(IntermediateFormat; default: the rounding one the pair has, e.g. BF16 for FP32 -> BF16). variant:\n"
      "'blackhole' (default) or 'wormhole'. l1: the uint8 bytes already in L1, to accumulate into\n"
      "(Pack_L1_Acc; FP32, BF16 and FP16 outputs). exp_threshold: Exp_threshold (datums whose exponent is\n"
      "below it become zero). Returns uint8 bytes, little-endian datums; for BFP formats one exponent byte\n"
      "per 16 datums first, then the datums (BFP4: two a byte, the first in the low nibble). Pairs the\n"
      "sources do not define raise tmu.BadInput naming the pair and the reason.\n\n"
      ">>> tmu.tensix.pack(np.array([0x3f808000], np.uint32), 'BF16')   # 1 + 2^-8: ties away from zero\n"
      "array([129,  63], dtype=uint8)");
  m.def(
      "unpack",
      [](py::handle l1_bytes, const std::string& in_format, const py::object& out_format, const std::string& to,
         const py::object& variant, bool fp8_e4m3, bool bits) {
        const char* where = "tmu.tensix.unpack";
        tensix::UnpackConfig c;
        c.arch = arch_arg(where, variant);
        c.from = l1_format_arg(where, "in_format", in_format);
        if (!out_format.is_none()) c.to = l1_format_arg(where, "out_format", str_arg(out_format, where, "out_format"));
        if (to == "src") c.target = tensix::UnpackTarget::Src;
        else if (to == "dst") c.target = tensix::UnpackTarget::Dst;
        else value_error(where, "to", fmt::format("expected 'src' or 'dst', got '{}'", to));
        c.fp8_e4m3 = fp8_e4m3;
        tensix::check_unpack(c);
        const auto in = exact_dtype<uint8_t>(l1_bytes, where, "l1_bytes");
        const size_t nbytes = static_cast<size_t>(in.size());
        const unsigned w = tensix::l1_datum_bits(c.from);
        // BFP data comes in blocks of 16 datums and their exponent byte; other formats in whole datums.
        const bool bfp = tensix::l1_is_bfp(c.from);
        const size_t unit = bfp ? 2 * w + 1 : w / 8;
        if (nbytes % unit != 0) {
          value_error(where, "l1_bytes", fmt::format("{} bytes is not a whole number of {} {} ({} bytes each)", nbytes,
                                                     tensix::l1_format_name(c.from), bfp ? "blocks of 16 datums" : "datums", unit));
        }
        const size_t n = bfp ? nbytes / unit * 16 : nbytes / unit;
        const std::vector<uint32_t> datums = tensix::unpack_from_l1(c, std::span<const uint8_t>(in.data(), nbytes), n);
        if (bits) {
          py::array_t<uint32_t> out(static_cast<py::ssize_t>(n));
          std::copy(datums.begin(), datums.end(), out.mutable_data());
          return py::object(std::move(out));
        }
        py::array_t<double> out(static_cast<py::ssize_t>(n));
        for (size_t i = 0; i < n; ++i) {
          const uint32_t d = datums[i];
          double v;
          if (c.target == tensix::UnpackTarget::Dst) {
            // Display only: binary32 and the 31-bit magnitude are exact in double.
            v = c.from == L1Format::INT32 ? ((d >> 31) ? -1.0 : 1.0) * static_cast<double>(d & 0x7FFFFFFFu)
                                          : static_cast<double>(std::bit_cast<float>(d));
          } else {
            tensix::SrcStyle style = tensix::SrcStyle::BF16;
            switch (c.from) {
              case L1Format::FP32: {
                const L1Format t = c.to.value_or(L1Format::TF32);
                style = t == L1Format::BF16 ? tensix::SrcStyle::BF16 : t == L1Format::FP16 ? tensix::SrcStyle::FP16 : tensix::SrcStyle::TF32;
                break;
              }
              case L1Format::FP16: case L1Format::FP8: style = tensix::SrcStyle::FP16; break;
              case L1Format::INT8: case L1Format::UINT8: style = tensix::SrcStyle::INT8; break;
              case L1Format::INT16: value_error(where, "bits", "INT16 data is raw bits in Src: pass bits=True");
              default: break;
            }
            v = tensix::src_datum_value(d, style);
          }
          out.mutable_data()[i] = v;
        }
        return py::object(std::move(out));
      },
      py::arg("l1_bytes"), py::arg("in_format"), py::kw_only(), py::arg("out_format") = py::none(), py::arg("to") = "src",
      py::arg("variant") = py::none(), py::arg("fp8_e4m3") = false, py::arg("bits") = false,
      "What an unpacker writes for L1 bytes (uint8, the layout tmu.tensix.pack returns) of in_format\n"
      "(docs/l1-formats.md): to='src' gives SrcA/SrcB datums, to='dst' (FP32 and INT32 only) Dst32 values.\n"
      "out_format: for FP32 data, TF32 (default), BF16 or FP16 in Src. fp8_e4m3: FP8 data as S1E4M3\n"
      "(Unp_LF8_4b_exp). Returns float64 values as the Matrix Unit reads them, or with bits=True the 19-bit\n"
      "Src datums (uint32, the layout of tmu's Src) or the binary32 / sign-magnitude Dst patterns.\n\n"
      ">>> tmu.tensix.unpack(np.array([0x81, 0x3f], np.uint8), 'BF16')\n"
      "array([1.0078125])");
}

}  // namespace tmu::python
