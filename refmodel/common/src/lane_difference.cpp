#include "tmu/lane_difference.h"

#include <fmt/format.h>

namespace tmu {

std::string float_difference(ieee::Format f, uint64_t design, uint64_t model) {
  const bool design_nan = ieee::is_nan(f, design), model_nan = ieee::is_nan(f, model);
  if (design_nan && model_nan) return "a NaN of another payload than the model's";
  if (design_nan) return "a NaN where the model has a number";
  if (model_nan) return "a number where the model has a NaN";
  const uint64_t magnitude = f.sign_bit() - 1;
  if ((design ^ model) & f.sign_bit())
    return ((design | model) & magnitude) == 0 ? "the other zero than the model" : "of the other sign than the model";
  const int64_t ulps = *ieee::ulps_between(f, model & magnitude, design & magnitude);
  const int64_t count = ulps < 0 ? -ulps : ulps;
  return fmt::format("{} ulp{} {} zero than the model", count, count == 1 ? "" : "s", ulps < 0 ? "nearer" : "farther from");
}

std::string other_lanes_text(std::string_view where, std::string_view operation, const std::vector<std::string>& names,
                             std::string_view noun) {
  if (names.empty()) return fmt::format("; no other lane of {} mismatches", where);
  constexpr size_t kNamed = 16;
  std::string list;
  for (size_t i = 0; i < names.size() && i <= kNamed; ++i) list += i == kNamed ? ", ..." : (i ? ", " : "") + names[i];
  const bool one = names.size() == 1;
  return fmt::format("; {} other lane{} of {} mismatch{} after this {}: {}{}", names.size(), one ? "" : "s", where,
                     one ? "es" : "", operation, noun.empty() ? "" : fmt::format("{}{} ", noun, one ? "" : "s"), list);
}

std::string DifferenceTally::add_lane(std::optional<ieee::Format> f, uint64_t design, uint64_t model) {
  if (!f) {
    add_without_difference();
    return "";
  }
  std::string difference = float_difference(*f, design, model);
  add(difference);
  return "; design " + difference;
}

std::string DifferenceTally::summary(std::string_view who) const {
  if (differences_.size() != 1) return "";
  const auto& [difference, count] = *differences_.begin();
  if (count != mismatches_) return "";
  // One ulp, always the same way: the rounding direction is wrong (a truncation is the usual bug).
  std::string cause;
  if (difference == "1 ulp nearer zero than the model")
    cause = fmt::format(": the design rounds toward zero (truncates) where {} rounds to nearest even", who);
  else if (difference == "1 ulp farther from zero than the model")
    cause = fmt::format(": the design rounds away from zero where {} rounds to nearest even", who);
  return fmt::format("all {} mismatching lane{} {} {}{}", count, count == 1 ? "" : "s", count == 1 ? "is" : "are", difference,
                     cause);
}

}  // namespace tmu
