// tmu::amx matfp execution on small cases whose results are worked out by hand from corsix/amx
// matfp.md and RegisterFile.md (the constants are IEEE encodings written out; exact_int encodes
// small integers from the format definition). Every test compares the whole state, so a stray write
// anywhere fails it.
#include <gtest/gtest.h>

#include "test_amx_support.h"
#include "tmu/amx/matfp.h"

namespace tmu::amx::test {
namespace {

// One enabled lane pair: x lane xi, y lane yj (enable mode 1).
MatfpBits one(unsigned lw, unsigned xi = 0, unsigned yj = 0) { return MatfpBits{}.lw(lw).xen(1, xi).yen(1, yj); }

struct Case {
  State before{}, want{};
  WriteSet run(uint64_t operand, Version v = Version::M1) {
    State got = before;
    const WriteSet ws = execute_matfp(got, operand, v);
    EXPECT_EQ(got, want);
    return ws;
  }
};

constexpr uint16_t kH15 = 0x3E00, kH1 = 0x3C00, kHNan = 0x7E00;
constexpr uint32_t kS15 = 0x3FC00000, kSNan = 0x7FC00000;
constexpr uint64_t kD15 = 0x3FF8000000000000ull, kDNan = 0x7FF8000000000000ull;
constexpr uint16_t kB15 = 0x3FC0;

TEST(AmxMatfpExec, OnePointFiveTimesTwoPlusOneInEveryLaneWidth) {
  struct W { unsigned lw; Version v; unsigned xb, zb; uint64_t x15, two, zone, zfour; };
  const W ws[] = {{kLwF16, Version::M1, 2, 2, kH15, h(2), h(1), h(4)},
                  {kLwF32, Version::M1, 4, 4, kS15, s(2), s(1), s(4)},
                  {kLwF64, Version::M1, 8, 8, kD15, d(2), d(1), d(4)},
                  {kLwF16F32, Version::M1, 2, 4, kH15, h(2), s(1), s(4)},
                  {kLwBf16, Version::M2, 2, 2, kB15, bf(2), bf(1), bf(4)},
                  {kLwBf16F32, Version::M2, 2, 4, kB15, bf(2), s(1), s(4)}};
  for (const W& w : ws) {
    Case c;
    poke(c.before.x, 0, w.xb, 0, w.x15);
    poke(c.before.y, 0, w.xb, 0, w.two);
    poke_row(c.before.z[0], w.zb, 0, w.zone);
    c.want = c.before;
    poke_row(c.want.z[0], w.zb, 0, w.zfour);
    EXPECT_EQ(c.run(one(w.lw).v, w.v), WriteSet{1}) << w.lw;
    // z - x*y: 1 - 3 = -2.
    poke_row(c.want.z[0], w.zb, 0, w.lw == kLwF16 ? h(-2) : w.lw == kLwBf16 ? bf(-2) : w.zb == 4 ? s(-2) : d(-2));
    EXPECT_EQ(c.run(one(w.lw).alu(1).v, w.v), WriteSet{1}) << w.lw;
  }
}

TEST(AmxMatfpExec, OneRoundingNotTwo) {
  // (1 + 2^-k)^2 - 1 = 2^-(k-1) + 2^-2k exactly; rounding the product first would lose the 2^-2k.
  struct W { unsigned lw; Version v; unsigned xb, zb; uint64_t x, zminus1, want; };
  const W ws[] = {{kLwF16, Version::M1, 2, 2, 0x3C10, h(-1), 0x2808},  // k = 6
                  {kLwF32, Version::M1, 4, 4, 0x3F800800, s(-1), 0x3A000400},  // k = 12
                  {kLwF64, Version::M1, 8, 8, 0x3FF0000002000000ull, d(-1), 0x3E50000001000000ull},  // k = 27
                  {kLwF16F32, Version::M1, 2, 4, 0x3C10, s(-1), 0x3D010000},
                  {kLwBf16, Version::M2, 2, 2, 0x3F88, bf(-1), 0x3E04}};  // k = 4
  for (const W& w : ws) {
    Case c;
    poke(c.before.x, 0, w.xb, 0, w.x);
    poke(c.before.y, 0, w.xb, 0, w.x);
    poke_row(c.before.z[0], w.zb, 0, w.zminus1);
    c.want = c.before;
    poke_row(c.want.z[0], w.zb, 0, w.want);
    c.run(one(w.lw).v, w.v);
  }
}

TEST(AmxMatfpExec, Code0IsF16OnM1AndBf16FromM2) {
  Case c;
  poke(c.before.x, 0, 2, 0, kH15);
  poke(c.before.y, 0, 2, 0, h(2));
  poke_row(c.before.z[0], 2, 0, h(1));
  c.want = c.before;
  poke_row(c.want.z[0], 2, 0, h(4));
  c.run(one(0).v, Version::M1);
  // The same bits as bf16: 0.125 * 2 + 2^-7 = 2^-2 (1 + 2^-5).
  poke_row(c.want.z[0], 2, 0, 0x3E84);
  for (Version v : {Version::M2, Version::M3, Version::M4}) c.run(one(0).v, v);
}

TEST(AmxMatfpExec, LaneEnablesAndTheZRowBitsF32Reads) {
  Case c;
  for (unsigned i = 0; i < 16; ++i) poke(c.before.x, 0, 4, i, s(i)), poke(c.before.y, 0, 4, i, s(i));
  for (auto& row : c.before.z) row.fill(0x11);  // 0x11111111: far below an ulp of any nonzero i * j here
  c.want = c.before;
  for (unsigned j : {14u, 15u})
    for (unsigned i : {0u, 1u, 2u}) poke_row(c.want.z[4 * j + 2], 4, i, i == 0 ? 0x11111111u : s(i * j));
  // x: first 3 lanes; y: last 2 lanes; z_row 6 = 0b110, f32 reads its low two bits.
  EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF32).xen(2, 3).yen(3, 2).zrow(6).v), WriteSet{(1ull << 58) | (1ull << 62)});
}

