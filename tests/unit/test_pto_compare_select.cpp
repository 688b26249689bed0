// tmu::pto TCMP's predicate packing and TSEL's mask addressing in both profiles, worked by hand
// from include/pto/cpu/TCmp.h and TSel.hpp and include/pto/npu/a2a3/TCmp.hpp and TSel.hpp.
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

constexpr uint64_t kNaN32 = 0x7FC00000, kNegZero32 = 0x80000000;

// f32 pairs: (1,2) (2,2) (3,2) (4,2) (NaN,NaN) (+0,-0) (-0,+0) (5,1).
Tile pairs_src0() { return filled(F32, 1, 8, {0x3F800000, 0x40000000, 0x40400000, 0x40800000, kNaN32, 0, kNegZero32, 0x40A00000}); }
Tile pairs_src1() { return filled(F32, 1, 8, {0x40000000, 0x40000000, 0x40000000, 0x40000000, kNaN32, kNegZero32, 0, 0x3F800000}); }

uint64_t cmp_byte(Profile p, CmpMode m) {
  const Tile a = pairs_src0(), b = pairs_src1();
  Tile dst = make_tile(U8, 1, 32, Layout::RowMajor, 1, 32);
  for (auto& v : dst.bits) v = 0xAA;
  const Tile* srcs[] = {&a, &b};
  execute(p, Op::TCMP, dst, srcs, OpParams{.cmp = m});
  for (unsigned c = 1; c < 32; ++c) EXPECT_EQ(dst.at(0, c), 0u) << "TCmp.h clears the whole predicate tile";
  return dst.at(0, 0);
}

TEST(PtoCompare, SimulatorModes) {
  // Bit j is lane j. LT: only 1 < 2. EQ: 2 == 2, +0 == -0, -0 == +0 (NaN == NaN is false).
  EXPECT_EQ(cmp_byte(Profile::CpuSim, CmpMode::LT), 0x01u);
  EXPECT_EQ(cmp_byte(Profile::CpuSim, CmpMode::EQ), 0x62u);   // bits 1, 5, 6
  EXPECT_EQ(cmp_byte(Profile::CpuSim, CmpMode::NE), 0x9Du);   // the other five, NaN included
  EXPECT_EQ(cmp_byte(Profile::CpuSim, CmpMode::GE), 0xEEu);   // bits 1, 2, 3, 5, 6, 7
  EXPECT_EQ(cmp_byte(Profile::CpuSim, CmpMode::GT), 0x8Cu);   // 3 > 2, 4 > 2, 5 > 1
  EXPECT_EQ(cmp_byte(Profile::CpuSim, CmpMode::LE), 0x63u);   // 1 <= 2 and the three equal pairs
}

TEST(PtoCompare, SimulatorU32WordsAndTheDstValidColumns) {
  // i8 lanes c = 0..39 against 20: LT sets bits 0..19 of word 0; word 1 (lanes 32..39) is 0.
  Tile a = make_tile(I8, 1, 64, Layout::RowMajor, 1, 40), b = a;
  for (unsigned c = 0; c < 40; ++c) set(a, 0, c, c), set(b, 0, c, 20);
  Tile dst = make_tile(U32, 1, 8, Layout::RowMajor, 1, 8);
  for (auto& v : dst.bits) v = 0xFFFFFFFF;
  const Tile* srcs[] = {&a, &b};
  execute(Profile::CpuSim, Op::TCMP, dst, srcs, OpParams{.cmp = CmpMode::LT});
  EXPECT_EQ(dst.at(0, 0), 0x000FFFFFu);
  for (unsigned c = 1; c < 8; ++c) EXPECT_EQ(dst.at(0, c), 0u);
  // With one valid dst column, min(ceil(40 / 32), 1) = 1 word is written.
  set_valid_region(dst, 1, 1);
  for (auto& v : a.bits) v = 0;
  execute(Profile::CpuSim, Op::TCMP, dst, srcs, OpParams{.cmp = CmpMode::LT});
  EXPECT_EQ(dst.at(0, 0), 0xFFFFFFFFu);
  EXPECT_EQ(dst.at(0, 1), 0u);
}

