#include "tensix_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu::tensix {

namespace {

// The level's last phase for a name (lofi 0 .. hifi4 3), or for the digit itself.
std::optional<unsigned> last_phase(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr const char* kNames[] = {"lofi", "hifi2", "hifi3", "hifi4"};
  for (unsigned i = 0; i < 4; ++i)
    if (lower == kNames[i] || lower == std::to_string(i)) return i;
  return std::nullopt;
}

}  // namespace

unsigned parse_fidelity_level(const std::string& text) {
  if (const auto p = last_phase(text)) return *p + 1;
  throw Error(ErrorKind::BadInput, fmt::format("--fidelity: '{}' is not a fidelity: {}", text, kFidelitySpellings));
}

unsigned parse_phase(const std::string& text) {
  if (const auto p = last_phase(text)) return *p;
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
