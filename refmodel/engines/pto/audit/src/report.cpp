// The PTO section of audit.md: the PTO rows pivoted by operation and type; and PTO's TMUL and TADD
// lines of the cross-engine table.
#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "tmu/pto/audit/pto.h"

namespace tmu::audit {

std::vector<CrossLine> pto_cross_lines(const AuditResults& r) {
  std::vector<CrossLine> out;
  const PtoAuditResults* p = pto_results(r);
  if (!p) return out;
  for (const PtoCross& c : p->cross)
    out.push_back(CrossLine{"PTO", std::string(pto::op_name(c.op)), "cpusim", std::string(pto::elem_name(pto_type_of(c.format))),
                            c.format, c.dist, c.stats,
                            fmt::format("PTO | {} | cpusim | element type (bf16, f16, f32)", pto::op_name(c.op)),
                            c.op == pto::Op::TMUL ? 30 : 31});
  return out;
}

std::string pto_markdown(const AuditResults& r) {
  std::ostringstream md;
  const PtoAuditResults* p = pto_results(r);
  const PtoAuditConfig* o = pto_config(r.options);
  if (!p || !o || p->rows.empty()) return md.str();
  md << "## PTO elementwise operations against MPFR\n\n";
  md << fmt::format(
      "tmu::pto ({} profile), {} 32x32 tile(s) per operation, type and operand set (moderate, wide, tiny; "
      "pto.csv has each with its ULP histogram). Cells: the largest distance in ULPs from the correctly "
      "rounded result over all three sets, \"CR\" when every lane is correctly rounded; NaN lanes are "
      "counted apart (a NaN on one side only is marked).\n\n",
      pto::profile_name(o->profile), o->tiles);
  if (o->profile == pto::Profile::A5)
    md << "Under a5 the float results rest on " << pto::a5_float_assumption()
       << "; pto.csv's refused_lanes counts the lanes refused under it.\n\n";
  std::map<std::pair<pto::Op, pto::ElemType>, std::string> cell;
  std::map<std::string, std::vector<std::string>> reasons;  // message -> rows refused with it
  for (const PtoRow& row : p->rows) {
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
  for (pto::ElemType t : o->types) md << " " << pto::elem_name(t) << " |";
  md << "\n|---|";
  for (size_t i = 0; i < o->types.size(); ++i) md << "---|";
  md << "\n";
  for (pto::Op op : pto_float_ops()) {
    md << "| " << pto::op_name(op) << " |";
    for (pto::ElemType t : o->types) md << " " << cell[{op, t}] << " |";
    md << "\n";
  }
  md << "\n";
  for (const auto& [why, names] : reasons) {
    md << "Refused (";
    for (size_t i = 0; i < names.size(); ++i) md << (i ? ", " : "") << names[i];
    md << "): " << why << "\n\n";
  }
  return md.str();
}

}  // namespace tmu::audit
