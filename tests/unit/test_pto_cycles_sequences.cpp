// The A2/A3 cycle model (tmu/pto/cycles.h) on the multi-instruction sequences: TPRELU (TPrelu.hpp:
// TMUL, TCMPS, TSEL), TCVT (TCvt.hpp), integer TRECIP (the formula RecordInstr keeps for TDIVS on
// int16/int32), and the refusals of TREM and TPOW, which the cost model cannot run. Every figure is
// worked from pto-isa's sources: EstimateLinearCycles = slope x repeat + head (head when the
// vector queue is empty: the op's first vector call, or the first after a pipe_barrier); a barrier
// charges the pending tail of the last vector call, then 1. Lines (head, slope, tail): vmul
// (10, 2, 15), vcmpvs_gt (6, 2, 0), vector_dup (11, 1, 13), vsel (13, 2, 14), every vconv and
// vconv_deq (14, 2, 18). set_vector_mask, set_mask_count, set_mask_norm, set_cmpmask, set_ctrl,
// set_deqscale: 1 each.
#include <functional>
#include <optional>

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

CycleEstimate same_shape(Op op, const Tile& dst) {
  const Tile* srcs[2] = {&dst, &dst};
  return a2a3_cycles(op, dst, std::span<const Tile* const>(srcs, source_count(op)));
}

CycleEstimate convert(const Tile& dst, const Tile& src, RoundMode mode,
                      std::optional<SaturationMode> sat = std::nullopt) {
  const Tile* srcs[1] = {&src};
  OpParams params;
  params.round = mode;
  params.saturation = sat;
  return a2a3_cycles(Op::TCVT, dst, srcs, params);
}

uint64_t sum_of_steps(const CycleEstimate& e) {
  uint64_t sum = 0;
  for (const CycleStep& s : e.steps) sum += s.cycles;
  return sum;
}

// TSEL's part of TPRELU for n valid rows, as TSel.hpp issues it after a barrier: set_mask_count
// 1; row 0: count 1, vector_dup(1) 11 + 1, barrier with dup's tail 13 + 1, set_cmpmask 1, barrier
// 1 (nothing pending), count 1, vsel(1) 13 + 2 = 45; every later row the same but vector_dup
// without its head (vsel left the queue busy): 34; set_mask_norm, full mask 2.
constexpr uint64_t select_part(uint64_t rows) { return 1 + 45 + (rows - 1) * 34 + 2; }

TEST(PtoCyclesSequences, PreluOneRepeatPerRow) {
  // TPRELU f16 4x128, all valid. TMUL: not small (128 columns is not < 128), fast path 4 x 128 /
  // 128 = 4 whole repeats: vmul(4) = 8 + 10 = 18. Barrier: vmul's tail 15 + 1 = 16. TCMPS: masks
  // 2, ceil(128 / 128) = 1 repeat per row, 4 calls vcmpvs_gt(1): 6 + 2, then 2, 2, 2 = 14. Two
  // barriers, nothing pending: 2. TSEL: 1 + 45 + 3 x 34 + 2 = 150. 18 + 16 + 2 + 14 + 2 + 150 = 202.
  const CycleEstimate e = same_shape(Op::TPRELU, tile(ElemType::F16, 4, 128, 4, 128));
  EXPECT_EQ(e.cycles, 202u);
  EXPECT_EQ(sum_of_steps(e), e.cycles);
  ASSERT_GE(e.steps.size(), 7u);
  EXPECT_EQ(e.steps[0].call, "vmul");
  EXPECT_EQ(e.steps[1].call, "tail");
  EXPECT_EQ(e.steps[1].cycles, 15u);
  EXPECT_EQ(e.steps[5].call, "vcmpvs_gt");
  EXPECT_EQ(e.steps[5].cycles, 8u);
  EXPECT_EQ(select_part(4), 150u);
}

TEST(PtoCyclesSequences, PreluFullTileF32) {
  // TPRELU f32 16x64: vmul(16) 32 + 10 = 42; barrier 16; TCMPS 2 + (6 + 2) + 15 x 2 = 40; barriers
  // 2; TSEL 1 + 45 + 15 x 34 + 2 = 558. 42 + 16 + 40 + 2 + 558 = 658.
  EXPECT_EQ(same_shape(Op::TPRELU, tile(ElemType::F32, 16, 64, 16, 64)).cycles, 658u);
}

TEST(PtoCyclesSequences, PreluPartialRegion) {
  // TPRELU f32 16x128 with 10x100 valid. TMUL takes the per-row path (valid columns are not the
  // tile's, more than one row): 16 rows > 128 / 64 = 2, RowRpt with one column slice per whole
  // repeat: vmul(10) 20 + 10, then the 36 columns left under a mask: mask, vmul(10) 20, mask = 52.
  // Barrier 16. TCMPS: ceil(100 / 64) = 2 repeats per row: masks 2, vcmpvs_gt(2) 4 + 6, 9 x 4 =
  // 48. Barriers 2. TSEL: 1 + 45 + 9 x 34 + 2 = 354. 52 + 16 + 48 + 2 + 354 = 472.
  EXPECT_EQ(same_shape(Op::TPRELU, tile(ElemType::F32, 16, 128, 10, 100)).cycles, 472u);
}

