// tmu::pto tiles: pto_tile.hpp's legality rules (shape, valid region, 32-byte alignment), the plain
// layouts' offsets, the refusal of boxed layouts, names, and that an operation touches dst's valid
// region only.
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

TEST(PtoTile, Offsets) {
  // Row-major: r * Cols + c; column-major: c * Rows + r (tile_offsets.hpp).
  const Tile rm = make_tile(ElemType::F32, 4, 8, Layout::RowMajor);
  EXPECT_EQ(rm.offset(2, 3), 2u * 8 + 3);
  const Tile cm = make_tile(ElemType::F32, 8, 4, Layout::ColMajor);
  EXPECT_EQ(cm.offset(2, 3), 3u * 8 + 2);
  EXPECT_EQ(rm.bits.size(), 32u);
  EXPECT_EQ(rm.valid_rows, 4u);
  EXPECT_EQ(rm.valid_cols, 8u);
}

TEST(PtoTile, Alignment) {
  // 8 f32 = 32 bytes per row, 16 f16, 32 u8, 4 u64: the smallest legal rows.
  EXPECT_NO_THROW(make_tile(ElemType::F32, 3, 8));
  EXPECT_NO_THROW(make_tile(ElemType::F16, 1, 16));
  EXPECT_NO_THROW(make_tile(ElemType::U8, 5, 32));
  EXPECT_NO_THROW(make_tile(ElemType::U64, 2, 4));
  // Column-major: the column (Rows elements) is what must be 32-byte aligned; Cols is free.
  EXPECT_NO_THROW(make_tile(ElemType::I16, 16, 3, Layout::ColMajor));
  expect_refusal([] { make_tile(ElemType::F32, 4, 7); }, ErrorKind::BadInput,
                 {"Cols * 4 bytes is not a multiple of 32", "row must be 32-byte aligned"});
  expect_refusal([] { make_tile(ElemType::F16, 15, 16, Layout::ColMajor); }, ErrorKind::BadInput,
                 {"Rows * 2 bytes is not a multiple of 32", "column must be 32-byte aligned"});
  expect_refusal([] { make_tile(ElemType::F32, 0, 8); }, ErrorKind::BadInput, {"Rows and Cols must be positive"});
}

TEST(PtoTile, ValidRegion) {
  Tile t = make_tile(ElemType::I32, 4, 8, Layout::RowMajor, 2, 5);
  EXPECT_TRUE(t.in_valid_region(1, 4));
  EXPECT_FALSE(t.in_valid_region(2, 0));
  EXPECT_FALSE(t.in_valid_region(0, 5));
  set_valid_region(t, 4, 8);
  EXPECT_TRUE(t.in_valid_region(3, 7));
  expect_refusal([] { make_tile(ElemType::I32, 4, 8, Layout::RowMajor, 5, 8); }, ErrorKind::BadInput,
                 {"valid region 5x8 exceeds the shape"});
  expect_refusal([&] { set_valid_region(t, 4, 9); }, ErrorKind::BadInput, {"valid region 4x9 exceeds the shape"});
}

TEST(PtoTile, ElementAccess) {
  Tile t = make_tile(ElemType::U8, 1, 32);
  set(t, 0, 31, 0xFF);
  EXPECT_EQ(get(t, 0, 31), 0xFFu);
  expect_refusal([&] { set(t, 0, 0, 0x100); }, ErrorKind::BadInput, {"0x100 does not fit a u8 element"});
  expect_refusal([&] { get(t, 1, 0); }, ErrorKind::BadInput, {"element (1, 0) is outside the 1x32 tile"});
}

TEST(PtoTile, Layouts) {
  EXPECT_EQ(layout_from_name("row_major"), Layout::RowMajor);
  EXPECT_EQ(layout_from_name("DN"), Layout::ColMajor);
  for (const char* boxed : {"nz", "Zn", "zz", "NN"})
    expect_refusal([&] { layout_from_name(boxed); }, ErrorKind::Unsupported, {"boxed layouts", "are not modelled"});
  expect_refusal([] { layout_from_name("diagonal"); }, ErrorKind::BadInput, {"unknown layout 'diagonal'"});
}

TEST(PtoTile, Names) {
  unsigned count = 0;
  for (unsigned i = 0; i < kOpCount; ++i) {
    const Op op = static_cast<Op>(i);
    EXPECT_EQ(op_from_name(op_name(op)), op);
    ++count;
  }
  EXPECT_EQ(count, 29u);
  EXPECT_EQ(op_from_name("pto.tshr"), Op::TSHR);
  EXPECT_EQ(op_from_name("trem"), Op::TREM);
  EXPECT_FALSE(op_from_name("TADDS").has_value());  // tile-scalar, another family
  for (ElemType t : kAllElemTypes) EXPECT_EQ(elem_from_name(elem_name(t)), t);
  EXPECT_EQ(profile_from_name("a2a3"), Profile::A2A3);
  EXPECT_EQ(source_count(Op::TSEL), 3u);
  EXPECT_EQ(source_count(Op::TCVT), 1u);
  EXPECT_EQ(source_count(Op::TPOW), 2u);
}

// Only dst's valid region is written: the lanes past it keep their patterns, in both layouts.
TEST(PtoTile, LanesOutsideTheValidRegionAreKept) {
  for (Layout l : {Layout::RowMajor, Layout::ColMajor}) {
    Tile a = make_tile(ElemType::I32, 8, 8, l, 3, 5), b = a, dst = a;
    for (auto& v : a.bits) v = 2;
    for (auto& v : b.bits) v = 3;
    for (auto& v : dst.bits) v = 0xDEAD;
    const Tile* srcs[] = {&a, &b};
    execute(Profile::CpuSim, Op::TADD, dst, srcs);
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned c = 0; c < 8; ++c) EXPECT_EQ(dst.at(r, c), dst.in_valid_region(r, c) ? 5u : 0xDEADu);
  }
}

// Column-major and row-major operands mix in the simulator: each is read at its own offset.
TEST(PtoTile, MixedLayoutsInTheSimulator) {
  Tile a = make_tile(ElemType::I16, 16, 16, Layout::RowMajor), b = make_tile(ElemType::I16, 16, 16, Layout::ColMajor);
  Tile dst = make_tile(ElemType::I16, 16, 16, Layout::ColMajor);
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 16; ++c) set(a, r, c, 100 * r + c), set(b, r, c, 1);
  const Tile* srcs[] = {&a, &b};
  execute(Profile::CpuSim, Op::TSUB, dst, srcs);
  EXPECT_EQ(dst.at(3, 7), 306u);  // 100 * 3 + 7 - 1
  EXPECT_EQ(dst.bits[7 * 16 + 3], 306u);
}

}  // namespace
// Each dimension may be up to 2^20, but not their product: 2048 x 2048 (2^22 elements) is the
// largest tile, one more row is refused by name, and 2^20 x 2^20 (8 TiB of storage) is refused
// before anything is allocated.
TEST(PtoTile, SizeIsBounded) {
  EXPECT_EQ(make_tile(ElemType::I8, 2048, 2048).bits.size(), 4194304u);
  try {
    make_tile(ElemType::I8, 2049, 2048);
    FAIL() << "a 2049x2048 tile was made";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("2049x2048: 4196352 elements"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_tile(ElemType::I8, 1u << 20, 1u << 20), Error);
}

}  // namespace tmu::pto::test
