// ELWADD / ELWSUB / ELWMUL on hand-computed cases: ordinary sums, signed zeros, denormal flushing,
// the adder's alignment without guard bits, Dst formats, FP16 saturation, and the ISA-defined
// scaling of ELWADD under a non-zero fidelity phase. elw_adder, the operand adder, also on its own.
#include <gtest/gtest.h>

#include <cmath>

#include "test_fpu_support.h"
#include "tmu/tensix/fpu/datapath.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using namespace tmu_test;

const FpuMode kBf16Dst16{SrcStyle::BF16, SrcStyle::BF16, false, 0};
const FpuMode kBf16Dst32{SrcStyle::BF16, SrcStyle::BF16, true, 0};
const FpuMode kTf32Dst32{SrcStyle::TF32, SrcStyle::TF32, true, 0};
const FpuMode kFp16Dst16{SrcStyle::FP16, SrcStyle::FP16, false, 0};
const FpuMode kFp16Dst32{SrcStyle::FP16, SrcStyle::FP16, true, 0};

// Some BF16 values (sign, exponent, 7-bit mantissa).
constexpr uint32_t kOne = bf16_datum(0, 127, 0);
constexpr uint32_t kMinusOne = bf16_datum(1, 127, 0);
constexpr uint32_t kOneAndHalf = bf16_datum(0, 127, 0x40);     // 1.5
constexpr uint32_t kTwoAndQuarter = bf16_datum(0, 128, 0x10);  // 2.25
constexpr uint32_t kTwo = bf16_datum(0, 128, 0);
constexpr uint32_t kThree = bf16_datum(0, 128, 0x40);
constexpr uint32_t kFive = bf16_datum(0, 129, 0x20);
constexpr uint32_t kPlusZero = 0, kMinusZero = bf16_datum(1, 0, 0);

uint32_t fp32_dst(long double v) { return dst32_phys_from_value(v); }

TEST(FpuElwadd, OrdinarySumIntoBf16Dst) {
  // 1.5 + 2.25 = 3.75 = 1.111 x 2^1.
  EXPECT_EQ(elwadd_element(kOneAndHalf, kTwoAndQuarter, 0, false, kBf16Dst16), dst16_phys_bf16(0, 128, 0x70));
  // Operand order does not matter.
  EXPECT_EQ(elwadd_element(kTwoAndQuarter, kOneAndHalf, 0, false, kBf16Dst16), dst16_phys_bf16(0, 128, 0x70));
}

TEST(FpuElwadd, SignedZerosAndCancellationGivePlusZero) {
  EXPECT_EQ(elwadd_element(kPlusZero, kMinusZero, 0, false, kBf16Dst16), 0u);
  EXPECT_EQ(elwadd_element(kMinusZero, kMinusZero, 0, false, kBf16Dst16), 0u);  // IEEE would give -0
  EXPECT_EQ(elwadd_element(kMinusZero, kMinusZero, 0, false, kBf16Dst32), 0u);
  EXPECT_EQ(elwadd_element(kMinusOne, kOne, 0, false, kBf16Dst32), 0u);
  // Accumulating -0 onto a stored -0 also gives +0.
  EXPECT_EQ(elwadd_element(kMinusZero, kPlusZero, fp32_dst(0) | 0x80000000u, true, kBf16Dst32), 0u);
}

TEST(FpuElwadd, DenormalsAreFlushed) {
  const uint32_t denormal = bf16_datum(0, 0, 0x7F);
  EXPECT_EQ(elwadd_element(denormal, kOne, 0, false, kBf16Dst32), fp32_dst(1.0L));
  EXPECT_EQ(elwadd_element(kOne, denormal, 0, false, kBf16Dst32), fp32_dst(1.0L));
  // ...unless SrcB's zero flag is disabled: then a zero-exponent SrcB has an implicit one, i.e. it
  // is 2^-127 * 1.xxx, which is far below 1.0 and rounds away.
  FpuMode keep = kBf16Dst32;
  keep.srcb_zero_flag_disabled = true;
  EXPECT_EQ(elwadd_element(kOne, denormal, 0, false, keep), fp32_dst(1.0L));
  // A denormal Dst reads as zero.
  EXPECT_EQ(elwadd_element(kOne, kOne, dst32_phys_from_ieee(0x00000001), true, kBf16Dst32), fp32_dst(2.0L));
}

