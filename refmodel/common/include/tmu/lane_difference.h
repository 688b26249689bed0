// How a design's lane differs from the model's, for the engine scoreboards' mismatch lines, and the
// difference all of a scoreboard's mismatches share, which points at one cause where a thousand
// alike lines would hide it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/ieee.h"

namespace tmu {

// "1 ulp nearer zero than the model", "3 ulps farther from zero than the model", "of the other sign
// than the model", "the other zero than the model", "a NaN where the model has a number", "a number
// where the model has a NaN", "a NaN of another payload than the model's". design != model.
std::string float_difference(ieee::Format f, uint64_t design, uint64_t model);

// For a comparison's first mismatch line, the others of the same location and operation in one
// clause: "; no other lane of WHERE mismatches", or "; N other lanes of WHERE mismatch after this
// OPERATION: lanes 2, 5, 9" (`noun` "lane" before numbers; "" for names that say what they are),
// the first 16 named.
std::string other_lanes_text(std::string_view where, std::string_view operation, const std::vector<std::string>& names,
                             std::string_view noun);

class DifferenceTally {
 public:
  void add(const std::string& difference) { ++differences_[difference]; ++mismatches_; }
  void add_without_difference() { ++mismatches_; }  // a mismatching lane that is not a float
  // Tallies one mismatching lane and returns what its line says of the difference: "; design 1 ulp
  // nearer zero than the model" for a lane of IEEE format `f`, "" for a lane that is none (nullopt).
  std::string add_lane(std::optional<ieee::Format> f, uint64_t design, uint64_t model);
  // "all 16 mismatching lanes are 1 ulp nearer zero than the model: the design rounds toward zero
  // (truncates) where <who> rounds to nearest even"; "" unless every mismatch has the same difference.
  std::string summary(std::string_view who) const;

 private:
  std::map<std::string, uint64_t> differences_;
  uint64_t mismatches_ = 0;
};

}  // namespace tmu
