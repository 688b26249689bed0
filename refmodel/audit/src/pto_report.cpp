// The PTO section of audit.md and cross_engines.csv: the PTO rows pivoted by operation and type,
// and the cross-engine table of element-wise multiply and add (Tensix ELWMUL and ELWADD, PTO TMUL and
// TADD on the same operands, AMX matfp at K = 1 beside them).
#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "tmu/audit/audit.h"

namespace tmu::audit {

namespace {

struct CrossLine {
  std::string engine, operation, method, result;  // result: the format the ULPs are counted in
  SrcFormat format;
  Distribution dist;
  ErrorStats stats;
  std::string row;  // the table row it belongs to: one per method across the source formats
  int order;        // rows sorted by this: Tensix ELWMUL then ELWADD by Dst mode and fidelity, PTO, AMX
};

// No ELWADD lane of this Dst mode changed with the fidelity setting.
bool elwadd_fidelity_blind(const AuditResults& r, bool dst32) {
  for (const ElwaddCross& e : r.elwadd_cross)
    if (e.dst32 == dst32 && e.lanes_unlike_first != 0) return false;
  return true;
}

std::string elwadd_fidelity_span(const AuditOptions& o) {
  if (o.fidelities.size() == 1) return method_name(o.fidelities.front());
  return fmt::format("{} to {}, same results", method_name(o.fidelities.front()), method_name(o.fidelities.back()));
}

// "k of n lane results": how many of the lanes run above the first fidelity differ from it.
std::string elwadd_fidelity_note(const AuditResults& r) {
  if (r.options.fidelities.size() == 1)
    return fmt::format(" Tensix ELWADD runs the LLK's ELWADD MOP (Dst written, not read), configured for {} only.",
                       method_name(r.options.fidelities.front()));
  uint64_t lanes = 0, unlike = 0;
  for (const ElwaddCross& e : r.elwadd_cross)
    if (e.phases != r.options.fidelities.front()) {
      lanes += e.stats.count;
      unlike += e.lanes_unlike_first;
    }
  return fmt::format(
      " Tensix ELWADD runs the LLK's ELWADD MOP (Dst written, not read), configured for each fidelity asked for; "
      "{} of {} lane results differ from those at {}.",
      unlike, lanes, method_name(r.options.fidelities.front()));
}

std::string bits_text(double b) { return b >= kBitsCap ? "exact" : fmt::format("{:.1f}", b); }

std::vector<CrossLine> cross_lines(const AuditResults& r) {
  const AuditOptions& o = r.options;
  std::vector<CrossLine> out;
  for (Distribution d : o.distributions) {
    if (d == Distribution::Cancellation) continue;
    for (SrcFormat f : o.formats) {
      for (bool dst32 : o.dst32_modes)
        for (unsigned phases : o.fidelities) {
          const auto it = r.stats.find(SeriesKey{Op::Elwmul, 1, f, d, dst32, phases});
          if (it == r.stats.end()) continue;
          out.push_back(CrossLine{"Tensix", "ELWMUL", method_name(phases),
                                  dst32 ? "FP32 Dst" : fmt::format("{} Dst", info(f).dst16.name), f, d, it->second,
                                  fmt::format("Tensix | ELWMUL | {} | {}", method_name(phases),
                                              dst32 ? "FP32 Dst" : "16-bit Dst (FP16 for FP16, else BF16)"),
                                  (dst32 ? 10 : 0) + static_cast<int>(phases)});
        }
      // ELWADD's fidelities share one table row per Dst mode when they gave the same results on
      // every lane (the CSV keeps a line per fidelity).
      for (const ElwaddCross& e : r.elwadd_cross) {
        if (e.format != f || e.dist != d) continue;
        const bool one_row = elwadd_fidelity_blind(r, e.dst32);
        const std::string method = one_row ? elwadd_fidelity_span(o) : method_name(e.phases);
        out.push_back(CrossLine{"Tensix", "ELWADD", method_name(e.phases),
                                e.dst32 ? "FP32 Dst" : fmt::format("{} Dst", info(f).dst16.name), f, d, e.stats,
                                fmt::format("Tensix | ELWADD | {} | {}", method,
                                            e.dst32 ? "FP32 Dst" : "16-bit Dst (FP16 for FP16, else BF16)"),
                                15 + (e.dst32 ? 5 : 0) + (one_row ? 0 : static_cast<int>(e.phases))});
      }
      for (const PtoCross& c : r.pto_cross)
        if (c.format == f && c.dist == d)
          out.push_back(CrossLine{"PTO", std::string(pto::op_name(c.op)), "cpusim",
                                  std::string(pto::elem_name(pto_type_of(f))), f, d, c.stats,
                                  fmt::format("PTO | {} | cpusim | element type (bf16, f16, f32)", pto::op_name(c.op)),
                                  c.op == pto::Op::TMUL ? 30 : 31});
      const auto amx = r.stats.find(SeriesKey{Op::Matfp, 1, f, d, true, kAmx});
      if (amx != r.stats.end())
        out.push_back(CrossLine{"AMX", "MATFP K=1", amx_method_name(amx_mode_of_stream(f)), "FP32 Z", f, d,
                                amx->second, "AMX | MATFP K=1 | the mode on the same stream | FP32 Z", 40});
    }
  }
  return out;
}

}  // namespace

std::string cross_engines_csv(const AuditResults& r) {
  std::string s = "engine,operation,method,result_format,src,dist,count,bits,bits_p99,max_ulp,mean_ulp\n";
  for (const CrossLine& l : cross_lines(r))
    s += fmt::format("{},{},{},{},{},{},{},{:.4g},{:.4g},{:.4g},{:.4g}\n", l.engine, l.operation, l.method, l.result,
                     info(l.format).name, distribution_name(l.dist), l.stats.count, l.stats.bits, l.stats.bits_p99,
                     l.stats.max_ulp, l.stats.mean_ulp);
  return s;
}

std::string pto_markdown(const AuditResults& r) {
  std::ostringstream md;
  if (r.pto_rows.empty()) return md.str();
  const AuditOptions& o = r.options;
  md << "## PTO elementwise operations against MPFR\n\n";
  md << fmt::format(
      "tmu::pto ({} profile), {} 32x32 tile(s) per operation, type and operand set (moderate, wide, tiny; "
      "pto.csv has each with its ULP histogram). Cells: the largest distance in ULPs from the correctly "
      "rounded result over all three sets, \"CR\" when every lane is correctly rounded; NaN lanes are "
      "counted apart (a NaN on one side only is marked).\n\n",
      pto::profile_name(o.pto_profile), o.pto_tiles);
  if (o.pto_profile == pto::Profile::A5)
    md << "Under a5 the float results rest on " << pto::a5_float_assumption()
       << "; pto.csv's refused_lanes counts the lanes refused under it.\n\n";
  std::map<std::pair<pto::Op, pto::ElemType>, std::string> cell;
  std::map<std::string, std::vector<std::string>> reasons;  // message -> rows refused with it
  for (const PtoRow& row : r.pto_rows) {
    std::string& c = cell[{row.op, row.type}];
    if (row.refused) {
      c = "refused";
      auto& names = reasons[*row.refused];
      const std::string name = fmt::format("{} {}", pto::op_name(row.op), pto::elem_name(row.type));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      continue;
    }
    if (c == "refused") continue;
    uint64_t prev = 0;
    if (!c.empty() && c != "CR") prev = std::stoull(c.substr(0, c.find(' ')));
    const uint64_t m = std::max(prev, row.hist.max);
    const bool nan_bad = row.nan_mismatch != 0 || c.find("NaN") != std::string::npos;
    c = m == 0 ? "CR" : fmt::format("{} ulp", m);
    if (nan_bad) c += " (NaN mismatch)";
  }
  md << "| Operation |";
  for (pto::ElemType t : o.pto_types) md << " " << pto::elem_name(t) << " |";
  md << "\n|---|";
  for (size_t i = 0; i < o.pto_types.size(); ++i) md << "---|";
  md << "\n";
  for (pto::Op op : pto_float_ops()) {
    md << "| " << pto::op_name(op) << " |";
    for (pto::ElemType t : o.pto_types) md << " " << cell[{op, t}] << " |";
    md << "\n";
  }
  md << "\n";
  for (const auto& [why, names] : reasons) {
    md << "Refused (";
    for (size_t i = 0; i < names.size(); ++i) md << (i ? ", " : "") << names[i];
    md << "): " << why << "\n\n";
  }
  const std::vector<CrossLine> lines = cross_lines(r);
  for (Distribution d : o.distributions) {
    if (d == Distribution::Cancellation) continue;
    md << fmt::format("## Element-wise multiply and add across engines, {}\n\n", distribution_name(d));
    if (d == o.distributions.front())
      md << "The ELWMUL operands of each source format (the same streams), exact result from MPFR. Cells: effective "
            "bits, median / 99th percentile, and the largest error in ULPs of the result format. PTO runs TMUL and "
            "TADD in the IEEE type that holds the source format exactly (TF32 -> f32). AMX MATFP K=1 is a 32-term "
            "dot product with one rounding per multiply-add, shown for scale.";
    if (d == o.distributions.front() && !r.elwadd_cross.empty()) md << elwadd_fidelity_note(r);
    if (d == o.distributions.front()) md << "\n\n";
    md << "| Engine | Operation | Method | Result |";
    for (SrcFormat f : o.formats) md << " " << info(f).name << " |";
    md << "\n|---|---|---|---|";
    for (size_t i = 0; i < o.formats.size(); ++i) md << "---|";
    md << "\n";
    std::vector<std::pair<int, std::string>> rows;
    for (const CrossLine& l : lines)
      if (l.dist == d && std::find(rows.begin(), rows.end(), std::pair{l.order, l.row}) == rows.end())
        rows.emplace_back(l.order, l.row);
    std::sort(rows.begin(), rows.end());
    for (const auto& [order, row] : rows) {
      md << "| " << row << " |";
      for (SrcFormat f : o.formats) {
        const auto it = std::find_if(lines.begin(), lines.end(), [&, &row = row](const CrossLine& x) {
          return x.dist == d && x.format == f && x.row == row;
        });
        if (it == lines.end())
          md << " - |";
        else
          md << fmt::format(" {} / {}, {:.3g} ulp |", bits_text(it->stats.bits), bits_text(it->stats.bits_p99),
                            it->stats.max_ulp);
      }
      md << "\n";
    }
    md << "\n";
  }
  return md.str();
}

}  // namespace tmu::audit