TEST(FpuElwadd, KeptMinusZeroSrcBHasAnImplicitOne) {
  // With SrcB's zero flag disabled, ELWSUB's negated +0 is a -0 that is not flushed: the adder gives
  // it an implicit one, so 0 - 0 = -1.0 x 2^(0 - 15), i.e. -2^-30 once rebiased for the FP32 Dst
  // (the zero-exponent sum sits at the clamped exponent 97).
  FpuMode keep = kFp16Dst32;
  keep.srcb_zero_flag_disabled = true;
  const uint32_t zero16 = fp16_datum(0, 0, 0);
  EXPECT_EQ(elwsub_element(zero16, zero16, 0, false, keep), fp32_dst(-std::ldexp(1.0L, -30)));
  EXPECT_EQ(elwsub_element(zero16, zero16, 0, false, kFp16Dst32), 0u);
}

TEST(FpuElwadd, SmallerOperandIsRoundedBeforeTheAdd) {
  // TF32 1 - (1 - 2^-11): SrcB is aligned one place right and rounds up to 1.0, so the difference is
  // 0 instead of 2^-11 (no guard bits).
  const uint32_t one = tf32_datum(0, 127, 0), almost_one = tf32_datum(1, 126, 0x3FF);
  EXPECT_EQ(elwadd_element(one, almost_one, 0, false, kTf32Dst32), 0u);
  // BF16 1 - (1 - 2^-8) is exact: the shifted-out bit is zero.
  EXPECT_EQ(elwadd_element(kOne, bf16_datum(1, 126, 0x7F), 0, false, kBf16Dst32), fp32_dst(0.00390625L));
  // TF32 1 + 2^-11: the 2^-11 term is shifted 11 places, a tie, and rounds up to 2^-10.
  EXPECT_EQ(elwadd_element(one, tf32_datum(0, 116, 0), 0, false, kTf32Dst32), fp32_dst(1.0L + 1.0L / 1024));
  // ...and 2^-12 (12 places) disappears.
  EXPECT_EQ(elwadd_element(one, tf32_datum(0, 115, 0x3FF), 0, false, kTf32Dst32), fp32_dst(1.0L));
}

TEST(FpuElwadd, AccumulatesOnlyWithAddDst) {
  const uint32_t ten = fp32_dst(10.0L);
  EXPECT_EQ(elwadd_element(kOne, kTwo, ten, true, kBf16Dst32), fp32_dst(13.0L));
  EXPECT_EQ(elwadd_element(kOne, kTwo, ten, false, kBf16Dst32), fp32_dst(3.0L));
  // BF16 Dst: 1 + 2 + 3 = 6 = 1.1 x 2^2.
  EXPECT_EQ(elwadd_element(kOne, kTwo, dst16_phys_bf16(0, 128, 0x40), true, kBf16Dst16),
            dst16_phys_bf16(0, 129, 0x40));
}

TEST(FpuElwsub, DifferencesAndSigns) {
  EXPECT_EQ(elwsub_element(kThree, kFive, 0, false, kBf16Dst32), fp32_dst(-2.0L));
  EXPECT_EQ(elwsub_element(kFive, kFive, 0, false, kBf16Dst32), 0u);
  EXPECT_EQ(elwsub_element(kThree, kMinusOne, 0, false, kBf16Dst32), fp32_dst(4.0L));
  EXPECT_EQ(elwsub_element(kPlusZero, kOne, fp32_dst(0.5L), true, kBf16Dst32), fp32_dst(-0.5L));
  // BF16 Dst: 3 - 5 = -2.
  EXPECT_EQ(elwsub_element(kThree, kFive, 0, false, kBf16Dst16), dst16_phys_bf16(1, 128, 0));
}

