// The A2/A3 cycle model (tmu/pto/cycles.h). Every expected figure is worked from pto-isa's sources:
// the path TBinOp.hpp / TUnaryOp.hpp takes for the shape, the calls it issues, and each call's
// cost, EstimateLinearCycles = slope * repeat + head (head only for the op's first vector call;
// the tail is never charged for a lone op) with (head, slope) from cce_costmodel_vector_compute.hpp:
// vadd/vsub/vmin/vmax/vmul (10, 2), vdiv (11, 4), vand/vor (8, 2), vabs (13, 1), vrelu (10, 1),
// vsqrt (14, 2), vrsqrt (10, 1), vln (13, 2); set_vector_mask, set_mask_count, set_mask_norm 1.
// elementsPerRepeat = 256 / element bytes (f32 64, f16 128), blockSizeElem = 32 / bytes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tmu/error.h"
#include "tmu/pto/cycles.h"

namespace tmu::pto {
namespace {

using ::testing::HasSubstr;

Tile tile(ElemType t, unsigned rows, unsigned cols, unsigned vr, unsigned vc) {
  return make_tile(t, rows, cols, Layout::RowMajor, vr, vc);
}

// Cycles for op on tiles of one shape (every source like dst).
CycleEstimate cycles_of(Op op, const Tile& dst) {
  const Tile* srcs[3] = {&dst, &dst, &dst};
  return a2a3_cycles(op, dst, std::span<const Tile* const>(srcs, source_count(op)));
}
uint64_t total(Op op, ElemType t, unsigned rows, unsigned cols, unsigned vr, unsigned vc) {
  return cycles_of(op, tile(t, rows, cols, vr, vc)).cycles;
}

TEST(PtoCycles, ContiguousTileIsOneCall) {
  // TADD f32 16x64, all valid: not the small shape (64 columns is not < 64); the fast path's
  // 16*64/64 = 16 repeats fit one call and the columns are whole repeats: Bin1LNormMode,
  // vadd(16) = 2*16 + 10 = 42. (The per-op page's formula gives 2575 for this tile.)
  const CycleEstimate e = cycles_of(Op::TADD, tile(ElemType::F32, 16, 64, 16, 64));
  EXPECT_EQ(e.cycles, 42u);
  ASSERT_EQ(e.steps.size(), 1u);
  EXPECT_EQ(e.steps[0].call, "vadd");
  EXPECT_EQ(e.steps[0].repeats, 16u);
  EXPECT_EQ(e.steps[0].cycles, 42u);
  // TMUL f16 4x256: 4*256/128 = 8 repeats, vmul(8) = 16 + 10 = 26.
  EXPECT_EQ(total(Op::TMUL, ElemType::F16, 4, 256, 4, 256), 26u);
  // TDIV f32 16x64: vdiv(16) = 4*16 + 11 = 75.
  EXPECT_EQ(total(Op::TDIV, ElemType::F32, 16, 64, 16, 64), 75u);
  // TAND i16 2x128: 256/128 = 2 repeats, vand(2) = 4 + 8 = 12.
  EXPECT_EQ(total(Op::TAND, ElemType::I16, 2, 128, 2, 128), 12u);
}

TEST(PtoCycles, SmallShapeRepeatsOncePerRow) {
  // TADD f32 8x8: 8 columns < 64, 8 rows <= 255: Bin1LNormModeSmall, a mask, vadd with one
  // repeat per valid row (2*8 + 10 = 26), the full mask again: 28.
  const CycleEstimate e = cycles_of(Op::TADD, tile(ElemType::F32, 8, 8, 8, 8));
  EXPECT_EQ(e.cycles, 28u);
  ASSERT_EQ(e.steps.size(), 3u);
  EXPECT_EQ(e.steps[0].call, "set_vector_mask");
  EXPECT_EQ(e.steps[1].repeats, 8u);
  EXPECT_EQ(e.steps[1].cycles, 26u);
  // TDIV f32 8x8 with 5 valid rows: mask + vdiv(5) (4*5 + 11 = 31) + mask = 33.
  EXPECT_EQ(total(Op::TDIV, ElemType::F32, 8, 8, 5, 8), 33u);
}

TEST(PtoCycles, TailRepeatUnderMask) {
  // TADD f16 300x16, all valid: 16 < 128 columns but 300 rows > 255, so not the small shape; the
  // fast path's ceil(4800/128) = 38 repeats fit one call, 16 columns are not > 128: norm mode,
  // 4800 = 37*128 + 64: vadd(37) = 74 + 10 = 84, mask, vadd(1) = 2 (no head: the queue holds the
  // first call), mask: 88.
  const CycleEstimate e = cycles_of(Op::TADD, tile(ElemType::F16, 300, 16, 300, 16));
  EXPECT_EQ(e.cycles, 88u);
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[2].cycles, 2u);
}

TEST(PtoCycles, CountModeWhenRowsAreNotWholeRepeats) {
  // TADD f32 4x96: 96 > 64 columns and 96 % 64 != 0: Bin1LCountMode, set_mask_count,
  // SetVectorCount, vadd with repeat 0 (head 10 only), set_mask_norm, full mask: 14.
  const CycleEstimate e = cycles_of(Op::TADD, tile(ElemType::F32, 4, 96, 4, 96));
  EXPECT_EQ(e.cycles, 14u);
  ASSERT_EQ(e.steps.size(), 5u);
  EXPECT_EQ(e.steps[0].call, "set_mask_count");
  EXPECT_EQ(e.steps[2].repeats, 0u);
  EXPECT_EQ(e.steps[3].call, "set_mask_norm");
  // TMAX f16 128x256: 128*256/128 = 256 repeats > 255: count mode as well, 14.
  EXPECT_EQ(total(Op::TMAX, ElemType::F16, 128, 256, 128, 256), 14u);
  // TDIV f32 4x96: 1 + 1 + 11 + 1 + 1 = 15.
  EXPECT_EQ(total(Op::TDIV, ElemType::F32, 4, 96, 4, 96), 15u);
}

TEST(PtoCycles, PartialRegionRepeatsDownTheRows) {
  // TSUB f32 16x128 with 10x100 valid: not contiguous (100 != 128, 10 rows); 128/64 = 2 column
  // repeats, 16*2 = 32 is not < 4, 16 rows are not < 3: Bin2LNormModeRowRpt with 16 <= 255 rows
  // and a 128/8 = 16-block row stride: one call per whole 64-column slice with a repeat per row,
  // vsub(10) = 20 + 10 = 30, then the 36 remaining columns under a mask: mask, vsub(10) = 20,
  // mask. 30 + 1 + 20 + 1 = 52.
  const CycleEstimate e = cycles_of(Op::TSUB, tile(ElemType::F32, 16, 128, 10, 100));
  EXPECT_EQ(e.cycles, 52u);
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[0].repeats, 10u);
  EXPECT_EQ(e.steps[2].repeats, 10u);
}

