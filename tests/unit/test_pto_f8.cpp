// The 8-bit float element types f8e4m3 and f8e5m2 as PTO tiles, against lanes worked by hand from
// the OCP 8-bit floating point specification (e4m3: bias 7, S.1111.111 NaN, max 448; e5m2: bias 15,
// IEEE-like) and from pto-isa's sources: the CPU simulator's MXType (cpu/MXTypes.hpp, cpu/TCvt.hpp:
// truncation, no specials, the mode unused, ON clamping to 0) and A5's TCvt.hpp (f32 <-> f8 only,
// ROUND_R whatever the mode, no CTRL saturation bit). A2/A3 refuses the types.
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "test_pto_support.h"
#include "tmu/pto/text.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;
using enum RoundMode;

constexpr auto kOn = SaturationMode::On;
constexpr auto kOff = SaturationMode::Off;

uint64_t cvt(Profile p, ElemType from, ElemType to, uint64_t v, RoundMode m = Rint,
             std::optional<SaturationMode> sat = std::nullopt, bool ieee = true) {
  Tile src = make_tile(from, 1, 32, Layout::RowMajor, 1, 1), dst = make_tile(to, 1, 32, Layout::RowMajor, 1, 1);
  set(src, 0, 0, v);
  const Tile* srcs[] = {&src};
  execute(p, Op::TCVT, dst, srcs, OpParams{.round = m, .saturation = sat, .a5_ieee = ieee});
  return dst.at(0, 0);
}
uint64_t cpu_cvt(ElemType from, ElemType to, uint64_t v, RoundMode m = Rint, std::optional<SaturationMode> s = {}) {
  return cvt(Profile::CpuSim, from, to, v, m, s);
}
uint64_t a5_cvt(ElemType from, ElemType to, uint64_t v, RoundMode m = Rint, std::optional<SaturationMode> s = {}) {
  return cvt(Profile::A5, from, to, v, m, s);
}

TEST(PtoF8, TypeVocabulary) {
  EXPECT_EQ(elem_from_name("f8e4m3"), F8E4M3);
  EXPECT_EQ(elem_from_name("f8e5m2"), F8E5M2);
  for (ElemType t : {F8E4M3, F8E5M2}) {
    EXPECT_EQ(width_bits(t), 8u);
    EXPECT_TRUE(is_float(t));
    EXPECT_FALSE(is_ieee_float(t));
    EXPECT_FALSE(is_unsigned_int(t));
    EXPECT_FALSE(is_signed_int(t));
    EXPECT_THROW(float_format(t), Error);
  }
}

// Text: the OCP value, NaNs as two hex digits; every pattern reads back to itself.
TEST(PtoF8, TextRoundTrip) {
  EXPECT_EQ(lane_to_text(F8E4M3, 0x7E), "448");
  EXPECT_EQ(lane_to_text(F8E4M3, 0x7F), "0x7f");
  EXPECT_EQ(lane_to_text(F8E4M3, 0x80), "-0");
  EXPECT_EQ(lane_to_text(F8E5M2, 0xFC), "-inf");
  EXPECT_EQ(lane_to_text(F8E5M2, 0x7B), "57344");
  EXPECT_EQ(lane_from_text(F8E4M3, "1.5"), 0x3Cu);  // 1.100b: exponent field 7, fraction 100
  EXPECT_EQ(lane_from_text(F8E4M3, "0x1p-9"), 0x01u);
  EXPECT_EQ(lane_from_text(F8E5M2, "inf"), 0x7Cu);
  EXPECT_EQ(lane_from_text(F8E4M3, "nan"), 0x7Fu);
  EXPECT_EQ(lane_from_text(F8E4M3, "0xff"), 0xFFu);
  for (ElemType t : {F8E4M3, F8E5M2})
    for (uint64_t b = 0; b < 256; ++b) EXPECT_EQ(lane_from_text(t, lane_to_text(t, b)), b) << elem_name(t) << " " << b;
  expect_refusal([] { lane_from_text(F8E4M3, "1.0625"); }, ErrorKind::BadInput, {"not exactly an f8e4m3 value"});
  expect_refusal([] { lane_from_text(F8E4M3, "inf"); }, ErrorKind::BadInput, {"f8e4m3"});
  expect_refusal([] { lane_from_text(F8E5M2, "300"); }, ErrorKind::BadInput, {"f8e5m2"});  // needs 6 significant bits
}

