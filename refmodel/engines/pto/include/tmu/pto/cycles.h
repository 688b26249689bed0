// The A2/A3 cycle estimate of an elementwise tile operation, as pto-isa's cost model computes it
// (include/pto/costmodel/a2a3/cce_costmodel/, driven by include/pto/costmodel/pto_instr.hpp and
// trace.hpp): the a2a3 implementation (include/pto/npu/a2a3/TBinOp.hpp, TUnaryOp.hpp, TCvt.hpp, ...)
// splits the tile into CCE calls, and each call is charged by its per-instruction line. docs/pto-cycles.md
// works examples and sets the code's figures beside the ISA pages'.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tmu/pto/ops.h"

namespace tmu::pto {

// One CCE call the implementation issues: a vector instruction ("vadd", repeats as passed; count
// mode passes 0), a mask/mode/CTRL setting ("set_vector_mask", "set_mask_count", "set_mask_norm",
// "set_ctrl", ...) or a "pipe_barrier" (repeats 0), with the cycles the cost model charges for it;
// "tail" is the pending vector tail a barrier charges. Integer TRECIP is one step, the formula's
// figure ("EstimateInstrCycles(TDIVS, int32)").
struct CycleStep {
  std::string call;
  unsigned repeats;
  uint64_t cycles;
};
struct CycleEstimate {
  uint64_t cycles = 0;  // the sum of the steps' cycles: what the cost model records for the op
  std::vector<CycleStep> steps;
};

// The A2/A3 cost model's estimate for dst = op(srcs...) as execute() would run it under
// Profile::A2A3. Values play no part; the valid region is taken as the tile type's static
// ValidRow/ValidCol (the implementation's compile-time path choice reads them). Throws tmu::Error:
// BadInput for a wrong number of sources; UndefinedBehaviour for mismatched types, shapes or valid
// regions; Unsupported naming the op and type where A2/A3 has no implementation of that type or
// layout (TCVT: a pair without a vconv path), or where the cost model cannot run the op (TREM, TPOW).
// params: TCMP's mode; TCVT's round mode (its saturation does not change the calls).
CycleEstimate a2a3_cycles(Op op, const Tile& dst, std::span<const Tile* const> srcs, const OpParams& params = {});

// The A5 formula cost model's estimate (src/cycles_a5.cpp, docs/pto-cycles.md): one step, the
// vector function's fitted curve, for TADD, TSUB, TMUL, TNEG, TRECIP, TSQRT, TRSQRT, TEXP (f16,
// f32), TSEL (f32, f16, i8) and TCVT between the float types (f16/bf16 -> f32, f32 -> f16/bf16,
// bf16 -> f16, f32 <-> f8) under round NONE or RINT with saturation ON; Unsupported with the reason
// for everything else. params: TCVT's round mode and saturation.
CycleEstimate a5_cycles(Op op, const Tile& dst, std::span<const Tile* const> srcs, const OpParams& params = {});

}  // namespace tmu::pto