TEST(PtoCompare, SimulatorClearsRowsTimesRowStride) {
  // ZeroTileData clears Rows * RowStride elements; RowStride is 1 for a column-major tile, so only
  // its first column (32 bytes) is cleared and column 1 keeps 0xAA.
  Tile a = make_tile(F32, 32, 8, Layout::RowMajor), b = a;
  for (auto& v : b.bits) v = 0x3F800000;  // a < b everywhere: 0 < 1
  Tile dst = make_tile(U8, 32, 2, Layout::ColMajor, 32, 1);
  for (auto& v : dst.bits) v = 0xAA;
  const Tile* srcs[] = {&a, &b};
  execute(Profile::CpuSim, Op::TCMP, dst, srcs, OpParams{.cmp = CmpMode::LT});
  for (unsigned r = 0; r < 32; ++r) {
    EXPECT_EQ(dst.at(r, 0), 0xFFu);
    EXPECT_EQ(dst.at(r, 1), 0xAAu);
  }
}

// A2/A3: 64 f32 lanes (one 256-byte repeat) of row 0 against 10; dst keeps what it held past the
// 8 written bytes.
Tile a2a3_cmp(ElemType t, CmpMode m) {
  Tile a = make_tile(t, 1, 64), b = a;
  for (unsigned c = 0; c < 64; ++c) set(a, 0, c, c), set(b, 0, c, 10);
  Tile dst = make_tile(U8, 1, 32);
  for (auto& v : dst.bits) v = 0xAA;
  const Tile* srcs[] = {&a, &b};
  execute(Profile::A2A3, Op::TCMP, dst, srcs, OpParams{.cmp = m});
  return dst;
}

TEST(PtoCompare, A2A3Packing) {
  // Lanes hold the patterns 0..63 (as f32: +0 and positive subnormals, ordered like the integers)
  // against the pattern 10.
  const Tile lt = a2a3_cmp(F32, CmpMode::LT);
  EXPECT_EQ(lt.at(0, 0), 0xFFu);  // lanes 0..7
  EXPECT_EQ(lt.at(0, 1), 0x03u);  // lanes 8, 9
  for (unsigned c = 2; c < 8; ++c) EXPECT_EQ(lt.at(0, c), 0u);
  for (unsigned c = 8; c < 32; ++c) EXPECT_EQ(lt.at(0, c), 0xAAu) << "A2/A3 does not clear dst";
  // int32: vcmpv_eq whatever the mode: LT gives lane 10 alone.
  const Tile i32_lt = a2a3_cmp(I32, CmpMode::LT);
  EXPECT_EQ(i32_lt.at(0, 0), 0u);
  EXPECT_EQ(i32_lt.at(0, 1), 0x04u);
  // NE: EQ, then vnot over the row's 32 bytes, the unwritten ones included.
  for (ElemType t : {F32, I32}) {
    const Tile ne = a2a3_cmp(t, CmpMode::NE);
    EXPECT_EQ(ne.at(0, 0), 0xFFu);
    EXPECT_EQ(ne.at(0, 1), 0xFBu);
    for (unsigned c = 2; c < 8; ++c) EXPECT_EQ(ne.at(0, c), 0xFFu);
    for (unsigned c = 8; c < 32; ++c) EXPECT_EQ(ne.at(0, c), 0x55u);
  }
}