TEST(AmxMatfpExec, ZRowBitsEachLaneWidthIgnores) {
  // x = y = 1 in every lane, z = 0: every enabled lane becomes 1; which rows depends on the width.
  struct W { unsigned lw, xb, zb; uint64_t one_xy, one_z; unsigned zrow; uint64_t rows; };
  const W ws[] = {{kLwF16, 2, 2, h(1), h(1), 7, 0xAAAAAAAAAAAAAAAAull},   // 2j + 1: bits 1, 2 ignored
                  {kLwF32, 4, 4, s(1), s(1), 7, 0x8888888888888888ull},   // 4j + 3: bit 2 ignored
                  {kLwF64, 8, 8, d(1), d(1), 5, 0x2020202020202020ull},   // 8j + 5
                  {kLwF16F32, 2, 4, h(1), s(1), 7, ~0ull}};               // all rows, z_row ignored
  for (const W& w : ws) {
    Case c;
    for (unsigned i = 0; i < 64 / w.xb; ++i) poke(c.before.x, 0, w.xb, i, w.one_xy), poke(c.before.y, 0, w.xb, i, w.one_xy);
    c.want = c.before;
    for (unsigned r = 0; r < 64; ++r)
      if ((w.rows >> r) & 1)
        for (unsigned l = 0; l < 64 / w.zb; ++l) poke_row(c.want.z[r], w.zb, l, w.one_z);
    EXPECT_EQ(c.run(MatfpBits{}.lw(w.lw).zrow(w.zrow).v), WriteSet{w.rows}) << w.lw;
  }
}

