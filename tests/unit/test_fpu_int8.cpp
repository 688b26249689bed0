// The integer path against plain integer arithmetic: the fidelity masks are checked against the
// ISA's hex masks on the 19-bit datum (MVMUL.md / ELWMUL.md, ReadSrcInt8), the phase table of
// SrcASrcB.md "Fidelity phases (integer)" against exact products, and the Dst INT32 results against
// saturating int64 sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "test_fpu_support.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/rng.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using namespace tmu_test;

using Vec = std::array<uint32_t, 16>;
const FpuMode kInt8{SrcStyle::INT8, SrcStyle::INT8, true, 0};

// ISA ReadSrcInt8: sign at bit 18, magnitude at bits 17:8.
int32_t isa_read_src_int8(uint32_t x) {
  const int32_t magnitude = static_cast<int32_t>((x >> 8) & 0x3ff);
  return (x >> 18) ? -magnitude : magnitude;
}
uint32_t isa_srca_mask(uint32_t phase) { return (phase & 1) ? 0x41fff : 0x4e0ff; }
uint32_t isa_srcb_mask(uint32_t phase) { return (phase & 2) ? 0x40fff : 0x7f0ff; }

int64_t saturate(int64_t v) { return std::clamp<int64_t>(v, -0x7FFFFFFF, 0x7FFFFFFF); }

TEST(FpuInt8, SlicesMatchTheIsaMasksForEveryMagnitude) {
  for (int32_t v = -1023; v <= 1023; ++v) {
    const uint32_t d = int8_datum(v);
    for (uint32_t phase = 0; phase < 4; ++phase) {
      ASSERT_EQ(int8_srca_slice(d, phase), isa_read_src_int8(d & isa_srca_mask(phase)))
          << v << " phase " << phase;
      ASSERT_EQ(int8_srcb_slice(d, phase), isa_read_src_int8(d & isa_srcb_mask(phase)))
          << v << " phase " << phase;
    }
    ASSERT_EQ(int8_operand(d), v);
  }
}

TEST(FpuInt8, FidelityPhaseTableGivesExactProducts) {
  // SrcASrcB.md: |A| <= 31, |B| <= 15: phase 3; |A| <= 31: phases 1 and 3; |B| <= 15: phases 2 and 3;
  // |A| <= 255, |B| <= 1023: all four.
  struct Row {
    int32_t max_a, max_b;
    std::vector<uint32_t> phases;
  };
  const Row table[] = {{31, 15, {3}}, {31, 1023, {1, 3}}, {255, 15, {2, 3}}, {255, 1023, {0, 1, 2, 3}}};
  Rng rng(5);
  for (const Row& row : table) {
    for (int iter = 0; iter < 20000; ++iter) {
      const int32_t a = rng.between(-row.max_a, row.max_a);
      const int32_t b = rng.between(-row.max_b, row.max_b);
      uint32_t dst = 0;
      for (uint32_t phase : row.phases) dst = int8_elwmul_element(int8_datum(a), int8_datum(b), dst, phase);
      ASSERT_EQ(dst32_int_from_phys(dst), int64_t{a} * b) << a << " x " << b;
    }
  }
}

TEST(FpuInt8, SrcAUsesOnlyItsLowEightMagnitudeBits) {
  uint32_t dst = 0;
  for (uint32_t phase = 0; phase < 4; ++phase)
    dst = int8_elwmul_element(int8_datum(-1000), int8_datum(3), dst, phase);
  EXPECT_EQ(dst32_int_from_phys(dst), -int64_t{1000 & 0xFF} * 3);
}

TEST(FpuInt8, MvmulAllPhasesIsTheIntegerDotProduct) {
  Rng rng(6);
  for (int iter = 0; iter < 5000; ++iter) {
    Vec a{}, b{};
    int64_t expected = rng.between(-1000000, 1000000);
    const uint32_t dst0 = dst32_phys_from_int(expected);
    for (unsigned k = 0; k < 16; ++k) {
      const int32_t va = rng.between(-1023, 1023), vb = rng.between(-1023, 1023);
      a[k] = int8_datum(va);
      b[k] = int8_datum(vb);
      expected += int64_t{va < 0 ? -((-va) & 0xFF) : (va & 0xFF)} * vb;
    }
    uint32_t dst = dst0;
    for (uint32_t phase = 0; phase < 4; ++phase) {
      FpuMode mode = kInt8;
      mode.fidelity_phase = phase;
      dst = mvmul_element(a, b, dst, mode);
    }
    ASSERT_EQ(dst32_int_from_phys(dst), expected) << "iteration " << iter;
    ASSERT_EQ(dst, dst32_phys_from_int(expected));
  }
}

