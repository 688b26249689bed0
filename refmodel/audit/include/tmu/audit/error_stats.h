// Error measures of one result against its exact value, and their statistics (docs/audit.md):
//   absolute  |got - exact|
//   relative  |got - exact| / |exact|          (not defined for exact == 0: such results are counted)
//   ULPs      |got - exact| / ulp_f(exact)     (ulp at the exact value, in the output format f)
//   bits      -log2(relative error): "bits" = -log2(median), "bits_p99" = -log2(99th percentile),
//             "bits_mean" = -log2(mean), "bits_min" = -log2(max). A correctly rounded result in a p-bit
//             format has at least p bits (BF16 8, FP16 11, FP32 24); an exact one scores kBitsCap.
#pragma once

#include <cstddef>
#include <vector>

#include "tmu/audit/exact.h"

namespace tmu::audit {

struct ErrorSample {
  double abs = 0, rel = 0, ulp = 0;
  bool exact_zero = false;
};
// The difference is formed exactly (throws if it would round); the measures are then doubles.
ErrorSample measure(const Real& exact, double got, const OutFormat& f);
// measure() of every result against its exact value; the vectors are as long as each other.
std::vector<ErrorSample> errors_of(const std::vector<Real>& exact, const std::vector<double>& got, const OutFormat& f);

inline constexpr double kBitsCap = 64;  // what an error-free set of results scores
double bits_of(double relative_error);

struct ErrorStats {
  size_t count = 0, exact_zero = 0;
  double max_abs = 0, mean_abs = 0, p50_abs = 0, p99_abs = 0;
  double max_rel = 0, mean_rel = 0, p50_rel = 0, p99_rel = 0;
  double max_ulp = 0, mean_ulp = 0, p50_ulp = 0, p99_ulp = 0;
  double bits = kBitsCap, bits_p99 = kBitsCap, bits_mean = kBitsCap, bits_min = kBitsCap;
};
// Percentiles are nearest-rank: the q-th percentile is the smallest sample with at least q% of the
// samples at or below it.
ErrorStats summarize(const std::vector<ErrorSample>& samples);
double percentile(std::vector<double> values, double q);

// Means and maxima only, for series that need no percentiles (bits versus K).
struct RunningErrors {
  size_t count = 0, rel_count = 0;
  double sum_rel = 0, max_rel = 0, sum_ulp = 0, max_ulp = 0;
  void add(const ErrorSample& e);
  void merge(const RunningErrors& o);
  double bits_mean() const;
  double bits_min() const;
  double mean_ulp() const;
};

}  // namespace tmu::audit