TEST(PtoF8, A2A3RefusesTheTypes) {
  for (ElemType t : {F8E4M3, F8E5M2}) {
    expect_refusal([&] { cvt(Profile::A2A3, F32, t, 0x3F800000); }, ErrorKind::Unsupported, {"A5-only"});
    expect_refusal([&] { cvt(Profile::A2A3, t, F32, 0x38); }, ErrorKind::Unsupported, {"A5-only"});
    expect_refusal([&] { lane(Profile::A2A3, Op::TAND, t, 1, 1); }, ErrorKind::Unsupported, {"A5-only"});
  }
}

// MXType(double): the fraction truncated, exponents wrapped, specials read as numbers.
TEST(PtoF8, CpuSimFromF32) {
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x3F880000), 0x38u);  // 1.0625 = 1.0001b -> 1.000b
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x3FF80000), 0x3Fu);  // 1.9375 = 1.1111b -> 1.111b (OCP rounds to 2)
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x43F00000), 0x7Fu);  // 480: field 15, fraction 111, OCP's NaN pattern
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x44000000), 0x00u);  // 512: field 16 wraps to 0
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x80000000), 0x00u);  // -0 == 0.0: +0
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0xFF800000), 0xB8u);  // -inf: field 2047 + 7 - 1023 = 1031, mod 16 = 7: -1
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x7FC00000), 0x3Cu);  // NaN: field 7, top fraction bit: 1.5
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x3B000000), 0x01u);  // 2^-9: (1000b >> 3), the smallest subnormal
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x3C400000), 0x04u);  // 1.5 x 2^-7: 0.100b x 2^-6 kept unshifted (OCP: 0x06)
  // The constructor's shift by 1 - (E + bias) reaches 64 at E = -63 - bias: e4m3 2^-70 (f32 0x1C800000).
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x1D000000), 0x00u);  // 2^-69: a shift by 63 leaves 0
  expect_refusal([] { cpu_cvt(F32, F8E4M3, 0x1C800000); }, ErrorKind::UndefinedBehaviour, {"shifts by 64"});
  expect_refusal([] { cpu_cvt(F32, F8E5M2, 0x0000FFF1); }, ErrorKind::UndefinedBehaviour, {"shifts by 64"});
  EXPECT_EQ(cpu_cvt(F32, F8E5M2, 0x3F980000), 0x3Cu);  // 1.1875 -> 1.00b
  // The mode is unused: FLOOR and CEIL give the same truncation.
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0xBFF80000, Floor), 0xBFu);
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0xBFF80000, Ceil), 0xBFu);
  // An integer or a half goes through double the same way.
  EXPECT_EQ(cpu_cvt(I32, F8E4M3, 17), 0x58u);   // 1.0001b x 2^4 -> field 11, fraction 000
  EXPECT_EQ(cpu_cvt(I32, F8E4M3, 300), 0x79u);  // 1.00101100b x 2^8 -> field 15, fraction 001 (288)
  EXPECT_EQ(cpu_cvt(F16, F8E5M2, 0x3E00), 0x3Eu);  // 1.5
  EXPECT_EQ(cpu_cvt(BF16, F8E4M3, 0xC040), 0xC4u);  // -3 = -1.1b x 2^1
}

// operator double(): every field above 0 is a normal number, 0x80 reads as +0.
TEST(PtoF8, CpuSimToOthers) {
  EXPECT_EQ(cpu_cvt(F8E4M3, F32, 0x7F), 0x43F00000u);  // 480
  EXPECT_EQ(cpu_cvt(F8E4M3, F32, 0x80), 0x00000000u);  // +0
  EXPECT_EQ(cpu_cvt(F8E4M3, F32, 0x01), 0x3B000000u);  // 2^-9
  EXPECT_EQ(cpu_cvt(F8E5M2, F32, 0x7C), 0x47800000u);  // 2^16
  EXPECT_EQ(cpu_cvt(F8E5M2, F32, 0x7F), 0x47E00000u);  // 1.75 x 2^16
  EXPECT_EQ(cpu_cvt(F8E4M3, F8E5M2, 0x7E), 0x5Fu);     // 448 = 1.11b x 2^8: field 23
  EXPECT_EQ(cpu_cvt(F8E5M2, F8E4M3, 0x3C), 0x38u);     // 1
  EXPECT_EQ(cpu_cvt(F8E4M3, F8E4M3, 0xFF), 0xFFu);     // a copy
  // To an integer: C++'s truncating cast, whatever the mode.
  EXPECT_EQ(cpu_cvt(F8E4M3, I32, 0x7F), 480u);
  EXPECT_EQ(cpu_cvt(F8E4M3, I32, 0xBC, Floor), 0xFFFFFFFFu);  // -1.5 -> -1 (f32 FLOOR would give -2)
  EXPECT_EQ(cpu_cvt(F8E4M3, I8, 0xBC, Round), 0xFFu);
  expect_refusal([] { cpu_cvt(F8E4M3, U8, 0xBC); }, ErrorKind::UndefinedBehaviour, {"does not fit u8"});
  // Through double to the half types: exact (0x38 = 1.0), but e5m2's 2^16 binade overflows binary16.
  EXPECT_EQ(cpu_cvt(F8E4M3, F16, 0x38), 0x3C00u);
  EXPECT_EQ(cpu_cvt(F8E5M2, F16, 0xFC), 0xFC00u);   // -65536 -> -inf
  EXPECT_EQ(cpu_cvt(F8E5M2, BF16, 0x7F), 0x47E0u);  // 114688 = 1.11b x 2^16, f32 0x47E00000's top half
}

