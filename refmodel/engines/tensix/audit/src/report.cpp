// The Matrix Unit's sections of audit.md: the run's description, MVMUL and ELWMUL pivoted by
// fidelity and by distribution, and what each fidelity pass added to Dst.
#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "parts.h"

namespace tmu::audit {
namespace {

std::string dst_label(SrcFormat f, bool dst32) {
  return dst32 ? "32-bit (FP32)" : fmt::format("16-bit ({})", info(f).acc16.name);
}

std::string bits_cell(const ErrorStats* s) {
  if (!s) return "";
  return bits_text(s->bits) + " / " + bits_text(s->bits_p99);
}

// "pass", or the number of failing element-passes and pass-count mismatches.
std::string check_cell(const AuditResults& r, SeriesOp op, SrcFormat f, Distribution d, bool dst32) {
  size_t failures = 0, wrong_counts = 0, checks = 0;
  for (unsigned phases : matrix_unit_settings(r.options).fidelities) {
    auto it = r.checks.find(CheckKey{op, f, d, dst32, phases});
    if (it == r.checks.end()) continue;
    ++checks;
    failures += it->second.failures();
    wrong_counts += it->second.steps_with_wrong_pass_count;
  }
  if (!checks) return "";
  if (!failures && !wrong_counts) return "pass";
  return fmt::format("FAIL ({} elements, {} pass counts)", failures, wrong_counts);
}

bool has(const std::vector<Distribution>& v, Distribution d) { return std::find(v.begin(), v.end(), d) != v.end(); }
bool has_op(const AuditOptions& o, SeriesOp op) {
  const std::vector<SeriesOp>& ops = matrix_unit_settings(o).ops;
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

void fidelity_pivot(std::ostream& md, const AuditResults& r, SeriesOp op, unsigned k, Distribution d) {
  const AuditOptions& o = r.options;
  const std::vector<unsigned>& fidelities = matrix_unit_settings(o).fidelities;
  md << "| Src | Dst |";
  for (unsigned f : fidelities) md << ' ' << fidelity_name(f) << " |";
  md << " IEEE-once | IEEE-seq | ULP median / p99 (" << fidelity_name(fidelities.back()) << ") | phase check |\n|---|---|";
  for (size_t i = 0; i < fidelities.size() + 4; ++i) md << "---|";
  md << '\n';
  for (SrcFormat f : o.formats)
    for (bool dst32 : o.dst32_modes) {
      md << "| " << info(f).name << " | " << dst_label(f, dst32) << " |";
      for (unsigned phases : fidelities) md << ' ' << bits_cell(find_stats(r, {op, k, f, d, dst32, phases})) << " |";
      md << ' ' << bits_cell(find_stats(r, {op, k, f, d, dst32, kIeeeOnce})) << " |";
      md << ' ' << bits_cell(find_stats(r, {op, k, f, d, dst32, kIeeeSeq})) << " |";
      const ErrorStats* top = find_stats(r, {op, k, f, d, dst32, fidelities.back()});
      md << ' ' << (top ? fmt::format("{:.3g} / {:.3g}", top->p50_ulp, top->p99_ulp) : "") << " |";
      md << ' ' << check_cell(r, op, f, d, dst32) << " |\n";
    }
  md << '\n';
}

// The packer's share: per source format and L1 format, each fidelity's effective bits in the FP32
// Dst and after the trip through L1, beside the best any result stored in that format can have.
void packed_table(std::ostream& md, const AuditResults& r, unsigned k, Distribution d) {
  const AuditOptions& o = r.options;
  const MatrixUnitSettings& mu = matrix_unit_settings(o);
  md << "| Src | L1 format |";
  for (unsigned f : mu.fidelities) md << ' ' << fidelity_name(f) << ": Dst -> L1 |";
  md << " IEEE-once in the L1 format |\n|---|---|";
  for (size_t i = 0; i <= mu.fidelities.size(); ++i) md << "---|";
  md << '\n';
  for (SrcFormat f : o.formats)
    for (L1Format to : mu.packed) {
      const SeriesOp op = packed_op(to);
      md << "| " << info(f).name << " | " << l1_format_name(to) << " |";
      for (unsigned phases : mu.fidelities) {
        const ErrorStats* dst = find_stats(r, {kMvmul, k, f, d, true, phases});
        const ErrorStats* l1 = find_stats(r, {op, k, f, d, true, phases});
        md << ' ' << (dst && l1 ? bits_text(dst->bits) + " -> " + bits_text(l1->bits) : "") << " |";
      }
      const ErrorStats* once = find_stats(r, {op, k, f, d, true, kIeeeOnce});
      md << ' ' << (once ? bits_text(once->bits) : "(no IEEE format)") << " |\n";
    }
  md << '\n';
}

void distribution_pivot(std::ostream& md, const AuditResults& r, SeriesOp op, unsigned k, unsigned method) {
  const AuditOptions& o = r.options;
  const std::vector<unsigned>& fidelities = matrix_unit_settings(o).fidelities;
  md << "| Src | Dst |";
  for (Distribution d : o.distributions) md << ' ' << distribution_name(d) << " | IEEE-seq |";
  md << "\n|---|---|";
  for (size_t i = 0; i < o.distributions.size(); ++i) md << "---|---|";
  md << '\n';
  for (SrcFormat f : o.formats)
    for (bool dst32 : o.dst32_modes) {
      md << "| " << info(f).name << " | " << dst_label(f, dst32) << " |";
      for (Distribution d : o.distributions) {
        md << ' ' << bits_cell(find_stats(r, {op, k, f, d, dst32, method})) << " |";
        md << ' ' << bits_cell(find_stats(r, {op, k, f, d, dst32, kIeeeSeq})) << " |";
      }
      md << '\n';
    }
  md << '\n';
}

void contribution_table(std::ostream& md, const AuditResults& r, SeriesOp op, Distribution d, bool dst32) {
  const unsigned top = matrix_unit_settings(r.options).fidelities.back();
  md << "| Src | pass 0 | pass 1 | pass 2 | pass 3 | element-passes checked | sensitive | max error/budget |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (SrcFormat f : r.options.formats) {
    auto it = r.checks.find(CheckKey{op, f, d, dst32, top});
    if (it == r.checks.end()) continue;
    const PhaseCheck& c = it->second;
    size_t elements = 0, sensitive = 0;
    double excess = 0;
    md << "| " << info(f).name << " |";
    for (unsigned p = 0; p < 4; ++p) {
      if (p < c.passes.size()) {
        const PassCheck& pc = c.passes[p];
        const std::string share = log2_share(pc.sum_abs_added, c.sum_abs_step_product);
        md << ' ' << (share.empty() ? "nothing" : share) << " (" << pass_verdict(c, pc) << ") |";
        elements += pc.elements;
        sensitive += pc.sensitive;
        excess = std::max(excess, pc.max_excess);
      } else {
        md << " |";
      }
    }
    md << ' ' << elements << " | " << sensitive << " | " << fmt::format("{:.3g}", excess) << " |\n";
  }
  md << '\n';
}

}  // namespace

void tensix_markdown(ReportPart part, const AuditResults& r, std::ostream& md) {
  const AuditOptions& o = r.options;
  const MatrixUnitSettings& mu = matrix_unit_settings(o);
  const Distribution headline = has(o.distributions, Distribution::Uniform) ? Distribution::Uniform : o.distributions[0];
  if (part == ReportPart::Description) {
    md << fmt::format(
        "Seed {}, {}, {} MVMUL run(s) of K = {} tiles and {} ELWMUL tile(s) per source format and distribution"
        "{}; {:.1f} s.\n\n",
        o.seed, arch_name(mu.arch), o.samples, o.max_k, o.eltwise_tiles,
        mu.perturb.kind == Perturbation::Kind::None ? "" : ", sequence perturbed: " + perturbation_name(mu.perturb),
        r.seconds);
  } else if (part == ReportPart::Matmul) {
    if (has_op(o, kMvmul)) {
      md << fmt::format("## MVMUL, one 32x32 tile (K = 1), {}\n\n", distribution_name(headline));
      fidelity_pivot(md, r, kMvmul, 1, headline);
      if (o.max_k > 1) {
        md << fmt::format("## MVMUL, K = {} tiles ({}-deep dot products), {}\n\n", o.max_k, 32 * o.max_k,
                          distribution_name(headline));
        fidelity_pivot(md, r, kMvmul, o.max_k, headline);
      }
    }
  } else if (part == ReportPart::AfterMatmul) {
    const bool dst32 = std::find(o.dst32_modes.begin(), o.dst32_modes.end(), true) != o.dst32_modes.end();
    if (has_op(o, kMvmul) && dst32 && !mu.packed.empty()) {
      md << fmt::format("## MVMUL from L1 to L1: what the packer adds, K = 1, {}\n\n", distribution_name(headline));
      md << "Effective bits (median) of the FP32 Dst result and of the same result packed to L1 in each format "
            "(the packer's default conversion and rounding) and read back by the unpacker; the operands come from "
            "L1 in their own source format, which the unpacker reads exactly.\n\n";
      packed_table(md, r, 1, headline);
    }
  } else if (part == ReportPart::Tables) {
    if (has_op(o, kElwmul)) {
      md << fmt::format("## ELWMUL, {}\n\n", distribution_name(headline));
      fidelity_pivot(md, r, kElwmul, 1, headline);
    }
    const unsigned top = mu.fidelities.back();
    for (SeriesOp op : mu.ops) {
      md << fmt::format("## {} at {}{}, every input distribution\n\n", op.name, fidelity_name(top),
                        op == kMvmul ? ", K = 1" : "");
      distribution_pivot(md, r, op, 1, top);
    }
    for (SeriesOp op : mu.ops)
      for (bool dst32 : o.dst32_modes) {
        md << fmt::format("## What each pass added to Dst: {} {}, {}, {} Dst\n\n", op.name, fidelity_name(top),
                          distribution_name(headline), dst32 ? "FP32" : "16-bit");
        md << "log2 of (sum of |Dst after - Dst before| over the pass) / (sum of |exact product| of the tile pairs or "
              "elements), with the pass's check: pass, FAIL, or unresolved (the pass adds less than the rounding "
              "budget everywhere, so a mistake in it would not show).\n\n";
        contribution_table(md, r, op, headline, dst32);
      }
  }
}

}  // namespace tmu::audit
