// tmu::ieee::host (tmu/ieee_host.h) against the integer-only tmu::ieee: the conversions to host
// values exhaustively, round_nearest_even on every binary64 class and on exact midpoints, and the
// double rounding it makes exact declining where binary64 alone would get a tie wrong.
#include <bit>
#include <cfenv>
#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tmu/ieee.h"
#include "tmu/ieee_host.h"
#include "tmu/rng.h"

namespace tmu::ieee {
namespace {

constexpr Options kRne{};  // nearest-even, no flush, NaNs propagated (none reach these paths)

bool finite(Format f, uint64_t bits) { return ((bits >> f.frac_bits) & f.exp_field_max()) != f.exp_field_max(); }

uint64_t bits_of(double d) { return std::bit_cast<uint64_t>(d); }

TEST(IeeeHost, DefaultEnvironmentIsRecognisedAndOthersAreNot) {
  EXPECT_TRUE(host::environment_is_default());
  for (const int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    ASSERT_EQ(std::fesetround(mode), 0);
    EXPECT_FALSE(host::environment_is_default()) << "rounding mode " << mode;
    std::fesetround(FE_TONEAREST);
  }
  EXPECT_TRUE(host::environment_is_default());
}

TEST(IeeeHost, ToDoubleAndToFloatAreExactForEvery16BitPattern) {
  for (const Format f : {kBinary16, kBfloat16}) {
    for (uint64_t bits = 0; bits < 0x10000; ++bits) {
      if (!finite(f, bits)) continue;
      ASSERT_EQ(bits_of(host::to_double(f, bits)), convert(f, kBinary64, bits, kRne).bits)
          << fmt::format("{:#x}", bits);
      ASSERT_EQ(std::bit_cast<uint32_t>(host::to_float(f, bits)), convert(f, kBinary32, bits, kRne).bits)
          << fmt::format("{:#x}", bits);
    }
  }
}

TEST(IeeeHost, ToDoubleIsExactForBinary32AndBinary64) {
  Rng rng(0x1EEE);
  for (int k = 0; k < 1'000'000; ++k) {
    // Every exponent field equally often, so subnormals come up as often as any binade.
    const auto bits = static_cast<uint32_t>(rng.next());
    if (!finite(kBinary32, bits)) continue;
    ASSERT_EQ(bits_of(host::to_double(kBinary32, bits)), convert(kBinary32, kBinary64, bits, kRne).bits);
    ASSERT_EQ(std::bit_cast<uint32_t>(host::to_float(kBinary32, bits)), bits);
  }
  for (const uint64_t bits : {uint64_t{0}, uint64_t{1}, uint64_t{0x000FFFFFFFFFFFFF}, uint64_t{0x8000000000000001}})
    EXPECT_EQ(bits_of(host::to_double(kBinary64, bits)), bits);
}

// A finite binary64 near f's range: every binade from far below f's smallest subnormal to past its
// overflow threshold, with a random fraction, a fraction of few bits (round values), or an exact
// midpoint of f and its two binary64 neighbours.
double near_range(Rng& rng, Format f) {
  const int exponent = rng.between(f.emin() - static_cast<int>(f.frac_bits) - 4, f.emax() + 2);
  uint64_t frac = rng.next() >> 12;
  switch (rng.below(4)) {
    case 0: break;
    case 1: frac &= ~uint64_t{0} << (52 - rng.below(f.frac_bits + 3)); break;
    default: {
      // f's last place at this exponent, in binary64 fraction bits (subnormals of f have fewer).
      const int places = static_cast<int>(f.frac_bits) - std::max(0, f.emin() - exponent);
      if (places < 0) break;
      const int half = 52 - places - 1;
      frac = (frac & (~uint64_t{0} << (half + 1))) | uint64_t{1} << half;
      frac += static_cast<uint64_t>(rng.between(-1, 1));  // the midpoint or a binary64 neighbour
      frac &= (uint64_t{1} << 52) - 1;
    }
  }
  const uint64_t sign = rng.chance(1, 2) ? uint64_t{1} << 63 : 0;
  return std::bit_cast<double>(sign | static_cast<uint64_t>(exponent + 1023) << 52 | frac);
}

// Whether d lies exactly halfway between two neighbours of f (or at the overflow threshold), found
// with tmu::ieee: the two directed roundings differ and d is their mean.
bool is_midpoint(Format f, double d) {
  const Options down{Rounding::TowardZero}, up{d > 0 ? Rounding::TowardPositive : Rounding::TowardNegative};
  const uint64_t lo = convert(kBinary64, f, bits_of(d), down).bits, hi = convert(kBinary64, f, bits_of(d), up).bits;
  if (lo == hi) return false;
  const double lo_value = host::to_double(f, lo);
  const double hi_value = finite(f, hi) ? host::to_double(f, hi) : std::copysign(std::ldexp(1.0, f.emax() + 1), d);
  return (lo_value + hi_value) / 2 == d;  // exact: both have at most 24 significant bits
}

TEST(IeeeHost, RoundNearestEvenIsConvertOrDeclinesAMidpoint) {
  Rng rng(0xD0B1E);
  for (const Format f : {kBinary16, kBfloat16, kBinary32}) {
    uint64_t declined = 0, cases = 0;
    for (int k = 0; k < 400'000; ++k) {
      const double d = k % 8 == 0 ? std::bit_cast<double>(rng.next()) : near_range(rng, f);
      if (!std::isfinite(d)) {
        EXPECT_FALSE(host::round_nearest_even(f, d).has_value());
        continue;
      }
      ++cases;
      const auto got = host::round_nearest_even(f, d);
      if (!got) {
        ++declined;
        ASSERT_TRUE(is_midpoint(f, d))
            << fmt::format("e{}m{} declined {:#x}, no midpoint", f.exp_bits, f.frac_bits, bits_of(d));
        continue;
      }
      ASSERT_EQ(*got, convert(kBinary64, f, bits_of(d), kRne).bits)
          << fmt::format("e{}m{} d={:#x}", f.exp_bits, f.frac_bits, bits_of(d));
    }
    // About a seventh of the draws are exact midpoints.
    EXPECT_GT(declined, cases / 20) << f.frac_bits;
  }
}

// The double rounding x*y + z -> binary64 -> bfloat16 of matfp's bf16 lanes: a product that is a
// bfloat16 midpoint plus an addend too small for binary64 to keep rounds to the midpoint in
// binary64, which a plain second rounding would then send to even, away from the addend's side.
TEST(IeeeHost, DoubleRoundingDeclinesWhereBinary64LandedOnAMidpoint) {
  const uint64_t x = 0x3FC0;  // 1.5
  const uint64_t y = 0x3F81;  // 1 + 2^-7: x * y = 1.5 + 1.5 * 2^-7, nine significant bits
  for (const uint64_t z : {uint64_t{0x0001}, uint64_t{0x8001}}) {  // +-2^-133
    const double s =
        std::fma(host::to_double(kBfloat16, x), host::to_double(kBfloat16, y), host::to_double(kBfloat16, z));
    EXPECT_EQ(s, 1.5 + 1.5 / 128);  // the tiny addend is gone
    EXPECT_FALSE(host::round_nearest_even(kBfloat16, s).has_value());
    // The single rounding goes the addend's way: up to 1.1000010b for +, down to 1.1000001b for -.
    EXPECT_EQ(fma(kBfloat16, x, y, z, kRne).bits, z == 1 ? 0x3FC2u : 0x3FC1u);
  }
}

}  // namespace
}  // namespace tmu::ieee
