// Stage 3 (accum_normalize): alignment of the group sums and Dst to the common exponent (with
// its two tie rules), the 13-bit pre-rounding for a 16-bit Dst, renormalisation, the final rounding,
// underflow, overflow, FP16 saturation, and the Wormhole -1 LSB renormalisation bug. Expectations are
// worked out by hand from ttsim's description or with long double arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_fpu_support.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/rng.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using tmu_test::acc_word;
using tmu_test::fp32_bits_of;

constexpr uint32_t kOne = 1u << 23;  // implicit one of an accumulator term
const AccumConfig kFp32{true, true, Arch::Blackhole};
const AccumConfig kBf16{false, true, Arch::Blackhole};
const AccumConfig kFp16{false, false, Arch::Blackhole};
const AccumConfig kFp16SrcFp32Dst{true, false, Arch::Blackhole};

// Value of an accumulator word with bias 127 (denormals as zero).
long double word_value(uint32_t w) { return tmu_test::fp32_value(w); }

TEST(FpuAccumNormalize, AddsAlignedTermsExactly) {
  // 1.0 + 2.0 with FP32 Dst.
  EXPECT_EQ(accum_normalize({0, 127, kOne}, {}, acc_word(0, 128, 0), kFp32),
            acc_word(0, 128, 0x400000));
  // Two group sums and Dst: 1.5 - 0.25 + 4.0 = 5.25.
  EXPECT_EQ(word_value(accum_normalize({0, 127, kOne | (kOne >> 1)}, {1, 125, kOne},
                                       acc_word(0, 129, 0), kFp32)),
            5.25L);
}

TEST(FpuAccumNormalize, GroupSumAlignmentTiesGoTowardPlusInfinity) {
  Rng rng(7);
  for (uint32_t shift = 1; shift <= 29; ++shift) {
    for (int rep = 0; rep < 8; ++rep) {
      // Keep the rounded term below 2^23 so that Dst + term is exact in 24 bits.
      const uint32_t k_bits = shift >= 27 ? 0 : std::min(22u, 27 - shift);
      const uint32_t k = rng.bits(k_bits);  // bits(0) is 0, so k_bits = 0 needs no guard
      const uint32_t tie = (k << shift) | (1u << (shift - 1));
      for (uint32_t sign = 0; sign < 2; ++sign) {
        AccumTrace trace;
        const AccTerm group{sign, 150 - static_cast<int32_t>(shift), tie};
        const uint32_t word = accum_normalize(group, {}, acc_word(0, 150, 0), kFp32, &trace);
        const long double x =
            std::ldexp(sign ? -static_cast<long double>(tie) : tie, -static_cast<int>(shift));
        const long double rounded = std::floor(x + 0.5L);  // nearest, ties toward +infinity
        ASSERT_EQ(trace.aligned[0], static_cast<uint32_t>(std::fabs(rounded)))
            << "shift " << shift << " sign " << sign;
        // Then Dst (2^23 units) plus the rounded term, exactly (it fits in 24 bits).
        const long double total = std::ldexp(static_cast<long double>(kOne) + rounded, 150 - 127 - 23);
        ASSERT_TRUE(tmu_test::exact_in_fp32(total));
        ASSERT_EQ(word, fp32_bits_of(total)) << "shift " << shift << " sign " << sign;
      }
    }
  }
}

TEST(FpuAccumNormalize, DstAlignmentTiesGoAwayFromZeroWhateverItsSign) {
  Rng rng(8);
  for (uint32_t shift = 1; shift <= 23; ++shift) {
    for (uint32_t sign = 0; sign < 2; ++sign) {
      const uint32_t r = rng.bits(23 - shift);  // bits(0) is 0, so shift = 23 needs no guard
      const uint32_t full = (((1u << (23 - shift)) + r) << shift) | (1u << (shift - 1));  // 24-bit tie
      AccumTrace trace;
      accum_normalize({0, 150, kOne}, {}, acc_word(sign, 150 - shift, full & 0x7FFFFF), kFp32, &trace);
      EXPECT_EQ(trace.aligned[2], static_cast<uint32_t>(std::round(
                                      std::ldexp(static_cast<long double>(full), -static_cast<int>(shift)))))
          << "shift " << shift << " sign " << sign;
    }
  }
}

TEST(FpuAccumNormalize, SixteenBitDstPreRoundsEveryTermAtBit13) {
  Rng rng(9);
  for (int iter = 0; iter < 5000; ++iter) {
    const uint32_t sign = rng.bits(1);
    uint32_t m = kOne | rng.bits(23);
    if (iter % 4 == 0) m = (m & ~0x1FFFu) | 0x1000;  // exact tie at bit 12
    AccumTrace trace;
    accum_normalize({sign, 140, m}, {}, 0, kBf16, &trace);
    const long double x = std::ldexp(sign ? -static_cast<long double>(m) : m, -13);
    EXPECT_EQ(trace.presum[0], static_cast<uint32_t>(std::fabs(std::floor(x + 0.5L))) << 13) << m;
  }
  // Dst rounds its tie away from zero in either sign.
  for (uint32_t sign = 0; sign < 2; ++sign) {
    AccumTrace trace;
    accum_normalize({}, {}, acc_word(sign, 140, 0x1000), kBf16, &trace);
    EXPECT_EQ(trace.presum[2], 1025u << 13);
  }
}

