// tmu::fp8 against rules written here from the OCP 8-bit Floating Point Specification (OFP8): every
// 8-bit pattern's value is built from its fields with ldexp (exact in double), and narrowing is
// decided by searching that table for the two neighbours of the exact input and comparing with their
// midpoint (exact in double: neighbours differ by one unit of at most 3 fraction bits). The host
// double here is the independent path, never the code under test. The CPU simulator's helper-type
// conversions are checked against values worked by hand from include/pto/cpu/MXTypes.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tmu/fp8.h"

namespace tmu::fp8 {
namespace {

using ieee::Rounding;

constexpr Kind kKinds[] = {Kind::E4M3, Kind::E5M2};
constexpr Rounding kRoundings[] = {Rounding::NearestEven, Rounding::TowardPositive, Rounding::TowardNegative,
                                   Rounding::TowardZero};
constexpr Overflow kOverflows[] = {Overflow::Saturate, Overflow::NonSaturate};

double f32_value(uint32_t bits) { return static_cast<double>(std::bit_cast<float>(bits)); }
uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }

// The OCP value of a pattern from its fields (NaN as quiet_NaN, e5m2 infinities as infinity).
double ocp_value(Kind k, unsigned code) {
  const bool e4 = k == Kind::E4M3;
  const unsigned ebits = e4 ? 4 : 5, mbits = e4 ? 3 : 2;
  const int bias = e4 ? 7 : 15;
  const unsigned e = (code >> mbits) & ((1u << ebits) - 1), m = code & ((1u << mbits) - 1);
  const double s = (code & 0x80) ? -1.0 : 1.0;
  if (e4 && e == 15 && m == 7) return std::numeric_limits<double>::quiet_NaN();
  if (!e4 && e == 31) return m == 0 ? s * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (e == 0) return s * std::ldexp(static_cast<double>(m), 1 - bias - static_cast<int>(mbits));
  return s * std::ldexp(static_cast<double>(m + (1u << mbits)), static_cast<int>(e) - bias - static_cast<int>(mbits));
}

// Non-negative finite magnitudes in code order (codes 0x00.. are increasing), plus one virtual value
// past the top: the next value of the top binade's spacing, which stands for "overflowed".
struct Table {
  std::vector<double> v;
  unsigned max_code;
};
Table table(Kind k) {
  Table t;
  for (unsigned c = 0; c < 0x80; ++c) {
    const double x = ocp_value(k, c);
    if (!std::isfinite(x)) break;
    t.v.push_back(x);
  }
  t.max_code = static_cast<unsigned>(t.v.size() - 1);
  t.v.push_back(t.v.back() + (t.v.back() - t.v[t.v.size() - 2]));
  return t;
}

// OCP narrowing of an exact double (the input is a binary32 value).
uint8_t reference(Kind k, double x, Rounding r, Overflow o) {
  const Table t = table(k);
  const bool neg = std::signbit(x);
  const uint8_t s = neg ? 0x80 : 0;
  const uint8_t nan = k == Kind::E4M3 ? 0x7F : 0x7E;
  const uint8_t inf_or_nan = k == Kind::E4M3 ? 0x7F : 0x7C;
  if (std::isnan(x)) return s | nan;
  const bool away = r == Rounding::NearestEven || (r == Rounding::TowardPositive && !neg) ||
                    (r == Rounding::TowardNegative && neg);
  auto over = [&](bool input_inf) -> uint8_t {
    if (o == Overflow::Saturate) return s | t.max_code;
    if (input_inf || away) return s | inf_or_nan;
    return s | t.max_code;
  };
  if (std::isinf(x)) return over(true);
  const double a = std::fabs(x);
  const unsigned over_code = t.max_code + 1;
  if (a >= t.v[over_code]) return over(false);
  const auto it = std::upper_bound(t.v.begin(), t.v.end(), a);  // first > a
  const unsigned hi = static_cast<unsigned>(it - t.v.begin());
  const unsigned lo = hi - 1;  // t.v[lo] <= a < t.v[hi]
  unsigned pick = lo;
  if (t.v[lo] != a) {
    const double mid = (t.v[lo] + t.v[hi]) / 2;
    switch (r) {
      case Rounding::NearestEven: pick = a < mid ? lo : a > mid ? hi : (lo % 2 == 0 ? lo : hi); break;
      case Rounding::TowardZero: pick = lo; break;
      case Rounding::TowardPositive: pick = neg ? lo : hi; break;
      case Rounding::TowardNegative: pick = neg ? hi : lo; break;
    }
  }
  if (pick == over_code) return over(false);
  return static_cast<uint8_t>(s | pick);
}

TEST(Fp8, EveryPatternWidensToItsOcpValue) {
  for (Kind k : kKinds)
    for (unsigned c = 0; c < 256; ++c) {
      const double want = ocp_value(k, c);
      const uint32_t got = to_f32(k, static_cast<uint8_t>(c));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(f32_value(got))) << c;
        EXPECT_EQ(got >> 31, c >> 7) << c;
        EXPECT_TRUE(is_nan(k, static_cast<uint8_t>(c)));
      } else {
        EXPECT_EQ(got, f32_bits(static_cast<float>(want))) << "kind " << int(k) << " code " << c;
        EXPECT_FALSE(is_nan(k, static_cast<uint8_t>(c)));
      }
    }
}

