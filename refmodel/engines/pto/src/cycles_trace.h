// The A2/A3 cost model's bookkeeping (pto-isa include/pto/costmodel/trace.hpp,
// a2a3/cce_costmodel/cce_costmodel_core.hpp), shared by cycles.cpp and the call sequences that
// live in their own files (cycles_convert.cpp).
#pragma once

#include <cstdint>

#include "tmu/pto/cycles.h"
#include "tmu/pto/types.h"

namespace tmu::pto::detail {

// A vector call's line in cce_costmodel_vector_compute.hpp: EstimateLinearCycles(repeat, head,
// slope, tail). The tail is charged only when a pipe_barrier flushes the vector pipe inside the
// operation (TXOR, TSEL, TFMOD, TPRELU, the int32 to f16 TCVT); the operation's last tail never is.
struct VectorCost {
  const char* call;
  unsigned head;
  unsigned slope;
  unsigned tail;
};

struct Trace {
  CycleEstimate estimate;
  // trace.hpp: BeginPtoInstr clears the pipe queues, so the operation's first vector call pays
  // the head; every later one finds the queue non-empty, until a barrier clears it.
  bool vector_queue_empty = true;
  uint64_t pending_tail = 0;  // SetLastCceTail: the last vector call's tail, until flushed

  // EstimateLinearCycles. The repeat operand is a uint8_t in every Op::BinInstr / UnaryInstr, so
  // the call sees the count modulo 256. vadd/vsub/vmul/vdiv/vmin/vmax/vand/vor also add
  // EstimateCountModeFloor(), which reads a count-mode flag that nothing in the sources sets
  // (set_mask_count only records its own cycle): it adds 0.
  void vector(const VectorCost& c, unsigned repeats) {
    const unsigned r = repeats & 0xFF;
    const uint64_t cycles = uint64_t{c.slope} * r + (vector_queue_empty ? c.head : 0);
    vector_queue_empty = false;
    pending_tail = c.tail;
    add(c.call, r, cycles);
  }
  // pto_costmodel_pipe_barrier(PIPE_V): FlushPendingTail charges the pending tail and clears the
  // queue, then the barrier records its own cycle.
  void pipe_barrier() {
    if (pending_tail != 0) add("tail", 0, pending_tail);
    pending_tail = 0;
    vector_queue_empty = true;
    add("pipe_barrier", 0, 1);
  }
  // set_vector_mask, set_mask_count, set_mask_norm: EstimateConstCycles() = 1, outside any pipe.
  void scalar(const char* call) { add(call, 0, 1); }
  void add(const char* call, unsigned repeats, uint64_t cycles) {
    estimate.cycles += cycles;
    estimate.steps.push_back(CycleStep{call, repeats, cycles});
  }
};

// TCvt.hpp TCVT_IMPL for one source of type `from` converted to `to` with the vconv `mode` selects,
// over a valid region of valid_rows x valid_cols (dst's). The pair must have an A2/A3 vconv path
// (a2a3_converts).
void convert_calls(Trace& t, ElemType from, ElemType to, RoundMode mode, unsigned valid_rows, unsigned valid_cols);

}  // namespace tmu::pto::detail