TEST(FpuAccumNormalize, Bf16FinalRoundingTiesAwayAndDoubleRounds) {
  EXPECT_EQ(accum_normalize({0, 127, kOne | (1u << 15)}, {}, 0, kBf16),
            acc_word(0, 127, 1u << 16));  // 1+2^-8 -> 1+2^-7
  EXPECT_EQ(accum_normalize({1, 127, kOne | (1u << 15)}, {}, 0, kBf16), acc_word(1, 127, 1u << 16));
  EXPECT_EQ(accum_normalize({0, 127, kOne | (1u << 14)}, {}, 0, kBf16),
            acc_word(0, 127, 0));  // 1+2^-9 -> 1
  // 1 + 2^-8 - 2^-14 is below the tie, but the 13-bit pre-rounding lifts it onto the tie, which then
  // rounds up: 1 + 2^-7 where a single rounding would give 1.
  EXPECT_EQ(accum_normalize({0, 127, kOne + (1u << 15) - (1u << 9)}, {}, 0, kBf16),
            acc_word(0, 127, 1u << 16));
  // With FP32 Dst the same term is kept exactly.
  EXPECT_EQ(accum_normalize({0, 127, kOne + (1u << 15) - (1u << 9)}, {}, 0, kFp32),
            acc_word(0, 127, (1u << 15) - (1u << 9)));
  // FP16 keeps 10 mantissa bits: 1 + 2^-11 rounds to 1 + 2^-10.
  EXPECT_EQ(accum_normalize({0, 15, kOne | (1u << 12)}, {}, 0, kFp16), acc_word(0, 15, 1u << 13));
}

TEST(FpuAccumNormalize, SameExponentTermsRoundToNearestTiesAway) {
  // No alignment, so the result is the exact signed sum rounded once to 24 bits, ties away from zero.
  Rng rng(10);
  for (int iter = 0; iter < 20000; ++iter) {
    const AccTerm g0{rng.bits(1), 120, rng.bits(27)};
    const AccTerm g1{rng.bits(1), 120, rng.bits(27)};
    const uint32_t dst = acc_word(rng.bits(1), 120, rng.bits(23));
    long double sum = (dst >> 31 ? -1.0L : 1.0L) * (kOne | (dst & 0x7FFFFF));
    sum += (g0.sign ? -1.0L : 1.0L) * g0.mantissa + (g1.sign ? -1.0L : 1.0L) * g1.mantissa;
    long double expected = 0;
    if (sum != 0) {
      const int e = std::ilogb(sum);
      expected = std::ldexp(std::round(std::ldexp(sum, 23 - e)), e - 23);
    }
    const uint32_t got = accum_normalize(g0, g1, dst, kFp32);
    ASSERT_EQ(word_value(got), std::ldexp(expected, 120 - 127 - 23)) << "iteration " << iter;
  }
}

TEST(FpuAccumNormalize, UnderflowEarlyAndLate) {
  AccumTrace trace;
  EXPECT_EQ(accum_normalize({0, 0, kOne}, {1, -4, kOne}, 0, kFp32, &trace), 0u);
  EXPECT_EQ(trace.outcome, AccumOutcome::EarlyUnderflow);
  // 2^-126 - 2^-127 = 2^-127 needs exponent 0: flushed after normalisation.
  EXPECT_EQ(accum_normalize({1, 1, kOne >> 1}, {}, acc_word(0, 1, 0), kFp32, &trace), 0u);
  EXPECT_EQ(trace.outcome, AccumOutcome::LateUnderflow);
  // 2^-125 - 2^-126 = 2^-126 is the smallest normal and survives.
  EXPECT_EQ(accum_normalize({1, 2, kOne >> 1}, {}, acc_word(0, 2, 0), kFp32, &trace),
            acc_word(0, 1, 0));
  EXPECT_EQ(trace.outcome, AccumOutcome::Normal);
  // FP16 Dst: same edge at FP16 exponent 1.
  EXPECT_EQ(accum_normalize({1, 1, kOne >> 1}, {}, acc_word(0, 1, 0), kFp16), 0u);
  EXPECT_EQ(accum_normalize({1, 2, kOne >> 1}, {}, acc_word(0, 2, 0), kFp16), acc_word(0, 1, 0));
}

