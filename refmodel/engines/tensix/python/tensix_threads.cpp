// The goldens' threads (tensix_threads.h).
#include "tensix_threads.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace tmu::python {

namespace {

// More threads than this is a mistake (a typo, an unset variable expanding oddly), not a machine.
constexpr long kMaxThreads = 4096;

unsigned default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace

unsigned thread_count(const char* where, const py::object& threads) {
  if (threads.is_none()) {
    const char* env = std::getenv("TMU_THREADS");
    if (env == nullptr || *env == '\0') return default_threads();
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (*end != '\0' || n < 1 || n > kMaxThreads) {
      value_error(where, "threads", fmt::format("TMU_THREADS='{}' is not a thread count (expected an integer 1..{})", env, kMaxThreads));
    }
    return static_cast<unsigned>(n);
  }
  if (py::isinstance<py::bool_>(threads) || !py::isinstance<py::int_>(threads)) type_error(where, "threads", "expected an int or None");
  const long long n = threads.cast<long long>();
  if (n < 1 || n > kMaxThreads) {
    value_error(where, "threads", fmt::format("{} is not a thread count (expected 1..{}, or None for TMU_THREADS or the number of cores)", n, kMaxThreads));
  }
  return static_cast<unsigned>(n);
}

void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& body) {
  const size_t workers = std::min<size_t>(threads, count);
  if (workers <= 1) {
    for (size_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (size_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < count;) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (size_t t = 1; t < workers; ++t) {
    // A thread the system refuses is one worker fewer, not a failure: the others take its share.
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();  // the calling thread is one of the workers
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace tmu::python