TEST(Fp8, EveryPatternRoundTripsUnderEveryModeAndRounding) {
  for (Kind k : kKinds)
    for (Rounding r : kRoundings)
      for (Overflow o : kOverflows)
        for (unsigned c = 0; c < 256; ++c) {
          const uint8_t b = static_cast<uint8_t>(c);
          const uint8_t back = from_f32(k, to_f32(k, b), r, o);
          if (is_nan(k, b)) {
            EXPECT_TRUE(is_nan(k, back));
            EXPECT_EQ(back & 0x80, b & 0x80);
          } else if (is_inf(k, b) && o == Overflow::Saturate) {
            EXPECT_EQ(back, max_finite(k, (b & 0x80) != 0));
          } else {
            EXPECT_EQ(back, b) << "kind " << int(k) << " code " << c;
          }
        }
}

// Inputs on and around every decision point: each value, each midpoint between neighbours, the
// overflow threshold past the top, each +/- 1 ulp of binary32, all of either sign; and the specials.
std::vector<uint32_t> boundary_inputs(Kind k) {
  const Table t = table(k);
  std::vector<double> points(t.v.begin(), t.v.end());
  for (size_t i = 0; i + 1 < t.v.size(); ++i) points.push_back((t.v[i] + t.v[i + 1]) / 2);
  points.push_back(t.v.back() * 2);
  points.push_back(t.v[1] / 2);  // half the smallest subnormal
  points.push_back(t.v[1] / 4);
  std::vector<uint32_t> out;
  for (double p : points) {
    const float f = static_cast<float>(p);
    EXPECT_EQ(static_cast<double>(f), p);  // every point is a binary32 value
    for (float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e30f)})
      for (float s : {1.0f, -1.0f}) out.push_back(f32_bits(g * s));
  }
  for (uint32_t sp : {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x00000001u, 0x80000001u,
                      0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u})
    out.push_back(sp);
  return out;
}

TEST(Fp8, NarrowingOnEveryRoundingBoundary) {
  for (Kind k : kKinds) {
    const auto inputs = boundary_inputs(k);
    for (Rounding r : kRoundings)
      for (Overflow o : kOverflows)
        for (uint32_t in : inputs)
          ASSERT_EQ(from_f32(k, in, r, o), reference(k, f32_value(in), r, o))
              << "kind " << int(k) << " rounding " << int(r) << " overflow " << int(o) << " input 0x" << std::hex << in;
  }
}

TEST(Fp8, NarrowingOnAStridedSweepOfBinary32) {
  // Every 65521st pattern (prime stride, so every exponent and low-fraction residue is visited).
  for (Kind k : kKinds)
    for (Rounding r : kRoundings)
      for (Overflow o : kOverflows)
        for (uint64_t in = 0; in < (uint64_t{1} << 32); in += 65521)
          ASSERT_EQ(from_f32(k, static_cast<uint32_t>(in), r, o),
                    reference(k, f32_value(static_cast<uint32_t>(in)), r, o))
              << "input 0x" << std::hex << in;
}

TEST(Fp8, OcpThresholdsWorkedByHand) {
  // e4m3: 448 is the top; 464 is the midpoint to the would-be 480 and ties to even (448); above it
  // non-saturating gives NaN. e5m2: 57344 top; 61440 ties to the even 65536 = overflow -> inf.
  const auto f = [](float x) { return f32_bits(x); };
  EXPECT_EQ(from_f32(Kind::E4M3, f(464.0f), Rounding::NearestEven, Overflow::NonSaturate), 0x7E);
  EXPECT_EQ(from_f32(Kind::E4M3, f(465.0f), Rounding::NearestEven, Overflow::NonSaturate), 0x7F);
  EXPECT_EQ(from_f32(Kind::E4M3, f(465.0f), Rounding::NearestEven, Overflow::Saturate), 0x7E);
  EXPECT_EQ(from_f32(Kind::E4M3, f(-1e6f), Rounding::TowardZero, Overflow::NonSaturate), 0xFE);
  EXPECT_EQ(from_f32(Kind::E5M2, f(61440.0f), Rounding::NearestEven, Overflow::NonSaturate), 0x7C);
  EXPECT_EQ(from_f32(Kind::E5M2, f(61439.0f), Rounding::NearestEven, Overflow::NonSaturate), 0x7B);
  EXPECT_EQ(from_f32(Kind::E5M2, f(-INFINITY), Rounding::NearestEven, Overflow::Saturate), 0xFB);
  EXPECT_EQ(from_f32(Kind::E4M3, f(INFINITY), Rounding::TowardZero, Overflow::NonSaturate), 0x7F);
  // Smallest subnormals: e4m3 2^-9 = 0x01, half of it ties to even 0; e5m2 2^-16.
  EXPECT_EQ(from_f32(Kind::E4M3, f(0x1p-10f), Rounding::NearestEven, Overflow::Saturate), 0x00);
  EXPECT_EQ(from_f32(Kind::E4M3, f(-0x1.8p-10f), Rounding::NearestEven, Overflow::Saturate), 0x81);
  EXPECT_EQ(from_f32(Kind::E5M2, f(0x1p-16f), Rounding::NearestEven, Overflow::Saturate), 0x01);
  EXPECT_EQ(from_f32(Kind::E5M2, f(-0x1p-30f), Rounding::TowardNegative, Overflow::Saturate), 0x81);
  EXPECT_EQ(to_f32(Kind::E4M3, 0x7E), f(448.0f));
  EXPECT_EQ(to_f32(Kind::E5M2, 0x7B), f(57344.0f));
  EXPECT_EQ(to_f32(Kind::E4M3, 0x08), f(0x1p-6f));
}

}  // namespace
}  // namespace tmu::fp8
