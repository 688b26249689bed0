// The handle plumbing both DPI-C adapters share (tmu_dpi.cpp for the Tensix scoreboard,
// tmu_dpi_engine.cpp for the engine scoreboards): the set of live sessions, so a null, destroyed or
// foreign chandle is refused without being dereferenced; the guard that turns anything a call throws
// into -1 and the session's last error; the int a count is returned as.
#pragma once

#include <exception>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "tmu/error.h"

namespace tmu::dpi {

// Session must have a `std::string last_error`.
template <typename Session>
class Handles {
 public:
  void* adopt(std::unique_ptr<Session> s) {
    const std::lock_guard lock(mutex_);
    live_.insert(s.get());
    return s.release();
  }
  Session* find(void* h) {
    const std::lock_guard lock(mutex_);
    return live_.count(h) ? static_cast<Session*>(h) : nullptr;
  }
  void destroy(void* h) {
    {
      const std::lock_guard lock(mutex_);
      if (live_.erase(h) == 0) return;
    }
    delete static_cast<Session*>(h);
  }
  // Runs body on the session; -1 for a bad handle or anything the body throws.
  template <typename Body>
  int guarded(void* h, const char* function, Body&& body) {
    Session* s = find(h);
    if (!s) return -1;
    try {
      return body(*s);
    } catch (const std::exception& e) {
      s->last_error = std::string(function) + ": " + e.what();
      return -1;
    }
  }

 private:
  std::mutex mutex_;
  std::set<const void*> live_;
};

[[noreturn]] inline void refuse(const std::string& why) { throw tmu::Error(tmu::ErrorKind::BadInput, why); }

// A count as the int a DPI function returns, saturating.
template <typename N>
int count_of(N n) {
  return n > N{0x7FFFFFFF} ? 0x7FFFFFFF : static_cast<int>(n);
}

}  // namespace tmu::dpi
