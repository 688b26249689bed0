// The audit's outputs: CSV files for machines and plots, a Markdown report for people.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "tmu/audit/audit.h"
#include "tmu/audit/rows.h"

namespace tmu::audit {
namespace {

constexpr double kHistLow = -40, kHistHigh = 4, kHistStep = 0.5;

const char* dst_mode(bool dst32) { return dst32 ? "dst32" : "dst16"; }
std::string num(double v) { return fmt::format("{:.6g}", v); }

std::string k_cell(const AuditResults& r, const SeriesKey& key) {
  auto it = r.bits_vs_k.find(key);
  if (it == r.bits_vs_k.end()) return "";
  return bits_text(it->second.bits) + " / " + bits_text(it->second.bits_p99);
}

// K = 1, 2, 4, ... and the deepest run.
std::vector<unsigned> table_k_values(unsigned max_k) {
  std::vector<unsigned> ks;
  for (unsigned k = 1; k < max_k; k *= 2) ks.push_back(k);
  ks.push_back(max_k);
  return ks;
}

}  // namespace

std::string log2_share(double part, double whole) {
  if (!(part > 0) || !(whole > 0)) return "";
  return fmt::format("{:.2f}", std::log2(part / whole));
}

std::string pass_verdict(const PhaseCheck& c, const PassCheck& p) {
  if (p.failures || c.steps_with_wrong_pass_count) return "FAIL";
  return p.sensitive ? "pass" : "unresolved";
}

const ErrorStats* find_stats(const AuditResults& r, const SeriesKey& key) {
  auto it = r.stats.find(key);
  return it == r.stats.end() ? nullptr : &it->second;
}

std::string bits_text(double bits) { return bits >= kBitsCap ? "exact" : fmt::format("{:.1f}", bits); }

void k_table(std::ostream& md, const AuditResults& r, Distribution d) {
  const std::vector<unsigned> ks = table_k_values(r.options.max_k);
  std::vector<std::pair<std::pair<SrcFormat, int>, KLine>> lines;
  for (const auto& rows : audit_rows())
    for (KLine& l : rows->k_lines(r, d)) lines.push_back({{l.key.format, l.order}, std::move(l)});
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  md << "| Engine | Src | Acc | Method |";
  for (unsigned k : ks) md << " K = " << k << " |";
  md << "\n|---|---|---|---|";
  for (size_t i = 0; i < ks.size(); ++i) md << "---|";
  md << '\n';
  for (auto& [order, l] : lines) {
    md << "| " << l.engine << " | " << l.src << " | " << l.acc << " | " << l.method << " |";
    for (unsigned k : ks) {
      l.key.k = k;
      md << ' ' << k_cell(r, l.key) << " |";
    }
    md << '\n';
  }
  md << '\n';
}

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string bits_vs_k_csv(const AuditResults& r) {
  std::string out = "op,src,dst_mode,out_format,dist,method,k,count,bits,bits_p99,bits_mean,bits_min,mean_ulp,max_ulp\n";
  for (const auto& [key, e] : r.bits_vs_k) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", key.op.name, series_src_name(key),
                       dst_mode(key.dst32), series_out_name(key), distribution_name(key.dist),
                       series_method_name(key), key.k, e.count, num(e.bits), num(e.bits_p99), num(e.bits_mean),
                       num(e.bits_min), num(e.mean_ulp), num(e.max_ulp));
  }
  return out;
}

// Histogram of log2(relative error) at K = 1; exact results fall in the first bin.
std::string histogram_csv(const AuditResults& r) {
  std::string out = "op,src,dst_mode,dist,method,bin_lo,bin_hi,count\n";
  const auto bins = static_cast<size_t>((kHistHigh - kHistLow) / kHistStep);
  for (const auto& [key, rel] : r.rel_errors) {
    std::vector<size_t> count(bins + 2, 0);
    for (double e : rel) {
      const double l = e > 0 ? std::log2(e) : -INFINITY;
      if (l < kHistLow) ++count[0];
      else if (l >= kHistHigh) ++count[bins + 1];
      else ++count[1 + static_cast<size_t>((l - kHistLow) / kHistStep)];
    }
    for (size_t b = 0; b < count.size(); ++b) {
      const std::string lo = b == 0 ? "-inf" : num(kHistLow + static_cast<double>(b - 1) * kHistStep);
      const std::string hi = b == bins + 1 ? "inf" : num(kHistLow + static_cast<double>(b) * kHistStep);
      out += fmt::format("{},{},{},{},{},{},{},{}\n", key.op.name, series_src_name(key), dst_mode(key.dst32),
                         distribution_name(key.dist), series_method_name(key), lo, hi, count[b]);
    }
  }
  return out;
}

}  // namespace