TEST(PtoCompare, MoreTypes) {
  // bf16 into a u32 predicate (simulator): GT over (2, 1) (1, 2) (NaN, 1) (-0, +0): lane 0 only.
  Tile a = filled(BF16, 1, 16, {0x4000, 0x3F80, 0x7FC0, 0x8000}), b = filled(BF16, 1, 16, {0x3F80, 0x4000, 0x3F80, 0});
  set_valid_region(a, 1, 4);
  set_valid_region(b, 1, 4);
  Tile dst = make_tile(U32, 1, 8, Layout::RowMajor, 1, 1);
  const Tile* srcs[] = {&a, &b};
  execute(Profile::CpuSim, Op::TCMP, dst, srcs, OpParams{.cmp = CmpMode::GT});
  EXPECT_EQ(dst.at(0, 0), 1u);
  execute(Profile::CpuSim, Op::TCMP, dst, srcs, OpParams{.cmp = CmpMode::NE});
  EXPECT_EQ(dst.at(0, 0), 0x7u);  // -0 == +0
  // f16 on A2/A3: 128 lanes per repeat, 16 predicate bytes. Lanes hold the patterns 0..127 against
  // 100: LE sets lanes 0..100, bytes 0..11 full, byte 12 bits 0..4.
  Tile h = make_tile(F16, 1, 128), h100 = h;
  for (unsigned c = 0; c < 128; ++c) set(h, 0, c, c), set(h100, 0, c, 100);
  Tile pred = make_tile(U8, 1, 32);
  const Tile* hs[] = {&h, &h100};
  execute(Profile::A2A3, Op::TCMP, pred, hs, OpParams{.cmp = CmpMode::LE});
  for (unsigned c = 0; c < 12; ++c) EXPECT_EQ(pred.at(0, c), 0xFFu);
  EXPECT_EQ(pred.at(0, 12), 0x1Fu);
  for (unsigned c = 13; c < 32; ++c) EXPECT_EQ(pred.at(0, c), 0u);
}

TEST(PtoCompare, Refusals) {
  Tile a = make_tile(F32, 1, 16), b = a;
  Tile dst8 = make_tile(U8, 1, 32), dst32 = make_tile(U32, 1, 8);
  const Tile* srcs[] = {&a, &b};
  expect_refusal([&] { execute(Profile::A2A3, Op::TCMP, dst8, srcs); }, ErrorKind::Unsupported,
                 {"TCMP (a2a3)", "16 valid columns of f32", "multiples of 64 columns"});
  expect_refusal([&] { execute(Profile::A2A3, Op::TCMP, dst32, srcs); }, ErrorKind::Unsupported,
                 {"f32 sources with a u32 predicate", "u8 predicate"});
  Tile h = make_tile(I16, 1, 16), h2 = h;
  const Tile* hs[] = {&h, &h2};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TCMP, dst8, hs); }, ErrorKind::Unsupported,
                 {"TCMP (cpusim)", "i16 sources with a u8 predicate"});
  Tile c = make_tile(F32, 1, 16, Layout::RowMajor, 1, 8);
  const Tile* mismatched[] = {&a, &c};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TCMP, dst8, mismatched); }, ErrorKind::UndefinedBehaviour,
                 {"src0's valid region 1x16 differs from src1's 1x8"});
}

// f32 2x8 tiles, valid 2x6; src0 lanes hold 0x100 + 8r + c, src1 lanes 0x200 + 8r + c.
struct SelCase {
  Tile dst = make_tile(F32, 2, 8, Layout::RowMajor, 2, 6), src0 = make_tile(F32, 2, 8), src1 = make_tile(F32, 2, 8);
  Tile mask = make_tile(U8, 2, 32, Layout::RowMajor, 2, 1);
  SelCase() {
    for (unsigned r = 0; r < 2; ++r)
      for (unsigned c = 0; c < 8; ++c) set(src0, r, c, 0x100 + 8 * r + c), set(src1, r, c, 0x200 + 8 * r + c);
    for (auto& v : dst.bits) v = 0xEEEE;
    set(mask, 0, 0, 0xA5);  // bits 0..7: 1 0 1 0 0 1 0 1
    set(mask, 1, 0, 0x0C);  // bits 0..7: 0 0 1 1 0 0 0 0
  }
  // 1 where dst took src0.
  std::vector<int> picks(Profile p) {
    const Tile* srcs[] = {&mask, &src0, &src1};
    execute(p, Op::TSEL, dst, srcs);
    std::vector<int> out;
    for (unsigned r = 0; r < 2; ++r)
      for (unsigned c = 0; c < 6; ++c) {
        const uint64_t v = dst.at(r, c);
        EXPECT_TRUE(v == src0.at(r, c) || v == src1.at(r, c));
        out.push_back(v == src0.at(r, c) ? 1 : 0);
      }
    EXPECT_EQ(dst.at(0, 6), 0xEEEEu);
    EXPECT_EQ(dst.at(1, 7), 0xEEEEu);
    return out;
  }
};

