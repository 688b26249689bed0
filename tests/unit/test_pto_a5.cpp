// tmu::pto under --profile a5: the element types include/pto/npu/a5/'s static_asserts accept (the
// lists typed here from the headers), lanes worked by hand, and the lanes the assumption a5-ieee
// does not cover, refused.
#include <fmt/format.h>

#include "test_pto_support.h"
#include "tmu/ieee.h"
#include "tmu/pto/cycles.h"
#include "tmu/rng.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

uint64_t a5(Op op, ElemType t, uint64_t a, uint64_t b = 0) { return lane(Profile::A5, op, t, a, b); }

// The refusal names every accepted type in kAllElemTypes' order; these lists are the headers'.
TEST(PtoA5, AcceptedTypesAreTheHeaders) {
  struct Case {
    Op op;
    ElemType refused;
    const char* accepted;
  };
  const Case cases[] = {
      {Op::TMUL, I8, "f32, f16, bf16, i16, u16, i32, u32, i64, u64"},  // TMul.hpp: no 8-bit types
      {Op::TDIV, BF16, "f32, f16, i16, u16, i32, u32, i64, u64"},
      {Op::TRECIP, BF16, "f32, f16, i16, u16, i32, u32, i64, u64"},    // TDivS.hpp
      {Op::TNEG, I8, "f32, f16, bf16, i16, u16, i32, u32, i64, u64"},  // TMulS.hpp
      {Op::TAND, I64, "f32, f16, bf16, i8, u8, i16, u16, i32, u32"},   // sizeof(T) 1, 2 or 4
      {Op::TXOR, F32, "i8, u8, i16, u16, i32, u32"},
      {Op::TSHL, F16, "i8, u8, i16, u16, i32, u32, i64, u64"},
      {Op::TREM, BF16, "f32, f16, i16, u16, i32, u32, i64, u64"},
      {Op::TFMOD, I64, "f32, f16, i16, u16, i32, u32"},
      {Op::TPOW, BF16, "f32, f16, i8, u8, i16, u16, i32, u32"},        // PowCheckType, default algorithm
      {Op::TABS, U8, "f32, f16, i8, i16, i32"},
      {Op::TRELU, I16, "f32, f16, i32"},
      {Op::TSQRT, BF16, "f32, f16"},
      {Op::TPRELU, I32, "f32, f16"},
  };
  for (const Case& c : cases)
    expect_refusal([&] { a5(c.op, c.refused, 0, 0); }, ErrorKind::Unsupported,
                   {fmt::format("{} (a5)", op_name(c.op)), fmt::format("the a5 implementation accepts {}", c.accepted)});
}

TEST(PtoA5, NoTaddcAndRowMajorOnly) {
  const Tile a = one_lane(F32, 0), b = one_lane(F32, 0), c = one_lane(F32, 0);
  const Tile* three[3] = {&a, &b, &c};
  Tile dst = one_lane(F32, 0);
  expect_refusal([&] { execute(Profile::A5, Op::TSUBC, dst, three); }, ErrorKind::Unsupported,
                 {"include/pto/npu/a5/ defines no TADDC_IMPL or TSUBC_IMPL"});
  const Tile col = make_tile(F32, 8, 1, Layout::ColMajor, 1, 1);
  Tile dcol = col;
  const Tile* two[2] = {&col, &col};
  expect_refusal([&] { execute(Profile::A5, Op::TADD, dcol, two); }, ErrorKind::Unsupported,
                 {"the A5 implementation requires row-major tiles"});
}

// Types the a2a3 profile refuses and a5 accepts, with their modular integer results.
TEST(PtoA5, IntegerLanes) {
  EXPECT_EQ(a5(Op::TADD, I8, 0x7F, 0x01), 0x80u);                      // 127 + 1 wraps to -128
  EXPECT_EQ(a5(Op::TSUB, U64, 0, 1), ~0ull);
  EXPECT_EQ(a5(Op::TMUL, U32, 0x10000, 0x10000), 0u);                  // 2^32 mod 2^32
  EXPECT_EQ(a5(Op::TMUL, I16, 0xFFFD, 0x0007), 0xFFEBu);               // -3 * 7 = -21
  EXPECT_EQ(a5(Op::TMIN, I64, 0xFFFFFFFFFFFFFFFFull, 5), 0xFFFFFFFFFFFFFFFFull);  // min(-1, 5)
  EXPECT_EQ(a5(Op::TMAX, U8, 0x80, 0x7F), 0x80u);
  EXPECT_EQ(a5(Op::TNEG, I32, 5), 0xFFFFFFFBu);                        // TMULS(src, -1)
  EXPECT_EQ(a5(Op::TRELU, I32, 0xFFFFFFF9), 0u);                       // max(-7, 0)
  EXPECT_EQ(a5(Op::TABS, I8, 0xFB), 5u);                               // |-5|
  expect_refusal([] { a5(Op::TABS, I16, 0x8000); }, ErrorKind::Unsupported, {"most negative integer", "vabs"});
  expect_refusal([] { a5(Op::TDIV, I32, 7, 2); }, ErrorKind::Unsupported, {"not modelled for a5", "vdiv.md"});
}

