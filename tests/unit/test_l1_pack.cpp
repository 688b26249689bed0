// The packer's conversions Dst -> L1 (tmu/tensix/l1_formats.h). Expected values come from a separate
// derivation written here: each input is decoded to its real value (host double, exact for every
// value these formats hold), rounded by value as Packers/FormatConversion.md states it (nearest,
// ties away from zero; truncation toward zero where the page says "truncate"), and re-encoded, or
// from hand derivations written in the comments. The 16-bit pairs are checked for every input
// pattern; FP32 inputs for every high half with the low halves that decide a rounding.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "tmu/error.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix {
namespace {

// ---- The independent reference: values and roundings in double ----

struct Value {  // sign and magnitude; magnitude is exact in double
  bool neg;
  double mag;
};
Value fp32_value(uint32_t x) { return {(x >> 31) != 0, std::fabs(static_cast<double>(std::bit_cast<float>(x)))}; }
Value fp16_value(uint16_t x) {  // the Tensix FP16: exponent 31 is an ordinary exponent, denormals are what IEEE says
  const int e = (x >> 10) & 31, m = x & 1023;
  return {(x >> 15) != 0, e ? std::ldexp(1024 + m, e - 25) : std::ldexp(m, -24)};
}

// |v| rounded to `bits` significant bits: ties away from zero, or toward zero.
double round_sig(double mag, int bits, bool truncate) {
  if (mag == 0) return 0;
  int e;
  const double f = std::frexp(mag, &e);  // mag = f * 2^e, f in [0.5, 1)
  const double scaled = std::ldexp(f, bits);
  const double r = truncate ? std::floor(scaled) : std::floor(scaled + 0.5);
  return std::ldexp(r, e - bits);
}
// Encodes a value exactly representable with `man` fraction bits and exponent bias `bias` (normal).
uint32_t encode(bool neg, double mag, int exp_bits, int man, int bias) {
  if (mag == 0) return neg ? 1u << (exp_bits + man) : 0;
  int e;
  const double f = std::frexp(mag, &e);  // mag = (2f) * 2^(e-1)
  const auto frac = static_cast<uint32_t>(std::ldexp(2 * f - 1, man));
  return (neg ? 1u << (exp_bits + man) : 0) | static_cast<uint32_t>(e - 1 + bias) << man | frac;
}
// Round to BF16 (man_bits 7) or E8M6 (6) by value: NaN -> inf, ties away, beyond the exponent range -> inf,
// an exponent-0 result -> +0.
uint16_t ref_fp32_round(uint32_t x, int man_bits) {
  const bool nan = (x & 0x7FFFFFFF) > 0x7F800000, inf = (x & 0x7FFFFFFF) == 0x7F800000;
  const Value v = fp32_value(x);
  if (nan || inf) return static_cast<uint16_t>((v.neg ? 0x8000 : 0) | 0x7F80);
  if (v.mag < std::ldexp(1.0, -126)) {
    // A denormal is rounded in the same bit positions (units of 2^(-126 - man_bits)) and flushed only if
    // the result still has exponent 0 (ttsim: round, then flush): just below 2^-126 it becomes 2^-126.
    const double unit = std::ldexp(1.0, -126 - man_bits);
    if (std::floor(v.mag / unit + 0.5) * unit < std::ldexp(1.0, -126)) return 0;
    return static_cast<uint16_t>((v.neg ? 0x8000 : 0) | 0x0080);
  }
  const double r = round_sig(v.mag, man_bits + 1, false);
  if (r >= std::ldexp(1.0, 128)) return static_cast<uint16_t>((v.neg ? 0x8000 : 0) | 0x7F80);
  return static_cast<uint16_t>(encode(v.neg, r, 8, 7, 127));
}

std::vector<uint32_t> fp32_inputs() {
  std::vector<uint32_t> in;
  for (uint32_t hi = 0; hi < 0x10000; ++hi) {
    for (uint32_t lo : {0x0000u, 0x0001u, 0x0FFFu, 0x1000u, 0x1001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu}) in.push_back(hi << 16 | lo);
  }
  return in;
}

PackPlan plan(PackSource from, L1Format to, std::optional<DataFormat> inter = std::nullopt, Arch arch = Arch::Blackhole) {
  PackConfig c;
  c.arch = arch, c.from = from, c.to = to, c.intermediate = inter;
  return plan_pack(c);
}
uint32_t pack1(const PackPlan& p, uint32_t dst) { return pack_late(p, pack_early(p, dst)); }

// ---- FP32 Dst ----

TEST(L1Pack, Fp32ToBf16RoundsTiesAwayFromZero) {
  const PackPlan p = plan(PackSource::FP32, L1Format::BF16);
  EXPECT_EQ(p.mode, 0x155u);
  for (uint32_t x : fp32_inputs()) ASSERT_EQ(pack1(p, x), ref_fp32_round(x, 7)) << std::hex << x;
  // 1 + 2^-8 lies halfway between BF16 1 and 1 + 2^-7: ties away gives 0x3f81; nearest even would give 0x3f80.
  EXPECT_EQ(pack1(p, 0x3F808000u), 0x3F81u);
  EXPECT_EQ(pack1(p, 0xBF808000u), 0xBF81u);
  EXPECT_EQ(pack1(p, 0x80000000u), 0u);  // -0 -> +0 (FormatConversion.md, rounding)
}

TEST(L1Pack, Fp32ToE8m6RoundsOnceForBfp) {
  const PackPlan p = plan(PackSource::FP32, L1Format::BFP8, DataFormat::BFP8);
  EXPECT_EQ(p.mode, 0x166u);
  for (uint32_t x : fp32_inputs()) ASSERT_EQ(pack_early(p, x), ref_fp32_round(x, 6)) << std::hex << x;
}

TEST(L1Pack, Fp32ToFp16TruncatesAndSaturatesLate) {
  const PackPlan p = plan(PackSource::FP32, L1Format::FP16, DataFormat::FP32, Arch::Wormhole);
  EXPECT_EQ(p.mode, 0x101u);
  for (uint32_t x : fp32_inputs()) {
    const Value v = fp32_value(x);
    const int e = static_cast<int>((x >> 23) & 255) - 127;  // the field decides: exponent 255 is a number here
    uint32_t want;
    if (e + 15 < 0) want = v.neg ? 0x8000 : 0;
    else if (e + 15 > 31) want = (v.neg ? 0x8000 : 0) | 0x7FFF;
    else want = (v.neg ? 0x8000 : 0) | static_cast<uint32_t>(e + 15) << 10 | ((x >> 13) & 1023);  // fraction truncated
    ASSERT_EQ(pack1(p, x), want) << std::hex << x;
  }
  // By hand: 1 + 2^-10 + 2^-11 truncates to FP16 1 + 2^-10 = 0x3c01 (rounding would give 0x3c02).
  EXPECT_EQ(pack1(p, 0x3F803000u), 0x3C01u);
}

TEST(L1Pack, BlackholeFp32ToFp16RoundsThroughTf32) {
  const PackPlan p = plan(PackSource::FP32, L1Format::FP16);
  EXPECT_EQ(p.mode, 0x111u);
  EXPECT_TRUE(p.round_10b_mant);
  for (uint32_t x : fp32_inputs()) {
    const Value v = fp32_value(x);
    uint32_t want;
    const double unit = std::ldexp(1.0, -136);  // a denormal rounds in units of 2^-136 (TF32 at exponent 1)
    if ((x & 0x7FFFFFFF) >= 0x7F800000 || v.mag < std::ldexp(1.0, -126)) {
      if ((x & 0x7FFFFFFF) >= 0x7F800000) want = (v.neg ? 0x8000u : 0u) | 0x7FFFu;
      else want = std::floor(v.mag / unit + 0.5) * unit < std::ldexp(1.0, -126) ? 0u : (v.neg ? 0x8000u : 0u);  // 2^-126 -> ±0 in FP16
    } else {
      const double r = round_sig(v.mag, 11, false);
      int e2;
      std::frexp(r, &e2);
      const int field = e2 - 1 + 15;
      if (field < 0) want = v.neg ? 0x8000 : 0;
      else if (field > 31) want = (v.neg ? 0x8000 : 0) | 0x7FFF;
      else want = (v.neg ? 0x8000 : 0) | static_cast<uint32_t>(field) << 10 | (static_cast<uint32_t>(std::ldexp(r, 10 - (e2 - 1))) & 1023);
    }
    ASSERT_EQ(pack1(p, x), want) << std::hex << x;
  }
  EXPECT_EQ(pack1(p, 0x3F803000u), 0x3C02u);  // the tie 1 + 2^-10 + 2^-11 rounds away
  EXPECT_THROW(plan(PackSource::FP32, L1Format::FP16, DataFormat::FP16, Arch::Wormhole), Error);
}

// ---- 16-bit Dst: every pattern ----

TEST(L1Pack, Bf16DstEveryPattern) {
  const PackPlan to_bf16 = plan(PackSource::BF16, L1Format::BF16), to_fp32 = plan(PackSource::BF16, L1Format::FP32);
  for (uint32_t x = 0; x < 0x10000; ++x) {
    const bool nan = (x & 0x7FFF) > 0x7F80;
    const uint32_t want = nan ? (x & 0x8000) | 0x7F80 : ((x & 0x7F80) == 0 ? 0 : x);
    ASSERT_EQ(pack1(to_bf16, x), want) << std::hex << x;
    ASSERT_EQ(pack1(to_fp32, x), want << 16) << std::hex << x;
  }
}

TEST(L1Pack, Fp16DstEveryPattern) {
  const PackPlan to_fp16 = plan(PackSource::FP16, L1Format::FP16), to_fp32 = plan(PackSource::FP16, L1Format::FP32),
                 to_bf16 = plan(PackSource::FP16, L1Format::BF16), to_fp8 = plan(PackSource::FP16, L1Format::FP8);
  for (uint32_t x = 0; x < 0x10000; ++x) {
    const Value v = fp16_value(static_cast<uint16_t>(x));
    const bool flushed = (x & 0x7C00) == 0;  // exponent 0: +0
    ASSERT_EQ(pack1(to_fp16, x), flushed ? 0 : x) << std::hex << x;
    ASSERT_EQ(pack1(to_fp32, x), flushed ? 0 : std::bit_cast<uint32_t>(static_cast<float>(v.neg ? -v.mag : v.mag))) << std::hex << x;
    ASSERT_EQ(pack1(to_bf16, x), flushed ? 0 : encode(v.neg, round_sig(v.mag, 8, true), 8, 7, 127)) << std::hex << x;
    // FP8 (Blackhole, E4M3 with bias 7): below 2^-6 -> signed zero, from 2^16 up -> the all-ones pattern,
    // otherwise the top 3 fraction bits.
    uint32_t fp8;
    if (flushed) fp8 = 0;  // the early conversion's flush: +0
    else if (v.mag < std::ldexp(1.0, -6)) fp8 = v.neg ? 0x80 : 0;
    else if (v.mag >= std::ldexp(1.0, 9)) fp8 = (v.neg ? 0x80 : 0) | 0x7F;
    else fp8 = encode(v.neg, round_sig(v.mag, 4, true), 4, 3, 7);
    ASSERT_EQ(pack1(to_fp8, x), fp8) << std::hex << x;
  }
  EXPECT_EQ(to_fp8.mode, 0x1Au);
  EXPECT_THROW(plan(PackSource::FP16, L1Format::FP8, std::nullopt, Arch::Wormhole), Error);
}

// Blackhole's Round_10b_mant read of a Dst16b datum as BF16 (ttsim's mode 0x1A with the bit set): the
// value enters FP16 by exponent alone (below 2^-15 a zero of its sign, from 2^17 up, inf and NaN
// included, the largest FP16 pattern), then E4M3 truncates: below 2^-6 a zero of its sign, from 2^9 up
// the all-ones pattern, otherwise the top 3 fraction bits.
TEST(L1Pack, Bf16DstReadAsFp16IntoFp8EveryPattern) {
  const PackPlan p = plan(PackSource::BF16, L1Format::FP8);
  EXPECT_EQ(p.mode, 0x1Au);
  EXPECT_TRUE(p.round_10b_mant);
  for (uint32_t x = 0; x < 0x10000; ++x) {
    const bool neg = (x >> 15) != 0;
    const uint32_t s = neg ? 0x80 : 0;
    const double mag = (x & 0x7F80) == 0x7F80 ? HUGE_VAL : fp32_value(x << 16).mag;
    uint32_t want;
    if (mag < std::ldexp(1.0, -6)) want = s;
    else if (mag >= std::ldexp(1.0, 9)) want = s | 0x7F;
    else want = encode(neg, round_sig(mag, 4, true), 4, 3, 7);
    ASSERT_EQ(pack1(p, x), want) << std::hex << x;
  }
  // 1.0 -> E4M3 exponent 7: 0x38; 3.0 -> 0x44; -1.0 -> 0xb8; 1.9921875 (0x3fff) truncates to 1.875 (0x3f).
  EXPECT_EQ(pack1(p, 0x3F80u), 0x38u);
  EXPECT_EQ(pack1(p, 0x4040u), 0x44u);
  EXPECT_EQ(pack1(p, 0xBF80u), 0xB8u);
  EXPECT_EQ(pack1(p, 0x3FFFu), 0x3Fu);
  // A tiny negative keeps its sign here, while the FP16 Dst path's flush makes it +0.
  EXPECT_EQ(pack1(p, 0x8001u), 0x80u);
  EXPECT_EQ(pack1(plan(PackSource::FP16, L1Format::FP8), 0x8001u), 0u);
  EXPECT_EQ(bf16_to_fp16_saturate(0x3F80u), 0x3C00u);  // 1.0
  EXPECT_EQ(bf16_to_fp16_saturate(0x7F80u), 0x7FFFu);  // inf -> the largest pattern
  EXPECT_EQ(bf16_to_fp16_saturate(0xB800u), 0x8000u);  // -2^-15: FP16 exponent field 0, mantissa 0
  EXPECT_EQ(bf16_to_fp16_saturate(0x37FFu), 0x0000u);  // below 2^-15
  // The read exists for FP8 out only, and on Blackhole only.
  EXPECT_THROW(plan(PackSource::BF16, L1Format::FP16, DataFormat::FP16), Error);
  EXPECT_THROW(plan(PackSource::BF16, L1Format::FP8, std::nullopt, Arch::Wormhole), Error);
}

TEST(L1Pack, Int16AndIntegerClamps) {
  const PackPlan p16 = plan(PackSource::INT16, L1Format::INT16);
  for (uint32_t x = 0; x < 0x10000; ++x) ASSERT_EQ(pack1(p16, x), x);
  const PackPlan i8 = plan(PackSource::INT32, L1Format::INT8), u8 = plan(PackSource::INT32, L1Format::UINT8);
  EXPECT_EQ(i8.mode, 0x1EEu);
  // Sign-magnitude in and out: -5 is 0x80000005 -> 0x85; 1000 -> 127; -1000 -> 0xff (-127); -0 stays -0.
  EXPECT_EQ(pack1(i8, 5), 5u);
  EXPECT_EQ(pack1(i8, 0x80000005u), 0x85u);
  EXPECT_EQ(pack1(i8, 1000), 127u);
  EXPECT_EQ(pack1(i8, 0x800003E8u), 0xFFu);
  EXPECT_EQ(pack1(i8, 0x80000000u), 0x80u);
  EXPECT_EQ(pack1(u8, 0x80000005u), 0u);
  EXPECT_EQ(pack1(u8, 300), 255u);
  EXPECT_EQ(pack1(u8, 200), 200u);
  EXPECT_EQ(pack1(plan(PackSource::INT32, L1Format::INT32), 0x80001234u), 0x80001234u);
}

// ---- BFP blocks ----

// The block by value: shared exponent E = the largest exponent field; each magnitude is |x| / 2^(E-133)
// rounded half away and capped at 127, then BFP4/BFP2 keep its top 3 / 1 bits.
BfpBlock ref_block(const std::array<uint16_t, 16>& in, L1Format to) {
  BfpBlock b;
  int emax = 0;
  for (uint16_t v : in) emax = std::max(emax, (v >> 7) & 255);
  b.exponent = static_cast<uint8_t>(emax);
  const int width = to == L1Format::BFP8 ? 8 : to == L1Format::BFP4 ? 4 : 2;
  for (size_t j = 0; j < 16; ++j) {
    const int e = (in[j] >> 7) & 255;
    const double mag = (e ? 128 + (in[j] & 127) : (in[j] & 127)) * std::ldexp(1.0, e - emax - 7 + 6);  // in units of 2^(E-133)
    auto m = static_cast<uint32_t>(std::min(127.0, std::floor(mag + 0.5)));
    m >>= 8 - width;
    b.datums[j] = static_cast<uint8_t>(m ? m | ((in[j] >> 15) << (width - 1)) : 0);
  }
  return b;
}

TEST(L1Pack, BfpEveryPatternAgainstAnchors) {
  for (L1Format to : {L1Format::BFP8, L1Format::BFP4, L1Format::BFP2}) {
    for (uint16_t anchor : {uint16_t{0}, uint16_t{0x3F80}, uint16_t{0xC2FF}, uint16_t{0x0080}}) {
      for (uint32_t x = 0; x < 0x10000; ++x) {
        std::array<uint16_t, 16> in;
        in.fill(anchor);
        in[static_cast<size_t>(x % 16)] = static_cast<uint16_t>(x);
        const BfpBlock got = bfp_block_from_bf16(in, to), want = ref_block(in, to);
        ASSERT_EQ(got.exponent, want.exponent) << std::hex << x;
        ASSERT_EQ(got.datums, want.datums) << std::hex << x << " anchor " << anchor;
      }
    }
  }
}

TEST(L1Pack, BfpEdgesByHand) {
  std::array<uint16_t, 16> in{};
  // All zero: exponent 0, datums 0.
  BfpBlock b = bfp_block_from_bf16(in, L1Format::BFP8);
  EXPECT_EQ(b.exponent, 0);
  EXPECT_EQ(b.datums, (std::array<uint8_t, 16>{}));
  // 1.0 (0x3f80) and 0.5: exponent 127; 1.0 = 64/64 -> 0x40; 0.5 -> 0x20; -0.5 -> 0xa0.
  in[0] = 0x3F80, in[1] = 0x3F00, in[2] = 0xBF00;
  b = bfp_block_from_bf16(in, L1Format::BFP8);
  EXPECT_EQ(b.exponent, 127);
  EXPECT_EQ(b.datums[0], 0x40);
  EXPECT_EQ(b.datums[1], 0x20);
  EXPECT_EQ(b.datums[2], 0xA0);
  // The block's largest, 1.9921875 (0x3fff), rounds to 128/64 = 2: no new exponent, the magnitude stays 127.
  in[0] = 0x3FFF;
  EXPECT_EQ(bfp_block_from_bf16(in, L1Format::BFP8).datums[0], 0x7F);
  // A tie: 1 + 2^-7 (0x3f81) is 64.5 units; half away gives 65 (nearest even would give 64).
  in[0] = 0x3F81;
  EXPECT_EQ(bfp_block_from_bf16(in, L1Format::BFP8).datums[0], 65);
  // -tiny (2^-20 beside 1.0) rounds to magnitude 0 and loses its sign: a lone sign would mean -inf.
  in[3] = 0xB580;
  EXPECT_EQ(bfp_block_from_bf16(in, L1Format::BFP8).datums[3], 0);
  // BFP4 truncates BFP8's 7-bit magnitude: 0x3f81 -> 65 = 0b1000001 -> top 3 bits 0b100 = 4.
  EXPECT_EQ(bfp_block_from_bf16(in, L1Format::BFP4).datums[0], 4);
  // Exponent 255 (infinity from an FP32 NaN read through the truncating path) is an ordinary exponent.
  in[4] = 0x7FC0;
  b = bfp_block_from_bf16(in, L1Format::BFP8);
  EXPECT_EQ(b.exponent, 255);
  EXPECT_EQ(b.datums[4], 0x60);  // 1.5 * 2^128 -> 96
  EXPECT_EQ(b.datums[0], 0);     // 2^0 is 128 exponents below
}

TEST(L1Pack, BfpThroughTheWholePacker) {
  // Dst BF16 with a NaN and a denormal: the early conversion turns them into inf and +0 first.
  std::vector<uint32_t> dst(16, 0x3F80);
  dst[1] = 0x7FC1;  // NaN -> inf: exponent 255, magnitude 64
  dst[2] = 0x0001;  // denormal -> 0
  std::vector<uint8_t> l1 = pack_to_l1(plan(PackSource::BF16, L1Format::BFP8), dst);
  ASSERT_EQ(l1.size(), 17u);
  EXPECT_EQ(l1[0], 255);
  EXPECT_EQ(l1[1 + 1], 0x40);
  EXPECT_EQ(l1[1 + 2], 0);
  EXPECT_EQ(l1[1 + 0], 0);  // 1.0 is far below 2^128
  // BFP4 packs two datums a byte, the first in the low nibble; BFP2 four, the first in bits 1:0.
  std::vector<uint32_t> ones(16, 0x3F80);
  ones[1] = 0xBF80;
  l1 = pack_to_l1(plan(PackSource::BF16, L1Format::BFP4), ones);
  ASSERT_EQ(l1.size(), 9u);
  EXPECT_EQ(l1[1], 0xC4);  // datum 0 = 0b0100 (+4), datum 1 = 0b1100 (-4)
  l1 = pack_to_l1(plan(PackSource::BF16, L1Format::BFP2), ones);
  ASSERT_EQ(l1.size(), 5u);
  EXPECT_EQ(l1[1], 0x5D);  // datums 1, 3, 1, 1 -> 0b01'01'11'01
  // FP16 Dst into BFP8 goes through E5M6 and then the block's rounding: two roundings, which
  // FormatConversion.md warns of. Beside 2.0 (exponent 128, unit 2^-5), 0x3c08 = 1 + 2^-7 is 32.25 units:
  // once rounded it is 32, but E5M6 first makes it 1 + 2^-6 = 32.5 units, which then rounds away to 33.
  std::vector<uint32_t> h(16, 0x4000);
  h[0] = 0x3C08;
  l1 = pack_to_l1(plan(PackSource::FP16, L1Format::BFP8), h);
  EXPECT_EQ(l1[0], 128);
  EXPECT_EQ(l1[1], 33);
  EXPECT_EQ(l1[2], 0x40);
  EXPECT_THROW(pack_to_l1(plan(PackSource::BF16, L1Format::BFP8), std::vector<uint32_t>(15)), Error);
}

// ---- L1 accumulation ----

TEST(L1Pack, AccumulateFp32MatchesHostFloatWithFlushes) {
  std::mt19937 rng(7);
  auto daz = [](uint32_t v) { return (v & 0x7F800000u) == 0 ? v & 0x80000000u : v; };
  for (int i = 0; i < 200000; ++i) {
    uint32_t a = rng(), b = rng();
    if (i % 4 == 1) b = (a & 0x7F800000u) | (rng() & 0x807FFFFFu);  // same exponent: cancellation
    if (i % 4 == 2) a &= 0x80FFFFFFu, b &= 0x80FFFFFFu;               // near the denormal edge
    const float s = std::bit_cast<float>(daz(a)) + std::bit_cast<float>(daz(b));  // the host: nearest even
    uint32_t want = std::isnan(s) ? 0x7FC00000u : daz(std::bit_cast<uint32_t>(s));
    ASSERT_EQ(l1_acc_fp32(a, b), want) << std::hex << a << " + " << b;
  }
  // A tie: 1 + (2^-24 + 2^-47)... simplest by hand: 2^24 + 1 is a tie between 2^24 and 2^24 + 2;
  // nearest even gives 2^24 (0x4b800000), ties away would give 0x4b800001.
  EXPECT_EQ(l1_acc_fp32(0x4B800000u, 0x3F800000u), 0x4B800000u);
  EXPECT_EQ(l1_acc_fp32(0x7F800000u, 0xFF800000u), 0x7FC00000u);
}

TEST(L1Pack, AccumulateBf16ByValue) {
  auto ref = [](uint16_t a, uint16_t b) -> uint16_t {
    auto mag = [](uint16_t v) { return v & 0x7FFF; };
    if ((mag(a) == 0x7F80 && mag(b) == 0x7F80 && (a ^ b) & 0x8000)) return 0x7FC0;
    if (mag(a) > 0x7F80) return mag(b) == 0x7F80 ? b : static_cast<uint16_t>((a & 0x8000) | 0x7F80);
    if (mag(a) == 0x7F80) return a;
    if (mag(b) == 0x7F80) return b;
    // Finite (b may be a NaN pattern, read as 2^128 * 1.m): exact sum in double, rounded to 8 bits nearest even.
    auto val = [](uint16_t v) {
      const int e = (v >> 7) & 255;
      const double m = e ? std::ldexp(128 + (v & 127), e - 134) : 0.0;
      return (v & 0x8000) ? -m : m;
    };
    const double s = val(a) + val(b);
    const bool neg = std::signbit(s);
    const double m = std::fabs(s);
    if (m < std::ldexp(1.0, -126)) return neg ? 0x8000 : 0;
    int e;
    const double f = std::frexp(m, &e);
    const double r = std::ldexp(std::nearbyint(std::ldexp(f, 8)), e - 8);  // the default mode: nearest even
    if (r >= std::ldexp(1.0, 128)) return static_cast<uint16_t>((neg ? 0x8000 : 0) | 0x7F80);
    return static_cast<uint16_t>(encode(neg, r, 8, 7, 127));
  };
  std::mt19937 rng(11);
  for (int i = 0; i < 300000; ++i) {
    auto a = static_cast<uint16_t>(rng()), b = static_cast<uint16_t>(rng());
    if (i % 3 == 1) b = static_cast<uint16_t>((a & 0x7F80) | (rng() & 0x807F));
    ASSERT_EQ(l1_acc_bf16(a, b), ref(a, b)) << std::hex << a << " + " << b;
  }
  // A tie: 1 + (1 + 2^-7)... 0x3f80 + 0x3b80 (2^-8): 1 + 2^-8 is halfway; nearest even keeps 1.
  EXPECT_EQ(l1_acc_bf16(0x3F80, 0x3B80), 0x3F80);
}

TEST(L1Pack, AccumulateFp16ByValue) {
  // By hand from the rules in l1_formats.h (ttsim's pack_l1_acc_fp16).
  EXPECT_EQ(l1_acc_fp16(0x3C00, 0x3C00), 0x4000);  // 1 + 1 = 2
  EXPECT_EQ(l1_acc_fp16(0x3C00, 0xBC00), 0x0000);  // exact cancellation, L1 exponent 15
  EXPECT_EQ(l1_acc_fp16(0x7800, 0xF800), 0x7FFF);  // exact cancellation, L1 exponent 30: the quirk
  EXPECT_EQ(l1_acc_fp16(0x7BFF, 0x7BFF), 0x7FFF);  // 65504 * 2 = 131008 -> exponent 31: ordinary, 0x7fff
  EXPECT_EQ(l1_acc_fp16(0x7FFF, 0x7FFF), 0x7FFF);  // overflow saturates
  EXPECT_EQ(l1_acc_fp16(0x0400, 0x8401), 0xFFFF);  // -2^-24: below 2^-15, saturates with its sign
  EXPECT_EQ(l1_acc_fp16(0x0800, 0x8400), 0x0400);  // 2^-13 - 2^-14 = 2^-14, the smallest normal
  EXPECT_EQ(l1_acc_fp16(0x0600, 0x8400), 0x0000);  // 1.5 * 2^-14 - 2^-14 = 2^-15: exponent field 0 -> signed zero
  EXPECT_EQ(l1_acc_fp16(0x8600, 0x0400), 0x8000);
  EXPECT_EQ(l1_acc_fp16(0x3C00, 0x1000), 0x3C00);  // 1 + 2^-11: tie, nearest even keeps 1 (ties away would give 0x3c01)
  EXPECT_EQ(l1_acc_fp16(0x3C01, 0x1000), 0x3C02);  // (1 + 2^-10) + 2^-11: tie, nearest even goes up
  EXPECT_EQ(l1_acc_fp16(0x0001, 0x3C00), 0x3C00);  // a denormal reads as zero
}

// ---- Thresholding and refusals ----

TEST(L1Pack, ExponentThresholdFlushesSmallIntermediates) {
  PackConfig c;
  c.from = PackSource::BF16, c.to = L1Format::BF16, c.exp_threshold = 120;
  const PackPlan p = plan_pack(c);
  EXPECT_EQ(pack1(p, 0x3C00), 0x3C00u);  // exponent 120 is not below 120: kept
  EXPECT_EQ(pack1(p, 0x3B80), 0u);      // exponent 119 < 120: zero
  EXPECT_EQ(pack1(p, 0xBF80), 0xBF80u);
  c.from = PackSource::INT32, c.to = L1Format::INT32;
  EXPECT_THROW(plan_pack(c), Error);
}

TEST(L1Pack, RefusalsNameThePairAndReason) {
  auto message = [](const PackConfig& c) {
    try {
      plan_pack(c);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      return std::string(e.message());
    }
    return std::string("no error");
  };
  PackConfig c;
  c.from = PackSource::FP32, c.to = L1Format::TF32;
  EXPECT_NE(message(c).find("pack FP32 -> TF32 on blackhole"), std::string::npos) << message(c);
  c.to = L1Format::BFP8a;
  EXPECT_NE(message(c).find("no packer format-conversion mode"), std::string::npos);
  c.to = L1Format::BF16, c.stochastic_rounding = true;
  EXPECT_NE(message(c).find("stochastic"), std::string::npos);
  c.stochastic_rounding = false, c.to = L1Format::BFP8, c.l1_acc = true;
  EXPECT_NE(message(c).find("L1 accumulation"), std::string::npos);
  c.l1_acc = false, c.from = PackSource::INT32, c.to = L1Format::INT16;
  EXPECT_NE(message(c).find("INT32 -> INT16"), std::string::npos);
  c.from = PackSource::FP32, c.to = L1Format::FP8, c.arch = Arch::Wormhole;
  EXPECT_NE(message(c).find("wormhole"), std::string::npos);
}

}  // namespace
}  // namespace tmu::tensix
