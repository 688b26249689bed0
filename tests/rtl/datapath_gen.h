// Input generators and chain-port helpers shared by the datapath block tests.
#pragma once

#include <algorithm>
#include <array>

#include "harness.h"
#include "tmu/tensix/fpu/datapath.h"

namespace tmu_rtl::dp {

using tmu::tensix::Arch;
using tmu::tensix::SrcStyle;
namespace fpu = tmu::tensix::fpu;

inline constexpr unsigned kDot = 16;

// ---------------------------------------------------------------------------------------------
// Input generators: mostly values near a shared exponent (so alignment, rounding and cancellation
// happen), plus the edges: zero exponents (the zero flag), the largest exponents, ignored bits.
// ---------------------------------------------------------------------------------------------

inline uint32_t random_mantissa(Rng& rng) {
  switch (rng.between(0, 9)) {
    case 0: return 0;
    case 1: return 0x3FF;
    case 2: return static_cast<uint32_t>(rng.bits(1) << 9);  // a half-way pattern
    default: return static_cast<uint32_t>(rng.bits(10));
  }
}

// A 19-bit datum; base_exp is the exponent most operands cluster around.
inline uint32_t random_datum(Rng& rng, int base_exp, bool fp16) {
  const uint32_t sign = static_cast<uint32_t>(rng.bits(1));
  const int max_exp = fp16 ? 31 : 255;
  int exponent = 0;
  switch (rng.between(0, 19)) {
    case 0: exponent = 0; break;
    case 1: exponent = max_exp; break;
    case 2: exponent = 1; break;
    case 3: exponent = static_cast<int>(rng.between(0, max_exp)); break;
    default: exponent = std::clamp(base_exp + static_cast<int>(rng.between(-4, 4)), 0, max_exp); break;
  }
  uint32_t exp8 = static_cast<uint32_t>(exponent);
  // FP16 data ignore exponent bits 7:5; sometimes fill them to prove it. Datums with any pattern in
  // the bits a style ignores (BF16 mantissa 2:0) come out of the full 19-bit draw below too.
  if (fp16 && rng.chance(10, 100)) exp8 |= static_cast<uint32_t>(rng.bits(3)) << 5;
  if (rng.chance(2, 100)) return static_cast<uint32_t>(rng.bits(kSrcDatumW));
  return (sign << 18) | (random_mantissa(rng) << 8) | exp8;
}

struct ChainMode {
  fpu::FpuMode fpu;
  bool zero_flag_disabled = false;
};

inline ChainMode random_chain_mode(Rng& rng, bool allow_int8, bool allow_zero_flag) {
  ChainMode m;
  m.fpu.srca_style = static_cast<SrcStyle>(rng.between(0, allow_int8 ? 3 : 2));
  m.fpu.srcb_style = static_cast<SrcStyle>(rng.between(0, 3));
  m.fpu.dst32 = rng.bits(1);
  m.fpu.fidelity_phase = static_cast<uint32_t>(rng.bits(2));
  m.fpu.arch = rng.bits(1) ? Arch::Wormhole : Arch::Blackhole;
  m.zero_flag_disabled = allow_zero_flag && rng.chance(25, 100);
  return m;
}

inline void drive_chain_mode(Model& top, const ChainMode& m) {
  top.dp_srca_style_i = static_cast<uint8_t>(m.fpu.srca_style);
  top.dp_srcb_style_i = static_cast<uint8_t>(m.fpu.srcb_style);
  top.dp_dst32_i = m.fpu.dst32;
  top.dp_phase_i = static_cast<uint8_t>(m.fpu.fidelity_phase);
  top.dp_zero_flag_disabled_i = m.zero_flag_disabled;
  top.dp_arch_i = m.fpu.arch == Arch::Wormhole;
}

inline void drive_pairs(Model& top, const std::array<uint32_t, kDot>& a, const std::array<uint32_t, kDot>& b) {
  for (unsigned k = 0; k < kDot; ++k) {
    put_bits(top.dp_srca_i, k * kSrcDatumW, kSrcDatumW, a[k]);
    put_bits(top.dp_srcb_i, k * kSrcDatumW, kSrcDatumW, b[k]);
  }
}

inline Product rtl_product(const Model& top, unsigned k) {
  return unpack_product(get_bits(top.dp_products_o, k * kSliceProductW, kSliceProductW));
}

}  // namespace tmu_rtl::dp
