// The cross-engine table: element-wise multiply and add of several engines on the same operands,
// one row per engine, operation, method and result format, gathered from every registered engine's
// rows (AuditRows::cross_lines) in their order; cross_engines.csv and its sections of audit.md.
#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "tmu/audit/audit.h"
#include "tmu/audit/rows.h"

namespace tmu::audit {

namespace {

// Per distribution and source format, each engine's lines in its own order, the engines in the
// order of their first line's row.
std::vector<CrossLine> cross_lines(const AuditResults& r) {
  std::vector<std::vector<CrossLine>> by_engine;
  for (const auto& rows : audit_rows()) by_engine.push_back(rows->cross_lines(r));
  std::vector<CrossLine> out;
  for (Distribution d : r.options.distributions) {
    // Not every engine's operation runs on the cancellation operands (ELWMUL adds to a non-zero Dst).
    if (d == Distribution::Cancellation) continue;
    for (SrcFormat f : r.options.formats) {
      std::vector<std::vector<CrossLine>> groups;
      for (const auto& lines : by_engine) {
        std::vector<CrossLine> group;
        for (const CrossLine& l : lines)
          if (l.dist == d && l.format == f) group.push_back(l);
        if (!group.empty()) groups.push_back(std::move(group));
      }
      std::stable_sort(groups.begin(), groups.end(),
                       [](const auto& a, const auto& b) { return a.front().order < b.front().order; });
      for (const auto& group : groups) out.insert(out.end(), group.begin(), group.end());
    }
  }
  return out;
}

}  // namespace

std::string cross_engines_csv(const AuditResults& r) {
  // `row` is the line's row of audit.md's table (its cells joined by " | "), quoted: it holds commas.
  std::string s = "engine,operation,method,result_format,src,dist,count,bits,bits_p99,max_ulp,mean_ulp,row\n";
  for (const CrossLine& l : cross_lines(r))
    s += fmt::format("{},{},{},{},{},{},{},{:.4g},{:.4g},{:.4g},{:.4g},\"{}\"\n", l.engine, l.operation, l.method, l.result,
                     info(l.format).name, distribution_name(l.dist), l.stats.count, l.stats.bits, l.stats.bits_p99,
                     l.stats.max_ulp, l.stats.mean_ulp, l.row);
  return s;
}

std::string cross_engines_markdown(const AuditResults& r) {
  const AuditOptions& o = r.options;
  std::ostringstream md;
  const std::vector<CrossLine> lines = cross_lines(r);
  std::vector<CrossNote> notes;
  for (const auto& rows : audit_rows())
    for (CrossNote& n : rows->cross_notes(r)) notes.push_back(std::move(n));
  std::stable_sort(notes.begin(), notes.end(), [](const CrossNote& a, const CrossNote& b) { return a.order < b.order; });
  for (Distribution d : o.distributions) {
    if (d == Distribution::Cancellation) continue;
    md << fmt::format("## Element-wise multiply and add across engines, {}\n\n", distribution_name(d));
    if (d == o.distributions.front()) {
      for (size_t i = 0; i < notes.size(); ++i) md << (i ? " " : "") << notes[i].text;
      md << "\n\n";
    }
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
