// Helpers for the LLK-sequence tests: BF16 operands as exact doubles and as Src datums, tile faces
// placed in SrcA/SrcB the way the unpackers place them, Dst read back as exact doubles, and the
// ADDR_MOD set-ups that tt-llk's math kernels program.
#pragma once

#include <cstdint>
#include <cstring>

#include <Eigen/Dense>

#include "exec_harness.h"
#include "tmu/tensix/formats.h"
#include "tmu/rng.h"

namespace tmu::test {
using namespace tmu::tensix;

using Mat = Eigen::MatrixXd;

// A BF16 number by fields: value = (-1)^sign * (1 + mant7/128) * 2^(exp - 127).
struct Bf16 {
  uint32_t sign = 0, exp = 127, mant7 = 0;
  double value() const { return (sign ? -1.0 : 1.0) * (1.0 + mant7 / 128.0) * std::ldexp(1.0, int(exp) - 127); }
  uint32_t datum() const { return pack_src(SrcFields{sign, exp, mant7 << 3}, SrcStyle::BF16); }
};

inline Bf16 random_bf16(Rng& rng, int exp_lo, int exp_hi) {
  Bf16 b;
  b.sign = rng.bits(1);
  b.exp = static_cast<uint32_t>(rng.between(exp_lo, exp_hi));
  b.mant7 = rng.bits(7);
  return b;
}

// 32x32 tile of BF16 numbers.
struct Tile {
  Bf16 v[32][32];
  Mat values() const {
    Mat m(32, 32);
    for (int r = 0; r < 32; ++r)
      for (int c = 0; c < 32; ++c) m(r, c) = v[r][c].value();
    return m;
  }
};

inline Tile random_tile(Rng& rng, int exp_lo, int exp_hi) {
  Tile t;
  for (auto& row : t.v)
    for (auto& x : row) x = random_bf16(rng, exp_lo, exp_hi);
  return t;
}

// The unpackers write a 32x32 tile as four 16x16 faces, F0 F1 / F2 F3, at Src rows 0, 16, 32, 48.
inline void place_tile(SrcBank& bank, const Tile& t) {
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      const int face = (r / 16) * 2 + (c / 16);
      bank.Rows[face * 16 + r % 16][c % 16] = t.v[r][c].datum();
    }
  bank.Format = DataFormat::BF16;
  bank.AllowedClient = SrcClient::MatrixUnit;
}

inline double fp32_bits_value(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Dst32b rows 0..63 hold the output tile as faces F0..F3 of 16 rows each.
inline Mat read_dst32_tile(const TensixState& s, uint32_t first_row = 0) {
  Mat m(32, 32);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      const int face = (r / 16) * 2 + (c / 16);
      const uint32_t stored = s.Dst.read32(first_row + face * 16 + r % 16, c % 16, 0);
      m(r, c) = fp32_bits_value(dst32_to_fp32(stored));
    }
  return m;
}

inline double bf16_bits_value(uint16_t bf16) { return fp32_bits_value(uint32_t{bf16} << 16); }

struct AddrModSlot {
  uint8_t srca_incr = 0; bool srca_cr = false, srca_clr = false;
  uint8_t srcb_incr = 0; bool srcb_cr = false, srcb_clr = false;
  uint16_t dest_incr = 0; bool dest_cr = false, dest_clr = false, dest_c_to_cr = false;
  uint8_t fidelity_incr = 0; bool fidelity_clr = false;
};

inline void set_addr_mod(TensixState& s, unsigned thread, unsigned slot, const AddrModSlot& a) {
  auto& tc = s.ThreadConfig[thread];
  tc.ADDR_MOD_AB_SEC[slot] = AddrModAB{a.srca_incr, a.srca_cr, a.srca_clr, a.srcb_incr, a.srcb_cr, a.srcb_clr};
  tc.ADDR_MOD_DST_SEC[slot] = AddrModDst{a.dest_incr, a.dest_cr, a.dest_clr, a.dest_c_to_cr, a.fidelity_incr, a.fidelity_clr};
}

// llk_math_matmul.h matmul_configure_addrmod for a 32x32 x 32x32 tile, no transpose.
inline void configure_matmul_addrmods(TensixState& s, bool high_fidelity) {
  set_addr_mod(s, 0, 0, {.srcb_incr = 8, .dest_incr = 8});
  set_addr_mod(s, 0, 1, {.srca_incr = 16, .srcb_cr = true, .dest_incr = 8});
  set_addr_mod(s, 0, 2, {.srca_cr = true, .srcb_incr = 32, .srcb_cr = true, .dest_incr = 8});
  set_addr_mod(s, 0, 4, {.srca_incr = 32, .srca_cr = true, .srcb_incr = 48, .srcb_cr = true, .dest_cr = true});
  set_addr_mod(s, 0, 5, {.srca_cr = true, .srca_clr = true, .srcb_cr = true, .srcb_clr = true, .dest_cr = true,
                         .dest_clr = true, .fidelity_incr = static_cast<uint8_t>(high_fidelity ? 1 : 0)});
}

// The 16-MVMUL replay buffer of the matmul_peak kernel (tt-llk, llk_lib/llk_math_matmul.h; its
// disassembly in "Tensix Matrix Unit operations", docs/sources.md):
// AddrMods 0,1,0,2 0,1,0,4 0,1,0,2 0,1,0,5.
inline constexpr uint32_t kMatmulReplayAddrMods[16] = {0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0, 5};

}  // namespace tmu::test
