// Bare hex digits (no prefix, either case) as vector files write every datum: one table look-up per
// character and one test at the end, with no library call, since replay reads hundreds of MB of them.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace tmu {

namespace detail {
// Each byte's hex digit value, or 0xFF for a byte that is not a hex digit.
inline constexpr std::array<uint8_t, 256> kHexDigit = [] {
  std::array<uint8_t, 256> t{};
  t.fill(0xFF);
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<uint8_t>(c);
  for (int c = 0; c < 6; ++c) t['a' + c] = t['A' + c] = static_cast<uint8_t>(10 + c);
  return t;
}();
}  // namespace detail

// `text` as 1 to `max_digits` (at most 16) hex digits into `value`; false, with `value` unspecified,
// for an empty word, too many digits or any other character. A bool and an out-parameter rather
// than an optional: GCC returned optional<uint32_t> through two narrow stores and a wide load,
// a store-forwarding stall that cost more than the digits.
inline bool parse_hex_digits(std::string_view text, unsigned max_digits, uint64_t& value) {
  if (text.empty() || text.size() > max_digits) return false;
  uint64_t v = 0;
  uint8_t seen = 0;
  for (char c : text) {
    const uint8_t d = detail::kHexDigit[static_cast<unsigned char>(c)];
    seen |= d;
    v = v << 4 | (d & 0xF);
  }
  value = v;
  return (seen & 0xF0) == 0;
}

}  // namespace tmu
