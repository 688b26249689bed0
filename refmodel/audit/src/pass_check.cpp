// Merging per-pass check results (pass_check.h).
#include "tmu/audit/pass_check.h"

#include <algorithm>

namespace tmu::audit {

bool PhaseCheck::passed() const { return steps_with_wrong_pass_count == 0 && failures() == 0; }

size_t PhaseCheck::failures() const {
  size_t n = 0;
  for (const PassCheck& p : passes) n += p.failures;
  return n;
}

void merge_into(PhaseCheck& into, const PhaseCheck& from) {
  if (into.passes.size() < from.passes.size()) into.passes.resize(from.passes.size());
  into.expected_passes = std::max(into.expected_passes, from.expected_passes);
  into.steps += from.steps;
  into.steps_with_wrong_pass_count += from.steps_with_wrong_pass_count;
  into.sum_abs_step_product += from.sum_abs_step_product;
  for (size_t i = 0; i < from.passes.size(); ++i) {
    PassCheck& a = into.passes[i];
    const PassCheck& b = from.passes[i];
    a.elements += b.elements;
    a.failures += b.failures;
    a.sensitive += b.sensitive;
    a.max_excess = std::max(a.max_excess, b.max_excess);
    a.sum_abs_added += b.sum_abs_added;
    a.sum_abs_expected += b.sum_abs_expected;
  }
}

}  // namespace tmu::audit