TEST(PtoCyclesSequences, PreluCompareSplitsAt240Repeats) {
  // TPRELU f32 1x15424 (241 repeats of 64). TMUL: one row, fast path, 241 <= 255 whole repeats:
  // vmul(241) = 482 + 10 = 492. Barrier 16. TCMPS: 241 = 240 + 1: masks 2, vcmpvs_gt(240) 480 + 6,
  // then the row's remainder vcmpvs_gt(1) 2 = 490. Barriers 2. TSEL, one row: 1 + 45 + 2 = 48.
  // 492 + 16 + 490 + 2 + 48 = 1048.
  const CycleEstimate e = same_shape(Op::TPRELU, tile(ElemType::F32, 1, 15424, 1, 15424));
  EXPECT_EQ(e.cycles, 1048u);
  EXPECT_EQ(e.steps[5].repeats, 240u);
  EXPECT_EQ(e.steps[6].repeats, 1u);
}

TEST(PtoCyclesSequences, ConvertOneCallPerRow) {
  // TCVT f32 -> f16 16x64, RINT: elementsPerRepeat 256 / 4 = 64, one whole repeat per row and no
  // remainder. set_ctrl 1 (ApplySatMode); 16 calls vconv_f322f16r(1): 14 + 2, then 15 x 2 = 46;
  // set_ctrl 1 (RestoreSatMode). 48.
  const CycleEstimate e =
      convert(tile(ElemType::F16, 16, 64, 16, 64), tile(ElemType::F32, 16, 64, 16, 64), RoundMode::Rint);
  EXPECT_EQ(e.cycles, 48u);
  ASSERT_EQ(e.steps.size(), 18u);
  EXPECT_EQ(e.steps[0].call, "set_ctrl");
  EXPECT_EQ(e.steps[1].call, "vconv_f322f16r");
  EXPECT_EQ(e.steps[1].cycles, 16u);
  EXPECT_EQ(e.steps[17].call, "set_ctrl");
}

TEST(PtoCyclesSequences, ConvertHeadAndMaskedTail) {
  // TCVT f16 -> f32 4x256 with 4x200 valid (no suffix: vconv_f162f32): elementsPerRepeat 256 / 4 =
  // 64, 200 = 3 x 64 + 8. set_ctrl; per row vconv(3): 14 + 6, then 6, 6, 6 = 38; the 8 columns
  // left: mask, vconv(4) (a repeat per row) 8, mask; set_ctrl. 1 + 38 + 1 + 8 + 1 + 1 = 50.
  const CycleEstimate e =
      convert(tile(ElemType::F32, 4, 256, 4, 200), tile(ElemType::F16, 4, 256, 4, 200), RoundMode::Rint);
  EXPECT_EQ(e.cycles, 50u);
  EXPECT_EQ(e.steps[1].call, "vconv_f162f32");
  EXPECT_EQ(e.steps[6].repeats, 4u);
}

TEST(PtoCyclesSequences, ConvertSplitsRepeatsAndRows) {
  // f16 -> u8 1x32768, TRUNC: 256 / 2 = 128 per repeat, 256 repeats = 255 + 1: set_ctrl,
  // vconv_f162u8z(255) 510 + 14, vconv_f162u8z(1) 2, set_ctrl = 528.
  const CycleEstimate wide =
      convert(tile(ElemType::U8, 1, 32768, 1, 32768), tile(ElemType::F16, 1, 32768, 1, 32768), RoundMode::Trunc);
  EXPECT_EQ(wide.cycles, 528u);
  EXPECT_EQ(wide.steps[1].call, "vconv_f162u8z");
  EXPECT_EQ(wide.steps[1].repeats, 255u);
  // f32 -> i32 300x16 with 290x10 valid, FLOOR: no whole repeat (10 < 64); the tail in 255 rows
  // then 35: set_ctrl, mask, vconv_f322s32f(255) 510 + 14, vconv(35) 70, mask, set_ctrl = 598.
  const CycleEstimate tall =
      convert(tile(ElemType::I32, 300, 16, 290, 10), tile(ElemType::F32, 300, 16, 290, 10), RoundMode::Floor);
  EXPECT_EQ(tall.cycles, 598u);
  EXPECT_EQ(tall.steps[2].call, "vconv_f322s32f");
}

TEST(PtoCyclesSequences, ConvertInt32ToF16IsDeqAfterABarrier) {
  // i32 -> f16 2x64: 256 / 4 = 64 per repeat, one per row. set_ctrl; row 0: set_deqscale 1,
  // barrier 1 (nothing pending), vconv_deq(1) 14 + 2; row 1: set_deqscale 1, barrier with
  // vconv_deq's tail 18 + 1, vconv_deq(1) 16 again (the barrier emptied the queue); set_ctrl.
  // 1 + 18 + 36 + 1 = 56.
  const CycleEstimate e =
      convert(tile(ElemType::F16, 2, 64, 2, 64), tile(ElemType::I32, 2, 64, 2, 64), RoundMode::None);
  EXPECT_EQ(e.cycles, 56u);
  EXPECT_EQ(e.steps[1].call, "set_deqscale");
  EXPECT_EQ(e.steps[3].call, "vconv_deq");
  EXPECT_EQ(e.steps[5].call, "tail");
  EXPECT_EQ(e.steps[5].cycles, 18u);
}

