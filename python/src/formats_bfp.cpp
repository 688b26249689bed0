// tmu.formats' block floating-point formats: the Tensix BFP8/BFP4/BFP2 (one 8-bit exponent, bias 127,
// per block; the unpackers turn a datum into BF16) and BFP8a/BFP4a/BFP2a (one 5-bit exponent, bias 15;
// FP16). A block is 16 consecutive datums, along the last axis here: the ISA's unpacker reads one
// exponent byte per 16 datums in L1 order, and tt-metal's packer makes one block of each 16-datum face
// row, so a row-major 32-column tile row is two blocks.
//
// Sources: tt-isa-documentation WormholeB0 FloatBitPatterns.md ("BFP": a datum is a sign and a
// magnitude with no implicit 1, Mag/2^6 * 2^(Exp-127) for BFP8; BFP8ToBF16 and BFP8aToFP16),
// UNPACR_Regular.md (BFP4/BFP2 datums shifted up into BFP8's position), Packers/FormatConversion.md;
// tt-metal tt_metal/impl/data_format/blockfloat_common.cpp (get_max_exp, convert_u32_to_bfp), for what
// the ISA leaves to the software that packs blocks on the host. Disagreements: docs/spec-deltas.md B1-B4.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "tmu/error.h"
#include "tmu/ieee.h"