TEST(AmxMatfpExec, F16ToF32UsesInterleavedRowPairs) {
  Case c;
  for (unsigned i = 0; i < 32; ++i) poke(c.before.x, 0, 2, i, h(i)), poke(c.before.y, 0, 2, i, h(i + 1));
  c.want = c.before;
  // RegisterFile.md "Mixed lane widths": pair (2j, 2j + 1) holds y lane j; even x lanes in row 2j,
  // odd in row 2j + 1, at f32 lane i / 2.
  for (unsigned j = 0; j < 32; ++j)
    for (unsigned i = 0; i < 32; ++i) poke_row(c.want.z[2 * j + i % 2], 4, i / 2, s(i * (j + 1)));
  EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF16F32).zrow(5).v), WriteSet{~0ull});
  // One lane pair: x lane 5, y lane 3 -> row 7, f32 lane 2 only.
  Case one_lane;
  poke(one_lane.before.x, 0, 2, 5, h(3));
  poke(one_lane.before.y, 0, 2, 3, h(5));
  one_lane.want = one_lane.before;
  poke_row(one_lane.want.z[7], 4, 2, s(15));
  EXPECT_EQ(one_lane.run(one(kLwF16F32, 5, 3).v), WriteSet{1ull << 7});
}

TEST(AmxMatfpExec, OffsetsWrapAcrossThePool) {
  Case c;
  poke(c.before.x, 0x1F8, 8, 0, kD15);  // bytes 504..511
  poke(c.before.x, 0x1F8, 8, 1, d(2));  // bytes 0..7
  poke(c.before.y, 0x1FF, 8, 0, d(2));  // byte 511, then bytes 0..6
  c.want = c.before;
  poke_row(c.want.z[0], 8, 0, d(3));
  poke_row(c.want.z[0], 8, 1, d(4));
  EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF64).xoff(0x1F8).yoff(0x1FF).xen(2, 2).yen(1, 0).v), WriteSet{1});
  // f16 at odd offset 511: lane 0 is byte 511 (low) and byte 0 (high).
  Case h16;
  h16.before.x[511] = 0x00, h16.before.x[0] = 0x3E;  // 1.5
  h16.before.y[0] = 0x00, h16.before.y[1] = 0x40;     // 2
  h16.want = h16.before;
  poke_row(h16.want.z[0], 2, 0, h(3));
  h16.run(one(kLwF16).xoff(0x1FF).v);
}

TEST(AmxMatfpExec, NaNsBecomeTheDefaultNaN) {
  Case c;
  poke(c.before.x, 0, 4, 0, 0x7F800001);  // signalling NaN
  poke(c.before.x, 0, 4, 1, s(1));
  poke(c.before.y, 0, 4, 0, s(1));
  poke_row(c.before.z[0], 4, 0, s(1));
  poke_row(c.before.z[0], 4, 1, 0xFFC12345);  // quiet NaN with a payload
  c.want = c.before;
  poke_row(c.want.z[0], 4, 0, kSNan);
  poke_row(c.want.z[0], 4, 1, kSNan);
  c.run(MatfpBits{}.lw(kLwF32).xen(2, 2).yen(1, 0).v);
  Case inf0;  // f16 inf * 0 + 1 is invalid
  poke(inf0.before.x, 0, 2, 0, 0x7C00);
  poke_row(inf0.before.z[0], 2, 0, h(1));
  inf0.want = inf0.before;
  poke_row(inf0.want.z[0], 2, 0, kHNan);
  inf0.run(one(kLwF16).v);
  Case infinf;  // f64 inf * 1 + -inf
  poke(infinf.before.x, 0, 8, 0, 0x7FF0000000000000ull);
  poke(infinf.before.y, 0, 8, 0, d(1));
  poke_row(infinf.before.z[0], 8, 0, 0xFFF0000000000000ull);
  infinf.want = infinf.before;
  poke_row(infinf.want.z[0], 8, 0, kDNan);
  infinf.run(one(kLwF64).v);
}

TEST(AmxMatfpExec, SignedZeros) {
  Case c;  // +0 * 1 + -0 = +0; -0 - (+0 * 1) = -0
  poke(c.before.y, 0, 2, 0, h(1));
  poke_row(c.before.z[0], 2, 0, 0x8000);
  c.want = c.before;
  poke_row(c.want.z[0], 2, 0, 0x0000);
  c.run(one(kLwF16).v);
  poke_row(c.want.z[0], 2, 0, 0x8000);
  c.run(one(kLwF16).alu(1).v);
}

