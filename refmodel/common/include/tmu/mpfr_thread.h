// MPFR keeps caches per thread (constants such as log 2 and pi, a pool of integer limbs) that are
// not freed when the thread ends: every thread that computes with MPFR would leave them behind as a
// leak (LeakSanitizer reports them, scripts/sanitize.sh). Code that calls MPFR calls
// release_mpfr_caches_at_thread_exit() first; the thread then frees its own caches when it ends,
// whichever thread it is. Header-only, for the libraries that link MPFR (an engine's, the audit).
#pragma once

#include <mpfr.h>

namespace tmu {

inline void release_mpfr_caches_at_thread_exit() {
  // A C++ thread_local's destructor runs before the thread's C TLS (MPFR's caches) goes away.
  thread_local const struct Release {
    ~Release() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
  } release;
  (void)release;
}

}  // namespace tmu