TEST(FpuAccumNormalize, OverflowGivesInfinityPattern) {
  AccumTrace trace;
  EXPECT_EQ(accum_normalize({0, 254, kOne << 1}, {}, 0, kFp32, &trace), acc_word(0, 255, 0));
  EXPECT_EQ(trace.outcome, AccumOutcome::Overflow);
  EXPECT_EQ(accum_normalize({1, 254, kOne << 1}, {}, 0, kFp32), acc_word(1, 255, 0));
  EXPECT_EQ(accum_normalize({1, 254, kOne << 1}, {}, 0, kBf16), acc_word(1, 255, 0));
  // Largest finite value stays finite.
  EXPECT_EQ(accum_normalize({0, 254, 0xFFFFFF}, {}, 0, kFp32), acc_word(0, 254, 0x7FFFFF));
  // BF16: 1.11111111 x 2^127 rounds up into 2^128, which overflows.
  EXPECT_EQ(accum_normalize({0, 254, 0xFF8000}, {}, 0, kBf16, &trace), acc_word(0, 255, 0));
  EXPECT_EQ(trace.outcome, AccumOutcome::Overflow);
  // An infinity-pattern Dst stays one.
  EXPECT_EQ(accum_normalize({0, 127, kOne}, {}, acc_word(0, 255, 0), kFp32), acc_word(0, 255, 0));
}

TEST(FpuAccumNormalize, Fp16DstSaturatesInsteadOfOverflowing) {
  AccumTrace trace;
  const uint32_t max_fp16 = acc_word(0, 31, 0x3FFu << 13);
  EXPECT_EQ(accum_normalize({0, 31, kOne << 1}, {}, 0, kFp16, &trace), max_fp16);
  EXPECT_EQ(trace.outcome, AccumOutcome::Fp16Saturated);
  EXPECT_EQ(accum_normalize({1, 31, kOne << 1}, {}, 0, kFp16), max_fp16 | 0x80000000u);
  // Exponent 31 is an ordinary FP16 exponent for the Matrix Unit.
  EXPECT_EQ(accum_normalize({0, 31, 0xFFE000}, {}, 0, kFp16, &trace), max_fp16);
  EXPECT_EQ(trace.outcome, AccumOutcome::Normal);
  // FP16 sources into FP32 Dst use the FP32 range.
  EXPECT_EQ(accum_normalize({0, 31, kOne << 1}, {}, 0, kFp16SrcFp32Dst), acc_word(0, 32, 0));
}

TEST(FpuAccumNormalize, ExactCancellationIsPositiveZero) {
  AccumTrace trace;
  EXPECT_EQ(accum_normalize({0, 127, kOne}, {}, acc_word(1, 127, 0), kFp32, &trace), 0u);
  EXPECT_EQ(trace.outcome, AccumOutcome::Cancelled);
  EXPECT_EQ(accum_normalize({1, 127, kOne}, {0, 127, kOne}, 0, kBf16), 0u);
}

TEST(FpuAccumNormalize, DenormalDstReadsAsZero) {
  EXPECT_EQ(accum_normalize({0, 127, kOne}, {}, acc_word(1, 0, 5), kFp32), acc_word(0, 127, 0));
}

TEST(FpuAccumNormalize, WormholeMisnormalisesMinusOneLsb) {
  // 1.0 - (1 + 2^-23) = -2^-23: exactly minus one LSB at the common exponent.
  const AccTerm minus{1, 127, kOne + 1};
  const uint32_t one = acc_word(0, 127, 0);
  const AccumConfig bh{true, true, Arch::Blackhole}, wh{true, true, Arch::Wormhole};
  EXPECT_EQ(accum_normalize(minus, {}, one, bh), acc_word(1, 127 - 23, 0));  // -2^-23
  // Wormhole's leading-sign count shifts by 23 - 27 = -4: exponent 127 + 4, mantissa rounded away.
  AccumTrace trace;
  EXPECT_EQ(accum_normalize(minus, {}, one, wh, &trace), acc_word(1, 131, 0));  // -16.0
  EXPECT_EQ(trace.normalise_shift, -4);
  EXPECT_EQ(tmu_test::fp32_value(acc_word(1, 131, 0)), -16.0L);
  // +1 LSB, and -1 LSB expressed as a larger magnitude, are normalised correctly on both.
  const AccTerm plus{0, 127, kOne + 1};
  const uint32_t minus_one = acc_word(1, 127, 0);
  EXPECT_EQ(accum_normalize(plus, {}, minus_one, wh), acc_word(0, 104, 0));
  EXPECT_EQ(accum_normalize({1, 127, kOne + 3}, {}, one, wh), acc_word(1, 105, 0x400000));
  EXPECT_EQ(accum_normalize({1, 127, kOne + 3}, {}, one, bh), acc_word(1, 105, 0x400000));
}

}  // namespace