TEST(PtoCycles, FewRowsLoopPerRow) {
  // TADD f32 2x256 with 2x192 valid: 256/64 = 4 column repeats, 2 rows < 5:
  // Bin2LNormModeColVLAlign (192 % 64 == 0), one call per row with 3 repeats:
  // vadd(3) = 6 + 10 = 16, vadd(3) = 6: 22.
  const CycleEstimate e = cycles_of(Op::TADD, tile(ElemType::F32, 2, 256, 2, 192));
  EXPECT_EQ(e.cycles, 22u);
  ASSERT_EQ(e.steps.size(), 2u);
  // 2x100 valid: 100 % 64 != 0: Bin2LCountMode, one repeat-0 call per row:
  // 1 + 1 + 10 + 0 + 1 + 1 = 14.
  const CycleEstimate c = cycles_of(Op::TADD, tile(ElemType::F32, 2, 256, 2, 100));
  EXPECT_EQ(c.cycles, 14u);
  ASSERT_EQ(c.steps.size(), 6u);
  EXPECT_EQ(c.steps[3].cycles, 0u);
}

TEST(PtoCycles, MoreThan255RowsLoopOverRowBlocks) {
  // TADD f16 300x16 with 290x10 valid: not contiguous; 16/128 = 0 column repeats; 300 rows > 255
  // rule out the row-repeat call: 300 > 128 rows, so the heads run with 10/128 = 0 repeats per
  // line (no call) and the tail takes the 10 columns: a mask, then 290/255 = 1 block of 255 rows
  // (row stride 16/16 = 1 block fits): vadd(255) = 510 + 10 = 520, the remaining 35 rows:
  // vadd(35) = 70, the full mask. 1 + 520 + 70 + 1 = 592.
  const CycleEstimate e = cycles_of(Op::TADD, tile(ElemType::F16, 300, 16, 290, 10));
  EXPECT_EQ(e.cycles, 592u);
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[1].repeats, 255u);
  EXPECT_EQ(e.steps[2].repeats, 35u);
}

