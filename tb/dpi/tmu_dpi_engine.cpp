// The DPI-C adapter for the engine scoreboards (tb/dpi/tmu_dpi.svh, tmu_eng_*): each call checks its
// handle, turns the open array into a span of words, and makes one call on a tmu::EngineScoreboard
// found through the engine registry. Nothing here names an engine: what a location or an operation
// means is the engine's (docs/scoreboard.md). No exception crosses into the simulator: failures
// return -1 (null from tmu_eng_create) and leave the reason for tmu_eng_last_error.
//
// Open arrays are read with svSize/svLow/svGetArrElemPtr1, the simulator's own DPI runtime
// (Verilator's verilated_dpi.cpp, which every verilated model with a DPI import links); a test
// without a simulator supplies those three (tb/dpi/test_tmu_dpi_engine.cpp).
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Vtmu_dpi__Dpi.h"  // generated from tmu_dpi.svh: the compiler checks these definitions against it
#include "dpi_handles.h"
#include "svdpi.h"
#include "tmu/engine.h"
#include "tmu/error.h"

namespace {

// Mismatch lines kept for tmu_eng_report; past this many only the count grows, so a design wrong in
// every lane of a long run cannot exhaust memory.
constexpr size_t kKeptLines = 1000;

struct EngineSession {
  std::string engine, variant, test_name;
  uint64_t seed = 0;
  std::unique_ptr<tmu::EngineScoreboard> scoreboard;
  uint64_t mismatches = 0;
  std::vector<std::string> lines;
  std::string last_error;
  std::string report;  // keeps the text tmu_eng_report returned alive
  uint64_t executed = 0;  // tmu_eng_execute calls
  // The step whose first mismatch line carries the replay: each failing step once.
  std::optional<uint64_t> replayed_step;
  std::string replay_dir;  // "" until tmu_eng_replay_dir
};

using tmu::dpi::count_of;
using tmu::dpi::refuse;

tmu::dpi::Handles<EngineSession>& sessions() {
  static tmu::dpi::Handles<EngineSession> h;
  return h;
}

EngineSession* session_of(void* h) { return sessions().find(h); }

// Why the last tmu_eng_create returned null: what tmu_eng_last_error(null) answers.
struct CreateError {
  std::mutex mutex;
  std::string text;
};
CreateError& create_error() {
  static CreateError e;
  return e;
}

std::string text_of(const char* s) { return s ? s : ""; }

template <typename Body>
int guarded(void* h, const char* function, Body&& body) {
  return sessions().guarded(h, function, std::forward<Body>(body));
}

// The elements of a one-dimensional `int unsigned` open array, lowest index first.
std::vector<uint32_t> words_of(const svOpenArrayHandle a) {
  if (!a) refuse("no array given");
  const int n = svSize(a, 1), low = svLow(a, 1);
  if (n < 0) refuse("the array has no size");
  std::vector<uint32_t> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto* p = static_cast<const uint32_t*>(svGetArrElemPtr1(a, low + i));
    if (!p) refuse(fmt::format("element {} of the array cannot be read", low + i));
    out[static_cast<size_t>(i)] = *p;
  }
  return out;
}


// The replay of the step the first of `lines` fails in, appended to that line: the program written to
// the replay directory and the command that runs it, or a hint to give the directory. Each failing
// step once: the engine's later lines of the step point back at its first.
void add_replay(EngineSession& s, std::vector<std::string>& lines) {
  if (lines.empty() || s.executed == 0 || s.replayed_step == s.executed) return;
  s.replayed_step = s.executed;
  const std::string program = s.scoreboard->replay_program();
  if (program.empty()) return;
  if (s.replay_dir.empty()) {
    lines.front() += fmt::format("; replay: tmu_eng_replay_dir(h, DIR) writes this step as a program for {}",
                                 s.scoreboard->replay_command("FILE"));
    return;
  }
  const std::string name = fmt::format("{}_step{}.tmu", s.test_name.empty() ? s.engine : s.test_name, s.executed);
  const std::filesystem::path file = std::filesystem::path(s.replay_dir) / name;
  std::ofstream out(file);
  out << program;
  out.close();
  if (!out) refuse(fmt::format("cannot write the replay program {}", file.string()));
  lines.front() += "; replay: " + s.scoreboard->replay_command(file.string());
}

// The words of a one-lane location's `bits`: one 32-bit word, two for a lane wider than 32 bits
// (low word first). The engine checks the count against the lane's width.
std::vector<uint32_t> lane_words(unsigned long long bits, int lane_bits) {
  if (lane_bits != 8 && lane_bits != 16 && lane_bits != 32 && lane_bits != 64)
    refuse(fmt::format("a lane is 8, 16, 32 or 64 bits wide, not {}", lane_bits));
  if (lane_bits < 64 && (bits >> lane_bits) != 0)
    refuse(fmt::format("{:#x} does not fit a {}-bit lane", bits, lane_bits));
  if (lane_bits == 64) return {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  return {static_cast<uint32_t>(bits)};
}

int record(EngineSession& s, std::vector<std::string> lines) {
  add_replay(s, lines);
  s.mismatches += lines.size();
  for (std::string& l : lines)
    if (s.lines.size() < kKeptLines) s.lines.push_back(std::move(l));
  return count_of(lines.size());
}

}  // namespace