TEST(PtoA5, RawBitLanes) {
  // TAnd.hpp reinterprets float lanes as unsigned: 1.5 & -1.0 = 0x3FC00000 & 0xBF800000.
  EXPECT_EQ(a5(Op::TAND, F32, 0x3FC00000, 0xBF800000), 0x3F800000u);
  EXPECT_EQ(a5(Op::TOR, BF16, 0x3F80, 0x8000), 0xBF80u);               // 1.0 | sign = -1.0
  EXPECT_EQ(a5(Op::TXOR, U16, 0xF0F0, 0xFF00), 0x0FF0u);
  EXPECT_EQ(a5(Op::TSHL, I64, 1, 40), 0x10000000000ull);               // a2a3 refuses 64-bit shifts
  EXPECT_EQ(a5(Op::TSHR, I8, 0x80, 2), 0xE0u);                         // -128 >> 2 = -32
  expect_refusal([] { a5(Op::TSHL, U8, 1, 8); }, ErrorKind::UndefinedBehaviour, {"shift count 8 >= element width 8"});
}

TEST(PtoA5, FloatLanesUnderTheAssumption) {
  EXPECT_EQ(a5(Op::TADD, F32, 0x3FC00000, 0x3E800000), 0x3FE00000u);  // 1.5 + 0.25 = 1.75
  EXPECT_EQ(a5(Op::TADD, F32, 0x3F800000, 0x33800000), 0x3F800000u);  // 1 + 2^-24: a tie, to even
  EXPECT_EQ(a5(Op::TADD, BF16, 0x3F80, 0x3B80), 0x3F80u);             // 1 + 2^-8 in bf16: a tie, to even
  EXPECT_EQ(a5(Op::TMUL, F16, 0x4200, 0xC400), 0xCA00u);              // 3 * -4 = -12
  EXPECT_EQ(a5(Op::TDIV, F32, 0x3F800000, 0x40400000), 0x3EAAAAABu);  // 1/3 = 0x1.555556p-2 rounded up
  EXPECT_EQ(a5(Op::TDIV, F32, 0x3F800000, 0), 0x7F800000u);           // 1/+0 = +inf
  EXPECT_EQ(a5(Op::TSQRT, F32, 0x40000000), 0x3FB504F3u);             // sqrt(2)
  EXPECT_EQ(a5(Op::TNEG, BF16, 0x3F80), 0xBF80u);                     // bf16: a2a3 refuses it
  EXPECT_EQ(a5(Op::TNEG, F32, 0), 0x80000000u);                       // +0 * -1 = -0
  EXPECT_EQ(a5(Op::TMIN, F32, 0x3F800000, 0xC0400000), 0xC0400000u);  // min(1, -3)
  EXPECT_EQ(a5(Op::TMAX, BF16, 0x3F80, 0xC040), 0x3F80u);
  EXPECT_EQ(a5(Op::TABS, F16, 0xC000), 0x4000u);                      // |-2|
  EXPECT_EQ(a5(Op::TRELU, F16, 0xC000), 0x0000u);                     // max(-2, 0) = +0
  EXPECT_EQ(a5(Op::TPRELU, F32, 0xC0000000, 0x3E800000), 0xBF000000u);  // vprelu(-2, 0.25) = -0.5
  EXPECT_EQ(a5(Op::TPRELU, F16, 0x4200, 0x3400), 0x4200u);              // vprelu(3, 0.25) = 3
  expect_refusal([] { a5(Op::TPRELU, F32, 0, 0xBF800000); }, ErrorKind::Unsupported, {"src0 is a zero", "vprelu"});
  expect_refusal([] { a5(Op::TPRELU, F32, 0x80000000, 0x3F800000); }, ErrorKind::Unsupported, {"src0 is a zero"});
}

