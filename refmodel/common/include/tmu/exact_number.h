// Numbers as written in programs and vector files, read exactly: "1.5", "-2.5e-3", "0x1.8p0",
// "-0x3p-2", "inf", "nan". Every engine's typed values start here; what is representable is then the
// engine's question (an engine's own formats may have no denormals or NaN, IEEE formats do). Whether a
// decimal is a binary fraction is decided on exact integers, never on a rounded host value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tmu {

// ±odd * 2^pow2 when the number is a binary fraction (dyadic); zero has odd_bits = 0.
struct ExactNumber {
  enum class Kind { Finite, Inf, NaN } kind = Kind::Finite;
  bool negative = false;
  bool dyadic = true;
  int out_of_range = 0;    // +1: above 10^60, -1: below 10^-60 (exactness never examined)
  unsigned odd_bits = 0;   // significant bits of the odd integer (0 for zero)
  uint64_t odd = 0;        // the odd integer itself when odd_bits <= 64
  int64_t pow2 = 0;
  double approx = 0;       // magnitude as the nearest host double: for messages only
};

// Decimal ("1.5", "-2.5e-3") or C99 hex-float ("0x1.8p0"), optionally signed, or inf/infinity/nan in
// any case. Hex integers are hex-floats without a point. False (with the reason) for malformed text.
bool parse_exact_number(std::string_view text, ExactNumber& out, std::string* reason);

// An unsigned integer of at most 64 bits written in decimal or with 0x in hex (fields, indices,
// raw bits); nullopt for anything else, including a value past 2^64 - 1.
std::optional<uint64_t> parse_unsigned(std::string_view text);

}  // namespace tmu
