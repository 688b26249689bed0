// Differential: AMX matfp's host-FMA lane loop (matfp_exec.cpp's fused_lanes, which computes finite
// lanes with the C library's fma when tmu/ieee_host.h's probe finds the default floating-point
// environment) against tmu::ieee::fma_mixed lane by lane (the path every lane takes when the probe
// refuses the environment). One case: a lane width (all six, through the code and version that
// select it), FMADD / FMSUB or an indexed load, shuffles, enables, offsets and Z row, X / Y / Z
// lanes of the width's formats around one exponent (subnormals, infinities and NaNs among them).
// The instruction runs twice on the same state: in the default environment (the fast path), and in
// one of the host modes the probe must refuse - round up, down or toward zero, and on x86 MXCSR's
// flush-to-zero or denormals-are-zero - where the model must take the reference path and give the
// same Z bit for bit. The probe answering "default" under a refused mode is a finding too.
#include <cfenv>
#include <string>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "fuzz.h"
#include "tmu/amx/matfp.h"
#include "tmu/amx/state.h"
#include "tmu/ieee_host.h"

namespace {

using namespace tmu;
using namespace tmu::amx;

struct Width {
  LaneWidth width;
  unsigned code;
  bool needs_m2;  // codes 0 and 1 are bf16 from M2 on (matfp.h)
  ieee::Format xy, z;
};
constexpr Width kWidths[] = {
    {LaneWidth::F16, 2, false, ieee::kBinary16, ieee::kBinary16},
    {LaneWidth::F32, 4, false, ieee::kBinary32, ieee::kBinary32},
    {LaneWidth::F64, 7, false, ieee::kBinary64, ieee::kBinary64},
    {LaneWidth::F16F32, 3, false, ieee::kBinary16, ieee::kBinary32},
    {LaneWidth::BF16, 0, true, ieee::kBfloat16, ieee::kBfloat16},
    {LaneWidth::BF16F32, 1, true, ieee::kBfloat16, ieee::kBinary32},
};

// The host modes the probe must refuse. Each sets itself and returns how to undo it.
struct HostMode {
  const char* name;
  int round;          // a <cfenv> rounding macro
  unsigned mxcsr_or;  // x86 MXCSR bits to set (FTZ 0x8000, DAZ 0x40)
};
constexpr HostMode kRefused[] = {
    {"FE_UPWARD", FE_UPWARD, 0},
    {"FE_DOWNWARD", FE_DOWNWARD, 0},
    {"FE_TOWARDZERO", FE_TOWARDZERO, 0},
#if defined(__x86_64__)
    {"MXCSR.FTZ", FE_TONEAREST, 0x8000},
    {"MXCSR.DAZ", FE_TONEAREST, 0x40},
#endif
};

class InMode {
 public:
  explicit InMode(const HostMode& m) {
    std::fesetround(m.round);
#if defined(__x86_64__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | m.mxcsr_or);
#endif
  }
  ~InMode() {
#if defined(__x86_64__)
    _mm_setcsr(saved_);
#endif
    std::fesetround(FE_TONEAREST);
  }

 private:
  [[maybe_unused]] unsigned saved_ = 0;
};

TMU_FUZZ_DECODER void fill(tmu::fuzz::Fields& in, uint8_t* bytes, size_t count, ieee::Format f, int exponent) {
  const unsigned width = f.width() / 8;
  for (size_t at = 0; at + width <= count; at += width) {
    const uint64_t v = tmu::fuzz::float_pattern(in, f, exponent);
    for (unsigned b = 0; b < width; ++b) bytes[at + b] = static_cast<uint8_t>(v >> (8 * b));
  }
}

std::string hex_row(const Row& r) {
  return tmu::fuzz::hex(r.data(), r.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tmu::fuzz::Fields in(data, size);
  const Width w = in.pick(kWidths);
  const Version v = w.needs_m2 ? (in.flag() ? Version::M2 : Version::M4) : (in.flag() ? Version::M1 : Version::M3);
  MatfpOperand op;
  op.lane_width = w.code;
  op.x_offset = in.below(512);
  op.y_offset = in.below(512);
  op.z_row = in.below(8);
  op.x_shuffle = in.below(4);
  op.y_shuffle = in.below(4);
  op.x_enable_mode = in.below(8);
  op.y_enable_mode = in.below(8);
  op.x_enable_value = in.below(32);
  op.y_enable_value = in.below(32);
  op.indexed = in.below(8) == 0;
  if (op.indexed) op.index = {in.flag(), in.flag(), in.below(8)};
  else op.alu_mode = in.flag() ? kAluSub : kAluAdd;
  // Products near the addend's size: x and y around half of z's exponent, each side's own spread.
  const int span = std::min(w.xy.emax(), 40);
  const int ez = static_cast<int>(in.below(2 * span + 1)) - span;
  State s;
  fill(in, s.x.data(), s.x.size(), w.xy, ez / 2);
  fill(in, s.y.data(), s.y.size(), w.xy, ez - ez / 2);
  for (Row& r : s.z) fill(in, r.data(), r.size(), w.z, ez);
  const HostMode& refused = in.pick(kRefused);

  if (!ieee::host::environment_is_default()) tmu::fuzz::finding("the harness runs outside the default environment");
  State fast = s, reference = s;
  WriteSet fast_ws, reference_ws;
  try {
    fast_ws = execute_matfp(fast, op, v);
    {
      const InMode mode(refused);
      if (ieee::host::environment_is_default())
        tmu::fuzz::finding("ieee::host::environment_is_default() accepts a non-default mode", refused.name);
      reference_ws = execute_matfp(reference, op, v);
    }
  } catch (const Error& e) {
    tmu::fuzz::finding("matfp refused an operand whose fields are in range", e.what());
  }
  for (unsigned r = 0; r < kZRows; ++r) {
    if (fast.z[r] == reference.z[r]) continue;
    tmu::fuzz::difference(std::string("matfp ") + lane_width_name(w.width) + " operand 0x" +
                              [&] { char b[20]; std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(encode_matfp(op))); return std::string(b); }() +
                              ", reference under " + refused.name + ": Z row " + std::to_string(r) + " was " +
                              hex_row(s.z[r]) + "; X " + tmu::fuzz::hex(s.x.data(), s.x.size()) + "; Y " +
                              tmu::fuzz::hex(s.y.data(), s.y.size()),
                          hex_row(fast.z[r]), hex_row(reference.z[r]) + " (tmu::ieee::fma_mixed)", data, size);
  }
  if (!(fast_ws == reference_ws)) tmu::fuzz::difference("matfp write sets", std::to_string(fast_ws.z_rows),
                                                        std::to_string(reference_ws.z_rows), data, size);
  return 0;
}
