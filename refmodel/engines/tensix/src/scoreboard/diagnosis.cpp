// Datapath diagnosis: one Dst element of MVMUL/DOTPV/GAPOOL/ELWMUL/ELWADD/ELWSUB is recomputed from
// the state the instruction read, with the model's own stage functions and traces, and the RTL's value
// is explained where possible by a single perturbation of one stage (a different fidelity phase, a
// missing product, a group sum lost or truncated, a stage or the whole datapath truncating instead of
// rounding, Dst not accumulated, the other rounding neighbour), or else as one stored bit flipped after
// the datapath. GMPOOL has its own recomputation (diagnosis_gmpool.cpp).
// Host floating point appears only in the text (exact decoded values), never in a decision.
#include <bit>
#include <cmath>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "../insn/context.h"
#include "../insn/math_common.h"
#include "scoreboard_internal.h"
#include "tmu/error.h"

namespace tmu::tensix {

using namespace sb_detail;

namespace {

enum class Family { Matmul, Elementwise };

// Where one element's operands come from, mirroring the addressing of refmodel/engines/tensix/src/insn/mvmul.cpp and
// elw.cpp. The recomputation is checked against the model's own result, so a drift shows up.
struct Element {
  Family family = Family::Matmul;
  Op op = Op::MVMUL;
  fpu::FpuMode mode;
  bool int8 = false;
  unsigned i = 0, j = 0;
  std::array<uint32_t, fpu::kDotLength> srca_column{}, srcb_row{};  // matmul
  uint32_t a = 0, b = 0;                                            // element-wise
  bool add_dst = true;
  uint32_t dst_in = 0;
  std::string name, operands;
};

bool is_matmul(Op op) { return op == Op::MVMUL || op == Op::DOTPV || op == Op::GAPOOL; }
bool is_elementwise(Op op) { return op == Op::ELWMUL || op == Op::ELWADD || op == Op::ELWSUB; }

// The block row whose Dst element lives in storage_row, or nullopt.
std::optional<unsigned> block_row(uint32_t base, unsigned rows, unsigned step, bool dst32, uint32_t storage_row) {
  for (unsigned i = 0; i < rows; i += step) {
    const uint32_t row = base + i;
    const bool hit = dst32 ? (DstRegs::hi_row(row) == storage_row || DstRegs::lo_row(row) == storage_row)
                           : (row & (kDstRows - 1)) == storage_row;
    if (hit) return i;
  }
  return std::nullopt;
}

std::optional<Element> locate_element(TensixState& s, const Insn& insn, unsigned thread, uint32_t storage_row,
                                      uint32_t col) {
  ExecResult scratch;
  insn::ExecContext ctx(s, insn, thread, scratch);
  const MathMode formats = ctx.math_mode();
  Element e;
  e.op = insn.op();
  e.mode = insn::fpu_mode(ctx, formats);
  e.int8 = formats.int8_math;
  e.j = col;
  const bool dst32 = formats.use_dst32b || formats.int8_math;
  const unsigned srca_bank = s.MatrixUnit.SrcABank, srcb_bank = s.MatrixUnit.SrcBBank;
  auto srca = [&](uint32_t row, uint32_t c) { return s.SrcA[srca_bank].Rows[row & (kSrcRows - 1)][c]; };
  auto srcb = [&](uint32_t row, uint32_t c) { return s.SrcB[srcb_bank].Rows[row & (kSrcRows - 1)][c]; };
  const uint32_t srca_row = ctx.rwc().SrcA & 0x38;
  uint32_t dst_row = 0;

  if (is_matmul(e.op)) {
    if (e.op == Op::GAPOOL && !insn[Field::Dim16x16]) return std::nullopt;
    e.family = Family::Matmul;
    const bool bcast = e.op == Op::MVMUL && insn[Field::BroadcastSrcBRow];
    const unsigned rows = e.op == Op::GAPOOL ? 4 : bcast ? 7 : 8;
    const uint32_t srcb_first = ctx.rwc().SrcB & (bcast ? 0x3F : 0x38);
    const uint32_t base = ctx.dst_row_unaligned(insn[Field::DstRow]) & (kDstRows - rows);
    const auto i = block_row(base, rows, bcast ? 2 : 1, dst32, storage_row);
    if (!i) return std::nullopt;
    e.i = *i;
    dst_row = base + e.i;
    const uint32_t b_row = srcb_first + (bcast ? 0 : e.i);
    for (unsigned k = 0; k < fpu::kDotLength; ++k) {
      e.srca_column[k] = srca(srca_row + k, col);
      e.srcb_row[k] = srcb(b_row, k);
    }
    e.name = fmt::format("{} element (i={}, j={}) = SrcB row {} . SrcA column {}", insn.mnemonic(), e.i, col,
                         b_row & (kSrcRows - 1), col);
    e.operands = fmt::format("SrcA bank {} rows {}..{} col {}; SrcB bank {} row {} cols 0..15", srca_bank, srca_row,
                             srca_row + 15, col, srcb_bank, b_row & (kSrcRows - 1));
  } else if (is_elementwise(e.op)) {
    e.family = Family::Elementwise;
    const bool bcast_row = insn[Field::BroadcastSrcBRow], bcast_col = insn[Field::BroadcastSrcBCol0];
    const uint32_t srcb_first = ctx.rwc().SrcB & (bcast_row ? 0x3F : 0x38);
    const uint32_t base = ctx.dst_row_unaligned(insn[Field::DstRow]) & 0x3F8;
    const auto i = block_row(base, 8, 1, dst32, storage_row);
    if (!i) return std::nullopt;
    e.i = *i;
    dst_row = base + e.i;
    const uint32_t a_row = srca_row + e.i, b_row = srcb_first + (bcast_row ? 0 : e.i), b_col = bcast_col ? 0 : col;
    e.a = srca(a_row, col);
    e.b = srcb(b_row, b_col);
    e.add_dst = e.op == Op::ELWMUL || insn[Field::AddDst];
    e.name = fmt::format("{} element (i={}, j={})", insn.mnemonic(), e.i, col);
    e.operands = fmt::format("SrcA bank {} row {} col {}; SrcB bank {} row {} col {}", srca_bank,
                             a_row & (kSrcRows - 1), col, srcb_bank, b_row & (kSrcRows - 1), b_col);
  } else {
    return std::nullopt;
  }
  if (e.add_dst) e.dst_in = dst32 ? ctx.read_dst32(dst_row, col, 0) : ctx.read_dst16(dst_row, col, 0);
  return e;
}

// ---- Slices and stage values as text ----

std::string srca_slice_text(uint32_t phase) {
  return bits<0, 0>(phase) ? "mantissa bits 5:1 (significand bits 5:1, the low slice)"
                           : "implicit one + mantissa bits 9:6 (significand bits 10:6, the high slice)";
}
std::string srcb_slice_text(uint32_t phase) {
  return bits<1, 1>(phase) ? "mantissa bits 3:0 (significand bits 3:0, at the top of the 7-bit port)"
                           : "implicit one + mantissa bits 9:4 (significand bits 10:4, the high slice)";
}

std::string bin(uint32_t v, unsigned width) { return fmt::format("0b{:0{}b}", v, width); }

int acc_bias(const fpu::FpuMode& mode) { return fpu::has_8bit_exponent(mode) || mode.dst32 ? 127 : 15; }

double product_value(const fpu::SliceProduct& p, const fpu::FpuMode& mode) {
  const double v = std::ldexp(static_cast<double>(p.mantissa), p.exponent - acc_bias(mode) - 10);
  return p.sign ? -v : v;
}

std::string operand_slices(uint32_t srca, uint32_t srcb, const fpu::FpuMode& mode) {
  const fpu::FpOperand a = fpu::read_fp_operand(srca, mode.srca_style);
  const fpu::FpOperand b = fpu::read_fp_operand(srcb, fpu::effective_srcb_style(mode));
  const uint32_t phase = mode.fidelity_phase;
  const std::string as = a.flushed_zero ? "zero" : bin(fpu::srca_fidelity_slice(a.significand, phase), 5);
  const std::string bs = b.flushed_zero ? "zero" : bin(fpu::srcb_fidelity_slice(b.significand, phase), 7);
  return fmt::format("SrcA {} slice {} x SrcB {} slice {}", describe_src_datum(srca, mode.srca_style), as,
                     describe_src_datum(srcb, fpu::effective_srcb_style(mode)), bs);
}

std::string term_text(const fpu::AccTerm& t) {
  return fmt::format("sign {} exponent {} mantissa {}", t.sign, t.exponent, hex(t.mantissa, 8));
}

std::string accum_text(const fpu::AccumTrace& t, uint32_t dst_word) {
  std::string s = fmt::format("  accum_normalize: Dst word {}, common exponent {}\n", hex(dst_word, 8), t.common_exponent);
  s += fmt::format("    aligned group0 {} group1 {} Dst {}; after the 13-bit pre-sum rounding {} {} {}\n",
                   hex(t.aligned[0], 8), hex(t.aligned[1], 8), hex(t.aligned[2], 8), hex(t.presum[0], 8),
                   hex(t.presum[1], 8), hex(t.presum[2], 8));
  s += fmt::format("    signed sum {}, sign {} magnitude {}, normalise shift {} -> exponent {} mantissa {}, {}\n",
                   t.signed_sum, t.sign, hex(t.magnitude, 8), t.normalise_shift, t.exponent, hex(t.mantissa, 6),
                   fpu::accum_outcome_name(t.outcome));
  s += fmt::format("    result word {}\n", hex(t.result_word, 8));
  return s;
}

// ---- The last-bit (final rounding) analysis ----

uint32_t ulp_of(const fpu::FpuMode& mode) {
  switch (fpu::dst_format(mode)) {
    case fpu::DstFormat::BF16: return 1u << 16;
    case fpu::DstFormat::FP16: return 1u << 13;
    default: return 1u;
  }
}

std::string final_rounding_explanation(const fpu::AccumTrace& t, const fpu::FpuMode& mode, bool rtl_larger) {
  const fpu::AccumConfig config = fpu::accum_config(mode);
  const int32_t drop = config.dst32 ? 0 : config.exponent_8b ? 16 : 13;
  const int32_t narrow = t.normalise_shift - drop;
  const char* rtl_side = rtl_larger ? "larger" : "smaller";
  if (t.outcome != fpu::AccumOutcome::Normal || narrow >= 0) {
    return fmt::format("differs only in the last bit (the RTL's is the {} neighbour), but the model's sum needs no "
                       "rounding at the Dst width ({}) -> look at normalisation and the 13-bit pre-sum rounding",
                       rtl_side, fpu::accum_outcome_name(t.outcome));
  }
  const auto n = static_cast<uint32_t>(-narrow);
  const uint32_t dropped = t.magnitude & low_mask(n), half = 1u << (n - 1);
  const bool model_up = dropped >= half;
  std::string s = fmt::format(
      "differs only in the last bit -> final rounding: before rounding the magnitude is {} with {} bits to drop "
      "({}; half is {}); the model rounds to nearest, ties away from zero, and went {}; the RTL's value is the {} "
      "neighbour ({})",
      hex(t.magnitude, 8), n, hex(dropped, (n + 3) / 4), hex(half, (n + 3) / 4), model_up ? "up" : "down", rtl_side,
      rtl_larger == model_up ? "rounded further the same way" : (model_up ? "truncated" : "rounded up"));
  if (dropped == half) s += "; an exact tie: ties-to-even or ties-toward-zero would give the RTL's value";
  return s;
}

// ---- Single-stage perturbations ----

// The shared rounding primitive without its rounding bit: every stage at once.
constexpr const char* kLostRoundingBit =
    "every alignment and rounding of the datapath truncates instead of rounding to nearest: the half-LSB "
    "rounding bit of the shared shift-and-round (rtl/tmu_shift_round.sv) is lost";

struct Hypothesis {
  const char* stage;
  std::string what;
};

// The products' exponent bias or rebias constant off by d (rtl/tmu_fidelity_slice.sv, which MVMUL's
// sixteen multipliers and ELWMUL's one share).
std::string product_bias_text(int d) {
  return fmt::format("every product's exponent is one too {}: the exponent bias or rebias constant of the "
                     "products (rtl/tmu_fidelity_slice.sv)", d > 0 ? "large" : "small");
}

std::vector<Hypothesis> matmul_hypotheses(const Element& e, const fpu::MvmulTrace& t, uint32_t actual) {
  std::vector<Hypothesis> found;
  auto test = [&](const char* stage, std::string what, uint32_t candidate) {
    if (candidate == actual) found.push_back({stage, std::move(what)});
  };
  const fpu::FpuMode& mode = e.mode;
  constexpr auto kTruncate = fpu::ShiftRounding::Truncate;
  auto through_stages = [&](std::array<fpu::SliceProduct, fpu::kDotLength> p, int lose_group, int truncate_group,
                            bool with_dst, fpu::ShiftRounding accum_rounding = fpu::ShiftRounding::Nearest) {
    const std::span<const fpu::SliceProduct, fpu::kDotLength> all(p);
    fpu::AccTerm g[2] = {
        fpu::align_group_sum(all.first<8>(), truncate_group == 0 ? kTruncate : fpu::ShiftRounding::Nearest),
        fpu::align_group_sum(all.last<8>(), truncate_group == 1 ? kTruncate : fpu::ShiftRounding::Nearest)};
    if (lose_group >= 0) g[lose_group] = fpu::AccTerm{};
    fpu::AccumConfig config = fpu::accum_config(mode);
    config.rounding = accum_rounding;
    const uint32_t word = fpu::accum_normalize(g[0], g[1], with_dst ? t.dst_word : 0, config);
    return fpu::acc_to_dst(word, mode);
  };
  for (uint32_t q = 0; q < 4; ++q) {
    if (q == mode.fidelity_phase) continue;
    fpu::FpuMode other = mode;
    other.fidelity_phase = q;
    test("fidelity_slice", fmt::format("the RTL multiplied fidelity phase {}'s slices instead of phase {}'s", q, mode.fidelity_phase),
         fpu::mvmul_element(e.srca_column, e.srcb_row, e.dst_in, other));
  }
  const int32_t adjust = fpu::product_exponent_adjust(fpu::has_8bit_exponent(mode), mode.dst32, mode.fidelity_phase);
  for (unsigned k = 0; k < fpu::kDotLength; ++k) {
    if (t.products[k].mantissa == 0) continue;
    auto p = t.products;
    p[k] = fpu::SliceProduct{0, fpu::zero_product_exponent(adjust), 0};
    test("fidelity_slice", fmt::format("product k={} is missing (differs by the weight of phase {}'s slice product {})", k,
                                       mode.fidelity_phase, format_exact_value(product_value(t.products[k], mode))),
         through_stages(p, -1, -1, true));
    p = t.products;
    p[k].sign ^= 1u;
    test("fidelity_slice", fmt::format("product k={} has the wrong sign", k), through_stages(p, -1, -1, true));
  }
  for (const int d : {1, -1}) {
    auto p = t.products;
    for (fpu::SliceProduct& q : p)
      if (q.mantissa != 0) q.exponent += d;
    test("fidelity_slice", product_bias_text(d), through_stages(p, -1, -1, true));
  }
  for (int g = 0; g < 2; ++g) {
    test("align_group_sum", fmt::format("group {} (products {}..{}) is lost", g, 8 * g, 8 * g + 7),
         through_stages(t.products, g, -1, true));
    test("align_group_sum", fmt::format("group {} aligns its products by truncation instead of rounding ties away", g),
         through_stages(t.products, -1, g, true));
  }
  test("accum_normalize", "aligns and rounds by truncation instead of rounding to nearest (its alignment to the "
       "common exponent, the 13-bit pre-sum rounding and the final rounding)",
       through_stages(t.products, -1, -1, true, kTruncate));
  if (fpu::acc_exponent(t.dst_word) != 0)
    test("accum_normalize", "the Dst value was not accumulated (read as zero)", through_stages(t.products, -1, -1, false));
  test("shift_round", kLostRoundingBit,
       fpu::mvmul_element(e.srca_column, e.srcb_row, e.dst_in, mode, nullptr, kTruncate));
  return found;
}

std::vector<Hypothesis> elementwise_hypotheses(const Element& e, const fpu::ElwTrace& t, uint32_t actual) {
  std::vector<Hypothesis> found;
  auto test = [&](const char* stage, std::string what, uint32_t candidate) {
    if (candidate == actual) found.push_back({stage, std::move(what)});
  };
  auto run = [&](Op op, uint32_t a, uint32_t b, uint32_t dst, bool add_dst, const fpu::FpuMode& mode,
                 fpu::ShiftRounding rounding = fpu::ShiftRounding::Nearest) {
    switch (op) {
      case Op::ELWMUL: return fpu::elwmul_element(a, b, dst, mode, nullptr, rounding);
      case Op::ELWADD: return fpu::elwadd_element(a, b, dst, add_dst, mode, nullptr, rounding);
      default: return fpu::elwsub_element(a, b, dst, add_dst, mode, nullptr, rounding);
    }
  };
  for (uint32_t q = 0; q < 4; ++q) {
    if (q == e.mode.fidelity_phase) continue;
    fpu::FpuMode other = e.mode;
    other.fidelity_phase = q;
    test("fidelity_slice", fmt::format("the RTL used fidelity phase {} instead of {}", q, e.mode.fidelity_phase),
         run(e.op, e.a, e.b, e.dst_in, e.add_dst, other));
  }
  // The product's exponent one off, from the product as the model formed it (one that underflowed
  // is the zero product already, and stays it).
  if (e.op == Op::ELWMUL && t.product.mantissa != 0)
    for (const int d : {1, -1}) {
      fpu::SliceProduct p = t.product;
      p.exponent += d;
      test("fidelity_slice", product_bias_text(d), fpu::elwmul_product_to_dst(p, e.dst_in, e.mode));
    }
  if (e.op == Op::ELWSUB) {
    test("elw_adder", "SrcB's sign was not inverted (computed ELWADD)", run(Op::ELWADD, e.a, e.b, e.dst_in, e.add_dst, e.mode));
    test("elw_adder", "SrcA and SrcB swapped (SrcB - SrcA)", run(Op::ELWSUB, e.b, e.a, e.dst_in, e.add_dst, e.mode));
  }
  if (e.op == Op::ELWADD)
    test("elw_adder", "SrcB's sign was inverted (computed ELWSUB)", run(Op::ELWSUB, e.a, e.b, e.dst_in, e.add_dst, e.mode));
  if (e.add_dst && e.dst_in != 0)
    test("accum_normalize", "the Dst value was not accumulated (read as zero)", run(e.op, e.a, e.b, 0, e.add_dst, e.mode));
  test("shift_round", kLostRoundingBit, run(e.op, e.a, e.b, e.dst_in, e.add_dst, e.mode, fpu::ShiftRounding::Truncate));
  return found;
}

// What the result's fields alone say when no stage's perturbation reproduces it: the exponent off
// by a constant with the mantissa right (a bias), or the mantissa shifted one place with the
// exponent to match (the normalisation shift off by one: one too many left places the leading
// one above the implicit bit, where the rounding carry rule keeps the exponent; one too few leaves
// it at the mantissa's top bit and the exponent one higher). `ulp` allows the rounding at the
// shifted position to differ in the last place. Words in the accumulator layout, same sign.
std::optional<Hypothesis> result_field_hypothesis(uint32_t e_word, uint32_t a_word, uint32_t ulp) {
  if (fpu::acc_sign(e_word) != fpu::acc_sign(a_word) || fpu::acc_exponent(e_word) == 0 || fpu::acc_exponent(a_word) == 0)
    return std::nullopt;
  const int e_exp = static_cast<int>(fpu::acc_exponent(e_word)), a_exp = static_cast<int>(fpu::acc_exponent(a_word));
  const uint32_t e_mant = fpu::acc_mantissa(e_word), a_mant = fpu::acc_mantissa(a_word);
  const auto near = [&](uint32_t a, uint32_t b) { return (a > b ? a - b : b - a) <= ulp; };
  if (e_mant == a_mant)
    return Hypothesis{"accum_normalize", fmt::format("the exponent is off by {:+} with the sign and mantissa right: an "
                                                     "exponent bias or rebias constant",
                                                     a_exp - e_exp)};
  if (a_exp == e_exp && near(a_mant, (e_mant << 1) & 0x7FFFFFu))
    return Hypothesis{"accum_normalize", "the mantissa is the model's shifted one place left: the normalisation shift is "
                                         "one too large (rtl/tmu_accum_normalize.sv norm_shift)"};
  if (a_exp == e_exp + 1 && near(a_mant, 0x400000u | e_mant >> 1))
    return Hypothesis{"accum_normalize", "the mantissa is the model's shifted one place right and the exponent one "
                                         "higher: the normalisation shift is one too small (rtl/tmu_accum_normalize.sv "
                                         "norm_shift)"};
  return std::nullopt;
}

// ---- The RTL's own stage values, when reported ----

std::string probe_departure(const StageProbe& p, const fpu::MvmulTrace* mt, const fpu::ElwTrace* et, std::string* stage) {
  const fpu::AccumTrace& accum = mt ? mt->accum : et->accum;
  if (p.products && mt) {
    for (unsigned k = 0; k < fpu::kDotLength; ++k) {
      const auto& r = (*p.products)[k];
      const auto& m = mt->products[k];
      if (r.sign != m.sign || r.exponent != m.exponent || r.mantissa != m.mantissa) {
        *stage = "fidelity_slice";
        return fmt::format("RTL stage values first depart at fidelity_slice, product k={}: RTL sign {} exponent {} "
                           "mantissa {}, model sign {} exponent {} mantissa {}",
                           k, r.sign, r.exponent, hex(r.mantissa, 4), m.sign, m.exponent, hex(m.mantissa, 4));
      }
    }
  }
  if (p.group_sums && mt) {
    for (unsigned g = 0; g < 2; ++g) {
      if (!((*p.group_sums)[g] == mt->group_sums[g])) {
        *stage = "align_group_sum";
        return fmt::format("RTL stage values first depart at align_group_sum, group {}: RTL {}, model {}", g,
                           term_text((*p.group_sums)[g]), term_text(mt->group_sums[g]));
      }
    }
  }
  if (p.accum_magnitude && *p.accum_magnitude != accum.magnitude) {
    *stage = "accum_normalize";
    return fmt::format("RTL stage values first depart at accum_normalize (sum magnitude before normalisation): "
                       "RTL {}, model {}", hex(*p.accum_magnitude, 8), hex(accum.magnitude, 8));
  }
  if (p.result_word && *p.result_word != accum.result_word) {
    *stage = "accum_normalize";
    return fmt::format("RTL stage values first depart at accum_normalize (after rounding): RTL word {}, model {}",
                       hex(*p.result_word, 8), hex(accum.result_word, 8));
  }
  return "the RTL's reported stage values agree with the model's; the difference arises when the result is packed into Dst";
}

}  // namespace

std::string sb_detail::single_bit_storage(uint32_t expected, uint32_t actual, bool dst32, uint32_t storage_row,
                                          uint32_t col) {
  const uint32_t diff = expected ^ actual;
  if (std::popcount(diff) != 1) return "";
  const auto bit = static_cast<unsigned>(std::countr_zero(diff));
  uint32_t row = storage_row, stored_bit = bit;
  std::string half;
  if (dst32) {
    const Dst32Place place = dst32_place_of_storage_row(storage_row);
    const bool high = bit >= 16;
    row = high ? DstRegs::hi_row(place.row32) : DstRegs::lo_row(place.row32);
    stored_bit = bit % 16;
    half = fmt::format(", the {} half of Dst32b row {}", high ? "high" : "low", place.row32);
  }
  return fmt::format("only bit {} of the value differs and no datapath stage explains it: a storage or transport "
                     "fault - DstBits row {} col {} bit {}{} holds {} where the datapath computed {}",
                     bit, row, col, stored_bit, half, (actual >> bit) & 1u, (expected >> bit) & 1u);
}

std::optional<DatapathDiagnosis> diagnose_datapath_element(const TensixState& before, unsigned thread, uint32_t word,
                                                           uint32_t storage_row, uint32_t col, uint32_t expected,
                                                           uint32_t actual, const StageProbe* probe) {
  if (thread >= kNumThreads || col >= kDstCols) return std::nullopt;
  Insn insn;
  try {
    insn = decode(word, before.arch);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (insn.op() == Op::GMPOOL) return diagnose_gmpool_element(before, insn, thread, storage_row, col, expected, actual);
  if (!is_matmul(insn.op()) && !is_elementwise(insn.op())) return std::nullopt;
  TensixState s = before;
  const auto located = locate_element(s, insn, thread, storage_row & (kDstRows - 1), col);
  if (!located) return std::nullopt;
  const Element& e = *located;
  const uint32_t phase = e.mode.fidelity_phase & 3;

  DatapathDiagnosis d;
  d.operation = e.name;
  d.fidelity_phase = phase;
  std::vector<Hypothesis> found;
  std::string stages = "  operands: " + e.operands + "\n";

  if (e.int8) {
    // The integer path has no rounding: report its three values and the phase/accumulation checks.
    fpu::Int8Trace t;
    uint32_t r = 0;
    auto run = [&](uint32_t q, uint32_t dst) -> uint32_t {
      switch (e.op) {
        case Op::MVMUL: case Op::DOTPV: case Op::GAPOOL: return fpu::int8_mvmul_element(e.srca_column, e.srcb_row, dst, q, &t);
        case Op::ELWMUL: return fpu::int8_elwmul_element(e.a, e.b, dst, q, e.mode.srcb_zero_flag_disabled, &t);
        case Op::ELWADD: return fpu::int8_elwadd_element(e.a, e.b, dst, e.add_dst, e.mode.srcb_zero_flag_disabled, &t);
        default: return fpu::int8_elwsub_element(e.a, e.b, dst, e.add_dst, e.mode.srcb_zero_flag_disabled, &t);
      }
    };
    for (uint32_t q = 0; q < 4; ++q)
      if (q != phase && is_matmul(e.op) && run(q, e.dst_in) == actual)
        found.push_back({"fidelity_slice", fmt::format("the RTL multiplied fidelity phase {}'s slices instead of phase {}'s", q, phase)});
    if (e.dst_in != 0 && run(phase, 0) == actual) found.push_back({"accumulate", "the Dst value was not accumulated"});
    r = run(phase, e.dst_in);
    d.recompute_matches_model = r == expected;
    // Past +/-(2^31 - 1) the model saturates; an adder without the clamp keeps the magnitude's low 31
    // bits (rtl/tmu_int8_sat_acc.sv drops its overflow bit), with Dst's sign.
    if (const int64_t sum = int64_t{t.dst_in} + t.dot; e.add_dst && (sum > INT32_MAX || sum < -INT32_MAX)) {
      const int64_t wrapped = (sum < 0 ? -sum : sum) & INT32_MAX;
      if (dst32_to_int32(actual) == (sum < 0 ? -wrapped : wrapped))
        found.push_back({"int8_sat_acc", fmt::format("Dst {} + {} = {} was not saturated at +/-(2^31 - 1): its magnitude "
                                                     "wrapped to its low 31 bits", t.dst_in, t.dot, sum)});
    }
    if (!found.empty()) {
      d.first_stage = found.front().stage;
      d.explanation = found.front().what;
      for (size_t h = 1; h < found.size(); ++h) d.also_consistent.push_back(fmt::format("[{}] {}", found[h].stage, found[h].what));
    }
    d.srca_slice = fmt::format("integer magnitude bits kept: {}", hex(fpu::int8_srca_slice_mask(phase), 3));
    d.srcb_slice = fmt::format("integer magnitude bits kept: {}", hex(fpu::int8_srcb_slice_mask(phase), 3));
    stages += fmt::format("  integer path: product/sum {}, Dst in {}, result {}\n", t.dot, t.dst_in, t.result);
    if (std::string storage = found.empty() ? single_bit_storage(expected, actual, true, storage_row, col) : "";
        !storage.empty()) {
      d.first_stage = "storage";
      d.explanation = std::move(storage);
    } else if (found.empty())
      d.explanation = fmt::format("integer results differ by {}",
                                  static_cast<int64_t>(dst32_to_int32(actual)) - dst32_to_int32(expected));
  } else {
    const uint32_t e_word = fpu::dst_to_acc(expected, e.mode), a_word = fpu::dst_to_acc(actual, e.mode);
    const fpu::AccumTrace* accum = nullptr;
    fpu::MvmulTrace mt;
    fpu::ElwTrace et;
    uint32_t r = 0;
    if (e.family == Family::Matmul) {
      r = fpu::mvmul_element(e.srca_column, e.srcb_row, e.dst_in, e.mode, &mt);
      accum = &mt.accum;
      d.srca_slice = srca_slice_text(phase);
      d.srcb_slice = srcb_slice_text(phase);
      stages += fmt::format("  fidelity_slice (phase {}):\n", phase);
      std::string zero_products;
      for (unsigned k = 0; k < fpu::kDotLength; ++k) {
        const auto& p = mt.products[k];
        if (p.mantissa == 0) {  // listed together: a flushed operand or an all-zero slice
          zero_products += fmt::format("{}{}", zero_products.empty() ? "" : ",", k);
          continue;
        }
        stages += fmt::format("    k={:2} {} -> sign {} exponent {} mantissa {} (= {})\n", k,
                              operand_slices(e.srca_column[k], e.srcb_row[k], e.mode), p.sign, p.exponent,
                              hex(p.mantissa, 4), format_exact_value(product_value(p, e.mode)));
      }
      if (!zero_products.empty()) stages += fmt::format("    k={}: zero products\n", zero_products);
      stages += fmt::format("  align_group_sum:\n    group 0 (k 0..7):  {}\n    group 1 (k 8..15): {}\n",
                            term_text(mt.group_sums[0]), term_text(mt.group_sums[1]));
      stages += accum_text(mt.accum, mt.dst_word);
      found = matmul_hypotheses(e, mt, actual);
    } else {
      r = e.op == Op::ELWMUL   ? fpu::elwmul_element(e.a, e.b, e.dst_in, e.mode, &et)
          : e.op == Op::ELWADD ? fpu::elwadd_element(e.a, e.b, e.dst_in, e.add_dst, e.mode, &et)
                               : fpu::elwsub_element(e.a, e.b, e.dst_in, e.add_dst, e.mode, &et);
      accum = &et.accum;
      if (e.op == Op::ELWMUL) {
        d.srca_slice = srca_slice_text(phase);
        d.srcb_slice = srcb_slice_text(phase);
        stages += fmt::format("  fidelity_slice (phase {}): {} -> sign {} exponent {} mantissa {}\n", phase,
                              operand_slices(e.a, e.b, e.mode), et.product.sign, et.product.exponent,
                              hex(et.product.mantissa, 4));
      } else {
        d.srca_slice = d.srcb_slice = "whole significand (no multiplier)";
        stages += fmt::format("  operands (larger magnitude first): A sign {} exponent {} significand {}; B sign {} "
                              "exponent {} significand {} aligned {}; phase {} scales the sum by 2^-{}\n",
                              et.a.sign, et.a.exponent, hex(et.a.significand, 3), et.b.sign, et.b.exponent,
                              hex(et.b.significand, 3), hex(et.b_aligned, 3), phase, fpu::elwadd_phase_scale_exponent(phase));
      }
      stages += fmt::format("  term entering the accumulator: {}\n", term_text(et.term));
      stages += accum_text(et.accum, et.dst_word);
      found = elementwise_hypotheses(e, et, actual);
    }
    stages += fmt::format("  stored result {}\n", describe_dst_element(r, DstView{e.mode.dst32, false, e.mode.srca_style}));
    d.recompute_matches_model = r == expected;

    // The simplest explanations first: a sign, then the last bit, then one perturbed stage.
    // Exponent and mantissa together order magnitudes, so neighbours at the Dst width differ by one ulp.
    const uint32_t e_key = bits<30, 0>(e_word), a_key = bits<30, 0>(a_word);
    const uint32_t ulp = ulp_of(e.mode);
    if (e_key == a_key && fpu::acc_sign(e_word) != fpu::acc_sign(a_word)) {
      d.first_stage = "accum_normalize";
      d.explanation = "differs only in the sign: the sign of the sum (relative to Dst's) or its packing";
    } else if (fpu::acc_sign(e_word) == fpu::acc_sign(a_word) && (a_key > e_key ? a_key - e_key : e_key - a_key) == ulp) {
      d.first_stage = "accum_normalize";
      d.explanation = final_rounding_explanation(*accum, e.mode, a_key > e_key);
    } else if (!found.empty()) {
      d.first_stage = found.front().stage;
      d.explanation = found.front().what;
      found.erase(found.begin());
    } else if (std::string storage = single_bit_storage(expected, actual, e.mode.dst32, storage_row, col);
               !storage.empty()) {
      d.first_stage = "storage";
      d.explanation = std::move(storage);
    } else if (const auto field = result_field_hypothesis(e_word, a_word, ulp)) {
      d.first_stage = field->stage;
      d.explanation = field->what;
    } else {
      const double ve = e.mode.dst32 ? dst32_value(expected, false) : dst16_value(static_cast<uint16_t>(expected), e.mode.srca_style);
      const double va = e.mode.dst32 ? dst32_value(actual, false) : dst16_value(static_cast<uint16_t>(actual), e.mode.srca_style);
      d.explanation = fmt::format("no single-stage perturbation reproduces the RTL's value; it differs by {} ({} ulps "
                                  "at the Dst width{})",
                                  format_exact_value(va - ve),
                                  fpu::acc_sign(e_word) == fpu::acc_sign(a_word) ? std::to_string(
                                      (a_key > e_key ? a_key - e_key : e_key - a_key) / ulp) : std::string("signs differ"),
                                  fpu::acc_exponent(e_word) != fpu::acc_exponent(a_word) ? "; the exponents differ: look at alignment and normalisation" : "");
    }
    for (const Hypothesis& h : found) d.also_consistent.push_back(fmt::format("[{}] {}", h.stage, h.what));
    if (probe) {
      std::string stage;
      d.probe_departure = probe_departure(*probe, e.family == Family::Matmul ? &mt : nullptr,
                                          e.family == Family::Matmul ? nullptr : &et, &stage);
      if (!stage.empty()) d.first_stage = stage;
    }
  }
  if (!d.recompute_matches_model)
    d.explanation += " (warning: the scoreboard's recomputation disagrees with the model's result; its operand "
                     "addressing may be out of date with refmodel/engines/tensix/src/insn)";
  d.stage_values = stages;
  return d;
}

}  // namespace tmu::tensix
