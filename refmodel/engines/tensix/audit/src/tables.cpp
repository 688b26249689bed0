// The Tensix rows' lines of the tables where engines meet: MVMUL beside the other engines' K-deep
// matmuls (bits versus K), and ELWMUL and ELWADD in the cross-engine table.
#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "parts.h"
#include "tmu/tensix/fidelity.h"

namespace tmu::audit {

namespace {

const std::vector<ElwaddCross>& elwadd(const AuditResults& r) {
  static const std::vector<ElwaddCross> none;
  const TensixAuditResults* t = tensix_results(r);
  return t ? t->elwadd_cross : none;
}

// No ELWADD lane of this Dst mode changed with the fidelity setting.
bool elwadd_fidelity_blind(const AuditResults& r, bool dst32) {
  for (const ElwaddCross& e : elwadd(r))
    if (e.dst32 == dst32 && e.lanes_unlike_first != 0) return false;
  return true;
}

std::string elwadd_fidelity_span(const AuditOptions& o) {
  const std::vector<unsigned>& fidelities = matrix_unit_settings(o).fidelities;
  if (fidelities.size() == 1) return fidelity_name(fidelities.front());
  return fmt::format("{} to {}, same results", fidelity_name(fidelities.front()), fidelity_name(fidelities.back()));
}

// "k of n lane results": how many of the lanes run above the first fidelity differ from it.
std::string elwadd_fidelity_note(const AuditResults& r) {
  const std::vector<unsigned>& fidelities = matrix_unit_settings(r.options).fidelities;
  if (fidelities.size() == 1)
    return fmt::format("Tensix ELWADD runs the LLK's ELWADD MOP (Dst written, not read), configured for {} only.",
                       fidelity_name(fidelities.front()));
  uint64_t lanes = 0, unlike = 0;
  for (const ElwaddCross& e : elwadd(r))
    if (e.phases != fidelities.front()) {
      lanes += e.stats.count;
      unlike += e.lanes_unlike_first;
    }
  return fmt::format(
      "Tensix ELWADD runs the LLK's ELWADD MOP (Dst written, not read), configured for each fidelity asked for; "
      "{} of {} lane results differ from those at {}.",
      unlike, lanes, fidelity_name(fidelities.front()));
}

std::string dst_result(SrcFormat f, bool dst32) { return dst32 ? "FP32 Dst" : fmt::format("{} Dst", info(f).acc16.name); }
const char* dst_row(bool dst32) { return dst32 ? "FP32 Dst" : "16-bit Dst (FP16 for FP16, else BF16)"; }

}  // namespace

// MVMUL at every fidelity, with an FP32 Dst when one was run (16-bit otherwise).
std::vector<KLine> tensix_k_lines(const AuditResults& r, Distribution d) {
  const AuditOptions& o = r.options;
  std::vector<KLine> lines;
  const MatrixUnitSettings& mu = matrix_unit_settings(o);
  if (std::find(mu.ops.begin(), mu.ops.end(), kMvmul) == mu.ops.end()) return lines;
  const bool dst32 = std::find(o.dst32_modes.begin(), o.dst32_modes.end(), true) != o.dst32_modes.end();
  for (SrcFormat f : o.formats)
    for (unsigned phases : mu.fidelities)
      lines.push_back(KLine{static_cast<int>(phases), "Tensix MVMUL", info(f).name, output_format(f, dst32).name,
                            fidelity_name(phases), SeriesKey{kMvmul, 1, f, d, dst32, phases}});
  return lines;
}

// ELWMUL by Dst mode and fidelity, then ELWADD; ELWADD's fidelities share one table row per Dst
// mode when they gave the same results on every lane (the CSV keeps a line per fidelity).
std::vector<CrossLine> tensix_cross_lines(const AuditResults& r) {
  const AuditOptions& o = r.options;
  std::vector<CrossLine> out;
  for (Distribution d : o.distributions)
    for (SrcFormat f : o.formats) {
      for (bool dst32 : o.dst32_modes)
        for (unsigned phases : matrix_unit_settings(o).fidelities) {
          const auto it = r.stats.find(SeriesKey{kElwmul, 1, f, d, dst32, phases});
          if (it == r.stats.end()) continue;
          out.push_back(CrossLine{"Tensix", "ELWMUL", fidelity_name(phases), dst_result(f, dst32), f, d, it->second,
                                  fmt::format("Tensix | ELWMUL | {} | {}", fidelity_name(phases), dst_row(dst32)),
                                  (dst32 ? 10 : 0) + static_cast<int>(phases)});
        }
      for (const ElwaddCross& e : elwadd(r)) {
        if (e.format != f || e.dist != d) continue;
        const bool one_row = elwadd_fidelity_blind(r, e.dst32);
        const std::string method = one_row ? elwadd_fidelity_span(o) : fidelity_name(e.phases);
        out.push_back(CrossLine{"Tensix", "ELWADD", fidelity_name(e.phases), dst_result(f, e.dst32), f, d, e.stats,
                                fmt::format("Tensix | ELWADD | {} | {}", method, dst_row(e.dst32)),
                                15 + (e.dst32 ? 5 : 0) + (one_row ? 0 : static_cast<int>(e.phases))});
      }
    }
  return out;
}

// The operands are ELWMUL's; the ELWADD sentence closes the note.
std::vector<CrossNote> tensix_cross_notes(const AuditResults& r) {
  std::vector<CrossNote> notes{
      {0, "The ELWMUL operands of each source format (the same streams), exact result from MPFR. Cells: effective "
          "bits, median / 99th percentile, and the largest error in ULPs of the result format."}};
  if (!elwadd(r).empty()) notes.push_back({100, elwadd_fidelity_note(r)});
  return notes;
}

}  // namespace tmu::audit
