// matfp execution (corsix/amx matfp.md, RegisterFile.md; order of steps as matfp.c performs them).
// The arithmetic is tmu::ieee on bit patterns, except that the fused multiply-adds of finite lanes
// run on the host's correctly rounded fma where tmu/ieee_host.h shows that gives the same bits.
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "tmu/amx/matfp.h"
#include "tmu/amx/xy.h"
#include "tmu/error.h"
#include "tmu/ieee.h"
#include "tmu/ieee_host.h"

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

constexpr ieee::Options kFpcr = kMatfpFpcr;

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

// The operand lanes one matfp multiplies, after its indexed load, shuffles and enable values.
struct Lanes {
  unsigned count;
  unsigned xy_bytes;
  bool widening;     // 16-bit products into 32-bit Z lanes
  unsigned z_row;
  uint64_t x[kRowBytes / 2];
  uint64_t y[kRowBytes / 2];
  uint64_t x_enabled;
  uint64_t y_enabled;
};

// Where the product of X lane i and Y lane j accumulates: its Z row and the lane in it. Same width:
// one Z row in xy_bytes, the low bits of z_row choosing which; widening (16 -> 32 bits): the
// interleaved pair 2j, 2j + 1, even X lanes in the even row (RegisterFile.md).
struct ZPlace {
  unsigned row, lane;
};
ZPlace z_place(const Lanes& l, unsigned i, unsigned j) {
  if (l.widening) return {2 * j + (i & 1), i >> 1};
  return {j * l.xy_bytes + l.z_row % l.xy_bytes, i};
}

// Calls lane(i, j, z, z_lane) for every enabled pair, z being the Z row z[j][i] lives in, and
// returns the rows written.
template <typename Fn>
WriteSet for_each_lane(State& s, const Lanes& l, Fn&& lane) {
  WriteSet ws;
  for (unsigned j = 0; j < l.count; ++j) {
    if (!((l.y_enabled >> j) & 1)) continue;
    for (unsigned i = 0; i < l.count; ++i) {
      if (!((l.x_enabled >> i) & 1)) continue;
      const ZPlace p = z_place(l, i, j);
      lane(i, j, s.z[p.row], p.lane);
      ws.z_rows |= uint64_t{1} << p.row;
    }
  }
  return ws;
}

constexpr bool is_finite(ieee::Format f, uint64_t bits) {
  return ((bits >> f.frac_bits) & f.exp_field_max()) != f.exp_field_max();
}

// z + x*y of finite lanes on the host, in the default environment, with Z's host type H: for a
// binary32 or binary64 Z one correctly rounded fmaf / fma of the operands' exact host values; for a
// binary16 or bfloat16 Z an fma into binary64 (the products and sums of such values never overflow
// it) rounded again into Z, which ieee::host::round_nearest_even makes exact or declines.
template <ieee::Format Z, typename H>
std::optional<uint64_t> host_fma(H x, H y, uint64_t z) {
  if constexpr (Z == ieee::kBinary32) {
    return std::bit_cast<uint32_t>(std::fma(x, y, std::bit_cast<float>(static_cast<uint32_t>(z))));
  } else if constexpr (Z == ieee::kBinary64) {
    return std::bit_cast<uint64_t>(std::fma(x, y, std::bit_cast<double>(z)));
  } else {
    return ieee::host::round_nearest_even(Z, std::fma(x, y, ieee::host::to_double(Z, z)));
  }
}

// z +- x*y over the enabled lanes of one lane width, its format, widths and host type fixed at
// compile time. X and Y are taken to host values once per instruction; a lane with a NaN or an
// infinity among its operands, or that host_fma declines, is computed by tmu::ieee.
template <ieee::Format XY, ieee::Format Z>
WriteSet fused_lanes(State& s, const Lanes& l, unsigned mode) {
  using H = std::conditional_t<Z == ieee::kBinary32, float, double>;
  const auto host_value = [](uint64_t bits) -> H {
    if constexpr (std::is_same_v<H, float>) return ieee::host::to_float(XY, bits);
    else return ieee::host::to_double(XY, bits);
  };
  constexpr unsigned zb = Z.width() / 8;
  // FMSUB's negated first multiplicand (alu()); tmu::ieee negates it itself.
  const uint64_t negate = mode == kAluSub ? XY.sign_bit() : 0;
  H x[kRowBytes / 2], y[kRowBytes / 2];
  uint64_t x_finite = 0, y_finite = 0;
  for (unsigned i = 0; i < l.count; ++i) {
    if (is_finite(XY, l.x[i])) x[i] = host_value(l.x[i] ^ negate), x_finite |= uint64_t{1} << i;
    if (is_finite(XY, l.y[i])) y[i] = host_value(l.y[i]), y_finite |= uint64_t{1} << i;
  }
  return for_each_lane(s, l, [&](unsigned i, unsigned j, Row& zr, unsigned lane) {
    const uint64_t z = lane_bits(zr, zb, lane);
    std::optional<uint64_t> out;
    if ((x_finite >> i) & (y_finite >> j) & 1 && is_finite(Z, z)) out = host_fma<Z>(x[i], y[j], z);
    put_lane_bits(zr, zb, lane, out ? *out : alu(Formats{XY, Z}, mode, l.x[i], l.y[j], z));
  });
}

