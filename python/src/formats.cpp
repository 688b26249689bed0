// tmu.formats: exact conversions between numbers (float64 arrays) and bit patterns, computed by the
// models' own integer IEEE 754 code (tmu/ieee.h: ieee::convert with the rounding named) and, for the
// integer formats, by integer arithmetic on binary64's fields. The loops run in C++ over whole arrays
// with the GIL released; the result has the input's shape.
#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "formats_table.h"
#include "tmu/ieee.h"

namespace tmu::python {

namespace {

const std::vector<NumberFormat>& table() {
  // name, IEEE format (floats), bits dtype width, container shift (TF32 in binary32's frame), signed int
  static const std::vector<NumberFormat> t = {
      {"fp32", ieee::kBinary32, 32, 0, false, "IEEE binary32 (float32): 1 sign, 8 exponent, 23 fraction bits"},
      {"bf16", ieee::kBfloat16, 16, 0, false, "bfloat16: binary32's upper half, 8 exponent and 7 fraction bits"},
      {"fp16", ieee::kBinary16, 16, 0, false, "IEEE binary16 (float16): 5 exponent, 10 fraction bits"},
      {"tf32", ieee::Format{8, 10}, 32, 13, false,
       "TensorFloat-32: 8 exponent, 10 fraction bits, kept in binary32's frame (bits 12:0 zero)"},
      {"fp8_e5m2", ieee::Format{5, 2}, 8, 0, false,
       "8-bit float E5M2 (IEEE-style: subnormals, infinities, NaNs; ml_dtypes float8_e5m2)"},
      {"int8", {}, 8, 0, true, "two's complement 8-bit integer"},
      {"int16", {}, 16, 0, true, "two's complement 16-bit integer"},
      {"int32", {}, 32, 0, true, "two's complement 32-bit integer"},
  };
  return t;
}

std::string format_list() {
  std::string s;
  for (const auto& f : table()) s += (s.empty() ? "" : ", ") + std::string("'") + f.name + "'";
  return s;
}

uint64_t double_bits(double v) { return std::bit_cast<uint64_t>(v); }
double bits_double(uint64_t b) { return std::bit_cast<double>(b); }

// The integer nearest (per rounding) to binary64 value v, as sign and magnitude; nullopt for NaN,
// infinity or a magnitude of 2^63 or more. `exact` says whether no rounding happened.
struct IntValue {
  bool negative;
  uint64_t magnitude;
  bool exact;
};
std::optional<IntValue> to_integer(double v, Rounding r) {
  const ieee::Unpacked u = ieee::unpack(ieee::kBinary64, double_bits(v));
  if (u.cls == ieee::Class::Infinity || u.cls == ieee::Class::QuietNaN || u.cls == ieee::Class::SignalingNaN) {
    return std::nullopt;
  }
  if (u.cls == ieee::Class::Zero) return IntValue{u.sign, 0, true};
  // value = significand * 2^(exponent - 52)
  const int shift = u.exponent - 52;
  if (shift >= 0) {
    if (shift > 10 || (u.significand << shift) >> shift != u.significand || (u.significand << shift) >> 63) {
      return std::nullopt;
    }
    return IntValue{u.sign, u.significand << shift, true};
  }
  const int right = -shift;
  if (right > 63) return IntValue{u.sign, 0, false};  // |v| < 2^-11 < 1/2... still inexact, rounds to 0
  const uint64_t q = u.significand >> right;
  const uint64_t rem = u.significand & ((uint64_t{1} << right) - 1);
  const uint64_t half = uint64_t{1} << (right - 1);
  uint64_t m = q;
  if (r == Rounding::NearestEven && (rem > half || (rem == half && (q & 1)))) ++m;
  return IntValue{u.sign, m, rem == 0};
}

template <typename Bits>
py::array from_float_impl(const NumberFormat& f, const py::array_t<double, py::array::c_style>& values,
                          Rounding rounding, bool exact, const char* where) {
  const py::ssize_t n = values.size();
  py::array_t<Bits> out(shape_of(values));
  const double* in = values.data();
  Bits* o = out.mutable_data();
  py::ssize_t bad = -1;
  std::string why;
  {
    py::gil_scoped_release release;
    if (f.is_int) {
      const int width = static_cast<int>(f.width);
      const uint64_t max_pos = (uint64_t{1} << (width - 1)) - 1;
      for (py::ssize_t i = 0; i < n && bad < 0; ++i) {
        const auto v = to_integer(in[i], rounding);
        if (!v || v->magnitude > max_pos + (v->negative ? 1 : 0)) {
          bad = i, why = fmt::format("outside the range of {}", f.name);
        } else if (exact && !v->exact) {
          bad = i, why = "not an integer";
        } else {
          const uint64_t two = v->negative ? (~v->magnitude + 1) : v->magnitude;
          o[i] = static_cast<Bits>(two);
        }
      }
    } else {
      ieee::Options opt;
      opt.rounding = rounding == Rounding::Truncate ? ieee::Rounding::TowardZero : ieee::Rounding::NearestEven;
      for (py::ssize_t i = 0; i < n && bad < 0; ++i) {
        const ieee::Result r = ieee::convert(ieee::kBinary64, f.ieee, double_bits(in[i]), opt);
        if (exact && r.flags.inexact && !ieee::is_nan(ieee::kBinary64, double_bits(in[i]))) {
          bad = i, why = fmt::format("not exactly a {} number (pass rounding='rne' or 'truncate' to round)", f.name);
        }
        o[i] = static_cast<Bits>(r.bits << f.shift);
      }
    }
  }
  if (bad >= 0) {
    value_error(where, "values",
                fmt::format("element {} = {} is {}", index_text(shape_of(values), bad),
                            py::repr(py::float_(in[bad])).cast<std::string>(), why));
  }
  return out;
}

template <typename Bits>
py::array_t<double> to_float_impl(const NumberFormat& f, const py::array_t<Bits, py::array::c_style>& bits,
                                  const char* where) {
  const py::ssize_t n = bits.size();
  py::array_t<double> out(shape_of(bits));
  const Bits* in = bits.data();
  double* o = out.mutable_data();
  py::ssize_t bad = -1;
  {
    py::gil_scoped_release release;
    if (f.is_int) {
      for (py::ssize_t i = 0; i < n; ++i) {
        // Two's complement to sign-magnitude, then the exact binary64 pattern (width <= 32 < 53).
        const int64_t v = static_cast<int64_t>(static_cast<std::make_signed_t<Bits>>(in[i]));
        const uint64_t mag = v < 0 ? static_cast<uint64_t>(-v) : static_cast<uint64_t>(v);
        o[i] = bits_double(ieee::from_integer(ieee::kBinary64, v < 0, mag).bits);
      }
    } else {
      const uint64_t low = (uint64_t{1} << f.shift) - 1;
      for (py::ssize_t i = 0; i < n; ++i) {
        const uint64_t b = static_cast<uint64_t>(in[i]);
        if (b & low) {
          bad = i;
          break;
        }
        o[i] = bits_double(ieee::convert(f.ieee, ieee::kBinary64, b >> f.shift).bits);
      }
    }
  }
  if (bad >= 0) {
    value_error(where, "bits",
                fmt::format("element {} = {:#x} is not a {} pattern: {} keeps bits {}:0 zero in binary32's frame",
                            index_text(shape_of(bits), bad), static_cast<uint64_t>(in[bad]), f.name, f.name,
                            f.shift - 1));
  }
  return out;
}

}  // namespace

const NumberFormat& number_format(std::string_view where, std::string_view arg, const py::object& name) {
  if (!py::isinstance<py::str>(name)) type_error(where, arg, "expected a format name (str): " + format_list());
  const std::string s = name.cast<std::string>();
  for (const auto& f : table()) {
    if (s == f.name) return f;
  }
  value_error(where, arg, fmt::format("unknown format '{}' (expected {})", s, format_list()));
}

py::array from_float(const NumberFormat& f, py::handle values, const std::string& rounding, const char* where) {
  const bool exact = rounding == "exact";
  const Rounding r = exact ? Rounding::NearestEven : parse_rounding(where, "rounding", rounding);
  const auto v = as_float64(values, where, "values");
  if (f.is_int) {
    switch (f.width) {
      case 8: return from_float_impl<int8_t>(f, v, r, exact, where);
      case 16: return from_float_impl<int16_t>(f, v, r, exact, where);
      default: return from_float_impl<int32_t>(f, v, r, exact, where);
    }
  }
  switch (f.width) {
    case 8: return from_float_impl<uint8_t>(f, v, r, exact, where);
    case 16: return from_float_impl<uint16_t>(f, v, r, exact, where);
    default: return from_float_impl<uint32_t>(f, v, r, exact, where);
  }
}

py::array_t<double> to_float(const NumberFormat& f, py::handle bits, const char* where) {
  if (f.is_int) {
    switch (f.width) {
      case 8: return to_float_impl<int8_t>(f, exact_dtype<int8_t>(bits, where, "bits"), where);
      case 16: return to_float_impl<int16_t>(f, exact_dtype<int16_t>(bits, where, "bits"), where);
      default: return to_float_impl<int32_t>(f, exact_dtype<int32_t>(bits, where, "bits"), where);
    }
  }
  switch (f.width) {
    case 8: return to_float_impl<uint8_t>(f, exact_dtype<uint8_t>(bits, where, "bits"), where);
    case 16: return to_float_impl<uint16_t>(f, exact_dtype<uint16_t>(bits, where, "bits"), where);
    default: return to_float_impl<uint32_t>(f, exact_dtype<uint32_t>(bits, where, "bits"), where);
  }
}

void bind_formats(py::module_& m) {
  m.def(
      "names", [] {
        py::list l;
        for (const auto& f : table()) l.append(f.name);
        return l;
      },
      "The format names the conversions take.\n\n>>> tmu.formats.names()[:3]\n['fp32', 'bf16', 'fp16']");
  m.def(
      "info",
      [](const py::object& fmt_name) {
        const NumberFormat& f = number_format("tmu.formats.info", "fmt", fmt_name);
        py::dict d;
        d["name"] = f.name;
        d["summary"] = f.summary;
        d["bits_dtype"] = py::str(f.is_int ? (f.width == 8 ? "int8" : f.width == 16 ? "int16" : "int32")
                                           : (f.width == 8 ? "uint8" : f.width == 16 ? "uint16" : "uint32"));
        if (!f.is_int) {
          d["exponent_bits"] = f.ieee.exp_bits;
          d["fraction_bits"] = f.ieee.frac_bits;
          d["bias"] = f.ieee.bias();
        }
        return d;
      },
      py::arg("fmt"),
      "What a format is: its summary, the numpy dtype its bit patterns travel in, and for floats the\n"
      "exponent and fraction widths and the bias.\n\n>>> tmu.formats.info('bf16')['bias']\n127");
  m.def(
      "from_float",
      [](py::handle values, const py::object& fmt_name, const std::string& rounding) {
        const char* where = "tmu.formats.from_float";
        return from_float(number_format(where, "fmt", fmt_name), values, rounding, where);
      },
      py::arg("values"), py::arg("fmt"), py::arg("rounding"),
      "The bit patterns of `values` (any real array; float64 holds every value it is given exactly)\n"
      "in format `fmt`, an array of the same shape in the format's bits dtype (uint8/16/32 for floats,\n"
      "int8/16/32 for integers).\n"
      "rounding: 'exact' (the default) refuses with ValueError, naming the first offending index, a\n"
      "value the format does not hold exactly; 'rne' rounds to nearest, ties to even (overflow gives\n"
      "infinity; integers out of range are refused); 'truncate' rounds toward zero (the hardware's\n"
      "truncating conversions: a float beyond the largest finite gives the largest finite).\n"
      "NaNs convert to a quiet NaN keeping the sign and the payload's leading bits.\n\n"
      ">>> tmu.formats.from_float(np.array([1.5, 1 + 2**-8]), 'bf16', rounding='rne')\n"
      "array([16320, 16256], dtype=uint16)       # 0x3fc0 = 1.5; 1 + 2^-8 is a tie and goes to even 0x3f80 = 1");
  m.def(
      "to_float",
      [](py::handle bits, const py::object& fmt_name) {
        const char* where = "tmu.formats.to_float";
        return to_float(number_format(where, "fmt", fmt_name), bits, where);
      },
      py::arg("bits"), py::arg("fmt"),
      "The values of bit patterns of format `fmt` as float64, exactly (every value of these formats is\n"
      "a float64). `bits` must have the format's bits dtype (tmu.formats.info(fmt)['bits_dtype']);\n"
      "NaN patterns give a quiet NaN of their sign.\n\n"
      ">>> tmu.formats.to_float(np.array([0x3fc0, 0x0001], dtype=np.uint16), 'bf16')\n"
      "array([1.50000000e+00, 9.18354962e-41])   # 0x0001 is the smallest subnormal, 2^-133");
  m.def(
      "round",
      [](py::handle values, const py::object& fmt_name, const std::string& rounding) {
        const char* where = "tmu.formats.round";
        const NumberFormat& f = number_format(where, "fmt", fmt_name);
        if (rounding == "exact") value_error(where, "rounding", "expected 'rne' or 'truncate'");
        return to_float(f, from_float(f, values, rounding, where), where);
      },
      py::arg("values"), py::arg("fmt"), py::arg("rounding"),
      "`values` rounded into format `fmt` and read back as float64: to_float(from_float(values, fmt,\n"
      "rounding), fmt).\n\n>>> tmu.formats.round(np.array([0.1]), 'bf16')\narray([0.10009766])   # 0x3dcd");
}

}  // namespace tmu::python