TEST(FpuElwadd, Fp16SourcesAndDsts) {
  const uint32_t one = fp16_datum(0, 15, 0), two = fp16_datum(0, 16, 0);
  EXPECT_EQ(elwadd_element(one, two, 0, false, kFp16Dst16), dst16_phys_fp16(0, 16, 0x200));  // 3.0
  EXPECT_EQ(elwadd_element(one, two, 0, false, kFp16Dst32), fp32_dst(3.0L));
  // 1.5 x 2^16 twice is 3 x 2^16: FP16 exponent 32 saturates to sign | 31 | all-ones mantissa.
  const uint32_t big = fp16_datum(0, 31, 0x200), minus_big = fp16_datum(1, 31, 0x200);
  EXPECT_EQ(elwadd_element(big, big, 0, false, kFp16Dst16), 0x7FFFu);
  EXPECT_EQ(elwadd_element(minus_big, minus_big, 0, false, kFp16Dst16), 0xFFFFu);
  // Into FP32 Dst the same sum is just 196608.
  EXPECT_EQ(elwadd_element(big, big, 0, false, kFp16Dst32), fp32_dst(196608.0L));
}

TEST(FpuElwadd, Fp16ZeroSumCarriesAClampedExponentIntoFp32Dst) {
  // With FP16 sources and FP32 Dst a zero sum still enters the adder at exponent 97, so a Dst below
  // 2^-30 is aligned to it and loses its low bits: (1 + 2^-23) x 2^-40 becomes 2^-40.
  const long double tiny = std::ldexp(1.0L + std::ldexp(1.0L, -23), -40);
  const uint32_t zero16 = fp16_datum(0, 0, 0);
  EXPECT_EQ(elwadd_element(zero16, zero16, fp32_dst(tiny), true, kFp16Dst32),
            fp32_dst(std::ldexp(1.0L, -40)));
  // BF16 sources have no such clamp.
  EXPECT_EQ(elwadd_element(kPlusZero, kPlusZero, fp32_dst(tiny), true, kBf16Dst32), fp32_dst(tiny));
}

TEST(FpuElwadd, NonZeroFidelityPhaseScalesTheSum) {
  // ELWADD.md: / 32 for phase bit 0, / 128 for phase bit 1 (ttsim refuses these phases).
  FpuMode mode = kBf16Dst32;
  const long double scale[4] = {1.0L, 1.0L / 32, 1.0L / 128, 1.0L / 4096};
  for (uint32_t phase = 0; phase < 4; ++phase) {
    mode.fidelity_phase = phase;
    EXPECT_EQ(elwadd_element(kOne, kOne, 0, false, mode), fp32_dst(2.0L * scale[phase])) << phase;
    EXPECT_EQ(elwadd_element(kOne, kOne, fp32_dst(1.0L), true, mode), fp32_dst(1.0L + 2.0L * scale[phase]))
        << phase;
    EXPECT_EQ(elwsub_element(kOne, kThree, 0, false, mode), fp32_dst(-2.0L * scale[phase])) << phase;
  }
  // Scaling a tiny sum below the smallest exponent flushes it.
  mode.fidelity_phase = 3;
  EXPECT_EQ(elwadd_element(bf16_datum(0, 5, 0), bf16_datum(0, 5, 0), 0, false, mode), 0u);
}

TEST(FpuElwmul, FourPhasesGiveTheFullBf16Product) {
  // 1.5 x 2.5 = 3.75, phases accumulated into FP32 Dst.
  const uint32_t two_and_half = bf16_datum(0, 128, 0x20);
  FpuMode mode = kBf16Dst32;
  uint32_t dst = 0;
  for (uint32_t phase = 0; phase < 4; ++phase) {
    mode.fidelity_phase = phase;
    dst = elwmul_element(kOneAndHalf, two_and_half, dst, mode);
  }
  EXPECT_EQ(dst, fp32_dst(3.75L));
}

TEST(FpuElwmul, EachPhaseSeesItsOwnMantissaBits) {
  // SrcA = 1 + 2^-7 (its last BF16 bit): phase 0 sees 1.0000, phase 1 the 2^-7.
  const uint32_t a = bf16_datum(0, 127, 0x01);
  FpuMode mode = kBf16Dst32;
  EXPECT_EQ(elwmul_element(a, kOne, 0, mode), fp32_dst(1.0L));
  mode.fidelity_phase = 1;
  EXPECT_EQ(elwmul_element(a, kOne, 0, mode), fp32_dst(1.0L / 128));
  // SrcB = 1 + 2^-7: phases 0/1 see SrcB's top six bits (1.000000), phase 2 its last bit.
  mode.fidelity_phase = 2;
  EXPECT_EQ(elwmul_element(kOne, a, 0, mode), fp32_dst(1.0L / 128));
  mode.fidelity_phase = 3;
  EXPECT_EQ(elwmul_element(kOne, a, 0, mode), 0u);
}