namespace tmu::python {

namespace {

constexpr py::ssize_t kBlock = 16;

struct BfpFormat {
  const char* name;
  unsigned width;  // bits per datum: the sign, then width - 1 magnitude bits
  bool a;          // the 'a' flavour: 5-bit exponent, bias 15, unpacks to FP16
};
constexpr BfpFormat kFormats[] = {
    {"bfp8", 8, false}, {"bfp4", 4, false}, {"bfp2", 2, false},
    {"bfp8a", 8, true}, {"bfp4a", 4, true}, {"bfp2a", 2, true},
};

constexpr int bias(const BfpFormat& f) { return f.a ? 15 : 127; }
constexpr unsigned max_exponent(const BfpFormat& f) { return f.a ? 31 : 255; }
constexpr unsigned max_magnitude(const BfpFormat& f) { return (1u << (f.width - 1)) - 1; }
// The magnitude is a fixed-point number with one integer bit: Mag / 2^(width - 2) * 2^(Exp - bias).
constexpr int fraction_bits(const BfpFormat& f) { return static_cast<int>(f.width) - 2; }
// The exponent of one magnitude step (the block's quantum) for shared exponent e.
constexpr int step_exponent(const BfpFormat& f, int e) { return e - bias(f) - fraction_bits(f); }

// ---- The unpacker's conversion (FloatBitPatterns.md BFP8ToBF16 / BFP8aToFP16) ----

struct SrcPattern {
  uint16_t bits;   // IEEE-order BF16 ('b' flavour) or FP16 ('a' flavour)
  bool undefined;  // 'a' flavour: the renormalised exponent left 5 bits (the ISA's UndefinedBehaviour)
};
// A narrower datum enters at BFP8's position (datum << 4 for BFP4, << 6 for BFP2); the magnitude is
// shifted up until its leading 1 is the implicit bit and the exponent lowered as far, in uint8_t
// arithmetic: the 'b' flavour wraps below zero as the ISA's code does, the 'a' flavour is undefined
// there. A sign with zero magnitude becomes the all-ones-exponent pattern 0xff80 / 0xfc00.
constexpr SrcPattern unpack_to_src(const BfpFormat& f, uint8_t datum, uint8_t exponent) {
  const auto d8 = static_cast<uint8_t>(datum << (8 - f.width));
  const unsigned sign = d8 >> 7;
  auto mag = static_cast<uint8_t>(d8 << 1);
  if (mag == 0) return {static_cast<uint16_t>(sign ? (f.a ? 0xfc00 : 0xff80) : 0), false};
  const int lz = std::countl_zero(mag);
  mag = static_cast<uint8_t>(mag << lz);
  const auto e = static_cast<uint8_t>(exponent - lz);
  if (f.a) return {static_cast<uint16_t>(sign << 15 | (e & 0x1fu) << 10 | (mag & 0x7eu) << 3), (e & 0xe0) != 0};
  return {static_cast<uint16_t>(sign << 15 | e << 7 | (mag & 0x7eu)), false};
}
static_assert(unpack_to_src(kFormats[0], 0x40, 127).bits == 0x3f80);  // 64/2^6 * 2^0 = 1.0
static_assert(unpack_to_src(kFormats[0], 0x81, 127).bits == 0xbc80);  // -1/2^6 = -2^-6
static_assert(unpack_to_src(kFormats[3], 0x60, 15).bits == 0x3e00);   // 96/2^6 = 1.5 (FP16)

// The value a datum means (FloatBitPatterns.md's BFP tables, as the Matrix Unit reads it). A sign with
// zero magnitude means -2^128 ('b': the Matrix Unit's reading of BF16 0xff80, which the SFPU and IEEE
// read as -infinity) or -2^16 ('a': FP16 0xfc00, -2^16 for both Tensix units).
double datum_value(const BfpFormat& f, uint8_t datum, uint8_t exponent) {
  const bool negative = (datum >> (f.width - 1)) & 1;
  const unsigned mag = datum & max_magnitude(f);
  // ldexp is exact here: mag < 2^7 and the scale lies in [2^-133, 2^128], inside binary64's normal range.
  if (mag == 0) return negative ? -std::ldexp(1.0, f.a ? 16 : 128) : 0.0;
  const double m = negative ? -static_cast<double>(mag) : static_cast<double>(mag);
  return std::ldexp(m, step_exponent(f, exponent));
}

// ---- Packing (to_bfp) ----

enum class Mode { Exact, NearestEven, Truncate, TtMetal };

enum class Refusal { None, NotFinite, TooLarge, Inexact, NotFloat32 };
struct BlockResult {
  Refusal refusal = Refusal::None;
  int index = 0;  // the refused element within the block
};

// A finite nonzero binary64 value as sig * 2^q with sig < 2^53, and the exponent of its leading bit.
struct Binary64 {
  bool negative;
  uint64_t sig;
  int q;
  int lead;  // floor(log2 |x|)
};
std::optional<Binary64> split(uint64_t bits) {
  const uint64_t field = (bits >> 52) & 0x7ff;
  const uint64_t frac = bits & ((uint64_t{1} << 52) - 1);
  if (field == 0x7ff || (field == 0 && frac == 0)) return std::nullopt;
  const uint64_t sig = field ? (frac | uint64_t{1} << 52) : frac;
  const int q = (field ? static_cast<int>(field) : 1) - 1075;
  return Binary64{(bits >> 63) != 0, sig, q, q + static_cast<int>(std::bit_width(sig)) - 1};
}

// Exact, nearest-even and truncating packing of 16 binary64 values: the shared exponent is the largest
// element's biased exponent (at least 0: tt-metal's choice for a block of zeros, and the smallest field
// value), each magnitude is |x| / 2^step rounded as `mode` says. A magnitude that rounds up past the
// largest keeps the block's exponent and takes the largest: it is the nearest value the block holds.
// Zero magnitudes carry no sign (a sign alone would unpack as -2^128 / -2^16), so -0 packs as +0.
BlockResult pack_block(const BfpFormat& f, Mode mode, const double* in, uint8_t& exp_out, uint8_t* out) {
  int e = 0;
  for (int i = 0; i < kBlock; ++i) {
    const uint64_t bits = std::bit_cast<uint64_t>(in[i]);
    if (((bits >> 52) & 0x7ff) == 0x7ff) return {Refusal::NotFinite, i};
    if (const auto v = split(bits)) {
      if (v->lead + bias(f) > static_cast<int>(max_exponent(f))) return {Refusal::TooLarge, i};
      e = std::max(e, v->lead + bias(f));
    }
  }
  exp_out = static_cast<uint8_t>(e);
  const int step = step_exponent(f, e);
  for (int i = 0; i < kBlock; ++i) {
    const auto v = split(std::bit_cast<uint64_t>(in[i]));
    if (!v) {
      out[i] = 0;
      continue;
    }
    uint64_t mag;
    const int shift = step - v->q;  // |x| / 2^step = sig / 2^shift
    if (shift <= 0) {
      mag = v->sig << -shift;  // exact; below 2^(width-1) since |x| < 2^(e - bias + 1)
    } else if (shift > 54) {
      if (mode == Mode::Exact) return {Refusal::Inexact, i};
      mag = 0;  // below half a step: both roundings give 0
    } else {
      const uint64_t rem = v->sig & ((uint64_t{1} << shift) - 1);
      const uint64_t half = uint64_t{1} << (shift - 1);
      mag = v->sig >> shift;
      if (rem != 0 && mode == Mode::Exact) return {Refusal::Inexact, i};
      if (mode == Mode::NearestEven && (rem > half || (rem == half && (mag & 1)))) ++mag;
    }
    mag = std::min<uint64_t>(mag, max_magnitude(f));
    out[i] = static_cast<uint8_t>(mag == 0 ? 0 : (v->negative ? 1u << (f.width - 1) : 0) | mag);
  }
  return {};
}

// tt-metal's host packing of 16 float32 patterns (get_max_exp, then convert_u32_to_bfp without
// truncation), bit for bit: the significand (implicit 1 added, also for subnormals) is shifted right
// by the distance to the shared exponent, dropping bits, then rounded to nearest even on what is left
// and clamped to the largest magnitude. The 'a' flavour re-biases each exponent to 15, clamping it to
// 31 (significand all ones) or 0 (significand 1.0). Infinities and NaNs take part as exponent 255.
void pack_block_tt_metal(const BfpFormat& f, const uint32_t* in, uint8_t& exp_out, uint8_t* out) {
  auto rebias = [&](uint32_t field) -> int {
    const int e = static_cast<int>(field);
    return f.a ? std::clamp(e - 127 + 15, 0, 31) : e;
  };
  int shared = 0;
  for (int i = 0; i < kBlock; ++i) shared = std::max(shared, rebias((in[i] >> 23) & 0xff));
  exp_out = static_cast<uint8_t>(shared);
  const unsigned kept = f.width - 1;  // magnitude bits: 24 - kept bits are rounded away
  const unsigned drop = 24 - kept;
  for (int i = 0; i < kBlock; ++i) {
    const uint32_t x = in[i];
    if ((x & 0x7fffffffu) == 0) {
      out[i] = 0;
      continue;
    }
    uint32_t frac = x & 0x7fffffu;
    const int field = static_cast<int>((x >> 23) & 0xff);
    int e = field;
    if (f.a) {
      e = field - 127 + 15;
      if (e > 31) e = 31, frac = 0x7fffffu;
      else if (e < 0) e = 0, frac = 0;
    }
    uint32_t sig = frac | 1u << 23;
    const int distance = shared - e;
    sig = distance >= 32 ? 0 : sig >> distance;
    const uint32_t round_bits = sig & ((1u << drop) - 1);
    const uint32_t tie = 1u << (drop - 1);
    uint32_t mag = sig >> drop;
    if (round_bits > tie || (round_bits == tie && (mag & 1))) ++mag;
    mag = std::min(mag, max_magnitude(f));
    out[i] = static_cast<uint8_t>(mag == 0 ? 0 : ((x >> 31) << kept) | mag);
  }
}

// ---- Arguments ----

const BfpFormat& bfp_format(std::string_view where, const py::object& name) {
  std::string list;
  for (const auto& f : kFormats) list += (list.empty() ? "'" : ", '") + std::string(f.name) + "'";
  if (!py::isinstance<py::str>(name)) type_error(where, "fmt", "expected a BFP format name (str): " + list);
  const std::string s = name.cast<std::string>();
  for (const auto& f : kFormats) {
    if (s == f.name) return f;
  }
  value_error(where, "fmt", fmt::format("unknown BFP format '{}' (expected {})", s, list));
}

Mode parse_mode(std::string_view where, const std::string& name) {
  if (name == "exact") return Mode::Exact;
  if (name == "rne") return Mode::NearestEven;
  if (name == "truncate") return Mode::Truncate;
  if (name == "tt-metal") return Mode::TtMetal;
  value_error(where, "rounding",
              fmt::format("expected 'exact', 'rne' (nearest, ties to even), 'truncate' (toward zero) or 'tt-metal' "
                          "(tt-metal's host packing), got '{}'",
                          name));
}

// The datums' shape must have a last axis of whole blocks.
void check_blocks(std::string_view where, std::string_view arg, const std::vector<py::ssize_t>& shape) {
  if (shape.empty()) value_error(where, arg, "expected at least one axis (blocks run along the last axis)");
  if (shape.back() % kBlock != 0) {
    value_error(where, arg,
                fmt::format("the last axis has length {}, not a multiple of 16: a block is 16 consecutive datums "
                            "(a face row) sharing one exponent",
                            shape.back()));
  }
}

std::vector<py::ssize_t> exponent_shape(std::vector<py::ssize_t> shape) {
  shape.back() /= kBlock;
  return shape;
}

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (size_t d = 0; d < shape.size(); ++d) s += fmt::format("{}{}", d ? ", " : "", shape[d]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string power_text(int e) { return fmt::format("2^{}", e); }

struct Datums {
  py::array_t<uint8_t, py::array::c_style> exponents, mantissas;
  std::vector<py::ssize_t> shape;
};

// exponents and mantissas as uint8 arrays of matching shapes, every datum of `f`'s width and every
// 'a' exponent of 5 bits (FloatBitPatterns.md: the 'a' flavour expects the high three bits zero).
Datums datums_arg(std::string_view where, const BfpFormat& f, py::handle exponents, py::handle mantissas) {
  Datums d{exact_dtype<uint8_t>(exponents, where, "exponents"), exact_dtype<uint8_t>(mantissas, where, "mantissas"), {}};
  d.shape = shape_of(d.mantissas);
  check_blocks(where, "mantissas", d.shape);
  const auto want = exponent_shape(d.shape);
  if (shape_of(d.exponents) != want) {
    value_error(where, "exponents",
                fmt::format("expected shape {} (one exponent per 16 mantissas of shape {}), got {}", shape_text(want),
                            shape_text(d.shape), shape_text(shape_of(d.exponents))));
  }
  const uint8_t* m = d.mantissas.data();
  for (py::ssize_t i = 0; i < d.mantissas.size(); ++i) {
    if (m[i] >> f.width) {
      value_error(where, "mantissas",
                  fmt::format("element {} = {:#x} is not a {}-bit {} datum (sign bit {}, {} magnitude bits)",
                              index_text(d.shape, i), m[i], f.width, f.name, f.width - 1, f.width - 1));
    }
  }
  const uint8_t* e = d.exponents.data();
  for (py::ssize_t i = 0; f.a && i < d.exponents.size(); ++i) {
    if (e[i] > max_exponent(f)) {
      value_error(where, "exponents",
                  fmt::format("element {} = {} is not a 5-bit {} exponent (0 to 31; the 'a' formats keep the high "
                              "three bits of the exponent byte zero)",
                              index_text(want, i), e[i], f.name));
    }
  }
  return d;
}

py::tuple to_bfp(py::handle values, const py::object& fmt_name, const std::string& rounding) {
  const char* where = "tmu.formats.to_bfp";
  const BfpFormat& f = bfp_format(where, fmt_name);
  const Mode mode = parse_mode(where, rounding);
  const auto v = as_float64(values, where, "values");
  const auto shape = shape_of(v);
  check_blocks(where, "values", shape);
  const py::ssize_t blocks = v.size() / kBlock;
  py::array_t<uint8_t> exps(exponent_shape(shape));
  py::array_t<uint8_t> mants(shape);
  const double* in = v.data();
  uint8_t* e = exps.mutable_data();
  uint8_t* m = mants.mutable_data();
  py::ssize_t bad = -1;
  Refusal why = Refusal::None;
  {
    py::gil_scoped_release release;
    if (mode == Mode::TtMetal) {
      // tt-metal packs float32: every value must be one (a NaN keeps the payload numpy's conversion kept).
      std::vector<uint32_t> words(static_cast<size_t>(v.size()));
      for (py::ssize_t i = 0; i < v.size() && bad < 0; ++i) {
        const uint64_t bits = std::bit_cast<uint64_t>(in[i]);
        const ieee::Result r = ieee::convert(ieee::kBinary64, ieee::kBinary32, bits);
        if (r.flags.inexact && !ieee::is_nan(ieee::kBinary64, bits)) bad = i, why = Refusal::NotFloat32;
        words[static_cast<size_t>(i)] = static_cast<uint32_t>(r.bits);
      }
      for (py::ssize_t b = 0; b < blocks && bad < 0; ++b) pack_block_tt_metal(f, &words[b * kBlock], e[b], &m[b * kBlock]);
    } else {
      for (py::ssize_t b = 0; b < blocks && bad < 0; ++b) {
        const BlockResult r = pack_block(f, mode, &in[b * kBlock], e[b], &m[b * kBlock]);
        if (r.refusal != Refusal::None) bad = b * kBlock + r.index, why = r.refusal;
      }
    }
  }
  if (bad >= 0) {
    const std::string head = fmt::format("element {} = {}", index_text(shape, bad),
                                         py::repr(py::float_(in[bad])).cast<std::string>());
    const unsigned top = max_exponent(f);
    const std::string largest =
        fmt::format("{} x {}", max_magnitude(f), power_text(step_exponent(f, static_cast<int>(top))));
    switch (why) {
      case Refusal::NotFinite:
        value_error(where, "values", head + fmt::format(" is not finite: {} has no infinity or NaN (rounding='tt-metal' "
                                                        "packs them as tt-metal does)", f.name));
      case Refusal::TooLarge:
        value_error(where, "values", head + fmt::format(" is beyond the range of {} (largest magnitude {})", f.name, largest));
      case Refusal::NotFloat32:
        value_error(where, "values", head + " is not a float32 number: tt-metal packs float32 values");
      default: {
        const py::ssize_t b = bad / kBlock;
        const int step = step_exponent(f, e[b]);
        value_error(where, "values",
                    head + fmt::format(" is not exactly a {} number in its block: the block's largest element sets the "
                                       "shared exponent {}, so its datums are multiples of {} up to {} x {} (pass "
                                       "rounding='rne', 'truncate' or 'tt-metal' to round)",
                                       f.name, e[b], power_text(step), max_magnitude(f), power_text(step)));
      }
    }
  }
  return py::make_tuple(exps, mants);
}

py::array_t<double> from_bfp(py::handle exponents, py::handle mantissas, const py::object& fmt_name) {
  const char* where = "tmu.formats.from_bfp";
  const BfpFormat& f = bfp_format(where, fmt_name);
  const Datums d = datums_arg(where, f, exponents, mantissas);
  py::array_t<double> out(d.shape);
  const uint8_t* e = d.exponents.data();
  const uint8_t* m = d.mantissas.data();
  double* o = out.mutable_data();
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < d.mantissas.size(); ++i) o[i] = datum_value(f, m[i], e[i / kBlock]);
  }
  return out;
}

py::array_t<uint16_t> bfp_to_src(py::handle exponents, py::handle mantissas, const py::object& fmt_name) {
  const char* where = "tmu.formats.bfp_to_src";
  const BfpFormat& f = bfp_format(where, fmt_name);
  const Datums d = datums_arg(where, f, exponents, mantissas);
  py::array_t<uint16_t> out(d.shape);
  const uint8_t* e = d.exponents.data();
  const uint8_t* m = d.mantissas.data();
  uint16_t* o = out.mutable_data();
  py::ssize_t bad = -1;
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < d.mantissas.size(); ++i) {
      const SrcPattern p = unpack_to_src(f, m[i], e[i / kBlock]);
      if (p.undefined && bad < 0) bad = i;
      o[i] = p.bits;
    }
  }
  if (bad >= 0) {
    const unsigned mag = m[bad] & max_magnitude(f);
    throw Error(ErrorKind::UndefinedBehaviour,
                fmt::format("{}: mantissas element {} = {:#x} with shared exponent {}: renormalising magnitude {} "
                            "lowers the exponent below 0, which BFP8aToFP16 leaves undefined (FloatBitPatterns.md)",
                            where, index_text(d.shape, bad), m[bad], e[bad / kBlock], mag));
  }
  return out;
}

}  // namespace