TEST(PtoCyclesSequences, ConvertSaturationDoesNotChangeTheCalls) {
  // f16 -> i8 2x128 RINT: 128 per repeat, one per row: set_ctrl, vconv_f162s8r(1) 16, (1) 2,
  // set_ctrl = 20, with saturation ON or OFF: the NonSatTorch sequence is chosen on get_ctrl(),
  // which the cost model stubs to 0 (saturation ON).
  const Tile dst = tile(ElemType::I8, 2, 128, 2, 128), src = tile(ElemType::F16, 2, 128, 2, 128);
  EXPECT_EQ(convert(dst, src, RoundMode::Rint, SaturationMode::Off).cycles, 20u);
  EXPECT_EQ(convert(dst, src, RoundMode::Rint, SaturationMode::On).cycles, 20u);
  EXPECT_EQ(convert(dst, src, RoundMode::Rint).steps[1].call, "vconv_f162s8r");
}

TEST(PtoCyclesSequences, ConvertSuffixFollowsThePairsSwitch) {
  const Tile f32 = tile(ElemType::F32, 1, 64, 1, 64);
  // f32 -> f16 lists ODD (vconv_f322f16o); f32 -> i32 does not, and takes its default, TRUNC.
  EXPECT_EQ(convert(tile(ElemType::F16, 1, 64, 1, 64), f32, RoundMode::Odd).steps[1].call, "vconv_f322f16o");
  EXPECT_EQ(convert(tile(ElemType::I32, 1, 64, 1, 64), f32, RoundMode::Odd).steps[1].call, "vconv_f322s32z");
  // bf16 -> i32 ROUND: vconv_bf162s32a; 256 / 4 = 64 per repeat, one call: 1 + 16 + 1 = 18.
  const CycleEstimate e =
      convert(tile(ElemType::I32, 1, 64, 1, 64), tile(ElemType::BF16, 1, 64, 1, 64), RoundMode::Round);
  EXPECT_EQ(e.steps[1].call, "vconv_bf162s32a");
  EXPECT_EQ(e.cycles, 18u);
}

TEST(PtoCyclesSequences, IntegerReciprocalIsTheFormulaFigure) {
  // TRECIP is TDIVS(dst, 1, src); RecordInstr keeps EstimateInstrCycles' figure for TDIVS on int16
  // and int32, a constant 4, whatever the tile.
  const CycleEstimate e = same_shape(Op::TRECIP, tile(ElemType::I32, 8, 64, 8, 64));
  EXPECT_EQ(e.cycles, 4u);
  ASSERT_EQ(e.steps.size(), 1u);
  EXPECT_EQ(e.steps[0].call, "EstimateInstrCycles(TDIVS, int32)");
  EXPECT_EQ(same_shape(Op::TRECIP, tile(ElemType::I16, 300, 16, 290, 10)).cycles, 4u);
}

void expect_refusal(const std::function<void()>& f, ErrorKind kind, const std::string& text) {
  try {
    f();
    FAIL() << "expected a refusal containing: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind);
    EXPECT_THAT(std::string(e.what()), HasSubstr(text));
  }
}

TEST(PtoCyclesSequences, Refusals) {
  const Tile f32 = tile(ElemType::F32, 8, 64, 8, 64), i32 = tile(ElemType::I32, 8, 64, 8, 64);
  expect_refusal([&] { (void)same_shape(Op::TREM, f32); }, ErrorKind::Unsupported, "takes a fourth, the tmp tile");
  expect_refusal([&] { (void)same_shape(Op::TREM, i32); }, ErrorKind::Unsupported, "no working entry for TREM on i32");
  expect_refusal([&] { (void)same_shape(Op::TPOW, f32); }, ErrorKind::Unsupported, "neither TPOW nor TPOWS");
  expect_refusal([&] { (void)same_shape(Op::TPOW, i32); }, ErrorKind::Unsupported, "no working entry for TPOW");
  expect_refusal([&] { (void)convert(i32, tile(ElemType::U8, 8, 64, 8, 64), RoundMode::Rint); },
                 ErrorKind::Unsupported, "no vconv path from u8 to i32");
  expect_refusal([&] { (void)convert(i32, tile(ElemType::F32, 8, 64, 4, 64), RoundMode::Rint); },
                 ErrorKind::UndefinedBehaviour, "one valid region");
  expect_refusal([&] { (void)same_shape(Op::TPRELU, i32); }, ErrorKind::Unsupported, "no entry for TPRELU on i32");
}

}  // namespace
}  // namespace tmu::pto