TEST(PtoA5, WhatTheAssumptionLeavesOpenIsRefused) {
  const std::string a = "assumption a5-ieee";
  expect_refusal([&] { a5(Op::TADD, F32, 1, 0x3F800000); }, ErrorKind::Unsupported, {"a subnormal operand", a});
  expect_refusal([&] { a5(Op::TMUL, F32, 0x00800000, 0x3F000000); }, ErrorKind::Unsupported,
                 {"the result is tiny", a});                           // 2^-126 * 0.5
  expect_refusal([&] { a5(Op::TSUB, F32, 0x7F800000, 0x7F800000); }, ErrorKind::Unsupported,
                 {"the result is a NaN", a});                          // inf - inf
  expect_refusal([&] { a5(Op::TMAX, F32, 0x7FC00000, 0); }, ErrorKind::Unsupported, {"vmin/vmax return for NaN"});
  expect_refusal([&] { a5(Op::TMIN, F16, 0x8000, 0); }, ErrorKind::Unsupported, {"which zero vmin/vmax return"});
  expect_refusal([&] { a5(Op::TABS, F32, 0x80000000); }, ErrorKind::Unsupported, {"-0", "vabs/vrelu"});
  expect_refusal([&] { a5(Op::TEXP, F32, 0); }, ErrorKind::Unsupported, {"vexp and vln", "precision"});
  expect_refusal([&] { a5(Op::TPOW, F32, 0, 0); }, ErrorKind::Unsupported, {"not modelled for a5"});
  EXPECT_THAT(std::string(a5_float_assumption()), ::testing::HasSubstr("rounded to nearest even"));
}

// A whole tile takes the specialised loops (fast_lanes.cpp); each lane must still be the one IEEE
// operation of the assumption (computed here by tmu/ieee.h), and a lane the assumption leaves open
// must still be refused when its neighbours are plain.
TEST(PtoA5, TileLoopsKeepTheLaneRules) {
  const uint64_t seed = 0xA5A5;
  std::printf("seed %#llx\n", static_cast<unsigned long long>(seed));
  Rng rng(seed);
  const ieee::Format f = ieee::kBinary32;
  Tile a = make_tile(F32, 8, 8), b = make_tile(F32, 8, 8);
  for (unsigned i = 0; i < 64; ++i) {
    auto draw = [&] { return (rng.next() & 0x807FFFFF) | (uint64_t{100 + rng.below(56)} << 23); };
    a.bits[i] = draw(), b.bits[i] = draw();
  }
  a.bits[9] = 0, b.bits[9] = 0x3F800000;  // 0 + 1 goes to the generic path and gives 1
  const Tile* two[2] = {&a, &b};
  for (Op op : {Op::TADD, Op::TSUB, Op::TMUL, Op::TDIV}) {
    Tile dst = make_tile(F32, 8, 8);
    execute(Profile::A5, op, dst, two);
    for (unsigned i = 0; i < 64; ++i) {
      const ieee::Result r = op == Op::TADD   ? ieee::add(f, a.bits[i], b.bits[i])
                             : op == Op::TSUB ? ieee::sub(f, a.bits[i], b.bits[i])
                             : op == Op::TMUL ? ieee::mul(f, a.bits[i], b.bits[i])
                                              : ieee::div(f, a.bits[i], b.bits[i]);
      EXPECT_EQ(dst.bits[i], r.bits) << op_name(op) << " lane " << i << " seed " << seed;
    }
  }
  b.bits[20] = 0x7FC00000;  // min(x, NaN): the host's std::min would give x back
  Tile dst = make_tile(F32, 8, 8);
  expect_refusal([&] { execute(Profile::A5, Op::TMIN, dst, two); }, ErrorKind::Unsupported,
                 {"lane (2, 4)", "vmin/vmax return for NaN"});
  b.bits[20] = 0x00000001;  // a subnormal divisor among normal lanes
  expect_refusal([&] { execute(Profile::A5, Op::TDIV, dst, two); }, ErrorKind::Unsupported,
                 {"lane (2, 4)", "a subnormal operand"});
  // (2 - 2^-23) 2^-64 x 2^-63 = 2^-126 - 2^-150: tiny, and halfway between the largest subnormal and
  // 2^-126, so it rounds (to even) up to the smallest normal. The host's product is that normal
  // number, but the lane is tiny and a5-ieee refuses it: lane (0, 1), before the lanes after it.
  b.bits[20] = 0x3F800000;
  a.bits[1] = 0x1FFFFFFF, b.bits[1] = 0x20000000;
  expect_refusal([&] { execute(Profile::A5, Op::TMUL, dst, two); }, ErrorKind::Unsupported,
                 {"lane (0, 1)", "the result is tiny"});
  a.bits[1] = 0x9FFFFFFF;  // the same below zero: -2^-126
  expect_refusal([&] { execute(Profile::A5, Op::TMUL, dst, two); }, ErrorKind::Unsupported,
                 {"lane (0, 1)", "the result is tiny"});
}