void bind_formats_bfp(py::module_& m) {
  m.def("to_bfp", &to_bfp, py::arg("values"), py::arg("fmt"), py::arg("rounding"),
        "The block floating-point form of `values` (any real array whose last axis is a multiple of 16):\n"
        "(exponents, mantissas), uint8 arrays. Each 16 consecutive values along the last axis are a block\n"
        "sharing one exponent (exponents has the last axis divided by 16); each datum of mantissas is the\n"
        "format's sign and magnitude bits (bfp8: sign bit 7, magnitude 6:0; bfp4: 3, 2:0; bfp2: 1, 0).\n"
        "fmt: 'bfp8', 'bfp4', 'bfp2' (8-bit exponent, bias 127; they unpack to BF16) or 'bfp8a', 'bfp4a',\n"
        "'bfp2a' (5-bit exponent, bias 15; they unpack to FP16).\n"
        "The shared exponent is the block's largest biased exponent (0 for a block of zeros); a datum's\n"
        "value is Mag / 2^(width-2) * 2^(exp - bias).\n"
        "rounding: 'exact' (the default) refuses with ValueError, naming the first offending index, a\n"
        "value its block cannot hold; 'rne' rounds each magnitude to nearest, ties to even; 'truncate'\n"
        "rounds toward zero (with 'rne', a magnitude rounding past the largest takes the largest);\n"
        "'tt-metal' is tt-metal's host packing bit for bit (float32 values only; the significand is\n"
        "shifted to the block's exponent, dropping bits, before it is rounded to nearest even).\n"
        "Zero magnitudes never carry a sign: -0 packs as +0.\n\n"
        ">>> e, m = tmu.formats.to_bfp(np.array([1.0, 0.5, -0.375] + [0] * 13), 'bfp8')\n"
        ">>> e, [hex(x) for x in m[:3]]\n"
        "(array([127], dtype=uint8), ['0x40', '0x20', '0x98'])");
  m.def("from_bfp", &from_bfp, py::arg("exponents"), py::arg("mantissas"), py::arg("fmt"),
        "The values of BFP datums as float64, exactly (FloatBitPatterns.md's BFP tables): exponents\n"
        "(uint8, one per 16 mantissas along the last axis) and mantissas (uint8 datums) as to_bfp returns\n"
        "them. A sign with zero magnitude means -2^128 (b flavour; the SFPU reads it as -infinity) or\n"
        "-2^16 ('a' flavour), as the Matrix Unit reads what the unpacker makes of it.\n\n"
        ">>> tmu.formats.from_bfp(np.array([127], np.uint8), np.array([0x40, 0x98] + [0] * 14, np.uint8), 'bfp8')[:2]\n"
        "array([ 1.   , -0.375])");
  m.def("bfp_to_src", &bfp_to_src, py::arg("exponents"), py::arg("mantissas"), py::arg("fmt"),
        "The BF16 ('bfp8', 'bfp4', 'bfp2') or FP16 ('a' formats) bit patterns, IEEE order as\n"
        "tmu.formats' 'bf16'/'fp16' take them, that the unpacker writes into SrcA/SrcB for these datums\n"
        "(FloatBitPatterns.md BFP8ToBF16 / BFP8aToFP16: the magnitude is shifted up to its leading 1 and\n"
        "the exponent lowered as far; a sign with zero magnitude gives 0xff80 / 0xfc00). In the b flavour an\n"
        "exponent lowered below 0 wraps modulo 256 (the ISA's uint8_t arithmetic); in the 'a' flavour it\n"
        "raises tmu.UndefinedBehaviour.\n\n"
        ">>> hex(tmu.formats.bfp_to_src(np.array([127], np.uint8), np.array([0x98] + [0] * 15, np.uint8), 'bfp8')[0])\n"
        "'0xbec0'");
}

}  // namespace tmu::python