// ON: numeric_limits<MXType> is not specialised, so both clamp bounds are MXType() = 0.
TEST(PtoF8, CpuSimSaturationOnClampsToZero) {
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x3F800000, Rint, kOn), 0x00u);
  EXPECT_EQ(cpu_cvt(F32, F8E4M3, 0x3F800000, Rint, kOff), 0x38u);
  EXPECT_EQ(cpu_cvt(F8E5M2, F32, 0xBC, Rint, kOn), 0x00000000u);
  EXPECT_EQ(cpu_cvt(I32, F8E5M2, 5, Rint, kOn), 0x00u);
  EXPECT_EQ(cpu_cvt(F8E4M3, I32, 0xBC, Rint, kOn), 0u);
}

// TSel.hpp (CPU) copies the selected MXType: the bits, NaN pattern or not. Mask 0b01: lane 0 from
// src0, lane 1 from src1.
TEST(PtoF8, CpuSimSelectCopiesBits) {
  const Tile mask = filled(U8, 1, 32, {0x01});
  Tile src0 = make_tile(F8E4M3, 1, 32, Layout::RowMajor, 1, 2), src1 = src0, dst = src0;
  set(src0, 0, 0, 0x7F);
  set(src0, 0, 1, 0x11);
  set(src1, 0, 0, 0x22);
  set(src1, 0, 1, 0xFF);
  const Tile* srcs[] = {&mask, &src0, &src1};
  execute(Profile::CpuSim, Op::TSEL, dst, srcs);
  EXPECT_EQ(dst.at(0, 0), 0x7Fu);
  EXPECT_EQ(dst.at(0, 1), 0xFFu);
  expect_refusal([&] { execute(Profile::A5, Op::TSEL, dst, srcs); }, ErrorKind::Unsupported, {"psts"});
}

// MXType's operators work in double, then MXType(double) truncates and wraps.
TEST(PtoF8, CpuSimArithmeticThroughDouble) {
  EXPECT_EQ(cpu(Op::TADD, F8E4M3, 0x3C, 0x20), 0x3Du);  // 1.5 + 0.125 = 1.101b
  EXPECT_EQ(cpu(Op::TADD, F8E4M3, 0x38, 0x18), 0x38u);  // 1 + 2^-4 = 1.0001b, truncated to 1
  EXPECT_EQ(cpu(Op::TADD, F8E4M3, 0x7F, 0x00), 0x7Fu);  // 480 + 0 = 480, written back as 0x7f
  EXPECT_EQ(cpu(Op::TSUB, F8E5M2, 0x3C, 0x3C), 0x00u);  // 1 - 1 = +0
  EXPECT_EQ(cpu(Op::TMUL, F8E4M3, 0x7E, 0x40), 0x06u);  // 448 x 2 = 1.11b x 2^9: field 16 wraps to 0
  EXPECT_EQ(cpu(Op::TDIV, F8E4M3, 0x38, 0x44), 0x2Au);  // 1/3 = 1.0101...b x 2^-2: field 5, fraction 010
  EXPECT_EQ(cpu(Op::TDIV, F8E4M3, 0x38, 0x00), 0x38u);  // 1/0 = inf: field 2047 + 7 - 1023 wraps to 7: 1.0
  EXPECT_EQ(cpu(Op::TDIV, F8E4M3, 0x00, 0x80), 0xBCu);  // 0/0: x86-64's NaN, sign set: -1.5
}

