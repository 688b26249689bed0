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
#include <memory>
#include <mutex>
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
    return 0;
  });
}

int tmu_eng_compare(void* h, const char* location, const svOpenArrayHandle words) {
  return guarded(h, "tmu_eng_compare", [&](EngineSession& s) {
    const auto lines = s.scoreboard->compare(text_of(location), words_of(words));
    s.mismatches += lines.size();
    for (const std::string& l : lines)
      if (s.lines.size() < kKeptLines) s.lines.push_back(l);
    return count_of(lines.size());
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
