// What every fuzz harness asserts (docs/reliability.md). A harness defines LLVMFuzzerTestOneInput and
// is built twice: with clang and libFuzzer (-fsanitize=fuzzer,address,undefined; scripts/fuzz.sh)
// for campaigns, and with the main compiler against fuzz/replay_main.cpp for ctest's short tier. An
// input is either refused cleanly - a tmu::ProgramError placed at a line of the input with a
// reason, or a tmu::Error with a message, as the parser's contract says - or accepted, and then what
// was read must print and read back to the same thing where a printer exists. Anything else (another
// exception type, an error without a place or reason, a round trip that differs) calls finding(),
// which aborts, so libFuzzer and the replay driver report it as a crash with the input saved.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "tmu/engine.h"
#include "tmu/error.h"
#include "tmu/ieee.h"
#include "tmu/program_error.h"
#include "tmu/text_lines.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// A differential harness's case decoder is not code under test. Left out of libFuzzer's coverage
// instrumentation, its per-byte comparisons neither count as features (which would reward inputs
// for their length) nor cost the time they did: most of an execution of diff_amx_fma and a third
// of diff_mvmul's went to tracing the decoder's compares.
#if defined(__clang__)
#define TMU_FUZZ_DECODER __attribute__((no_sanitize("coverage")))
#else
#define TMU_FUZZ_DECODER
#endif

