// Error measures and statistics.
#include "tmu/audit/error_stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tmu::audit {
namespace {

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

}  // namespace

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<size_t>(std::ceil(q / 100 * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

ErrorSample measure(const Real& exact, double got, const OutFormat& f) {
  const mpfr_flags_t saved = mpfr_flags_save();
  mpfr_t diff;
  mpfr_init2(diff, kExactBits);
  if (mpfr_sub_d(diff, exact.mpfr_srcptr(), got, MPFR_RNDN) != 0) {
    mpfr_clear(diff);
    throw std::runtime_error("precision audit: an error could not be formed exactly; raise kExactBits");
  }
  ErrorSample e;
  e.abs = std::fabs(mpfr_get_d(diff, MPFR_RNDN));
  e.exact_zero = mpfr_zero_p(exact.mpfr_srcptr()) != 0;
  if (!e.exact_zero) {
    mpfr_div(diff, diff, exact.mpfr_srcptr(), MPFR_RNDN);
    e.rel = std::fabs(mpfr_get_d(diff, MPFR_RNDN));
  }
  e.ulp = e.abs / ulp_in_format(exact, f);  // a power of two: the division only rescales
  mpfr_clear(diff);
  mpfr_flags_restore(saved, MPFR_FLAGS_ALL);
  return e;
}

std::vector<ErrorSample> errors_of(const std::vector<Real>& exact, const std::vector<double>& got, const OutFormat& f) {
  std::vector<ErrorSample> out;
  out.reserve(exact.size());
  for (size_t i = 0; i < exact.size(); ++i) out.push_back(measure(exact[i], got[i], f));
  return out;
}

double bits_of(double relative_error) {
  if (!(relative_error > 0)) return kBitsCap;
  return std::min(kBitsCap, -std::log2(relative_error));
}

ErrorStats summarize(const std::vector<ErrorSample>& samples) {
  ErrorStats s;
  std::vector<double> abs, rel, ulp;
  for (const ErrorSample& e : samples) {
    abs.push_back(e.abs);
    ulp.push_back(e.ulp);
    if (e.exact_zero) ++s.exact_zero;
    else rel.push_back(e.rel);
  }
  s.count = samples.size();
  if (samples.empty()) return s;
  s.max_abs = *std::max_element(abs.begin(), abs.end());
  s.mean_abs = mean(abs);
  s.p50_abs = percentile(abs, 50);
  s.p99_abs = percentile(abs, 99);
  s.max_ulp = *std::max_element(ulp.begin(), ulp.end());
  s.mean_ulp = mean(ulp);
  s.p50_ulp = percentile(ulp, 50);
  s.p99_ulp = percentile(ulp, 99);
  if (!rel.empty()) {
    s.max_rel = *std::max_element(rel.begin(), rel.end());
    s.mean_rel = mean(rel);
    s.p50_rel = percentile(rel, 50);
    s.p99_rel = percentile(rel, 99);
  }
  s.bits = bits_of(s.p50_rel);
  s.bits_p99 = bits_of(s.p99_rel);
  s.bits_mean = bits_of(s.mean_rel);
  s.bits_min = bits_of(s.max_rel);
  return s;
}

void RunningErrors::add(const ErrorSample& e) {
  ++count;
  sum_ulp += e.ulp;
  max_ulp = std::max(max_ulp, e.ulp);
  if (e.exact_zero) return;
  ++rel_count;
  sum_rel += e.rel;
  max_rel = std::max(max_rel, e.rel);
}

void RunningErrors::merge(const RunningErrors& o) {
  count += o.count;
  rel_count += o.rel_count;
  sum_rel += o.sum_rel;
  max_rel = std::max(max_rel, o.max_rel);
  sum_ulp += o.sum_ulp;
  max_ulp = std::max(max_ulp, o.max_ulp);
}

double RunningErrors::bits_mean() const {
  return bits_of(rel_count ? sum_rel / static_cast<double>(rel_count) : 0);
}
double RunningErrors::bits_min() const { return bits_of(max_rel); }
double RunningErrors::mean_ulp() const { return count ? sum_ulp / static_cast<double>(count) : 0; }

}  // namespace tmu::audit
