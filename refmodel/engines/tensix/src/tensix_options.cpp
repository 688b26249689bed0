#include "tensix_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu {

unsigned parse_fidelity(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr const char* kNames[] = {"lofi", "hifi2", "hifi3", "hifi4"};
  for (unsigned i = 0; i < 4; ++i)
    if (lower == kNames[i] || lower == std::to_string(i)) return i;
  throw Error(ErrorKind::BadInput, fmt::format("'{}' is not a fidelity: {}", text, kFidelitySpellings));
}

unsigned parse_count(const std::string& text, const char* option) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw Error(ErrorKind::BadInput, fmt::format("{}: '{}' is not a decimal number", option, text));
  return v;
}

}  // namespace tmu