TEST(FpuElwmul, AlwaysAccumulatesAndRoundsToBf16Dst) {
  // 1.5 x 1.5 = 2.25 added to a stored 1.0.
  EXPECT_EQ(elwmul_element(kOneAndHalf, kOneAndHalf, dst16_phys_bf16(0, 127, 0), kBf16Dst16),
            dst16_phys_bf16(0, 128, 0x50));
  EXPECT_EQ(elwmul_element(kOneAndHalf, kOneAndHalf, 0, kBf16Dst16), dst16_phys_bf16(0, 128, 0x10));
}

TEST(FpuElwmul, ZerosUnderflowAndSigns) {
  EXPECT_EQ(elwmul_element(kMinusZero, kFive, fp32_dst(0) | 0x80000000u, kBf16Dst32), 0u);
  EXPECT_EQ(elwmul_element(kMinusOne, kFive, 0, kBf16Dst32), fp32_dst(-5.0L));
  EXPECT_EQ(elwmul_element(kMinusOne, bf16_datum(1, 129, 0x20), 0, kBf16Dst32), fp32_dst(5.0L));
  // 2^-100 x 2^-100 has no FP32 exponent: the product is dropped and Dst is unchanged.
  const uint32_t tiny = bf16_datum(0, 27, 0);
  EXPECT_EQ(elwmul_element(tiny, tiny, fp32_dst(1.0L), kBf16Dst32), fp32_dst(1.0L));
  EXPECT_EQ(elwmul_element(tiny, tiny, 0, kBf16Dst32), 0u);
  // 2^-63 x 2^-64 = 2^-127 has exponent 0: dropped, so a Dst of 2^-126 stays 2^-126 (adding the
  // product would give 1.5 x 2^-126).
  const long double min_normal = std::ldexp(1.0L, -126);
  EXPECT_EQ(elwmul_element(bf16_datum(0, 64, 0), bf16_datum(0, 63, 0), fp32_dst(min_normal), kBf16Dst32),
            fp32_dst(min_normal));
  // MVMUL keeps such a product when its group reaches a positive exponent (test_fpu_exact_properties).
}

TEST(FpuElwmul, Fp16IntoFp16Dst) {
  // 1.5 x 1.5 = 2.25 = 1.001 x 2^1 (FP16 exponent 16); SrcA's 1.1000 and SrcB's 1.100000 both fit phase 0.
  const uint32_t one_and_half = fp16_datum(0, 15, 0x200);
  EXPECT_EQ(elwmul_element(one_and_half, one_and_half, 0, kFp16Dst16), dst16_phys_fp16(0, 16, 0x080));
}

// elw_adder alone (rtl/tmu_elw_adder.sv). A term's mantissa has its implicit one at bit 23, so an
// 11-bit significand s (implicit one at bit 10) enters as s << 13: 1.0 is 0x400 << 13 = 0x800000.
TEST(FpuElwAdder, OnePlusOneIsTwoUnnormalised) {
  // 0x400 + 0x400 = 0x800 at SrcA's exponent; 0x800 << 13 = 0x1000000 is 2.0 still at exponent 127
  // (accum_normalize normalises it).
  ElwTrace trace;
  EXPECT_EQ(elw_adder(kOne, kOne, kBf16Dst16, &trace), (AccTerm{0, 127, 0x1000000}));
  EXPECT_EQ(trace.b_aligned, 0x400u);
  EXPECT_EQ(trace.term, (AccTerm{0, 127, 0x1000000}));
  // FP16 sources into an FP32 Dst: exponent 15 is rebiased by 127 - 15 to 127.
  const uint32_t one16 = fp16_datum(0, 15, 0);
  EXPECT_EQ(elw_adder(one16, one16, kFp16Dst32), (AccTerm{0, 127, 0x1000000}));
}

TEST(FpuElwAdder, OneMinusOneIsAZeroTermWithSrcAsSign) {
  // ELWSUB's 1.0 - 1.0 arrives as 1.0 + (-1.0): equal magnitudes, no swap, 0x400 - 0x400 = 0. The
  // term keeps SrcA's sign and exponent; accum_normalize turns either sign of zero into +0.
  EXPECT_EQ(elw_adder(kOne, kMinusOne, kBf16Dst16), (AccTerm{0, 127, 0}));
  EXPECT_EQ(elw_adder(kMinusOne, kOne, kBf16Dst16), (AccTerm{1, 127, 0}));
}