// The formula backend's curves, worked by hand from formula_params.csv's coefficients.
TEST(PtoA5, FormulaCycles) {
  auto cycles = [](Op op, ElemType t, unsigned rows, unsigned cols, unsigned vr, unsigned vc) {
    const Tile a = make_tile(t, rows, cols, Layout::RowMajor, vr, vc);
    const Tile* srcs[3] = {&a, &a, &a};
    return a5_cycles(op, a, std::span<const Tile* const>(srcs, source_count(op))).cycles;
  };
  // 1D (all columns valid): loop = 1024 / 64 = 16; 1.2469671 x 16 + 55.073657 = 75.025 -> 75.
  EXPECT_EQ(cycles(Op::TADD, F32, 16, 64, 16, 64), 75u);
  // 2D (32 of 64 columns): inner 1, outer 16; (1.8749443 + 2.8762808) x 16 + 44.344619 = 120.364 -> 120.
  EXPECT_EQ(cycles(Op::TADD, F32, 16, 64, 16, 32), 120u);
  // One row is 1D whatever its valid columns: f16 1x256 valid 200 -> ceil(200 / 128) = 2;
  // 1.1941075 x 2 + 56.285962 = 58.674 -> 59.
  EXPECT_EQ(cycles(Op::TMUL, F16, 1, 256, 1, 200), 59u);
  // TNEG (a scalar-VF op) is 2D on one row with a partial width: inner 1, outer 1;
  // 1.0952879 + 4.5652633 + 51.508464 = 57.169 -> 57.
  EXPECT_EQ(cycles(Op::TNEG, F32, 1, 64, 1, 32), 57u);
  expect_refusal([&] { cycles(Op::TDIV, F32, 1, 64, 1, 64); }, ErrorKind::Unsupported,
                 {"formula_params.csv", "no curve for TDIV on f32 (1D path)"});
  expect_refusal([&] { cycles(Op::TADD, I32, 1, 64, 1, 64); }, ErrorKind::Unsupported, {"no curve for TADD on i32"});
}

// TSEL f32's 1D curve is chosen by the parity of the loop count (TselOpParams: TSel_b32_even/_odd).
TEST(PtoA5, FormulaCyclesTselParity) {
  auto tsel = [](unsigned cols) {
    const Tile a = make_tile(F32, 1, cols, Layout::RowMajor, 1, cols);
    const Tile* srcs[3] = {&a, &a, &a};
    return a5_cycles(Op::TSEL, a, srcs).cycles;
  };
  // 1x128: loop 128 / 64 = 2, even: 1.9336735 x 2 + 58.846939 = 62.714 -> 63.
  EXPECT_EQ(tsel(128), 63u);
  // 1x64: loop 1, odd: 3.9142857 x 1 + 63.885714 = 67.800 -> 68.
  EXPECT_EQ(tsel(64), 68u);
}