TEST(PtoF8, CpuSimOtherOperations) {
  expect_refusal([] { cpu(Op::TMAX, F8E4M3, 0x38, 0x38); }, ErrorKind::Unsupported, {"not modelled", "MXType"});
  expect_refusal([] { cpu(Op::TAND, F8E5M2, 0x38, 0x38); }, ErrorKind::Unsupported, {"is not accepted"});
  expect_refusal([] { cpu(Op::TSQRT, F8E5M2, 0x38); }, ErrorKind::Unsupported, {"is not accepted"});
}

// A5 f32 -> f8: one vcvt with ROUND_R whatever the mode; saturation never set by TCVT.
TEST(PtoF8, A5FromF32) {
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x3F880000), 0x38u);         // 1.0625: a tie, to even 1.000b
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x3F980000), 0x3Au);         // 1.1875: a tie, to even 1.010b
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x43780000), 0x78u);         // 248: a tie between 240 and 256, to 256
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x3FF80000, Trunc), 0x40u);  // 1.9375: R, not Z: 2
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0xBFF80000, Floor), 0xC0u);  // -2
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x43E80000), 0x7Eu);         // 464: a tie between 448 and 480, to even 448
  EXPECT_EQ(a5_cvt(F32, F8E5M2, 0x47600000), 0x7Bu);         // 57344, the largest finite
  EXPECT_EQ(a5_cvt(F32, F8E5M2, 0x43700000), 0x5Cu);         // 240 = 1.111b x 2^7: a tie, to 256
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x3C800000), 0x08u);         // 2^-6, the smallest normal
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x80000000), 0x80u);         // -0
  EXPECT_EQ(a5_cvt(F32, F8E4M3, 0x3FC00000, Rint, kOn), a5_cvt(F32, F8E4M3, 0x3FC00000, Rint, kOff));
  const std::vector<std::pair<uint64_t, std::string>> refused = {
      {0x43E88000, "beyond the largest finite"},  // 465 rounds to 480
      {0x7F800000, "an infinity"},
      {0x7FC00000, "a NaN"},
      {0x00000001, "subnormal operand"},
      {0x3C000000, "tiny result"},  // 2^-7: an e4m3 subnormal
  };
  for (const auto& [v, why] : refused)
    expect_refusal([&] { a5_cvt(F32, F8E4M3, v); }, ErrorKind::Unsupported, {why, "a5-ieee"});
  expect_refusal([] { a5_cvt(F32, F8E5M2, 0x47700000); }, ErrorKind::Unsupported, {"beyond the largest finite"});
}

TEST(PtoF8, A5ToF32AndPairs) {
  EXPECT_EQ(a5_cvt(F8E4M3, F32, 0x7E), 0x43E00000u);  // 448
  EXPECT_EQ(a5_cvt(F8E4M3, F32, 0x80), 0x80000000u);  // -0 stays -0 (IEEE widening)
  EXPECT_EQ(a5_cvt(F8E5M2, F32, 0x7C), 0x7F800000u);  // inf
  EXPECT_EQ(a5_cvt(F8E5M2, F32, 0xFB), 0xC7600000u);  // -57344
  expect_refusal([] { a5_cvt(F8E4M3, F32, 0x7F); }, ErrorKind::Unsupported, {"a NaN"});
  expect_refusal([] { a5_cvt(F8E5M2, F32, 0x01); }, ErrorKind::Unsupported, {"subnormal"});
  for (auto [from, to] : {std::pair{F16, F8E4M3}, {F8E4M3, F8E5M2}, {F8E5M2, F16}, {I32, F8E4M3}})
    expect_refusal([&] { a5_cvt(from, to, 0); }, ErrorKind::Unsupported, {"no castData overload"});
  expect_refusal([] { cvt(Profile::A5, F32, F8E4M3, 0x3F800000, Rint, {}, false); }, ErrorKind::Unsupported,
                 {"switched off"});
}

// TAND / TOR take any 1-, 2- or 4-byte type as unsigned bits (TAnd.hpp); the arithmetic does not
// list the 8-bit floats.
TEST(PtoF8, A5RawBitsAndRefusals) {
  EXPECT_EQ(lane(Profile::A5, Op::TAND, F8E4M3, 0x7F, 0xB8), 0x38u);
  EXPECT_EQ(lane(Profile::A5, Op::TOR, F8E5M2, 0x01, 0x80), 0x81u);
  Tile a = one_lane(F8E4M3, 0x7F), b = one_lane(F8E4M3, 0xB8), dst = one_lane(F8E4M3, 0);
  const Tile* srcs[] = {&a, &b};
  execute(Profile::A5, Op::TAND, dst, srcs, OpParams{.a5_ieee = false});  // raw bits: no assumption
  EXPECT_EQ(dst.at(0, 0), 0x38u);
  for (Op op : {Op::TADD, Op::TMUL, Op::TMAX, Op::TXOR, Op::TSHL})
    expect_refusal([&] { lane(Profile::A5, op, F8E4M3, 0x38, 0x38); }, ErrorKind::Unsupported, {"is not accepted"});
}