extern "C" {

void* tmu_eng_create(const char* engine, const char* variant, const char* test_name, unsigned long long seed) {
  try {
    tmu::register_builtin_engines();
    const std::string name = text_of(engine);
    const tmu::Engine* e = tmu::find_engine(name);
    if (!e) refuse(fmt::format("unknown engine '{}' ({})", name, tmu::engine_names()));
    auto s = std::make_unique<EngineSession>();
    s->engine = e->name();
    s->variant = text_of(variant).empty() ? e->variants().front().name : e->canonical_variant(text_of(variant));
    s->test_name = text_of(test_name);
    s->seed = seed;
    const tmu::ScoreboardFactory* factory = e->scoreboards();
    if (!factory) refuse(fmt::format("the {} engine has no tmu_eng_* scoreboard", s->engine));
    s->scoreboard = factory->scoreboard(s->variant);
    return sessions().adopt(std::move(s));
  } catch (const std::exception& e) {
    CreateError& c = create_error();
    const std::lock_guard lock(c.mutex);
    c.text = std::string("tmu_eng_create: ") + e.what();
    return nullptr;
  }
}

void tmu_eng_destroy(void* h) { sessions().destroy(h); }

int tmu_eng_declare(void* h, const char* text) {
  return guarded(h, "tmu_eng_declare", [&](EngineSession& s) {
    s.scoreboard->declare(text_of(text));
    return 0;
  });
}

int tmu_eng_load(void* h, const char* location, const svOpenArrayHandle words) {
  return guarded(h, "tmu_eng_load", [&](EngineSession& s) {
    s.scoreboard->load(text_of(location), words_of(words));
    return 0;
  });
}

int tmu_eng_execute(void* h, const char* operation) {
  return guarded(h, "tmu_eng_execute", [&](EngineSession& s) {
    s.scoreboard->execute(text_of(operation));
    ++s.executed;
    return 0;
  });
}

int tmu_eng_compare(void* h, const char* location, const svOpenArrayHandle words) {
  return guarded(h, "tmu_eng_compare", [&](EngineSession& s) {
    return record(s, s.scoreboard->compare(text_of(location), words_of(words)));
  });
}

int tmu_eng_load_lane(void* h, const char* location, int lane_bits, unsigned long long bits) {
  return guarded(h, "tmu_eng_load_lane", [&](EngineSession& s) {
    s.scoreboard->load(text_of(location), lane_words(bits, lane_bits));
    return 0;
  });
}

int tmu_eng_compare_lane(void* h, const char* location, int lane_bits, unsigned long long bits) {
  return guarded(h, "tmu_eng_compare_lane", [&](EngineSession& s) {
    return record(s, s.scoreboard->compare(text_of(location), lane_words(bits, lane_bits)));
  });
}

int tmu_eng_replay_dir(void* h, const char* dir) {
  return guarded(h, "tmu_eng_replay_dir", [&](EngineSession& s) {
    const std::string d = text_of(dir);
    if (!d.empty()) {
      std::error_code e;
      std::filesystem::create_directories(d, e);
      if (e || !std::filesystem::is_directory(d))
        refuse(fmt::format("the replay directory '{}' cannot be made: {}", d, e ? e.message() : "not a directory"));
    }
    s.replay_dir = d;
    return 0;
  });
}

int tmu_eng_read(void* h, const char* location, const svOpenArrayHandle words) {
  return guarded(h, "tmu_eng_read", [&](EngineSession& s) {
    const auto model = s.scoreboard->read(text_of(location));
    if (!words) refuse("no array given");
    const int n = svSize(words, 1), low = svLow(words, 1);
    if (n < 0 || static_cast<size_t>(n) != model.size())
      refuse(fmt::format("location '{}' has {} words, the array {}", text_of(location), model.size(), n));
    for (int i = 0; i < n; ++i) {
      auto* p = static_cast<uint32_t*>(svGetArrElemPtr1(words, low + i));
      if (!p) refuse(fmt::format("element {} of the array cannot be written", low + i));
      *p = model[static_cast<size_t>(i)];
    }
    return n;
  });
}

unsigned long long tmu_eng_mismatch_count(void* h) {
  const EngineSession* s = session_of(h);
  return s ? s->mismatches : 0;
}

const char* tmu_eng_report(void* h) {
  EngineSession* s = session_of(h);
  if (!s) return "tmu_eng_report: invalid tmu engine scoreboard handle";
  s->report = fmt::format("tmu {} scoreboard ({}), test '{}', seed {}: {} mismatching lane{}", s->engine, s->variant,
                          s->test_name, s->seed, s->mismatches, s->mismatches == 1 ? "" : "s");
  if (const std::string common = s->scoreboard->summary(); !common.empty()) s->report += "\n" + common;
  for (const std::string& l : s->lines) s->report += "\n" + l;
  if (s->mismatches > s->lines.size())
    s->report += fmt::format("\n... and {} more (the first {} are kept)", s->mismatches - s->lines.size(), kKeptLines);
  return s->report.c_str();
}

const char* tmu_eng_last_error(void* h) {
  if (!h) {
    CreateError& c = create_error();
    const std::lock_guard lock(c.mutex);
    return c.text.c_str();
  }
  EngineSession* s = session_of(h);
  if (!s) return "tmu_eng_last_error: invalid tmu engine scoreboard handle";
  return s->last_error.c_str();
}

}  // extern "C"