std::string summary_csv(const AuditResults& r) {
  std::string out =
      "op,k,src,dst_mode,out_format,fidelity,dist,count,exact_zero,max_abs,mean_abs,p50_abs,p99_abs,max_rel,mean_rel,"
      "p50_rel,p99_rel,max_ulp,mean_ulp,p50_ulp,p99_ulp,bits,bits_p99,bits_mean,bits_min,"
      "ieee_once_max_ulp,ieee_once_mean_ulp,ieee_once_bits,ieee_once_bits_p99,ieee_once_bits_min,"
      "ieee_seq_max_ulp,ieee_seq_mean_ulp,ieee_seq_bits,ieee_seq_bits_p99,ieee_seq_bits_min,phase_check\n";
  for (const auto& [key, s] : r.stats) {
    if (key.method == kIeeeOnce || key.method == kIeeeSeq) continue;
    const ErrorStats* once = find_stats(r, {key.op, key.k, key.format, key.dist, key.dst32, kIeeeOnce});
    const ErrorStats* seq = find_stats(r, {key.op, key.k, key.format, key.dist, key.dst32, kIeeeSeq});
    const ErrorStats none;
    if (!once) once = &none;
    if (!seq) seq = &none;
    auto check = r.checks.find(CheckKey{key.op, key.format, key.dist, key.dst32, key.method});
    const std::string verdict = check == r.checks.end() ? "" : check->second.passed() ? "pass" : "FAIL";
    out += fmt::format("{},{},{},{},{},{},{},{},{},", key.op.name, key.k, series_src_name(key),
                       dst_mode(key.dst32), series_out_name(key), series_method_name(key),
                       distribution_name(key.dist), s.count, s.exact_zero);
    for (double v : {s.max_abs, s.mean_abs, s.p50_abs, s.p99_abs, s.max_rel, s.mean_rel, s.p50_rel, s.p99_rel,
                     s.max_ulp, s.mean_ulp, s.p50_ulp, s.p99_ulp, s.bits, s.bits_p99, s.bits_mean, s.bits_min})
      out += num(v) + ",";
    for (const ErrorStats* ref : {once, seq})
      for (double v : {ref->max_ulp, ref->mean_ulp, ref->bits, ref->bits_p99, ref->bits_min}) out += num(v) + ",";
    out += verdict + "\n";
  }
  return out;
}

std::string phases_csv(const AuditResults& r) {
  std::string out =
      "op,src,dst_mode,fidelity,dist,pass,expected_phase,elements,failures,sensitive,max_error_over_budget,"
      "added_share_log2,expected_share_log2,steps,steps_wrong_pass_count,verdict\n";
  for (const auto& [key, c] : r.checks) {
    for (size_t p = 0; p < c.passes.size(); ++p) {
      const PassCheck& pc = c.passes[p];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", key.op.name, info(key.format).name,
                         dst_mode(key.dst32), series_method_name(key.op, key.format, key.phases), distribution_name(key.dist), p, p,
                         pc.elements, pc.failures, pc.sensitive, num(pc.max_excess),
                         log2_share(pc.sum_abs_added, c.sum_abs_step_product),
                         log2_share(pc.sum_abs_expected, c.sum_abs_step_product), c.steps, c.steps_with_wrong_pass_count,
                         pass_verdict(c, pc));
    }
  }
  return out;
}

std::string markdown_report(const AuditResults& r) {
  std::ostringstream md;
  md << "# tmu precision audit\n\n";
  for (const auto& rows : audit_rows()) rows->markdown(ReportPart::Description, r, md);
  for (const auto& rows : audit_rows()) rows->markdown(ReportPart::Preamble, r, md);
  md << "Cells give effective bits of precision, median / 99th percentile: -log2 of the median and of the 99th "
        "percentile of the relative errors (\"exact\": no error). "
        "IEEE-once: the exact result rounded once into the output format. IEEE-seq: an IEEE matmul in the "
        "output format, every product and every running sum rounded to nearest-even. Phase check: every "
        "pass's contribution to Dst against the exact product of its phase's slices (docs/audit.md).\n\n";
  for (const auto& rows : audit_rows()) rows->markdown(ReportPart::Matmul, r, md);
  for (const auto& rows : audit_rows()) rows->markdown(ReportPart::AfterMatmul, r, md);
  for (const auto& rows : audit_rows()) rows->markdown(ReportPart::Tables, r, md);
  if (r.cross_table) md << cross_engines_markdown(r);
  if (!r.checks.empty())
    md << (r.all_phase_checks_passed() ? "Every phase check passed.\n"
                                       : "**Some phase checks FAILED** (phases.csv lists them).\n");
  return md.str();
}

void write_audit_outputs(const AuditResults& r, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  write_file(dir / "audit.csv", summary_csv(r));
  write_file(dir / "phases.csv", phases_csv(r));
  write_file(dir / "bits_vs_k.csv", bits_vs_k_csv(r));
  write_file(dir / "error_hist.csv", histogram_csv(r));
  write_file(dir / "audit.md", markdown_report(r));
  for (const auto& rows : audit_rows())
    for (const auto& [name, text] : rows->files(r)) write_file(dir / name, text);
  if (r.cross_table) write_file(dir / "cross_engines.csv", cross_engines_csv(r));
}

std::string written_files(const AuditResults& r) {
  std::string names = "audit.csv phases.csv bits_vs_k.csv error_hist.csv audit.md";
  for (const auto& rows : audit_rows())
    for (const auto& [name, text] : rows->files(r)) names += " " + name;
  return names + (r.cross_table ? " cross_engines.csv" : "");
}

std::filesystem::path default_plot_script() {
  // An installed tmu finds the script beside itself (PREFIX/bin/tmu, PREFIX/share/tmu/scripts/); a
  // tmu in the build tree finds the source tree's.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "tmu" / "scripts" / "plot_audit.py";
    if (std::filesystem::exists(installed, ec)) return installed;
  }
  return std::filesystem::path(TMU_AUDIT_SOURCE_DIR) / "scripts" / "plot_audit.py";
}

}  // namespace tmu::audit
