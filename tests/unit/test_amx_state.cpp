// tmu::amx state and X/Y operand helpers against corsix/amx RegisterFile.md, expected values by hand.
#include <gtest/gtest.h>

#include "test_amx_support.h"
#include "tmu/amx/xy.h"
#include "tmu/error.h"

namespace tmu::amx::test {
namespace {

Pool counting_pool() {
  Pool p;
  for (unsigned i = 0; i < kPoolBytes; ++i) p[i] = static_cast<uint8_t>(i * 7 + 1);
  return p;
}

TEST(AmxState, SpanWrapsAcrossThe512BytePool) {
  const Pool p = counting_pool();
  const Row a = load_span(p, 0);
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(a[63], static_cast<uint8_t>(63 * 7 + 1));
  const Row b = load_span(p, 500);  // bytes 500..511 then 0..51
  EXPECT_EQ(b[0], static_cast<uint8_t>(500 * 7 + 1));
  EXPECT_EQ(b[11], static_cast<uint8_t>(511 * 7 + 1));
  EXPECT_EQ(b[12], 1);
  EXPECT_EQ(b[63], static_cast<uint8_t>(51 * 7 + 1));
  const Row c = load_span(p, 511);
  EXPECT_EQ(c[0], static_cast<uint8_t>(511 * 7 + 1));
  EXPECT_EQ(c[1], 1);
  EXPECT_THROW(load_span(p, 512), Error);
}

TEST(AmxState, StoreSpanWrapsAndRegistersAre64ByteSlices) {
  Pool p{};
  Row r;
  for (unsigned i = 0; i < 64; ++i) r[i] = static_cast<uint8_t>(0x80 + i);
  store_span(p, 480, r);
  EXPECT_EQ(p[480], 0x80);
  EXPECT_EQ(p[511], 0x80 + 31);
  EXPECT_EQ(p[0], 0x80 + 32);
  EXPECT_EQ(p[31], 0x80 + 63);
  EXPECT_EQ(p[32], 0);
  const Row r7 = pool_register(p, 7);  // bytes 448..511
  EXPECT_EQ(r7[32], 0x80);
  EXPECT_EQ(r7[0], 0);
  EXPECT_THROW(pool_register(p, 8), Error);
}

TEST(AmxState, LanesAreLittleEndian) {
  Row r{};
  r[0] = 0x00, r[1] = 0x3C;  // f16 lane 0 = 1.0
  r[4] = 0x00, r[5] = 0x00, r[6] = 0xC0, r[7] = 0x3F;  // f32 lane 1 = 1.5
  EXPECT_EQ(f16(r, 0), 0x3C00);
  EXPECT_EQ(f32(r, 1), 0x3FC00000u);
  EXPECT_EQ(f64(r, 0), 0x3FC0000000003C00ull);
  set_f64(r, 7, 0x0102030405060708ull);
  EXPECT_EQ(r[56], 0x08);
  EXPECT_EQ(r[63], 0x01);
  set_f16(r, 31, 0xABCD);
  EXPECT_EQ(r[62], 0xCD);
  EXPECT_EQ(r[63], 0xAB);
  EXPECT_THROW(get_lane(r, 4, 16), Error);
  EXPECT_THROW(get_lane(r, 3, 0), Error);
}

// Rows of RegisterFile.md's shuffle tables: entry d is the source lane of destination lane d.
Row iota(unsigned bytes) {
  Row r{};
  for (unsigned i = 0; i < 64 / bytes; ++i) poke_row(r, bytes, i, i);
  return r;
}
std::vector<unsigned> lanes_of(const Row& r, unsigned bytes) {
  std::vector<unsigned> v;
  for (unsigned i = 0; i < 64 / bytes; ++i) v.push_back(static_cast<unsigned>(peek(r, bytes, i)));
  return v;
}

TEST(AmxState, ShufflesMatchRegisterFileTables) {
  using V = std::vector<unsigned>;
  EXPECT_EQ(lanes_of(shuffle(iota(8), 0, 8), 8), (V{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(lanes_of(shuffle(iota(8), 1, 8), 8), (V{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(lanes_of(shuffle(iota(8), 2, 8), 8), (V{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(lanes_of(shuffle(iota(8), 3, 8), 8), (V{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(lanes_of(shuffle(iota(4), 1, 4), 4), (V{0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15}));
  EXPECT_EQ(lanes_of(shuffle(iota(4), 2, 4), 4), (V{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}));
  EXPECT_EQ(lanes_of(shuffle(iota(4), 3, 4), 4), (V{0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15}));
  EXPECT_EQ(lanes_of(shuffle(iota(2), 1, 2), 2),
            (V{0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29,
               14, 30, 15, 31}));
  EXPECT_EQ(lanes_of(shuffle(iota(2), 2, 2), 2),
            (V{0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27, 4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30,
               7, 15, 23, 31}));
  EXPECT_EQ(lanes_of(shuffle(iota(2), 3, 2), 2),
            (V{0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15,
               19, 23, 27, 31}));
}

TEST(AmxState, IndexedLoadLooksUpLanesOfTheTable) {
  Row table{};
  for (unsigned i = 0; i < 16; ++i) poke_row(table, 4, i, 100 + i);
  Row idx{};
  idx[0] = 0x1B;  // 2-bit fields, low first: 3, 2, 1, 0
  idx[1] = 0xE4;  // 0, 1, 2, 3
  idx[3] = 0xC0;  // lane 15: 3
  using V = std::vector<unsigned>;
  EXPECT_EQ(lanes_of(indexed_load(idx, table, 2, 4), 4),
            (V{103, 102, 101, 100, 100, 101, 102, 103, 100, 100, 100, 100, 100, 100, 100, 103}));
  Row idx4{};
  idx4[0] = 0xF2;  // 4-bit fields: lane 0 -> 2, lane 1 -> 15
  idx4[7] = 0x90;  // lane 15 -> 9
  EXPECT_EQ(lanes_of(indexed_load(idx4, table, 4, 4), 4),
            (V{102, 115, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 109}));
  // f64 with 4-bit indices: index 9 wraps to lane 1 (byte offset 72 mod 64).
  Row t8{};
  for (unsigned i = 0; i < 8; ++i) poke_row(t8, 8, i, 200 + i);
  Row i8{};
  i8[0] = 0x9F;  // lane 0 -> 15 (lane 7), lane 1 -> 9 (lane 1)
  EXPECT_EQ(lanes_of(indexed_load(i8, t8, 4, 8), 8), (V{207, 201, 200, 200, 200, 200, 200, 200}));
  EXPECT_THROW(indexed_load(idx, table, 3, 4), Error);
}

TEST(AmxState, LaneEnablesFollowTheEnableModeTable) {
  EXPECT_EQ(lane_enables(0, 0, 16), 0xFFFFu);
  EXPECT_EQ(lane_enables(0, 1, 16), 0xAAAAu);
  EXPECT_EQ(lane_enables(0, 2, 16), 0x5555u);
  EXPECT_EQ(lane_enables(0, 3, 16), 0xFFFFu);
  EXPECT_EQ(lane_enables(0, 4, 8), 0xFFu);
  EXPECT_EQ(lane_enables(0, 5, 32), 0xFFFFFFFFu);
  EXPECT_EQ(lane_enables(0, 6, 16), 0u);
  EXPECT_EQ(lane_enables(0, 31, 16), 0u);
  EXPECT_EQ(lane_enables(1, 5, 16), 0x20u);
  EXPECT_EQ(lane_enables(1, 17, 16), 0x2u);  // 17 lanes of 4 bytes = byte 68, modulo 64: lane 1
  EXPECT_EQ(lane_enables(1, 31, 32), 0x80000000u);
  EXPECT_EQ(lane_enables(2, 0, 8), 0xFFu);
  EXPECT_EQ(lane_enables(2, 3, 8), 0x07u);
  EXPECT_EQ(lane_enables(2, 8, 8), 0xFFu);  // 8 mod 8 = 0: all
  EXPECT_EQ(lane_enables(2, 9, 8), 0x01u);
  EXPECT_EQ(lane_enables(3, 0, 8), 0xFFu);
  EXPECT_EQ(lane_enables(3, 3, 8), 0xE0u);
  EXPECT_EQ(lane_enables(4, 0, 8), 0u);
  EXPECT_EQ(lane_enables(4, 3, 8), 0x07u);
  EXPECT_EQ(lane_enables(4, 8, 8), 0u);
  EXPECT_EQ(lane_enables(5, 0, 8), 0u);
  EXPECT_EQ(lane_enables(5, 2, 32), 0xC0000000u);
  EXPECT_EQ(lane_enables(6, 0, 32), 0u);
  EXPECT_EQ(lane_enables(7, 9, 32), 0u);
}

}  // namespace
}  // namespace tmu::amx::test