// TCVT's curves (formula_params.csv's TCVT rows, op_params CAST_RINT_SAT_ON_normal), worked by hand;
// the repeat is vf_costmodel.hpp's TryGetA5CvtElementsPerRepeat, not the destination's width.
TEST(PtoA5, FormulaCyclesTcvt) {
  auto estimate = [](ElemType from, ElemType to, unsigned rows, unsigned cols, unsigned vr, unsigned vc,
                     const OpParams& params = {}) {
    const Tile src = make_tile(from, rows, cols, Layout::RowMajor, vr, vc);
    const Tile dst = make_tile(to, rows, cols, Layout::RowMajor, vr, vc);
    const Tile* srcs[1] = {&src};
    return a5_cycles(Op::TCVT, dst, srcs, params);
  };
  // f32 -> f16 16x64, all valid: 1D, repeat 64 (f32 source), loop 1024 / 64 = 16;
  // 1.3196721 x 16 + 52.295082 = 21.115 + 52.295 = 73.410 -> 73.
  EXPECT_EQ(estimate(F32, F16, 16, 64, 16, 64).cycles, 73u);
  // f32 -> f16 4x256 valid 4x200: 2D, where f32 -> f16 counts 128 lanes a repeat: inner
  // ceil(200 / 128) = 2, outer 4; (2.2580054 x 2 + 1.0422433) x 4 + 55.18408 = 5.5582541 x 4 +
  // 55.18408 = 77.417 -> 77 (64 lanes a repeat would give inner 4 and 95).
  const CycleEstimate two_d = estimate(F32, F16, 4, 256, 4, 200);
  EXPECT_EQ(two_d.cycles, 77u);
  ASSERT_EQ(two_d.steps.size(), 1u);
  EXPECT_EQ(two_d.steps[0].call, "TCVT f32->f16 vf (2D, nested_loop)");
  EXPECT_EQ(two_d.steps[0].repeats, 8u);  // loop = inner x outer
  // f8e4m3 -> f32 1x256: 1D; the backend lists fp8 with the 32-bit types, so repeat 64, loop 4;
  // 3.9344262 x 4 + 81.016393 = 15.738 + 81.016 = 96.754 -> 97.
  EXPECT_EQ(estimate(F8E4M3, F32, 1, 256, 1, 256).cycles, 97u);
  // f16 -> f32's 1D slope is negative: 47x64 all valid is loop 3008 / 64 = 47 (a widening counts f32
  // lanes); -1.7704918 x 47 + 82.442623 = -0.770, not positive -> 0; loop 46: 1.000 -> 1.
  EXPECT_EQ(estimate(F16, F32, 47, 64, 47, 64).cycles, 0u);
  EXPECT_EQ(estimate(F16, F32, 46, 64, 46, 64).cycles, 1u);
  // i32 -> f32 is a castData pair with no row in the CSV.
  expect_refusal([&] { estimate(I32, F32, 1, 64, 1, 64); }, ErrorKind::Unsupported,
                 {"TCVT (a5)", "formula_params.csv", "no TCVT curve from i32 to f32"});
  // A pair TCvt.hpp has no overload for.
  expect_refusal([&] { estimate(I8, F32, 1, 64, 1, 64); }, ErrorKind::Unsupported, {"no castData overload"});
  // The CSV fits only CAST_RINT_SAT_ON_normal: FLOOR, or saturation OFF, has no curve.
  OpParams floor;
  floor.round = RoundMode::Floor;
  expect_refusal([&] { estimate(F32, F16, 1, 64, 1, 64, floor); }, ErrorKind::Unsupported,
                 {"only under CAST_RINT_SAT_ON_normal", "FLOOR with saturation ON"});
  OpParams off;
  off.saturation = SaturationMode::Off;
  expect_refusal([&] { estimate(F32, F16, 1, 64, 1, 64, off); }, ErrorKind::Unsupported, {"RINT with saturation OFF"});
}

// OpParams::a5_ieee off: float lanes computed under the assumption are refused, raw bits still run.
TEST(PtoA5, AssumptionSwitchedOff) {
  const Tile a = one_lane(F32, 0x3F800000);
  const Tile* two[2] = {&a, &a};
  OpParams off;
  off.a5_ieee = false;
  Tile dst = one_lane(F32, 0);
  expect_refusal([&] { execute(Profile::A5, Op::TADD, dst, two, off); }, ErrorKind::Unsupported,
                 {"TADD (a5)", "f32 lanes on a5 are computed only under the assumption a5-ieee, which is switched off"});
  EXPECT_EQ(dst.at(0, 0), 0u);  // dst untouched
  execute(Profile::A5, Op::TAND, dst, two, off);
  EXPECT_EQ(dst.at(0, 0), 0x3F800000u);
  const Tile i = one_lane(I32, 5);
  const Tile* ints[2] = {&i, &i};
  Tile di = one_lane(I32, 0);
  execute(Profile::A5, Op::TADD, di, ints, off);
  EXPECT_EQ(di.at(0, 0), 10u);
}

TEST(PtoA5, CompareAndSelectNotModelledYet) {
  const Tile a = one_lane(F32, 0);
  Tile p = make_tile(U8, 1, 32, Layout::RowMajor, 1, 1);
  const Tile* two[2] = {&a, &a};
  expect_refusal([&] { execute(Profile::A5, Op::TCMP, p, two); }, ErrorKind::Unsupported, {"TCMP (a5)", "TCmp.hpp"});
}

}  // namespace
}  // namespace tmu::pto::test
