// PTO vector generation (tmu/pto/vectors.h): level 1 special values, level 2 seeded random.
#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "profile_rules.h"
#include "tmu/error.h"
#include "tmu/ieee_text.h"
#include "tmu/pto/vectors.h"
#include "tmu/rng.h"

namespace tmu::pto {

namespace {

constexpr std::array<Op, kOpCount> kAllOps = {
    Op::TADD,  Op::TABS,   Op::TAND,   Op::TOR,    Op::TSUB,  Op::TMUL,  Op::TMIN,  Op::TMAX,   Op::TCMP,  Op::TDIV,
    Op::TSHL,  Op::TSHR,   Op::TXOR,   Op::TLOG,   Op::TRECIP, Op::TPRELU, Op::TADDC, Op::TSUBC, Op::TCVT, Op::TSEL,
    Op::TRSQRT, Op::TSQRT, Op::TEXP,   Op::TPOW,   Op::TNOT,  Op::TRELU, Op::TNEG,  Op::TREM,   Op::TFMOD};

constexpr unsigned min_cols(ElemType t) { return 32 / width_bytes(t); }
// n rounded up to a whole number of 32-byte rows of t.
constexpr unsigned aligned_cols(ElemType t, unsigned n) { return (std::max(n, 1u) + min_cols(t) - 1) / min_cols(t) * min_cols(t); }

// The values every level-1 vector of a type crosses: the IEEE classes and the values that decide
// roundings and conversions for floats; the boundaries, shift counts and bit patterns for integers.
std::vector<uint64_t> specials(ElemType t) {
  std::vector<uint64_t> out;
  if (is_f8(t)) {  // zeros, subnormals, the smallest normal, 1, 1.5, the largest finite, the top binade
    const fp8::Layout l = fp8::layout(f8_kind(t));
    const uint64_t one = static_cast<uint64_t>(l.bias) << l.frac_bits, top = uint64_t{0x7F} >> l.frac_bits << l.frac_bits;
    for (uint64_t b : {uint64_t{0}, uint64_t{1}, (uint64_t{1} << l.frac_bits) - 1, uint64_t{1} << l.frac_bits, one,
                       one + 1, one | (uint64_t{1} << (l.frac_bits - 1)), uint64_t{0x40}})
      out.insert(out.end(), {b, b | 0x80});
    for (uint64_t b = top; b <= 0x7F; ++b) out.insert(out.end(), {b - 1, b, b | 0x80});
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  if (is_float(t)) {
    const ieee::Format f = float_format(t);
    const uint64_t one = *ieee::from_text(f, "1", nullptr);
    out = {f.zero(false), f.zero(true), 1, f.frac_mask(), f.frac_mask() + 1, one, one | f.sign_bit(), one + 1,
           f.max_finite(false), f.max_finite(true), f.infinity(false), f.infinity(true),
           f.default_nan() | 5, f.infinity(true) | 3 /* a signalling NaN */};
    for (const char* text : {"0.5", "-0.5", "1.5", "2.5", "-2.5", "3", "-7", "100.25", "-300", "65504", "65520",
                             "2147483648", "-2147483649", "4294967296", "1e-3"})
      if (const auto b = ieee::from_text(f, text, nullptr))
        if (std::find(out.begin(), out.end(), *b) == out.end()) out.push_back(*b);
    return out;
  }
  const uint64_t m = lane_mask(t);
  const unsigned w = width_bits(t);
  const uint64_t top = uint64_t{1} << (w - 1);
  out = {0, 1, 2, 3, 7, w - 1, w, m, m - 1, top, top - 1, top + 1, 0x5555555555555555ull & m,
         0xAAAAAAAAAAAAAAAAull & m, 100, (0 - uint64_t{100}) & m};
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The types of the tiles an operation reads and writes, from the type it is listed under: sources
// and dst of type t, except TCVT's dst (`other`), TCMP's predicate (`other`: u8 or u32) and TSEL's
// mask (`other`: an integer type).
struct Combo {
  Op op;
  ElemType type;
  ElemType other;
};

std::vector<ElemType> src_types(const Combo& c) {
  std::vector<ElemType> out(source_count(c.op), c.type);
  if (c.op == Op::TSEL) out[0] = c.other;
  return out;
}
ElemType dst_type(const Combo& c) { return c.op == Op::TCVT || c.op == Op::TCMP ? c.other : c.type; }

// The narrowest column count every tile of the combination can have (row-major alignment).
unsigned combo_cols(const Combo& c) {
  unsigned cols = std::max(min_cols(c.type), min_cols(dst_type(c)));
  for (ElemType t : src_types(c)) cols = std::max(cols, min_cols(t));
  return cols;
}

// A float source going to an 8-bit float also crosses the values that decide its roundings: the
// largest finites and the overflow thresholds, the smallest normals and subnormals, ties.
std::vector<uint64_t> specials(const Combo& c) {
  std::vector<uint64_t> out = specials(c.type);
  if (c.op != Op::TCVT || !is_f8(c.other) || !is_ieee_float(c.type)) return out;
  for (const char* text : {"448", "-448", "464", "480", "57344", "-61440", "65536", "240", "248", "1.0625", "1.125",
                           "1.1875", "0.015625", "0.001953125", "-0.0009765625", "0.00006103515625", "0.0000152587890625"})
    if (const auto b = ieee::from_text(float_format(c.type), text, nullptr))
      if (std::find(out.begin(), out.end(), *b) == out.end()) out.push_back(*b);
  return out;
}

uint64_t lane_from_one(ElemType t) {
  if (is_f8(t)) return fp8::layout(f8_kind(t)).bias << fp8::layout(f8_kind(t)).frac_bits;
  return is_float(t) ? *ieee::from_text(float_format(t), "1", nullptr) : 1;
}

// Whether one lane with these source values is defined: the operation on 1x1 valid regions.
bool lane_defined(Profile p, const Combo& c, const OpParams& params, const std::vector<uint64_t>& values) {
  if (c.op == Op::TCMP || c.op == Op::TSEL) return true;  // no value has undefined behaviour
  const std::vector<ElemType> st = src_types(c);
  std::vector<Tile> srcs;
  std::vector<const Tile*> ptrs;
  srcs.reserve(st.size());
  // One shape for every tile (TCVT between widths needs it), as the vectors have.
  const unsigned cols = combo_cols(c);
  for (size_t i = 0; i < st.size(); ++i) {
    srcs.push_back(make_tile(st[i], 1, cols, Layout::RowMajor, 1, 1));
    srcs.back().bits[0] = values[i];
    ptrs.push_back(&srcs.back());
  }
  Tile dst = make_tile(dst_type(c), 1, cols, Layout::RowMajor, 1, 1);
  try {
    execute(p, c.op, dst, ptrs, params);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// The predicate or mask tile for TCMP or TSEL over a `rows` x `cols` tile whose valid region is
// vr x vc, sized so that the operation never runs out of it; mask bits from `rng`.
Tile side_tile(Profile p, const Combo& c, unsigned rows, unsigned vr, unsigned vc, Rng& rng, unsigned mask_valid_cols) {
  if (c.op == Op::TCMP) {
    const unsigned k = c.other == ElemType::U32 ? 32 : 8;
    const unsigned cols = aligned_cols(c.other, (vc + k - 1) / k);
    Tile t = make_tile(c.other, rows, cols, Layout::RowMajor, vr, cols);
    for (uint64_t& b : t.bits) b = rng.next() & lane_mask(c.other);  // TCMP clears or overwrites what it must
    return t;
  }
  // TSEL's mask: a stream of 8 bits per mask element over the mask's valid columns, or the first
  // bits of mask row i for row i.
  const unsigned mc = aligned_cols(c.other, (vc + 7) / 8);
  unsigned mrows = vr, mvc = mc;
  if (detail::rules(p).tsel_mask_stream) {
    mvc = std::min(mc, std::max(1u, mask_valid_cols));
    mrows = (vr * vc + 8 * mvc - 1) / (8 * mvc);
  }
  Tile t = make_tile(c.other, std::max(1u, mrows), mc, Layout::RowMajor, std::max(1u, mrows), mvc);
  for (uint64_t& b : t.bits) b = rng.next() & lane_mask(c.other);
  return t;
}

// Every (operation, type) pair a profile accepts, found by running each once on ones.
std::vector<Combo> accepted(Profile p) {
  const unsigned repeat = detail::rules(p).tcmp_repeat_bytes;
  std::vector<Combo> out;
  for (Op op : kAllOps)
    for (ElemType t : kAllElemTypes) {
      std::vector<ElemType> others{t};
      if (op == Op::TCVT) others.assign(std::begin(kAllElemTypes), std::end(kAllElemTypes));
      if (op == Op::TCMP) others = {ElemType::U8, ElemType::U32};
      if (op == Op::TSEL) others = {ElemType::U8, ElemType::U16, ElemType::U32};
      for (ElemType o : others) {
        const Combo c{op, t, o};
        const unsigned cols = repeat != 0 && op == Op::TCMP ? repeat / width_bytes(t) : combo_cols(c);
        Rng rng(1);
        std::vector<Tile> srcs;
        for (ElemType st : src_types(c)) srcs.push_back(make_tile(st, 1, std::max(cols, min_cols(st))));
        if (op == Op::TSEL) srcs[0] = side_tile(p, c, 1, 1, cols, rng, 1);
        for (Tile& s : srcs)
          if (&s != &srcs[0] || op != Op::TSEL)
            std::fill(s.bits.begin(), s.bits.end(), lane_from_one(s.type));
        Tile dst = op == Op::TCMP ? side_tile(p, c, 1, 1, cols, rng, 1) : make_tile(dst_type(c), 1, std::max(cols, min_cols(dst_type(c))));
        std::vector<const Tile*> ptrs;
        for (const Tile& s : srcs) ptrs.push_back(&s);
        try {
          execute(p, op, dst, ptrs, {});
          out.push_back(c);
        } catch (const Error& e) {
          if (e.kind() != ErrorKind::Unsupported) throw;
        }
      }
    }
  return out;
}


// The name part of a combination: "TADD", "TCVT-i8", "TCMP-u32", "TSEL-u8".
std::string combo_name(const Combo& c) {
  if (c.op == Op::TCVT || c.op == Op::TCMP || c.op == Op::TSEL)
    return fmt::format("{}-{}", op_name(c.op), elem_name(c.other));
  return std::string(op_name(c.op));
}

// Lays `lanes` (source values per valid lane, row by row) on tiles rows x cols, the valid region
// vr x vc, and the lanes outside it from `rng`; dst starts as random bits.
Vector assemble(Profile p, const Combo& c, const OpParams& params, unsigned rows, unsigned cols, unsigned vr,
                unsigned vc, Layout layout, const std::vector<std::vector<uint64_t>>& lanes, std::string name,
                std::string comment, Rng& rng, unsigned mask_valid_cols) {
  const std::vector<ElemType> st = src_types(c);
  std::vector<Tile> srcs;
  for (size_t i = 0; i < st.size(); ++i) {
    if (c.op == Op::TSEL && i == 0) {
      srcs.push_back(side_tile(p, c, rows, vr, vc, rng, mask_valid_cols));
      continue;
    }
    Tile t = make_tile(st[i], rows, cols, layout, vr, vc);
    for (uint64_t& b : t.bits) b = rng.next() & lane_mask(st[i]);
    size_t n = 0;
    for (unsigned r = 0; r < vr; ++r)
      for (unsigned col = 0; col < vc; ++col, ++n) t.bits[t.offset(r, col)] = lanes[n % lanes.size()][i];
    srcs.push_back(std::move(t));
  }
  Tile dst = c.op == Op::TCMP ? side_tile(p, c, rows, vr, vc, rng, 0) : make_tile(dst_type(c), rows, cols, layout, vr, vc);
  if (c.op != Op::TCMP)
    for (uint64_t& b : dst.bits) b = rng.next() & lane_mask(dst.type);
  return make_vector(std::move(name), std::move(comment), p, c.op, params, std::move(srcs), std::move(dst));
}

// The parameter settings a level-1 vector of the operation runs in: every TCMP mode, every TCVT
// rounding mode with the default, ON and OFF saturation.
std::vector<std::pair<OpParams, std::string>> param_settings(Op op) {
  std::vector<std::pair<OpParams, std::string>> out;
  if (op == Op::TCMP) {
    for (unsigned m = 0; m < 6; ++m) {
      OpParams p;
      p.cmp = static_cast<CmpMode>(m);
      out.emplace_back(p, fmt::format("-{}", cmp_name(p.cmp)));
    }
  } else if (op == Op::TCVT) {
    for (unsigned m = 0; m < 7; ++m)
      for (int sat = 0; sat < 3; ++sat) {
        OpParams p;
        p.round = static_cast<RoundMode>(m);
        if (sat) p.saturation = sat == 1 ? SaturationMode::On : SaturationMode::Off;
        out.emplace_back(p, fmt::format("-{}{}", round_name(p.round), sat == 0 ? "" : sat == 1 ? "-saton" : "-satoff"));
      }
  } else {
    out.emplace_back(OpParams{}, "");
  }
  return out;
}

// Level 1: the special values of the type crossed, the undefined tuples left out.
std::vector<Vector> level1(Profile p, const Combo& c) {
  const detail::ProfileRules& rules = detail::rules(p);
  const std::vector<uint64_t> sv = specials(c);
  const unsigned n = source_count(c.op) - (c.op == Op::TSEL ? 1 : 0);  // value sources
  std::vector<Vector> out;
  for (const auto& [params, suffix] : param_settings(c.op)) {
    std::vector<std::vector<uint64_t>> lanes;
    for (size_t a = 0; a < sv.size(); ++a)
      for (size_t b = 0; b < (n >= 2 ? sv.size() : 1); ++b) {
        std::vector<uint64_t> tuple;
        if (c.op == Op::TSEL) tuple.push_back(0);  // the mask's slot
        tuple.push_back(sv[a]);
        if (n >= 2) tuple.push_back(sv[b]);
        if (n == 3) tuple.push_back(sv[(a + b) % sv.size()]);
        if (lane_defined(p, c, params, tuple)) lanes.push_back(std::move(tuple));
      }
    if (lanes.empty()) continue;
    const unsigned repeat = rules.tcmp_repeat_bytes, tsel_cols = rules.tsel_generated_cols;
    const unsigned cols = repeat != 0 && c.op == Op::TCMP      ? repeat / width_bytes(c.type)
                          : tsel_cols != 0 && c.op == Op::TSEL ? tsel_cols
                                                               : std::max(combo_cols(c), 16u);
    const auto rows = static_cast<unsigned>((lanes.size() + cols - 1) / cols);
    const std::string name = fmt::format("{}-{}/{}{}/l1", profile_name(p), elem_name(c.type), combo_name(c), suffix);
    Rng rng(derive_seed(fnv1a("pto level 1"), name));
    out.push_back(assemble(p, c, params, rows, cols, rows, cols, Layout::RowMajor, lanes, name,
                           fmt::format("{} special-value tuples", lanes.size()), rng, cols / 8));
  }
  return out;
}

uint64_t random_value(ElemType t, const std::vector<uint64_t>& sv, Rng& rng) {
  return rng.chance(1, 2) ? sv[rng.below(static_cast<uint32_t>(sv.size()))] : rng.next() & lane_mask(t);
}

// Level 2: one random vector of the combination, or nullopt when the drawn shape is one the
// profile refuses (the caller draws again).
std::optional<Vector> random_vector(Profile p, const Combo& c, Rng& rng, const std::string& name) {
  const detail::ProfileRules& rules = detail::rules(p);
  OpParams params;
  params.cmp = static_cast<CmpMode>(rng.below(6));
  params.round = static_cast<RoundMode>(rng.below(7));
  if (const uint32_t s = rng.below(3)) params.saturation = s == 1 ? SaturationMode::On : SaturationMode::Off;
  const bool side = c.op == Op::TCMP || c.op == Op::TSEL;
  const Layout layout = !rules.row_major_only && !side && rng.chance(1, 4) ? Layout::ColMajor : Layout::RowMajor;
  unsigned rows = 0, cols = 0;
  const unsigned align = combo_cols(c);
  if (layout == Layout::ColMajor) {
    rows = align * (1 + rng.below(2));
    cols = 1 + rng.below(8);
  } else {
    rows = 1 + rng.below(6);
    const unsigned repeat = rules.tcmp_repeat_bytes;
    cols = repeat != 0 && c.op == Op::TCMP ? repeat / width_bytes(c.type) * (1 + rng.below(2)) : align * (1 + rng.below(3));
  }
  const unsigned vr = 1 + rng.below(rows);
  unsigned vc = 1 + rng.below(cols);
  if (rules.tcmp_repeat_bytes != 0 && c.op == Op::TCMP) vc = cols;
  if (rules.tsel_generated_cols != 0 && c.op == Op::TSEL) vc = std::min(vc, rules.tsel_generated_cols);
  const std::vector<uint64_t> sv = specials(c);
  std::vector<uint64_t> osv;
  if (c.op == Op::TSEL) osv = specials(c.other);
  std::vector<std::vector<uint64_t>> lanes;
  for (unsigned i = 0; i < vr * vc; ++i) {
    std::vector<uint64_t> tuple(source_count(c.op));
    bool ok = false;
    for (unsigned attempt = 0; attempt < 8 && !ok; ++attempt) {
      for (uint64_t& v : tuple) v = random_value(c.type, sv, rng);
      ok = lane_defined(p, c, params, tuple);
    }
    if (!ok) std::fill(tuple.begin(), tuple.end(), lane_from_one(c.type));
    lanes.push_back(std::move(tuple));
  }
  try {
    return assemble(p, c, params, rows, cols, vr, vc, layout, lanes, name,
                    fmt::format("{} {} {}x{} valid {}x{} {}", combo_name(c), elem_name(c.type), rows, cols, vr, vc,
                                layout_name(layout)),
                    rng, 1 + rng.below(4));
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::BadInput) throw;
    return std::nullopt;
  }
}

}  // namespace

std::vector<GenFile> generate_vectors(const GenOptions& opts) {
  std::vector<GenFile> files;
  for (Profile p : kAllProfiles) {
    const std::vector<Combo> combos = accepted(p);
    for (ElemType t : kAllElemTypes) {
      GenFile f{fmt::format("pto/{}-{}.tmv", profile_name(p), elem_name(t)), {p, {}}};
      for (const Combo& c : combos)
        if (c.type == t)
          for (Vector& v : level1(p, c)) f.file.vectors.push_back(std::move(v));
      if (!f.file.vectors.empty()) files.push_back(std::move(f));
    }
    if (opts.level < 2) continue;
    GenFile f{fmt::format("pto/{}-random.tmv", profile_name(p)), {p, {}}};
    const uint64_t seed = derive_seed(opts.seed, fmt::format("pto {}", profile_name(p)));
    for (const Combo& c : combos) {
      const std::string stem = fmt::format("{}-random/{}-{}", profile_name(p), combo_name(c), elem_name(c.type));
      Rng rng(derive_seed(seed, stem));
      for (unsigned i = 0; i < opts.random; ++i) {
        const std::string name = fmt::format("{}/{:04}", stem, i);
        for (unsigned attempt = 0;; ++attempt) {
          if (auto v = random_vector(p, c, rng, name)) {
            f.file.vectors.push_back(std::move(*v));
            break;
          }
          if (attempt == 100)
            throw Error(ErrorKind::Unsupported, fmt::format("{}: no drawn shape was accepted in 100 attempts", name));
        }
      }
    }
    files.push_back(std::move(f));
  }
  return files;
}

}  // namespace tmu::pto