TEST(FpuInt8, AccumulationSaturatesAtPlusMinus2To31Minus1) {
  EXPECT_EQ(saturating_add_int32(0x7FFFFFF0, 100), 0x7FFFFFFF);
  EXPECT_EQ(saturating_add_int32(-0x7FFFFFF0, -100), -0x7FFFFFFF);
  EXPECT_EQ(saturating_add_int32(-0x7FFFFFFF, -0x7FFFFFFF), -0x7FFFFFFF);
  EXPECT_EQ(saturating_add_int32(5, -7), -2);
  Vec a{}, b{};
  a.fill(int8_datum(255));
  b.fill(int8_datum(1023));
  const int64_t near_max = 0x7FFFFFFF - 1000;
  for (uint32_t phase = 0; phase < 4; ++phase) {
    FpuMode mode = kInt8;
    mode.fidelity_phase = phase;
    const uint32_t got = mvmul_element(a, b, dst32_phys_from_int(near_max), mode);
    // Each phase on its own already pushes past the limit except the smallest slices.
    int64_t slice_dot = 0;
    for (unsigned k = 0; k < 16; ++k) {
      slice_dot += int64_t{isa_read_src_int8(a[k] & isa_srca_mask(phase))} *
                   isa_read_src_int8(b[k] & isa_srcb_mask(phase));
    }
    EXPECT_EQ(dst32_int_from_phys(got), saturate(near_max + slice_dot)) << phase;
  }
  // Negative side.
  EXPECT_EQ(int8_elwmul_element(int8_datum(-255), int8_datum(1023), dst32_phys_from_int(-0x7FFFFF00), 0),
            dst32_phys_from_int(-0x7FFFFFFF));
}

TEST(FpuInt8, ElwaddAndElwsub) {
  EXPECT_EQ(int8_elwadd_element(int8_datum(100), int8_datum(-27), 0, false), dst32_phys_from_int(73));
  EXPECT_EQ(elwadd_element(int8_datum(100), int8_datum(-27), dst32_phys_from_int(1000), true, kInt8),
            dst32_phys_from_int(1073));
  EXPECT_EQ(elwadd_element(int8_datum(100), int8_datum(-27), dst32_phys_from_int(1000), false, kInt8),
            dst32_phys_from_int(73));
  EXPECT_EQ(elwsub_element(int8_datum(5), int8_datum(7), 0, false, kInt8), dst32_phys_from_int(-2));
  EXPECT_EQ(elwsub_element(int8_datum(-1023), int8_datum(1023), 0, false, kInt8), dst32_phys_from_int(-2046));
  EXPECT_EQ(elwadd_element(int8_datum(1023), int8_datum(1023), dst32_phys_from_int(0x7FFFFFFF), true, kInt8),
            dst32_phys_from_int(0x7FFFFFFF));
  // ELWADD uses the whole 10-bit magnitude, whatever the fidelity phase (no masking, no scaling).
  FpuMode phase3 = kInt8;
  phase3.fidelity_phase = 3;
  EXPECT_EQ(elwadd_element(int8_datum(1000), int8_datum(-1), 0, false, phase3), dst32_phys_from_int(999));
}

TEST(FpuInt8, ZeroExponentReadsAsZero) {
  // A datum with magnitude 5 but exponent field 0 (not what unpackers write) reads as 0 - for SrcB
  // only while its zero flag is enabled.
  const uint32_t odd_five = src_datum(0, 0, 5);
  EXPECT_EQ(int8_elwadd_element(odd_five, int8_datum(3), 0, false), dst32_phys_from_int(3));
  EXPECT_EQ(int8_elwadd_element(int8_datum(3), odd_five, 0, false), dst32_phys_from_int(3));
  EXPECT_EQ(int8_elwadd_element(int8_datum(3), odd_five, 0, false, true), dst32_phys_from_int(8));
  EXPECT_EQ(int8_elwadd_element(odd_five, int8_datum(3), 0, false, true), dst32_phys_from_int(3));
}

TEST(FpuInt8, DstIsSignMagnitude) {
  // -2 is sign bit + magnitude 2 in the low half of the Dst32b layout.
  EXPECT_EQ(int8_elwsub_element(int8_datum(5), int8_datum(7), 0, false), 0x80000002u);
  // A stored -0 reads as 0.
  EXPECT_EQ(int8_elwadd_element(int8_datum(4), int8_datum(0), 0x80000000u, true), dst32_phys_from_int(4));
}

}  // namespace