TEST(PtoCycles, UnaryOps) {
  // TSQRT f32 16x64: combined, 16 repeats: vsqrt(16) = 32 + 14 = 46.
  EXPECT_EQ(total(Op::TSQRT, ElemType::F32, 16, 64, 16, 64), 46u);
  // TRELU f32 8x8: TUnaryOp has no small-shape path: 64 elements = 1 repeat, vrelu(1) = 1 + 10 = 11.
  EXPECT_EQ(total(Op::TRELU, ElemType::F32, 8, 8, 8, 8), 11u);
  // TRSQRT f16 2x128: 2 repeats, vrsqrt(2) = 2 + 10 = 12.
  EXPECT_EQ(total(Op::TRSQRT, ElemType::F16, 2, 128, 2, 128), 12u);
  // TABS f16 4x256 with 3x200 valid: 256/128 = 2 column repeats, 4*2 = 8 not < 4, 4 rows not < 3:
  // row repeat (4 rows, 256/16 = 16 blocks): vabs(3) = 3 + 13 = 16 for the first 128 columns, then
  // the other 72 under a mask: mask, vabs(3) = 3, mask. 21.
  EXPECT_EQ(total(Op::TABS, ElemType::F16, 4, 256, 3, 200), 21u);
  // TLOG f32 4x128 with 1x100 valid: one valid row, contiguous at run time: ceil(100/64) = 2
  // repeats; 100 = 64 + 36: vln(1) = 2 + 13 = 15, mask, vln(1) = 2, mask. 19.
  EXPECT_EQ(total(Op::TLOG, ElemType::F32, 4, 128, 1, 100), 19u);
  // TSQRT f32 4x96: TUnaryOp has no non-aligned test: ceil(384/64) = 6 repeats, norm mode,
  // vsqrt(6) = 12 + 14 = 26 (TADD takes count mode on this tile).
  EXPECT_EQ(total(Op::TSQRT, ElemType::F32, 4, 96, 4, 96), 26u);
}

TEST(PtoCycles, NotRunsOnSixteenBitLanes) {
  // TNOT u8 2x32 with 31 valid columns: vnot sees 16-bit lanes, 16 per row, ceil(31/2) = 16 valid.
  // The compile-time test (31 != 32 on u8) fails, the run-time one (16 == 16 lanes) holds: one
  // contiguous region of 32 lanes, 32/128 = 0 whole repeats: vnot(0) = head 8 only, then the 32
  // lanes under a mask: mask, vnot(1) = 2, mask. 12.
  const CycleEstimate e = cycles_of(Op::TNOT, tile(ElemType::U8, 2, 32, 2, 31));
  EXPECT_EQ(e.cycles, 12u);
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[0].repeats, 0u);
  // TNOT i32 4x64: 4 rows of 128 16-bit lanes, 4 repeats: vnot(4) = 8 + 8 = 16.
  EXPECT_EQ(total(Op::TNOT, ElemType::I32, 4, 64, 4, 64), 16u);
}

TEST(PtoCycles, XorChargesTheTailsItsBarriersFlush) {
  // TXOR i16 2x128: TOR, TAND, TNOT, TAND, each one call of 2 repeats, a pipe_barrier between
  // each two. A barrier charges the pending tail (vor, vand, vnot: 12) and empties the queue, so
  // every call pays its head again: 12 + (12 + 1) + 12 + (12 + 1) + 12 + (12 + 1) + 12 = 87; the
  // last vand's tail is not charged.
  const CycleEstimate e = cycles_of(Op::TXOR, tile(ElemType::I16, 2, 128, 2, 128));
  EXPECT_EQ(e.cycles, 87u);
  ASSERT_EQ(e.steps.size(), 10u);
  EXPECT_EQ(e.steps[1].call, "tail");
  EXPECT_EQ(e.steps[1].cycles, 12u);
  EXPECT_EQ(e.steps[2].call, "pipe_barrier");
  EXPECT_EQ(e.steps[6].call, "vnot");
  EXPECT_EQ(e.steps[9].call, "vand");
}

