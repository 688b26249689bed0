// The per-phase contribution check and its rounding budget (phase_check.h).
#include "tmu/tensix/llk/phase_check.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "tmu/tensix/llk/slices.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;
namespace {

constexpr int kProductFractionBits = 10;  // a 5x7 slice product: 1.xxxx * 1.xxxxxx
constexpr int kAccFractionBits = 23;
constexpr int kNarrowTermFractionBits = 10;  // 16-bit Dst: terms are rounded at 2^-10 of the common weight
constexpr unsigned kGroup = 8;
constexpr double kMagnitudeSlack = 1.0 + 1.0 / 16;  // covers the rounding inside a pass
constexpr double kBudgetSlack = 1.0 + 1.0 / (1 << 20);  // covers the budget's own double arithmetic

double floor_pow2(double x) { return x > 0 ? std::ldexp(1.0, std::ilogb(x)) : 0.0; }

int phase_weight_log2(SrcFormat f, unsigned phase) {
  return slice_spec(f, Operand::SrcA, phase).port_weight_log2 + slice_spec(f, Operand::SrcB, phase).port_weight_log2;
}

// A zero product still carries an exponent into the adders: the exponent adjustment clamped at
// zero. Only FP16 sources with an FP32 Dst make that exponent positive (2^-30 of the phase weight),
// and it matters only when a whole group is zero (ttsim mvmul; datapath.h zero_product_exponent).
double zero_product_scale(const CheckConfig& cfg, int weight_log2) {
  return cfg.format == SrcFormat::FP16 && cfg.dst32 ? std::ldexp(1.0, -30 + weight_log2) : 0.0;
}

struct Product {
  bool zero;         // an operand is zero (flushed)
  int exponent;      // sum of the operands' exponents
  double magnitude;  // |slice product|, exact
};

struct GroupBudget {
  double error = 0;
  double scale = 0;  // weight 2^e of the group's exponent as it enters the accumulator; 0 for none
};

GroupBudget group_budget(const Product* p, int weight_log2, double acc_min_normal, double zero_scale) {
  std::optional<int> top_exponent;  // of the products with both operands non-zero
  for (unsigned k = 0; k < kGroup; ++k)
    if (!p[k].zero) top_exponent = std::max(top_exponent.value_or(p[k].exponent), p[k].exponent);
  GroupBudget g;
  if (!top_exponent) {
    g.scale = zero_scale;
    return g;
  }
  const int top = *top_exponent;
  const double scale = std::ldexp(1.0, top + weight_log2);
  if (scale < acc_min_normal) {
    for (unsigned k = 0; k < kGroup; ++k) g.error += p[k].magnitude;  // the group is dropped
    return g;
  }
  const double half_unit = 0.5 * std::ldexp(scale, -kProductFractionBits);
  for (unsigned k = 0; k < kGroup; ++k)
    if (!p[k].zero && p[k].exponent < top) g.error += half_unit;
  g.scale = scale;
  return g;
}

double term_alignment_budget(double common_scale, bool dst32) {
  return dst32 ? 0.5 * std::ldexp(common_scale, -kAccFractionBits) : std::ldexp(common_scale, -kNarrowTermFractionBits);
}

double final_rounding_budget(double magnitude_bound, const OutFormat& f) {
  return 0.5 * ulp_in_format(magnitude_bound, f) + min_normal(f);
}

// Budget for one MVMUL's worth of products (two groups) onto a Dst bounded by dst_bound.
double mvmul_budget(const Product* p, double dst_bound, int weight_log2, const CheckConfig& cfg) {
  const OutFormat& f = output_format(cfg.format, cfg.dst32);
  const double zero_scale = zero_product_scale(cfg, weight_log2);
  const GroupBudget g0 = group_budget(p, weight_log2, min_normal(f), zero_scale);
  const GroupBudget g1 = group_budget(p + kGroup, weight_log2, min_normal(f), zero_scale);
  const double common = std::max({g0.scale, g1.scale, floor_pow2(dst_bound)});
  return g0.error + g1.error + 3 * term_alignment_budget(common, cfg.dst32) + final_rounding_budget(dst_bound, f);
}

// Compares one element-pass exactly; the budget is the only inexact quantity.
class Comparator {
 public:
  Comparator() { mpfr_init2(diff_, kExactBits); }
  ~Comparator() { mpfr_clear(diff_); }
  Comparator(const Comparator&) = delete;
  Comparator& operator=(const Comparator&) = delete;

  void compare(double before, double after, const Real& expected, double budget, PassCheck& out) {
    int inexact = mpfr_set_d(diff_, after, MPFR_RNDN);
    inexact |= mpfr_sub_d(diff_, diff_, before, MPFR_RNDN);
    const double added = mpfr_get_d(diff_, MPFR_RNDN);
    inexact |= mpfr_sub(diff_, diff_, expected.mpfr_srcptr(), MPFR_RNDN);
    if (inexact) throw std::runtime_error("precision audit: a phase difference rounded; raise kExactBits");
    mpfr_abs(diff_, diff_, MPFR_RNDN);
    const double expected_abs = std::fabs(mpfr_get_d(expected.mpfr_srcptr(), MPFR_RNDN));
    ++out.elements;
    if (mpfr_cmp_d(diff_, budget) > 0) ++out.failures;
    if (expected_abs > budget) ++out.sensitive;
    out.max_excess = std::max(out.max_excess, mpfr_get_d(diff_, MPFR_RNDU) / budget);
    out.sum_abs_added += std::fabs(added);
    out.sum_abs_expected += expected_abs;
  }

