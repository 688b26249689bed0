// tmu_tb's int8_saturation sequence (tb/stim/corner_stim.cpp) run through the model: the Dst32b values
// it leaves are the saturated sums worked out by hand below, so the RTL that matches the model in
// co-simulation clamps as it must, and an adder without the clamp (scripts/break-demo.sh
// int8-sat-acc) gives other values in the columns that pass +/-(2^31 - 1).
#include <algorithm>
#include <cstdlib>

#include <gtest/gtest.h>

#include "stim/stimulus.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/isa.h"

namespace tmu::tb {
using namespace tmu::tensix;
namespace {

constexpr int64_t kLimit = 2147483647;  // 2^31 - 1

// Runs the whole sequence (no fills: the Matrix Unit owns the preloaded banks throughout).
TensixState run_sequence(Arch arch, uint64_t seed, InitialState* initial) {
  auto stim = make_stimulus("int8_saturation", arch, seed, 0);
  TensixState m;
  m.arch = arch;
  apply_initial_state(m, stim->initial());
  *initial = stim->initial();
  while (auto st = stim->next()) {
    if (st->kind == Step::Kind::Field) {
      apply_field(m, st->field);
      continue;
    }
    const ExecResult r = execute(m, decode(st->word, arch), st->thread);
    EXPECT_EQ(r.status, ExecResult::Status::Retired) << disassemble(decode(st->word, arch));
  }
  return m;
}

int64_t dst32_int(const TensixState& m, unsigned row32, unsigned col) {
  return dst32_to_int32(m.Dst.read32(row32, col, 0));
}

int64_t preloaded_int(const InitialState& init, unsigned row32, unsigned col) {
  uint32_t high = 0, low = 0;
  for (const DstRowInit& r : init.dst_rows) {
    if (r.row == DstRegs::hi_row(row32)) high = r.values[col];
    if (r.row == DstRegs::lo_row(row32)) low = r.values[col];
  }
  return dst32_to_int32((high << 16) | low);
}

// SrcA is +32, SrcB row r is 64 with the sign (-1)^r. At phase 0 SrcA keeps magnitude bits 7:5
// (32 = bit 5 kept) and SrcB bits 9:4 (64 = bit 6 kept), so ELWMUL's product is 32 * 64 = 2048 and
// MVMUL's dot 16 * 2048 = 32768, each with the sign s = (-1)^r of its Dst32b row r (ELWMUL rows
// 0..7, MVMUL rows 8..15). Columns 0..7 of each row, by hand (P the product's magnitude):
//   col 0  s(2^31 - 1)     + sP -> 2^31 - 1 + P, past the limit: s(2^31 - 1)
//   col 1  s(2^31 - 1 - P) + sP -> exactly s(2^31 - 1), not clamped
//   col 2  s(2^31 - P)     + sP -> s 2^31, one past: s(2^31 - 1) (without the clamp: 0)
//   col 3  s(2^31 - 2)     + sP -> 2^31 - 2 + P past: s(2^31 - 1) (without the clamp: s(P - 2))
//   col 4  -s(2^31 - 1)    + sP -> -s(2^31 - 1 - P): ELWMUL -s 2147481599, MVMUL -s 2147450879
//   col 5  0               + sP -> sP: s 2048, s 32768
//   col 6  s 2^30          + sP -> s(1073741824 + P): s 1073743872, s 1073774592
//   col 7  -sP             + sP -> 0
struct Hand {
  int64_t elwmul, mvmul;  // for s = +1; the row's sign multiplies both
};
constexpr Hand kByHand[8] = {
    {kLimit, kLimit}, {kLimit, kLimit}, {kLimit, kLimit}, {kLimit, kLimit},
    {-2147481599, -2147450879}, {2048, 32768}, {1073743872, 1073774592}, {0, 0},
};

TEST(StimInt8Saturation, SumsPastTheLimitSaturateOnBothSigns) {
  for (const Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    InitialState init;
    const TensixState m = run_sequence(arch, 7, &init);
    for (unsigned row32 = 0; row32 < 16; ++row32) {
      const int64_t s = row32 % 2 ? -1 : 1;
      for (unsigned c = 0; c < 8; ++c)
        EXPECT_EQ(dst32_int(m, row32, c), s * (row32 < 8 ? kByHand[c].elwmul : kByHand[c].mvmul))
            << "arch " << arch_name(arch) << " Dst32b row " << row32 << " col " << c;
      // Columns 8..15: Dst from the seed within 2P below the limit; the plain sum, clamped.
      const int64_t p = row32 < 8 ? 2048 : 32768;
      for (unsigned c = 8; c < kDstCols; ++c)
        EXPECT_EQ(dst32_int(m, row32, c), std::clamp(preloaded_int(init, row32, c) + s * p, -kLimit, kLimit))
            << "arch " << arch_name(arch) << " Dst32b row " << row32 << " col " << c;
    }
  }
}

// The seeded columns pass the limit in some rows and stay below it in others, for any seed.
TEST(StimInt8Saturation, SeededColumnsStraddleTheLimit) {
  InitialState init;
  const TensixState m = run_sequence(Arch::Blackhole, 11, &init);
  unsigned saturated = 0, below = 0;
  for (unsigned row32 = 0; row32 < 16; ++row32)
    for (unsigned c = 8; c < kDstCols; ++c) (std::abs(dst32_int(m, row32, c)) == kLimit ? saturated : below)++;
  EXPECT_GT(saturated, 0u);
  EXPECT_GT(below, 0u);
}

}  // namespace
}  // namespace tmu::tb
