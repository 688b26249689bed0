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
#include "tmu/program_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

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

// Words split on blanks, as the text formats split them.
inline std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
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
  accepts([&] { e->replay_vectors(in, "input.tmv", {}); }, Refusal::ProgramErrorOnly, "input.tmv", line_count(text));
}

}  // namespace tmu::fuzz
