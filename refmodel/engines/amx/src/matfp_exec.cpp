// matfp execution (corsix/amx matfp.md, RegisterFile.md; order of steps as matfp.c performs them).
// All arithmetic is tmu::ieee on bit patterns; no host floating point.
#include <string>

#include <fmt/format.h>

#include "tmu/amx/matfp.h"
#include "tmu/amx/xy.h"
#include "tmu/error.h"
#include "tmu/ieee.h"

namespace tmu::amx {

namespace {

struct Formats {
  ieee::Format xy;
  ieee::Format z;
};

Formats formats(LaneWidth w) {
  switch (w) {
    case LaneWidth::F16: return {ieee::kBinary16, ieee::kBinary16};
    case LaneWidth::F32: return {ieee::kBinary32, ieee::kBinary32};
    case LaneWidth::F64: return {ieee::kBinary64, ieee::kBinary64};
    case LaneWidth::F16F32: return {ieee::kBinary16, ieee::kBinary32};
    case LaneWidth::BF16: return {ieee::kBfloat16, ieee::kBfloat16};
    case LaneWidth::BF16F32: return {ieee::kBfloat16, ieee::kBinary32};
  }
  throw Error(ErrorKind::BadInput, "matfp lane width");
}

// FPCR as corsix/amx test.c runs matfp.c against hardware: RNE, no flush, DN = 1.
constexpr ieee::Options kFpcr{ieee::Rounding::NearestEven, false, true, ieee::Tininess::BeforeRounding};

// x <= 0 as an IEEE comparison: true for either zero and any negative number, false for NaNs.
bool at_most_zero(ieee::Format f, uint64_t x) {
  if (ieee::is_nan(f, x)) return false;
  return (x & ~f.sign_bit()) == 0 || (x & f.sign_bit()) != 0;
}

uint64_t alu(const Formats& f, unsigned mode, uint64_t x, uint64_t y, uint64_t z) {
  switch (mode) {
    case kAluAdd: return ieee::fma_mixed(f.xy, f.z, x, y, z, kFpcr).bits;
    // FMSUB negates the first multiplicand before the fused multiply-add (Arm FPMulAdd with
    // FPNeg(op1)); a NaN x gives the default NaN either way.
    case kAluSub: return ieee::fma_mixed(f.xy, f.z, x ^ f.xy.sign_bit(), y, z, kFpcr).bits;
    case kAluSelect:
      // "x <= 0 ? 0 : y" (matfp.md): +0 for x = -0 too; a NaN x selects y. Same width: y's bits as
      // they are. Widening: y converted as matfp.c's f16 -> f32 (fcvt under DN) and bf16_to_f32 do,
      // exactly, a NaN becoming the f32 default NaN.
      if (at_most_zero(f.xy, x)) return f.z.zero(false);
      return f.xy == f.z ? y : ieee::convert(f.xy, f.z, y, kFpcr).bits;
  }
  throw Error(ErrorKind::BadInput, fmt::format("matfp ALU mode {}", mode));
}

void check_ranges(const MatfpOperand& op) {
  const auto need = [](const char* name, unsigned value, unsigned limit) {
    if (value >= limit) throw Error(ErrorKind::BadInput, fmt::format("matfp field {} = {} (< {})", name, value, limit));
  };
  need("x_offset", op.x_offset, 512);
  need("y_offset", op.y_offset, 512);
  need("z_row", op.z_row, 8);
  need("x_enable_mode", op.x_enable_mode, 8);
  need("y_enable_mode", op.y_enable_mode, 8);
  need("x_enable_value", op.x_enable_value, 32);
  need("y_enable_value", op.y_enable_value, 32);
  need("x_shuffle", op.x_shuffle, 4);
  need("y_shuffle", op.y_shuffle, 4);
  need("lane_width", op.lane_width, 16);
  need("alu_mode", op.alu_mode, 64);
  need("index.reg", op.index.reg, 8);
  need("must_be_zero", op.must_be_zero, 8);
}

}  // namespace

WriteSet execute_matfp(State& s, const MatfpOperand& op, Version v) {
  check_ranges(op);
  // matfp.md: bits 54..56 "Must be zero", "No-op otherwise"; ALU modes other than 0, 1, 4 no-ops.
  if (op.must_be_zero != 0) return {};
  const unsigned mode = op.indexed ? kAluAdd : op.alu_mode;
  if (mode != kAluAdd && mode != kAluSub && mode != kAluSelect) return {};

  const LaneWidth w = lane_width(op.lane_width, v);
  const Formats f = formats(w);
  const unsigned eb = xy_bytes(w);
  const unsigned lanes = kRowBytes / eb;

  Row x = load_span(s.x, op.x_offset);
  Row y = load_span(s.y, op.y_offset);
  if (op.indexed) {
    const unsigned bits = op.index.four_bit ? 4 : 2;
    if (op.index.of_y) y = indexed_load(y, pool_register(s.y, op.index.reg), bits, eb);
    else x = indexed_load(x, pool_register(s.x, op.index.reg), bits, eb);
  }
  x = shuffle(x, op.x_shuffle, eb);
  y = shuffle(y, op.y_shuffle, eb);

  const uint64_t x_en = lane_enables(op.x_enable_mode, op.x_enable_value, lanes);
  const uint64_t y_en = lane_enables(op.y_enable_mode, op.y_enable_value, lanes);
  // Enable mode 0 with value 3: the enabled lanes are written with 0; 4 or 5: the operand's lanes
  // read as 0 (matfp.md's enable table; matfp.c applies both after the shuffles).
  bool result_zero = false;
  if (op.x_enable_mode == 0) {
    if (op.x_enable_value == 3) result_zero = true;
    if (op.x_enable_value == 4 || op.x_enable_value == 5) x.fill(0);
  }
  if (op.y_enable_mode == 0) {
    if (op.y_enable_value == 3) result_zero = true;
    if (op.y_enable_value == 4 || op.y_enable_value == 5) y.fill(0);
  }

  const bool widening = z_bytes(w) != eb;
  const unsigned zb = z_bytes(w);
  uint64_t xs[kRowBytes / 2], ys[kRowBytes / 2];
  for (unsigned i = 0; i < lanes; ++i) {
    xs[i] = lane_bits(x, eb, i);
    ys[i] = lane_bits(y, eb, i);
  }
  WriteSet ws;
  for (unsigned j = 0; j < lanes; ++j) {
    if (!((y_en >> j) & 1)) continue;
    for (unsigned i = 0; i < lanes; ++i) {
      if (!((x_en >> i) & 1)) continue;
      // Same width: one Z row in eb, the low bits of z_row choosing which; widening (16 -> 32
      // bits): the interleaved pair 2j, 2j + 1, even X lanes in the even row (RegisterFile.md).
      const unsigned row = widening ? 2 * j + (i & 1) : j * eb + op.z_row % eb;
      const unsigned lane = widening ? i / 2 : i;
      Row& z = s.z[row];
      const uint64_t out = result_zero ? f.z.zero(false) : alu(f, mode, xs[i], ys[j], lane_bits(z, zb, lane));
      put_lane_bits(z, zb, lane, out);
      ws.z_rows |= uint64_t{1} << row;
    }
  }
  return ws;
}

}  // namespace tmu::amx