WriteSet fused_lanes(LaneWidth w, State& s, const Lanes& l, unsigned mode) {
  switch (w) {
    case LaneWidth::F16: return fused_lanes<ieee::kBinary16, ieee::kBinary16>(s, l, mode);
    case LaneWidth::F32: return fused_lanes<ieee::kBinary32, ieee::kBinary32>(s, l, mode);
    case LaneWidth::F64: return fused_lanes<ieee::kBinary64, ieee::kBinary64>(s, l, mode);
    case LaneWidth::F16F32: return fused_lanes<ieee::kBinary16, ieee::kBinary32>(s, l, mode);
    case LaneWidth::BF16: return fused_lanes<ieee::kBfloat16, ieee::kBfloat16>(s, l, mode);
    case LaneWidth::BF16F32: return fused_lanes<ieee::kBfloat16, ieee::kBinary32>(s, l, mode);
  }
  throw Error(ErrorKind::BadInput, "matfp lane width");
}

// The operation's ALU mode and operand lanes; nullopt for an operation matfp.md makes a no-op.
struct Prepared {
  unsigned mode;
  LaneWidth width;
  bool result_zero;  // enable value 3: the enabled lanes are written with 0
  Lanes lanes;
};
std::optional<Prepared> prepare(const State& s, const MatfpOperand& op, Version v) {
  check_ranges(op);
  // matfp.md: bits 54..56 "Must be zero", "No-op otherwise"; ALU modes other than 0, 1, 4 no-ops.
  if (op.must_be_zero != 0) return std::nullopt;
  const unsigned mode = op.indexed ? kAluAdd : op.alu_mode;
  if (mode != kAluAdd && mode != kAluSub && mode != kAluSelect) return std::nullopt;

  const LaneWidth w = lane_width(op.lane_width, v);
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

  Prepared p{mode, w, result_zero,
             Lanes{lanes, eb, z_bytes(w) != eb, op.z_row, {}, {}, lane_enables(op.x_enable_mode, op.x_enable_value, lanes),
                   lane_enables(op.y_enable_mode, op.y_enable_value, lanes)}};
  for (unsigned i = 0; i < lanes; ++i) {
    p.lanes.x[i] = lane_bits(x, eb, i);
    p.lanes.y[i] = lane_bits(y, eb, i);
  }
  return p;
}

}  // namespace

WriteSet execute_matfp(State& s, const MatfpOperand& op, Version v) {
  const std::optional<Prepared> p = prepare(s, op, v);
  if (!p) return {};
  const Lanes& l = p->lanes;
  if (!p->result_zero && p->mode != kAluSelect && ieee::host::environment_is_default())
    return fused_lanes(p->width, s, l, p->mode);
  const Formats f = formats(p->width);
  const unsigned zb = z_bytes(p->width);
  return for_each_lane(s, l, [&](unsigned i, unsigned j, Row& z, unsigned lane) {
    put_lane_bits(z, zb, lane, p->result_zero ? f.z.zero(false) : alu(f, p->mode, l.x[i], l.y[j], lane_bits(z, zb, lane)));
  });
}

std::optional<LaneOperands> matfp_lane_operands(const State& s, const MatfpOperand& op, Version v, unsigned z_row,
                                                unsigned z_lane) {
  const std::optional<Prepared> p = prepare(s, op, v);
  if (!p || p->result_zero) return std::nullopt;
  const Lanes& l = p->lanes;
  for (unsigned j = 0; j < l.count; ++j) {
    if (!((l.y_enabled >> j) & 1)) continue;
    for (unsigned i = 0; i < l.count; ++i) {
      const ZPlace place = z_place(l, i, j);
      if ((l.x_enabled >> i) & 1 && place.row == z_row && place.lane == z_lane) return LaneOperands{i, j, l.x[i], l.y[j]};
    }
  }
  return std::nullopt;
}

}  // namespace tmu::amx