TEST(FpuElwAdder, SmallerOperandAlignedWithATie) {
  // TF32 2.0 (exponent 128, significand 0x400) + (1 + 2^-10) (exponent 127, significand 0x401): the
  // smaller is shifted one place, 0x401 / 2 = 512.5, a tie, rounded away to 513 = 0x201. Sum 0x601,
  // term mantissa 0x601 << 13 = 0xC02000: 3 + 2^-9 where the exact sum is 3 + 2^-10.
  const uint32_t two = tf32_datum(0, 128, 0), one_plus = tf32_datum(0, 127, 0x001);
  ElwTrace trace;
  EXPECT_EQ(elw_adder(one_plus, two, kTf32Dst32, &trace), (AccTerm{0, 128, 0xC02000}));
  // The larger operand went first whatever the order it came in.
  EXPECT_EQ(trace.a.exponent, 128u);
  EXPECT_EQ(trace.b.exponent, 127u);
  EXPECT_EQ(trace.b_aligned, 0x201u);
  EXPECT_EQ(elw_adder(two, one_plus, kTf32Dst32), (AccTerm{0, 128, 0xC02000}));
  // Subtracting the same rounded 0x201: 0x400 - 0x201 = 0x1FF, mantissa 0x3FE000 (0.998046875 where
  // the exact difference is 0.9990234375); the sign is the larger operand's.
  EXPECT_EQ(elw_adder(two, tf32_datum(1, 127, 0x001), kTf32Dst32), (AccTerm{0, 128, 0x3FE000}));
  EXPECT_EQ(elw_adder(one_plus, tf32_datum(1, 128, 0), kTf32Dst32), (AccTerm{1, 128, 0x3FE000}));
}

TEST(FpuElwAdder, OnlyTheRoundingKeepsAnOperandElevenPlacesDown) {
  // 2^11 (significand 0x400) + (2 - 2^-10) (significand 0x7FF, 11 places down): 2047 / 2048 rounds
  // to 1, so the sum is 0x401 -> mantissa 0x802000, i.e. 2050 for the exact 2049.999...
  EXPECT_EQ(elw_adder(tf32_datum(0, 138, 0), tf32_datum(0, 127, 0x3FF), kTf32Dst32),
            (AccTerm{0, 138, 0x802000}));
}

TEST(FpuElwAdder, PhaseScaleAndZeroSumExponent) {
  // Phase bit 0 divides by 2^5, bit 1 by 2^7 (ISA-defined): 1 + 1 at exponent 127 - 5 and 127 - 12.
  FpuMode mode = kBf16Dst16;
  mode.fidelity_phase = 1;
  EXPECT_EQ(elw_adder(kOne, kOne, mode), (AccTerm{0, 122, 0x1000000}));
  mode.fidelity_phase = 3;
  EXPECT_EQ(elw_adder(kOne, kOne, mode), (AccTerm{0, 115, 0x1000000}));
  // FP16 +0 + +0 into an FP32 Dst: both flushed, the empty sum sits at the clamp 127 - 2 * 15 = 97.
  const uint32_t zero16 = fp16_datum(0, 0, 0);
  EXPECT_EQ(elw_adder(zero16, zero16, kFp16Dst32), (AccTerm{0, 97, 0}));
}

TEST(FpuElwAdder, KeptMinusZeroWrapsTheDifference) {
  // FP16 +0 - 0 with SrcB's zero flag disabled: SrcA is flushed (significand 0), SrcB is a kept -0
  // with an implicit one (0x400); equal keys, no swap, 0 - 0x400 wraps to 0xFFFFFC00, and << 13 to
  // 0xFF800000 - the value rtl/tmu_elw_adder.sv's header describes - at the zero-sum exponent 97.
  FpuMode keep = kFp16Dst32;
  keep.srcb_zero_flag_disabled = true;
  EXPECT_EQ(elw_adder(fp16_datum(0, 0, 0), fp16_datum(1, 0, 0), keep), (AccTerm{0, 97, 0xFF800000}));
}

}  // namespace