TEST(PtoSelect, SimulatorReadsOneStreamOfMaskBits) {
  // Row 0 takes bits 0..5 of mask(0, 0); row 1 bits 6, 7 of it, then (the mask's one valid column
  // used up) bits 0..3 of mask(1, 0).
  SelCase s;
  EXPECT_EQ(s.picks(Profile::CpuSim), (std::vector<int>{1, 0, 1, 0, 0, 1, /**/ 0, 1, 0, 0, 1, 1}));
}

TEST(PtoSelect, A2A3ReadsMaskRowPerRow) {
  // Row i takes bits 0..5 of mask row i.
  SelCase s;
  EXPECT_EQ(s.picks(Profile::A2A3), (std::vector<int>{1, 0, 1, 0, 0, 1, /**/ 0, 0, 1, 1, 0, 0}));
}

// A wider mask element gives the simulator its low byte only: 0x0000FF05 selects with 0x05.
TEST(PtoSelect, SimulatorUsesTheLowByteOfAWideMaskElement) {
  Tile mask = make_tile(U32, 1, 8, Layout::RowMajor, 1, 1), src0 = make_tile(I32, 1, 8), src1 = src0;
  set(mask, 0, 0, 0x0000FF05);
  for (unsigned c = 0; c < 8; ++c) set(src0, 0, c, 1), set(src1, 0, c, 2);
  Tile dst = src0;
  const Tile* srcs[] = {&mask, &src0, &src1};
  execute(Profile::CpuSim, Op::TSEL, dst, srcs);
  const uint64_t want[] = {1, 2, 1, 2, 2, 2, 2, 2};  // bits 0 and 2 of 0x05
  for (unsigned c = 0; c < 8; ++c) EXPECT_EQ(dst.at(0, c), want[c]) << c;
}

TEST(PtoSelect, Refusals) {
  Tile wide = make_tile(F32, 1, 72), mask = make_tile(U8, 1, 32);
  const Tile* srcs[] = {&mask, &wide, &wide};
  Tile dst = wide;
  expect_refusal([&] { execute(Profile::A2A3, Op::TSEL, dst, srcs); }, ErrorKind::Unsupported,
                 {"TSEL (a2a3)", "72 valid columns", "64 bits for f32"});
  Tile b = make_tile(I8, 1, 32);
  const Tile* bytes[] = {&mask, &b, &b};
  Tile dst8 = b;
  expect_refusal([&] { execute(Profile::A2A3, Op::TSEL, dst8, bytes); }, ErrorKind::Unsupported,
                 {"16- and 32-bit types"});
  // The simulator's stream runs past a one-row mask: 2 rows x 32 lanes x 8 bits need 8 elements,
  // the mask has 4 valid columns, so row 1 of the mask would be read.
  Tile two = make_tile(I32, 2, 32), small = make_tile(U8, 1, 32, Layout::RowMajor, 1, 4);
  const Tile* over[] = {&small, &two, &two};
  Tile dst2 = two;
  expect_refusal([&] { execute(Profile::CpuSim, Op::TSEL, dst2, over); }, ErrorKind::UndefinedBehaviour,
                 {"lane (1, 0) needs mask element (1, 0), outside the 1x32 mask tile"});
}

}  // namespace
}  // namespace tmu::pto::test