TEST(PtoCycles, ScalarFormsTakeTheTBinSOpPaths) {
  // TNEG = TMULS(src, -1): TNEG f32 16x64: 16 repeats, vmuls(16) = 1*16 + 11 = 27.
  EXPECT_EQ(total(Op::TNEG, ElemType::F32, 16, 64, 16, 64), 27u);
  // TNEG f32 8x8: TBinSInstr has no small-shape path: 64 lanes = 1 repeat, vmuls(1) = 12.
  EXPECT_EQ(total(Op::TNEG, ElemType::F32, 8, 8, 8, 8), 12u);
  // TRECIP f32 16x64 = TDIVS(dst, 1, src): vector_dup(16) = 16 + 11 = 27, the barrier charges its
  // tail 13 and costs 1, vdiv(16) pays its head again: 64 + 11 = 75. 116.
  const CycleEstimate e = cycles_of(Op::TRECIP, tile(ElemType::F32, 16, 64, 16, 64));
  EXPECT_EQ(e.cycles, 116u);
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[0].call, "vector_dup");
  EXPECT_EQ(e.steps[1].call, "tail");
  EXPECT_EQ(e.steps[3].call, "vdiv");
  // TRECIP f16 2x128 with 2x100 valid: not contiguous, and TBinSInstr has no run-time test: 128/128
  // = 1 column repeat, 2 rows not < 2: row repeat, 0 whole slices, then the 100 columns under a
  // mask: mask, vector_dup(2) = 2 + 11 = 13, tail 13, barrier 1, vdiv(2) = 8 + 11 = 19, mask. 48.
  EXPECT_EQ(total(Op::TRECIP, ElemType::F16, 2, 128, 2, 100), 48u);
}

uint64_t compare(ElemType t, unsigned rows, unsigned cols, unsigned vr, unsigned vc, CmpMode mode) {
  const Tile a = tile(t, rows, cols, vr, vc);
  const Tile dst = make_tile(ElemType::U8, rows, 32);
  const Tile* srcs[2] = {&a, &a};
  OpParams params;
  params.cmp = mode;
  return a2a3_cycles(Op::TCMP, dst, srcs, params).cycles;
}

TEST(PtoCycles, CompareRowByRow) {
  // TCMP f32 4x64 LT: set_mask_norm, full mask, then per row ceil(64/64) = 1 repeat:
  // vcmpv_lt(1) = 2 + 6 (head), then 2, 2, 2: 2 + 8 + 6 = 16.
  EXPECT_EQ(compare(ElemType::F32, 4, 64, 4, 64, CmpMode::LT), 16u);
  // GE has its own line (head 14): 2 + (2 + 14) + 6 = 24; int32 compares with vcmpv_eq whatever the
  // mode: 16.
  EXPECT_EQ(compare(ElemType::F32, 4, 64, 4, 64, CmpMode::GE), 24u);
  EXPECT_EQ(compare(ElemType::I32, 4, 64, 4, 64, CmpMode::GE), 16u);
  // NE f16 2x256: 2 repeats per row: vcmpv_eq(2) = 4 + 6, vcmpv_eq(2) = 4; with the masks 16; then a
  // pipe_barrier (vcmpv's tail is 0: nothing charged) 1, set_mask_count 1, count 1, vnot(0) with a
  // fresh head 8, set_mask_norm 1, full mask 1: 29.
  EXPECT_EQ(compare(ElemType::F16, 2, 256, 2, 256, CmpMode::NE), 29u);
  // 600 repeats per row (f16, 76800 columns: one 150 KiB row, beyond a real buffer; only the paths
  // are counted)
  // split 240 + 240 + 120: f16 1 row: 2 + (480 + 6) + 480 + 240 = 1208.
  EXPECT_EQ(compare(ElemType::F16, 1, 76800, 1, 76800, CmpMode::EQ), 1208u);
}