// Every pattern widened, against the value written here from the encoding: (-1)^s x 1.f x 2^(e - bias)
// for a field e above 0, 0.f x 2^(1 - bias) below; host doubles hold each exactly. The simulator reads
// every field above 0 that way (no specials) and 0x80 as +0; a5 follows OCP, refusing NaNs and the
// subnormals its flush leaves open.
double encoded_value(ElemType t, unsigned b) {
  const fp8::Layout l = fp8::layout(f8_kind(t));
  const unsigned e = (b >> l.frac_bits) & ((1u << l.exp_bits) - 1), f = b & ((1u << l.frac_bits) - 1);
  const double m = e == 0 ? f : f + static_cast<double>(1u << l.frac_bits);
  const double v = std::ldexp(m, (e == 0 ? 1 : static_cast<int>(e)) - l.bias - static_cast<int>(l.frac_bits));
  return (b & 0x80) != 0 ? -v : v;
}
uint64_t f32_bits(double v) { return std::bit_cast<uint32_t>(static_cast<float>(v)); }

TEST(PtoF8, EveryPatternWidens) {
  for (ElemType t : {F8E4M3, F8E5M2})
    for (unsigned b = 0; b < 256; ++b) {
      SCOPED_TRACE(fmt::format("{} {:#04x}", elem_name(t), b));
      EXPECT_EQ(cpu_cvt(t, F32, b), b == 0x80 ? 0u : f32_bits(encoded_value(t, b)));
      const unsigned mag = b & 0x7F;
      const bool nan = t == F8E4M3 ? mag == 0x7F : mag > 0x7C, inf = t == F8E5M2 && mag == 0x7C;
      const bool subnormal = mag != 0 && mag < (t == F8E4M3 ? 0x08u : 0x04u);
      if (nan || subnormal) {
        expect_refusal([&] { a5_cvt(t, F32, b); }, ErrorKind::Unsupported, {nan ? "a NaN" : "subnormal"});
      } else {
        const uint64_t want = inf ? (0x7F800000u | (b & 0x80u) << 24) : f32_bits(encoded_value(t, b));
        EXPECT_EQ(a5_cvt(t, F32, b), want);
      }
    }
}

// f32 -> f8 at every rounding boundary of the normal range: each value, the midpoint to the next and
// one f32 ulp either side. a5 rounds to nearest even (the even pattern at a midpoint); the simulator
// truncates toward zero. Expected patterns come from the ordering of the values, not from tmu::fp8.
TEST(PtoF8, EveryNormalBoundaryNarrows) {
  for (ElemType t : {F8E4M3, F8E5M2}) {
    const unsigned first = t == F8E4M3 ? 0x08 : 0x04, last = t == F8E4M3 ? 0x7E : 0x7B;
    for (unsigned sign : {0u, 0x80u})
      for (unsigned b = first; b < last; ++b) {
        SCOPED_TRACE(fmt::format("{} {:#04x}", elem_name(t), b | sign));
        const double lo = encoded_value(t, b | sign), hi = encoded_value(t, (b + 1) | sign);
        const uint64_t mid = f32_bits((lo + hi) / 2);
        const unsigned even = (b & 1) == 0 ? b : b + 1;
        EXPECT_EQ(a5_cvt(F32, t, f32_bits(lo)), b | sign);
        EXPECT_EQ(a5_cvt(F32, t, mid), even | sign);
        EXPECT_EQ(a5_cvt(F32, t, mid - 1), b | sign);  // toward lo's magnitude
        EXPECT_EQ(a5_cvt(F32, t, mid + 1), (b + 1) | sign);
        EXPECT_EQ(cpu_cvt(F32, t, f32_bits(lo)), b | sign);
        EXPECT_EQ(cpu_cvt(F32, t, mid), b | sign);
        EXPECT_EQ(cpu_cvt(F32, t, f32_bits(hi) - 1), b | sign);  // just below hi: still truncated to lo
      }
  }
}

}  // namespace
}  // namespace tmu::pto::test
