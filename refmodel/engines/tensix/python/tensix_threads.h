// How the tmu.tensix goldens spread their output tiles over threads. Every output tile (matmul,
// eltwise_binary) or reduction group (reduce) is computed by its own LLK sequence on its own model,
// from inputs no other tile writes, into a region of the result no other tile writes; so the bits are
// the same for any number of threads, and the order of accumulation within a tile stays the LLK's.
#pragma once

#include <cstddef>
#include <functional>

#include "bindings.h"

namespace tmu::python {

// threads=None: TMU_THREADS when it is set, else the number of cores. A positive int otherwise;
// ValueError for 0, a negative count or a malformed TMU_THREADS (naming it), TypeError for a
// non-int (the Python wrapper checks the type first; this guards direct calls of the extension).
unsigned thread_count(const char* where, const py::object& threads);

// body(i) for every i in [0, count), on min(threads, count) threads, each taking the next index
// from a shared counter. The first exception a body throws is rethrown here after every thread has
// stopped; the threads stop taking indices once one has failed.
void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& body);

}  // namespace tmu::python
