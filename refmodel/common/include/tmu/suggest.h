// "Did you mean": the candidate closest to a name that matched none, for error messages.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace tmu {

// The edit distance (insertions, deletions, substitutions) between a and b, ignoring case.
unsigned edit_distance(std::string_view a, std::string_view b);

// " (did you mean 'X'?)" for the candidate nearest to `given` when it is near enough (at most one
// edit per three characters, and at least one), "" otherwise. Ties go to the earlier candidate.
std::string did_you_mean(std::string_view given, std::span<const std::string_view> candidates);

}  // namespace tmu
