#include "tmu/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <vector>

#include <fmt/format.h>

namespace tmu {

unsigned edit_distance(std::string_view a, std::string_view b) {
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // One row of the classic table at a time.
  std::vector<unsigned> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0u);
  for (size_t i = 1; i <= a.size(); ++i) {
    unsigned diagonal = row[0];
    row[0] = static_cast<unsigned>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const unsigned above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same(a[i - 1], b[j - 1]) ? 0u : 1u)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(std::string_view given, std::span<const std::string_view> candidates) {
  const unsigned allowed = std::max<unsigned>(1, static_cast<unsigned>(given.size()) / 3);
  std::string_view best;
  unsigned best_distance = allowed + 1;
  for (std::string_view c : candidates) {
    const unsigned d = edit_distance(given, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best_distance <= allowed ? fmt::format(" (did you mean '{}'?)", best) : std::string();
}

}  // namespace tmu