TEST(AmxMatfpExec, SelectXAtMostZero) {
  // x <= 0 ? 0 : y, Z not read: -0 and +0 and negatives select +0; NaNs of either sign select y.
  const uint16_t xs[] = {0x8000, 0x0000, h(-1), h(1), kHNan, 0xFE00, 0x7C00, 0xFC00};
  const uint16_t want[] = {0, 0, 0, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0};
  Case c;
  for (unsigned i = 0; i < 8; ++i) poke(c.before.x, 0, 2, i, xs[i]);
  poke(c.before.y, 0, 2, 0, 0x7C01);  // a signalling NaN, passed through as it is
  c.before.z[0].fill(0x55);
  c.want = c.before;
  for (unsigned i = 0; i < 8; ++i) poke_row(c.want.z[0], 2, i, want[i]);
  c.run(MatfpBits{}.lw(kLwF16).alu(4).xen(4, 8).yen(1, 0).v);
  // Widening: y is converted, a NaN becoming the f32 default NaN.
  Case w;
  poke(w.before.x, 0, 2, 0, h(1));
  poke(w.before.x, 0, 2, 1, h(1));
  poke(w.before.x, 0, 2, 2, 0x8000);
  poke(w.before.y, 0, 2, 0, 0x7C01);
  poke(w.before.y, 0, 2, 1, kH15);
  w.before.z[0].fill(0x55), w.before.z[1].fill(0x55), w.before.z[2].fill(0x55);
  w.want = w.before;
  poke_row(w.want.z[0], 4, 0, kSNan);    // x lane 0, y lane 0: row 0, lane 0
  poke_row(w.want.z[1], 4, 0, kSNan);    // x lane 1: row 1, lane 0
  poke_row(w.want.z[0], 4, 1, 0);        // x lane 2 (-0): row 0, lane 1
  poke_row(w.want.z[2], 4, 0, kS15);     // y lane 1: rows 2, 3
  poke_row(w.want.z[3], 4, 0, kS15);
  poke_row(w.want.z[2], 4, 1, 0);
  EXPECT_EQ(w.run(MatfpBits{}.lw(kLwF16F32).alu(4).xen(4, 3).yen(4, 2).v), WriteSet{0xF});
}

TEST(AmxMatfpExec, EnableModeZeroSpecialValues) {
  // Value 3 (on X or Y): every enabled lane is written with +0, whatever the ALU computes.
  for (bool on_x : {true, false}) {
    Case c;
    for (unsigned i = 0; i < 8; ++i) poke(c.before.x, 0, 8, i, d(2)), poke(c.before.y, 0, 8, i, d(2));
    for (auto& row : c.before.z) row.fill(0x44);
    c.want = c.before;
    for (unsigned j = 0; j < 8; ++j) c.want.z[8 * j + 1].fill(0);
    const MatfpBits b = on_x ? MatfpBits{}.lw(kLwF64).zrow(1).xen(0, 3) : MatfpBits{}.lw(kLwF64).zrow(1).yen(0, 3);
    EXPECT_EQ(c.run(b.v), WriteSet{0x0202020202020202ull});
  }
  // Value 4 or 5: that operand reads as +0, so inf there gives z + 0 rather than inf.
  for (unsigned v : {4u, 5u})
    for (bool on_x : {true, false}) {
      Case c;
      poke(c.before.x, 0, 8, 0, on_x ? 0x7FF0000000000000ull : d(2));
      poke(c.before.y, 0, 8, 0, on_x ? d(2) : 0x7FF0000000000000ull);
      poke_row(c.before.z[0], 8, 0, d(1));
      c.want = c.before;
      for (unsigned j = 0; j < 8; ++j)
        for (unsigned i = 0; i < 8; ++i) poke_row(c.want.z[8 * j], 8, i, (i == 0 && j == 0) ? d(1) : 0);
      const MatfpBits b = on_x ? MatfpBits{}.lw(kLwF64).xen(0, v) : MatfpBits{}.lw(kLwF64).yen(0, v);
      EXPECT_EQ(c.run(b.v), WriteSet{0x0101010101010101ull}) << v << on_x;
    }
  // Value 1: odd lanes only.
  Case odd;
  for (unsigned i = 0; i < 8; ++i) poke(odd.before.x, 0, 8, i, d(i)), poke(odd.before.y, 0, 8, i, d(1));
  odd.want = odd.before;
  for (unsigned i : {1u, 3u, 5u, 7u}) poke_row(odd.want.z[0], 8, i, d(i));
  odd.run(MatfpBits{}.lw(kLwF64).xen(0, 1).yen(1, 0).v);
}