namespace tmu::fuzz {

[[noreturn]] inline void finding(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz finding: %.*s%s%.*s\n", static_cast<int>(what.size()), what.data(),
               detail.empty() ? "" : ": ", static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline void require(bool ok, std::string_view what, std::string_view detail = {}) {
  if (!ok) finding(what, detail);
}

inline std::string as_text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Lines as a reader counts them: a final line without a newline counts; an empty input has none.
inline size_t line_count(std::string_view text) {
  if (text.empty()) return 0;
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + (text.back() == '\n' ? 0 : 1);
}

// Words split on blanks, as the text formats split them (owning: the readers take std::string).
inline std::vector<std::string> words(std::string_view text) {
  const std::vector<std::string_view> w = split_words(text);
  return {w.begin(), w.end()};
}

// What a refusal must carry. A ProgramError: the path the input was read under, a line of the input
// (or the one past its end, where a reader places "missing eof") and a reason.
inline void check_program_error(const ProgramError& e, const std::string& path, size_t lines) {
  require(e.file == path, "ProgramError names another file", e.what());
  require(e.line >= 1 && static_cast<size_t>(e.line) <= lines + 1, "ProgramError line outside the input", e.what());
  require(!e.reason.empty(), "ProgramError without a reason", e.what());
}
inline void check_error(const Error& e) { require(!e.message().empty(), "tmu::Error without a message", e.what()); }

// Which refusals a parser's contract allows.
enum class Refusal { ProgramErrorOnly, ErrorOnly, Either };

// Runs parse(); true when it accepted the input, false for a clean refusal; a finding otherwise.
template <class Parse>
bool accepts(Parse&& parse, Refusal allowed, const std::string& path = {}, size_t lines = 0) {
  try {
    parse();
    return true;
  } catch (const ProgramError& e) {
    require(allowed != Refusal::ErrorOnly, "ProgramError where the contract says tmu::Error", e.what());
    check_program_error(e, path, lines);
  } catch (const Error& e) {
    require(allowed != Refusal::ProgramErrorOnly, "tmu::Error without a file:line place", e.what());
    check_error(e);
  } catch (const std::exception& e) {
    finding(std::string("unexpected exception ") + typeid(e).name(), e.what());
  } catch (...) {
    finding("unexpected exception of a non-standard type");
  }
  return false;
}

// For a step that must not fail (printing what was accepted, reading it back): any exception is a
// finding.
template <class Step>
auto must(Step&& step, std::string_view what) {
  try {
    return step();
  } catch (const std::exception& e) {
    finding(what, e.what());
  }
}

// One engine's vector file (docs/vector-format.md: the shared framing, the engine's records), replayed
// through the registry as `tmu check` replays it: refused with a ProgramError at a line, or replayed
// (whether its vectors agree with the model is the corpus tests' business, not the parser's).
inline void replay_vector_file(std::string_view engine, const uint8_t* data, size_t size) {
  register_builtin_engines();
  const Engine* e = find_engine(engine);
  require(e != nullptr, "engine not registered", engine);
  const std::string text = as_text(data, size);
  std::istringstream in(text);
  accepts([&] { vectors_of(*e).replay_vectors(in, "input.tmv", {}); }, Refusal::ProgramErrorOnly, "input.tmv", line_count(text));
}

// ---------------------------------------------------------------------------------------------
// Differential harnesses: a case decoded from the fuzz bytes, a fast path and a reference computing
// it, and difference() when they disagree.
// ---------------------------------------------------------------------------------------------

// The fuzz bytes read as fields, in order. Past the end a field continues from a splitmix64 stream
// seeded by the bytes themselves, so every input decodes to a full case, short inputs included, and
// the same input always decodes to the same case.
class Fields {
 public:
  TMU_FUZZ_DECODER Fields(const uint8_t* data, size_t size) : data_(data), size_(size) {
    for (size_t i = 0; i < size; ++i) state_ = (state_ ^ data[i]) * 0x100000001b3ull;
  }
  TMU_FUZZ_DECODER uint8_t byte() {
    if (pos_ < size_) return data_[pos_++];
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<uint8_t>((z ^ (z >> 31)) >> 56);
  }
  TMU_FUZZ_DECODER uint64_t bits(unsigned n) {  // n <= 64, little-endian bytes
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i += 8) v |= uint64_t{byte()} << i;
    return n >= 64 ? v : v & ((uint64_t{1} << n) - 1);
  }
  TMU_FUZZ_DECODER uint32_t below(uint32_t n) { return n <= 1 ? 0 : static_cast<uint32_t>(bits(n <= 256 ? 8 : 32) % n); }
  TMU_FUZZ_DECODER bool flag() { return (byte() & 1) != 0; }
  template <class T, size_t N>
  TMU_FUZZ_DECODER T pick(const T (&list)[N]) { return list[below(N)]; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  uint64_t state_ = 0xcbf29ce484222325ull;
};

// A bit pattern of format f for a float differential: mostly values whose exponents sit near
// `exponent` (an unbiased exponent the case chose, so that operands meet in one another's range),
// else a special value (zeros, subnormals at both ends, the normal range's ends, infinities, quiet
// and signalling NaNs with payloads) or raw bits.
TMU_FUZZ_DECODER inline uint64_t float_pattern(Fields& in, ieee::Format f, int exponent) {
  const uint64_t sign = in.flag() ? f.sign_bit() : 0, frac = in.bits(64) & f.frac_mask();
  const uint64_t exp_max = f.exp_field_max();
  const uint32_t kind = in.below(16);
  if (kind < 8) {
    const int64_t field = std::clamp<int64_t>(int64_t{exponent} + f.bias() + in.below(9) - 4, 0,
                                              static_cast<int64_t>(exp_max) - 1);
    // Short fractions too: ties and exact results need trailing zeros.
    const uint64_t shortened = kind < 4 ? frac : frac & ~(f.frac_mask() >> in.below(f.frac_bits + 1));
    return sign | static_cast<uint64_t>(field) << f.frac_bits | shortened;
  }
  switch (kind) {
    case 8: return sign;                                                       // zero
    case 9: return sign | (frac ? frac : 1);                                   // subnormal
    case 10: return sign | (in.flag() ? 1 : f.frac_mask());                    // smallest, largest subnormal
    case 11: return sign | uint64_t{1} << f.frac_bits | (in.flag() ? 0 : frac); // smallest binade
    case 12: return sign | (exp_max - 1) << f.frac_bits | (in.flag() ? f.frac_mask() : frac);  // largest
    case 13: return f.infinity(sign != 0);
    case 14: return sign | exp_max << f.frac_bits | (frac ? frac : 1);        // NaN, quiet or signalling
    default: return in.bits(f.width());
  }
}

inline std::string hex(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) out += {digits[data[i] >> 4], digits[data[i] & 15]};
  return out;
}

// A fast path and its reference disagree: the case (what was computed, on which operands), both
// values and the fuzz input in hex, then abort.
[[noreturn]] inline void difference(std::string_view what, std::string_view fast, std::string_view reference,
                                    const uint8_t* data, size_t size) {
  std::ostringstream out;
  out << what << "\n  fast path: " << fast << "\n  reference: " << reference << "\n  input: " << hex(data, size);
  finding("difference", out.str());
}

}  // namespace tmu::fuzz