TEST(PtoCycles, SelectRowByRow) {
  // TSEL: set_mask_count 1; row 0: mask 1, vector_dup(1) 1 + 11, barrier with vector_dup's tail
  // 13 + 1, set_cmpmask 1, barrier 1 (nothing pending), count 1, vsel(1) 2 + 13 (fresh head) = 45;
  // each later row the same but vector_dup finds vsel in the queue (1, no head): 34; then
  // set_mask_norm and the full mask 2. 4 rows: 1 + 45 + 3 x 34 + 2 = 150.
  const Tile mask = make_tile(ElemType::U8, 4, 32);
  const Tile x = tile(ElemType::F32, 4, 64, 4, 64);
  const Tile* srcs[3] = {&mask, &x, &x};
  const CycleEstimate e = a2a3_cycles(Op::TSEL, x, srcs);
  EXPECT_EQ(e.cycles, 150u);
  EXPECT_EQ(e.steps[2].call, "vector_dup");
  EXPECT_EQ(e.steps[3].call, "tail");
  EXPECT_EQ(e.steps[3].cycles, 13u);
  // One valid row: 1 + 45 + 2 = 48, whatever the columns.
  const Tile y = tile(ElemType::F16, 2, 128, 1, 100);
  const Tile* one[3] = {&mask, &y, &y};
  EXPECT_EQ(a2a3_cycles(Op::TSEL, y, one).cycles, 48u);
}

TEST(PtoCycles, ShiftsChargeOnlyTheirFlags) {
  // TSHL/TSHR shift in a scalar loop between set_flag/wait_flag pairs (V->S, S->V): 4 x 1, for any
  // tile.
  EXPECT_EQ(total(Op::TSHL, ElemType::I32, 64, 64, 64, 64), 4u);
  const CycleEstimate e = cycles_of(Op::TSHR, tile(ElemType::U8, 2, 32, 1, 5));
  EXPECT_EQ(e.cycles, 4u);
  ASSERT_EQ(e.steps.size(), 4u);
  EXPECT_EQ(e.steps[0].call, "set_flag");
  EXPECT_EQ(e.steps[1].call, "wait_flag");
}

TEST(PtoCycles, FmodBarrierAfterEveryCall) {
  // TFMOD f32 4x64 with 3 valid rows: set_mask_count, count; per row vdiv(1) 4 + 11, barrier with
  // its tail 19 + 1, vconv_f322f32z(1) 2 + 14, barrier 18 + 1, vmul(1) 2 + 10, barrier 15 + 1,
  // vsub(1) 2 + 10, barrier 14 + 1: 15 + 20 + 16 + 19 + 12 + 16 + 12 + 15 = 125 (every call after a
  // barrier pays its head); set_mask_norm, full mask. 4 + 3 x 125 = 379.
  const CycleEstimate e = cycles_of(Op::TFMOD, tile(ElemType::F32, 4, 64, 3, 64));
  EXPECT_EQ(e.cycles, 379u);
  EXPECT_EQ(e.steps[3].call, "tail");  // vdiv's, charged by the first barrier
  EXPECT_EQ(e.steps[5].call, "vconv_f322f32z");
}

TEST(PtoCycles, StepsSumToTheTotal) {
  for (const Tile& t : {tile(ElemType::F32, 16, 128, 10, 100), tile(ElemType::F16, 300, 16, 290, 10),
                        tile(ElemType::F32, 2, 256, 2, 100)}) {
    const CycleEstimate e = cycles_of(Op::TMUL, t);
    uint64_t sum = 0;
    for (const CycleStep& s : e.steps) sum += s.cycles;
    EXPECT_EQ(sum, e.cycles);
  }
}

void expect_refusal(Op op, const Tile& dst, ErrorKind kind, const std::string& text) {
  try {
    (void)cycles_of(op, dst);
    FAIL() << "expected a refusal containing: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind);
    EXPECT_THAT(std::string(e.what()), HasSubstr(text));
  }
}

TEST(PtoCycles, Refusals) {
  const Tile f32 = tile(ElemType::F32, 8, 64, 8, 64);
  expect_refusal(Op::TADDC, f32, ErrorKind::Unsupported,
                 "TADDC (a2a3): the A2/A3 cost model has no entry for TADDC on f32");
  expect_refusal(Op::TADD, tile(ElemType::BF16, 8, 64, 8, 64), ErrorKind::Unsupported, "no entry for TADD on bf16");
  expect_refusal(Op::TADD, make_tile(ElemType::F32, 8, 64, Layout::ColMajor), ErrorKind::Unsupported, "row-major");
  const Tile other = tile(ElemType::F32, 8, 64, 4, 64);
  const Tile* srcs[2] = {&other, &f32};
  EXPECT_THROW((void)a2a3_cycles(Op::TADD, f32, srcs), Error);
  EXPECT_THROW((void)a2a3_cycles(Op::TADD, f32, std::span<const Tile* const>(srcs, 1)), Error);
}

}  // namespace
}  // namespace tmu::pto