TEST(AmxMatfpExec, NoOps) {
  Case c;
  for (unsigned i = 0; i < 16; ++i) poke(c.before.x, 0, 4, i, s(3)), poke(c.before.y, 0, 4, i, s(3));
  c.want = c.before;
  for (unsigned mbz = 1; mbz < 8; ++mbz) EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF32).mbz(mbz).v), WriteSet{});
  for (unsigned alu : {2u, 3u, 5u, 7u, 10u, 63u}) EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF32).alu(alu).v), WriteSet{});
  for (unsigned mode : {6u, 7u}) EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF32).xen(mode, 0).v), WriteSet{});
  EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF32).yen(0, 6).v), WriteSet{});
  EXPECT_EQ(c.run(MatfpBits{}.lw(kLwF32).yen(4, 0).v), WriteSet{});
}

TEST(AmxMatfpExec, IndexedLoads) {
  // X, 2-bit indices, f32, table x2: lanes 0..3 index 3, 2, 1, 0; the rest index 0.
  Case c;
  c.before.x[0] = 0x1B;
  for (unsigned i = 0; i < 16; ++i) poke(c.before.x, 128, 4, i, s(10 + i));
  poke(c.before.y, 0, 4, 0, s(1));
  c.want = c.before;
  const unsigned want[16] = {13, 12, 11, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10};
  for (unsigned i = 0; i < 16; ++i) poke_row(c.want.z[0], 4, i, s(want[i]));
  // ALU field bits carry the index fields; the operation is z + x*y.
  c.run(MatfpBits{}.lw(kLwF32).indexed(false, false, 2).yen(1, 0).v);
  // Y, 4-bit indices, f16, table y1, index span at y offset 0x1FC (wrapping): y lane 0 -> 9, 1 -> 4.
  Case yc;
  yc.before.y[0x1FC] = 0x49;
  for (unsigned i = 0; i < 32; ++i) poke(yc.before.y, 64, 2, i, h(i));
  poke(yc.before.x, 0, 2, 0, h(2));
  yc.want = yc.before;
  poke_row(yc.want.z[0], 2, 0, h(18));
  poke_row(yc.want.z[2], 2, 0, h(8));
  yc.run(MatfpBits{}.lw(kLwF16).indexed(true, true, 1).yoff(0x1FC).xen(1, 0).yen(2, 2).v);
}

TEST(AmxMatfpExec, ShufflesApplyToXAndY) {
  Case c;  // f64 X shuffle S1: lanes 0 4 1 5 2 6 3 7
  for (unsigned i = 0; i < 8; ++i) poke(c.before.x, 0, 8, i, d(i));
  poke(c.before.y, 0, 8, 0, d(1));
  c.want = c.before;
  const int s1[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  for (unsigned i = 0; i < 8; ++i) poke_row(c.want.z[0], 8, i, d(s1[i]));
  c.run(MatfpBits{}.lw(kLwF64).xshuf(1).yen(1, 0).v);
  Case yc;  // f64 Y shuffle S2: lanes 0 2 4 6 1 3 5 7
  for (unsigned j = 0; j < 8; ++j) poke(yc.before.y, 0, 8, j, d(j + 1));
  poke(yc.before.x, 0, 8, 0, d(1));
  yc.want = yc.before;
  const int s2[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  for (unsigned j = 0; j < 8; ++j) poke_row(yc.want.z[8 * j], 8, 0, d(s2[j] + 1));
  yc.run(MatfpBits{}.lw(kLwF64).yshuf(2).xen(1, 0).v);
}

}  // namespace
}  // namespace tmu::amx::test
