#include "tensix_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/tensix/fidelity.h"

namespace tmu::tensix {

unsigned parse_fidelity_level(const std::string& text) {
  if (const auto p = fidelity_phases(text)) return *p;
  throw Error(ErrorKind::BadInput, fmt::format("--fidelity: '{}' is not a fidelity: {}", text, kFidelitySpellings));
}

unsigned parse_phase(const std::string& text) {
  if (const auto p = fidelity_phases(text)) return *p - 1;
  throw Error(ErrorKind::BadInput, fmt::format("--phase: '{}' is not a phase: {}", text, kPhaseSpellings));
}

unsigned parse_count(const std::string& text, const char* option) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw Error(ErrorKind::BadInput, fmt::format("{}: '{}' is not a decimal number", option, text));
  return v;
}

}  // namespace tmu::tensix
