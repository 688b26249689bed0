// TCVT on the A2/A3 cost model: the calls pto-isa's include/pto/npu/a2a3/TCvt.hpp issues, as
// cce_costmodel_vector_convert_int.hpp and _fp16_fp32.hpp charge them (every vconv, vconv_deq
// included, is EstimateVconvCycles: head 14, slope 2, tail 18) and cce_costmodel_sync.hpp
// (set_ctrl, set_deqscale, set_vector_mask: 1 each). See docs/pto-cycles.md.
#include <algorithm>
#include <string>

#include "cycles_trace.h"
#include "internal.h"

namespace tmu::pto::detail {

namespace {

constexpr unsigned kRepeatBytes = 256;  // REPEAT_BYTE
constexpr unsigned kRepeatMax = 255;    // REPEAT_MAX

// One GenCastCall: a single vconv for every pair tmu models. The saturation asked for plays no
// part: the NonSatTorch sequences (f32 -> i16, f16 -> i16, f16 -> i8 with saturation OFF) are
// chosen by reading CTRL with get_ctrl(), which cce_costmodel_core.hpp stubs to return 0
// ("saturation ON"), and only in the GenCastCall overload that takes a tmp buffer. int32 -> f16
// is set_deqscale(1.0), a pipe_barrier, vconv_deq: the barrier charges the previous call's tail
// and every vconv_deq pays its head.
void cast_call(Trace& t, const VectorCost& vconv, bool deq, unsigned repeats) {
  if (deq) {
    t.scalar("set_deqscale");
    t.pipe_barrier();
  }
  t.vector(vconv, repeats);
}

}  // namespace

// TCVT_IMPL: elementsPerRepeat = 256 bytes / the wider type (ComputeTCvtRepeatConfig); each valid
// row's whole repeats in calls of at most 255 (TCvtHead); then, under a mask of the remaining
// columns, one call per 255 rows with a repeat per row (TCvtTail). The CTRL saturation bit is set
// before (ApplySatMode) and restored after (RestoreSatMode): one set_ctrl each, on every pair,
// since TCVT_IMPL passes needSetCtrl = true; get_ctrl and sbitset are not recorded.
void convert_calls(Trace& t, ElemType from, ElemType to, RoundMode mode, unsigned valid_rows, unsigned valid_cols) {
  const std::string name = a2a3_vconv_name(from, to, mode);
  const VectorCost vconv{name.c_str(), 14, 2, 18};
  const bool deq = from == ElemType::I32 && to == ElemType::F16;
  const unsigned per_repeat = kRepeatBytes / std::max(width_bytes(from), width_bytes(to));
  const unsigned repeats_per_line = valid_cols / per_repeat;
  const unsigned remain_per_line = valid_cols % per_repeat;
  t.scalar("set_ctrl");
  if (repeats_per_line > 0) {
    for (unsigned i = 0; i < valid_rows; ++i) {
      for (unsigned j = 0; j < repeats_per_line / kRepeatMax; ++j) cast_call(t, vconv, deq, kRepeatMax);
      if (repeats_per_line % kRepeatMax != 0) cast_call(t, vconv, deq, repeats_per_line % kRepeatMax);
    }
  }
  if (remain_per_line > 0) {
    t.scalar("set_vector_mask");  // SetContinuousMask(numRemainPerLine)
    for (unsigned j = 0; j < valid_rows / kRepeatMax; ++j) cast_call(t, vconv, deq, kRepeatMax);
    if (valid_rows % kRepeatMax != 0) cast_call(t, vconv, deq, valid_rows % kRepeatMax);
    t.scalar("set_vector_mask");
  }
  t.scalar("set_ctrl");
}

}  // namespace tmu::pto::detail
