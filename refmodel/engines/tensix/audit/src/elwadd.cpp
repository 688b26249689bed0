// Tensix ELWADD rows of the cross-engine table (elwadd.h).
#include "tmu/tensix/audit/elwadd.h"

#include <cmath>

#include <fmt/format.h>

#include "tmu/audit/exact.h"

namespace tmu::audit {

std::vector<Real> exact_eltwise_sum(const EltwiseCase& c) {
  // Operands of at most 11 significant bits within 2^-126..2^128: a sum spans far fewer than
  // kExactBits bits. Checked all the same.
  ExactScope exact("exact element-wise sum");
  std::vector<Real> out;
  out.reserve(c.a.size());
  for (size_t e = 0; e < c.a.size(); ++e) out.push_back(value_of(c.a[e], c.format) + value_of(c.b[e], c.format));
  exact.verify();
  return out;
}

std::vector<ElwaddCross> run_elwadd_cross(uint64_t seed, std::span<const SrcFormat> formats,
                                          std::span<const Distribution> dists, std::span<const unsigned> fidelities,
                                          const std::vector<bool>& dst32_modes, unsigned tiles, Arch arch) {
  // MPFR's default precision is per thread; the sums and differences need kExactBits.
  const ExactPrecision exact_precision;

  std::vector<ElwaddCross> out;
  for (SrcFormat f : formats)
    for (Distribution d : dists) {
      if (d == Distribution::Cancellation) continue;
      std::vector<EltwiseCase> cases;
      std::vector<std::vector<Real>> exact;
      for (unsigned k = 0; k < tiles; ++k) {
        // The ELWMUL units' stream name (rows.cpp), so these are their operands and PTO's.
        cases.push_back(make_eltwise_case(
            f, d, derive_seed(seed, fmt::format("ELWMUL/{}/{}/{}", info(f).name, distribution_name(d), k))));
        exact.push_back(exact_eltwise_sum(cases.back()));
      }
      for (bool dst32 : dst32_modes) {
        const OutFormat& of = output_format(f, dst32);
        std::vector<std::vector<double>> first;  // per tile, at the first fidelity
        for (unsigned phases : fidelities) {
          ElwaddCross row{f, d, dst32, phases, {}, 0};
          std::vector<ErrorSample> samples;
          for (unsigned k = 0; k < tiles; ++k) {
            const SequenceTrace t = run_eltwise_add_sequence(cases[k], RunConfig{f, phases, dst32, {}, arch});
            for (size_t i = 0; i < t.result.size(); ++i) samples.push_back(measure(exact[k][i], t.result[i], of));
            if (first.size() < tiles) {
              first.push_back(t.result);
              continue;
            }
            for (size_t i = 0; i < t.result.size(); ++i)
              // Dst values are exact doubles; compare signs too (-0 against +0 is a different result).
              if (t.result[i] != first[k][i] || std::signbit(t.result[i]) != std::signbit(first[k][i]))
                ++row.lanes_unlike_first;
          }
          row.stats = summarize(samples);
          out.push_back(std::move(row));
        }
      }
    }
  return out;
}

}  // namespace tmu::audit