 private:
  mpfr_t diff_;
};

// Shared bookkeeping: pass counts, and the passes both the sequence and the expectation have.
PhaseCheck start_check(const SequenceTrace& trace, const CheckConfig& cfg) {
  PhaseCheck check;
  check.expected_passes = cfg.phases;
  check.passes.resize(cfg.phases);
  check.steps = trace.steps.size();
  for (const StepTrace& step : trace.steps)
    if (step.snapshots.size() != cfg.phases + 1) ++check.steps_with_wrong_pass_count;
  return check;
}

unsigned comparable_passes(const StepTrace& step, const CheckConfig& cfg) {
  return std::min<unsigned>(cfg.phases, static_cast<unsigned>(step.snapshots.size()) - 1);
}

}  // namespace

PhaseCheck check_matmul_phases(const MatmulCase& c, const MatmulExact& exact, const std::vector<PhaseProducts>& phases,
                               const SequenceTrace& trace, const CheckConfig& cfg) {
  const SrcFormat f = c.format;
  PhaseCheck check = start_check(trace, cfg);
  Comparator cmp;
  Product products[kTile];
  std::vector<double> left_slices(kTile * kTile), right_slices(kTile * kTile);  // |slice|, [i][k] and [k][j]
  for (unsigned t = 0; t < trace.steps.size(); ++t) {
    const StepTrace& step = trace.steps[t];
    const unsigned k0 = t * kTile;
    for (unsigned e = 0; e < kTile * kTile; ++e) {
      const Real tile_product = t ? exact.prefix[t][e] - exact.prefix[t - 1][e] : exact.prefix[t][e];
      check.sum_abs_step_product += std::fabs(tile_product.toDouble());
    }
    for (unsigned pass = 0; pass < comparable_passes(step, cfg); ++pass) {
      const unsigned phase = pass;
      const int weight = phase_weight_log2(f, phase);
      for (unsigned a = 0; a < kTile; ++a)
        for (unsigned b = 0; b < kTile; ++b) {
          left_slices[a * kTile + b] = std::fabs(double_of(slice_of(c.left(a, k0 + b), f, Operand::SrcB, phase), f));
          right_slices[a * kTile + b] = std::fabs(double_of(slice_of(c.right(k0 + a, b), f, Operand::SrcA, phase), f));
        }
      for (unsigned i = 0; i < kTile; ++i) {
        for (unsigned j = 0; j < kTile; ++j) {
          double sum_magnitude = 0;
          for (unsigned k = 0; k < kTile; ++k) {
            const SrcNumber& left = c.left(i, k0 + k);   // SrcB
            const SrcNumber& right = c.right(k0 + k, j);  // SrcA
            const double magnitude = left_slices[i * kTile + k] * right_slices[k * kTile + j];
            products[k] = Product{left.is_zero() || right.is_zero(), left.exponent + right.exponent, magnitude};
            sum_magnitude += magnitude;
          }
          const unsigned e = i * kTile + j;
          const double before = step.snapshots[pass][e], after = step.snapshots[pass + 1][e];
          const double bound = (std::fabs(before) + sum_magnitude) * kMagnitudeSlack;
          // The tile's 32-long dot product is two MVMULs of 16 (k 0..15, then 16..31).
          const double budget = (mvmul_budget(products, bound, weight, cfg) +
                                 mvmul_budget(products + 2 * kGroup, bound, weight, cfg)) * kBudgetSlack;
          cmp.compare(before, after, phases[t][phase][e], budget, check.passes[pass]);
        }
      }
    }
  }
  return check;
}

PhaseCheck check_eltwise_phases(const EltwiseCase& c, const PhaseProducts& phases, const SequenceTrace& trace,
                                const CheckConfig& cfg) {
  const SrcFormat f = c.format;
  const OutFormat& out = output_format(f, cfg.dst32);
  PhaseCheck check = start_check(trace, cfg);
  Comparator cmp;
  for (const StepTrace& step : trace.steps) {
    for (unsigned e : step.elements) check.sum_abs_step_product += std::fabs(double_of(c.a[e], f) * double_of(c.b[e], f));
    for (unsigned pass = 0; pass < comparable_passes(step, cfg); ++pass) {
      const unsigned phase = pass;
      const int weight = phase_weight_log2(f, phase);
      for (unsigned n = 0; n < step.elements.size(); ++n) {
        const unsigned e = step.elements[n];
        const SrcNumber &a = c.a[e], &b = c.b[e];
        const double magnitude = std::fabs(double_of(slice_of(a, f, Operand::SrcA, phase), f) *
                                           double_of(slice_of(b, f, Operand::SrcB, phase), f));
        const double before = step.snapshots[pass][n], after = step.snapshots[pass + 1][n];
        double error = 0, scale = 0;
        if (a.is_zero() || b.is_zero()) {
          scale = zero_product_scale(cfg, weight);
        } else {
          scale = std::ldexp(1.0, a.exponent + b.exponent + weight);
          if (scale < min_normal(out)) error = magnitude, scale = 0;  // the product underflows: dropped
        }
        const double bound = (std::fabs(before) + magnitude) * kMagnitudeSlack;
        const double common = std::max(scale, floor_pow2(std::fabs(before)));
        const double budget =
            (error + 2 * term_alignment_budget(common, cfg.dst32) + final_rounding_budget(bound, out)) * kBudgetSlack;
        cmp.compare(before, after, phases[phase][e], budget, check.passes[pass]);
      }
    }
  }
  return check;
}

}  // namespace tmu::tensix::llk
