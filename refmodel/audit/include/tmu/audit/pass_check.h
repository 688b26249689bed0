// What a per-pass contribution check found, for an engine whose operation adds its result in passes
// (each checked against the exact product the pass should add): the audit merges these across its
// worker threads and writes them to phases.csv.
#pragma once

#include <cstddef>
#include <vector>

namespace tmu::audit {

struct PassCheck {
  size_t elements = 0;   // element-passes compared
  size_t failures = 0;   // |added - expected| > budget
  size_t sensitive = 0;  // |expected| > budget: a negated pass would fail here
  double max_excess = 0; // max |added - expected| / budget
  double sum_abs_added = 0, sum_abs_expected = 0;
};

struct PhaseCheck {
  unsigned expected_passes = 0;
  size_t steps = 0, steps_with_wrong_pass_count = 0;
  std::vector<PassCheck> passes;  // by pass index = expected phase
  // Sum over steps and elements of |the step's exact full product| (a tile pair's product, or a * b):
  // what all passes of a step together should add. Each pass's share of it is reported.
  double sum_abs_step_product = 0;
  bool passed() const;
  size_t failures() const;
};

void merge_into(PhaseCheck& into, const PhaseCheck& from);

}  // namespace tmu::audit
