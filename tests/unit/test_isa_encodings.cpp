// Every instruction on both architectures against words derived by hand: the raw word is the TT_OP_*
// macro arithmetic of tt-llk's ckernel_ops.h (opcode << 24 + each argument << its shift), the
// arguments mapped onto the ISA's field names (e.g. clear_dvalid = FlipSrcB:FlipSrcA). The second half
// states each field's bit mask, taken from the WH ISA bit diagrams (Bits32.lua) and the BH macros, and
// checks widths and reserved bits against it.
// (Over 600 lines: one hand-derived word per instruction and architecture, in one table-like file.)
#include <gtest/gtest.h>

#include <bit>
#include <set>
#include <vector>

#include "tmu/tensix/decode.h"
#include "tmu/error.h"

namespace tmu::tensix {
namespace {

using F = Field;
enum class On { BH, WH, Both };
constexpr On BH = On::BH;
constexpr On WH = On::WH;
constexpr On Both = On::Both;

std::vector<Arch> arches_of(On on) {
  if (on == BH) return {Arch::Blackhole};
  if (on == WH) return {Arch::Wormhole};
  return {Arch::Blackhole, Arch::Wormhole};
}

using FieldList = std::vector<std::pair<Field, uint32_t>>;

struct WordCase {
  On on;
  Op op;
  FieldList fields;  // ISA field values; every field not listed is 0
  uint32_t word;     // raw form
};

// Derivation comments give the macro call (arguments in macro order) and the arithmetic.
const std::vector<WordCase>& word_cases() {
  static const std::vector<WordCase> cases = {
    // TT_OP_MVMUL(0, 0, 1, 0) on BH (kernel replay, ADDR_MOD_1): 0x26<<24 | 1<<14
    {BH, Op::MVMUL, {{F::AddrMod, 1}}, 0x26004000u},
    // TT_OP_MVMUL(3, 1, 5, 678) on BH (all fields): 0x26<<24 | 3<<22 | 1<<19 | 5<<14 | 678
    {BH, Op::MVMUL,
     {{F::DstRow, 678}, {F::AddrMod, 5}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x26c942a6u},
    // TT_OP_MVMUL(0, 0, 1, 0) on WH (kernel replay, ADDR_MOD_1): 0x26<<24 | 1<<15
    {WH, Op::MVMUL, {{F::AddrMod, 1}}, 0x26008000u},
    // TT_OP_MVMUL(3, 1, 3, 678) on WH (all fields): 0x26<<24 | 3<<22 | 1<<19 | 3<<15 | 678
    {WH, Op::MVMUL,
     {{F::DstRow, 678}, {F::AddrMod, 3}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x26c982a6u},
    // TT_OP_DOTPV(1, 1, 0, 2, 8) on BH (ISA syntax form): 0x29<<24 | 1<<22 | 1<<21 | 2<<14 | 8
    {BH, Op::DOTPV, {{F::DstRow, 8}, {F::AddrMod, 2}, {F::AddDst, 1}, {F::FlipSrcA, 1}}, 0x29608008u},
    // TT_OP_DOTPV(3, 1, 0, 6, 341) on BH (all fields): 0x29<<24 | 3<<22 | 1<<21 | 6<<14 | 341
    {BH, Op::DOTPV,
     {{F::DstRow, 341}, {F::AddrMod, 6}, {F::AddDst, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x29e18155u},
    // TT_OP_DOTPV(1, 1, 0, 2, 8) on WH (ISA syntax form): 0x29<<24 | 1<<22 | 1<<21 | 2<<15 | 8
    {WH, Op::DOTPV, {{F::DstRow, 8}, {F::AddrMod, 2}, {F::AddDst, 1}, {F::FlipSrcA, 1}}, 0x29610008u},
    // TT_OP_DOTPV(3, 1, 0, 3, 341) on WH (all fields): 0x29<<24 | 3<<22 | 1<<21 | 3<<15 | 341
    {WH, Op::DOTPV,
     {{F::DstRow, 341}, {F::AddrMod, 3}, {F::AddDst, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x29e18155u},
    // TT_OP_GAPOOL(0, 1, 2, 0, 0) on BH (kernel, DIM_16X16 ADDR_MOD_2): 0x34<<24 | 1<<19 | 2<<15
    {BH, Op::GAPOOL, {{F::AddrMod, 2}, {F::Dim16x16, 1}}, 0x34090000u},
    // TT_OP_GAPOOL(3, 1, 5, 0, 756) on BH (all fields): 0x34<<24 | 3<<22 | 1<<19 | 5<<15 | 756
    {BH, Op::GAPOOL,
     {{F::DstRow, 756}, {F::AddrMod, 5}, {F::Dim16x16, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x34ca82f4u},
    // TT_OP_GAPOOL(0, 1, 2, 0, 0) on WH (kernel, DIM_16X16 ADDR_MOD_2): 0x34<<24 | 1<<19 | 2<<15
    {WH, Op::GAPOOL, {{F::AddrMod, 2}, {F::Dim16x16, 1}}, 0x34090000u},
    // TT_OP_GAPOOL(3, 1, 3, 0, 756) on WH (all fields): 0x34<<24 | 3<<22 | 1<<19 | 3<<15 | 756
    {WH, Op::GAPOOL,
     {{F::DstRow, 756}, {F::AddrMod, 3}, {F::Dim16x16, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x34c982f4u},
    // TT_OP_GMPOOL(3, 1, 0, 0, 0) on BH (kernel, CLR_AB DIM_16X16): 0x33<<24 | 3<<22 | 1<<19
    {BH, Op::GMPOOL, {{F::Dim16x16, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}}, 0x33c80000u},
    // TT_OP_GMPOOL(3, 1, 6, 1, 500) on BH (all fields): 0x33<<24 | 3<<22 | 1<<19 | 6<<15 | 1<<14 | 500
    {BH, Op::GMPOOL,
     {{F::DstRow, 500}, {F::ArgMax, 1}, {F::AddrMod, 6}, {F::Dim16x16, 1}, {F::FlipSrcA, 1},
      {F::FlipSrcB, 1}},
     0x33cb41f4u},
    // TT_OP_GMPOOL(3, 1, 0, 0, 0) on WH (kernel, CLR_AB DIM_16X16): 0x33<<24 | 3<<22 | 1<<19
    {WH, Op::GMPOOL, {{F::Dim16x16, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}}, 0x33c80000u},
    // TT_OP_GMPOOL(3, 1, 2, 1, 500) on WH (all fields): 0x33<<24 | 3<<22 | 1<<19 | 2<<15 | 1<<14 | 500
    {WH, Op::GMPOOL,
     {{F::DstRow, 500}, {F::ArgMax, 1}, {F::AddrMod, 2}, {F::Dim16x16, 1}, {F::FlipSrcA, 1},
      {F::FlipSrcB, 1}},
     0x33c941f4u},
    // TT_OP_ELWMUL(2, 0, 2, 1, 0) on BH (kernel, CLR_B SRCB_BCAST_ROW ADDR_MOD_1): 0x27<<24 | 2<<22 | 2<<19 | 1<<14
    {BH, Op::ELWMUL, {{F::AddrMod, 1}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcB, 1}}, 0x27904000u},
    // TT_OP_ELWMUL(3, 1, 3, 7, 937) on BH (all fields): 0x27<<24 | 3<<22 | 1<<21 | 3<<19 | 7<<14 | 937
    {BH, Op::ELWMUL,
     {{F::DstRow, 937}, {F::AddrMod, 7}, {F::BroadcastSrcBCol0, 1}, {F::BroadcastSrcBRow, 1}, {F::AddDst, 1},
      {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x27f9c3a9u},
    // TT_OP_ELWMUL(2, 0, 2, 1, 0) on WH (kernel, CLR_B SRCB_BCAST_ROW ADDR_MOD_1): 0x27<<24 | 2<<22 | 2<<19 | 1<<15
    {WH, Op::ELWMUL, {{F::AddrMod, 1}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcB, 1}}, 0x27908000u},
    // TT_OP_ELWMUL(3, 1, 3, 3, 937) on WH (all fields): 0x27<<24 | 3<<22 | 1<<21 | 3<<19 | 3<<15 | 937
    {WH, Op::ELWMUL,
     {{F::DstRow, 937}, {F::AddrMod, 3}, {F::BroadcastSrcBCol0, 1}, {F::BroadcastSrcBRow, 1}, {F::AddDst, 1},
      {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x27f983a9u},
    // TT_OP_ELWADD(2, 0, 2, 1, 0) on BH (kernel, CLR_B SRCB_BCAST_ROW ADDR_MOD_1): 0x28<<24 | 2<<22 | 2<<19 | 1<<14
    {BH, Op::ELWADD, {{F::AddrMod, 1}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcB, 1}}, 0x28904000u},
    // TT_OP_ELWADD(3, 1, 3, 7, 937) on BH (all fields): 0x28<<24 | 3<<22 | 1<<21 | 3<<19 | 7<<14 | 937
    {BH, Op::ELWADD,
     {{F::DstRow, 937}, {F::AddrMod, 7}, {F::BroadcastSrcBCol0, 1}, {F::BroadcastSrcBRow, 1}, {F::AddDst, 1},
      {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x28f9c3a9u},
    // TT_OP_ELWADD(2, 0, 2, 1, 0) on WH (kernel, CLR_B SRCB_BCAST_ROW ADDR_MOD_1): 0x28<<24 | 2<<22 | 2<<19 | 1<<15
    {WH, Op::ELWADD, {{F::AddrMod, 1}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcB, 1}}, 0x28908000u},
    // TT_OP_ELWADD(3, 1, 3, 3, 937) on WH (all fields): 0x28<<24 | 3<<22 | 1<<21 | 3<<19 | 3<<15 | 937
    {WH, Op::ELWADD,
     {{F::DstRow, 937}, {F::AddrMod, 3}, {F::BroadcastSrcBCol0, 1}, {F::BroadcastSrcBRow, 1}, {F::AddDst, 1},
      {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x28f983a9u},
    // TT_OP_ELWSUB(2, 0, 2, 1, 0) on BH (kernel, CLR_B SRCB_BCAST_ROW ADDR_MOD_1): 0x30<<24 | 2<<22 | 2<<19 | 1<<14
    {BH, Op::ELWSUB, {{F::AddrMod, 1}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcB, 1}}, 0x30904000u},
    // TT_OP_ELWSUB(3, 1, 3, 7, 937) on BH (all fields): 0x30<<24 | 3<<22 | 1<<21 | 3<<19 | 7<<14 | 937
    {BH, Op::ELWSUB,
     {{F::DstRow, 937}, {F::AddrMod, 7}, {F::BroadcastSrcBCol0, 1}, {F::BroadcastSrcBRow, 1}, {F::AddDst, 1},
      {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x30f9c3a9u},
    // TT_OP_ELWSUB(2, 0, 2, 1, 0) on WH (kernel, CLR_B SRCB_BCAST_ROW ADDR_MOD_1): 0x30<<24 | 2<<22 | 2<<19 | 1<<15
    {WH, Op::ELWSUB, {{F::AddrMod, 1}, {F::BroadcastSrcBRow, 1}, {F::FlipSrcB, 1}}, 0x30908000u},
    // TT_OP_ELWSUB(3, 1, 3, 3, 937) on WH (all fields): 0x30<<24 | 3<<22 | 1<<21 | 3<<19 | 3<<15 | 937
    {WH, Op::ELWSUB,
     {{F::DstRow, 937}, {F::AddrMod, 3}, {F::BroadcastSrcBCol0, 1}, {F::BroadcastSrcBRow, 1}, {F::AddDst, 1},
      {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x30f983a9u},
    // TT_OP_ZEROACC(3, 0, 0, 1, 0) on BH (CLR_ALL ADDR_MOD_1 (seed's matmul_peak word)): 0x10<<24 | 3<<19 | 1<<14
    {BH, Op::ZEROACC, {{F::AddrMod, 1}, {F::Mode, 3}}, 0x10184000u},
    // TT_OP_ZEROACC(1, 1, 1, 3, 4) on BH (datacopy: CLR_16, fp32, clear_zero_flags):
    //   0x10<<24 | 1<<19 | 1<<18 | 1<<17 | 3<<14 | 4
    {BH, Op::ZEROACC, {{F::Imm10, 4}, {F::AddrMod, 3}, {F::Revert, 1}, {F::UseDst32b, 1}, {F::Mode, 1}}, 0x100ec004u},
    // TT_OP_ZEROACC(2, 1, 1, 6, 421) on BH (all fields): 0x10<<24 | 2<<19 | 1<<18 | 1<<17 | 6<<14 | 421
    {BH, Op::ZEROACC, {{F::Imm10, 421}, {F::AddrMod, 6}, {F::Revert, 1}, {F::UseDst32b, 1}, {F::Mode, 2}}, 0x101781a5u},
    // TT_OP_ZEROACC(6, 1, 1) on WH (CLR_HALF_32B ADDR_MOD_1, high half): 0x10<<24 | 6<<19 | 1<<15 | 1
    {WH, Op::ZEROACC, {{F::Imm10, 1}, {F::AddrMod, 1}, {F::Mode, 2}, {F::UseDst32b, 1}}, 0x10308001u},
    // TT_OP_ZEROACC(3, 0, 0) on WH (CLR_ALL): 0x10<<24 | 3<<19
    {WH, Op::ZEROACC, {{F::Mode, 3}}, 0x10180000u},
    // WH ISA bit diagram (TT_OP_ZEROACC cannot set Revert): 0x10<<24 | 1<<21 | 3<<19 | 1<<18 | 2<<15 | 421
    {WH, Op::ZEROACC, {{F::Imm10, 421}, {F::AddrMod, 2}, {F::Revert, 1}, {F::Mode, 3}, {F::UseDst32b, 1}}, 0x103d01a5u},
    // TT_OP_ZEROSRC(0, 0, 1, 3) on BH+WH (zero all banks of SrcA and SrcB): 0x11<<24 | 1<<2 | 3
    {Both, Op::ZEROSRC, {{F::ClearSrcA, 1}, {F::ClearSrcB, 1}, {F::BothBanks, 1}}, 0x11000007u},
    // TT_OP_ZEROSRC(0, 1, 0, 1) on BH+WH (reduce: clear the Matrix Unit's SrcA bank): 0x11<<24 | 1<<3 | 1
    {Both, Op::ZEROSRC, {{F::ClearSrcA, 1}, {F::SingleBankMatrixUnit, 1}}, 0x11000009u},
    // TT_OP_ZEROSRC(1, 1, 1, 3) on BH+WH (all fields): 0x11<<24 | 1<<4 | 1<<3 | 1<<2 | 3
    {Both, Op::ZEROSRC,
     {{F::ClearSrcA, 1}, {F::ClearSrcB, 1}, {F::BothBanks, 1}, {F::SingleBankMatrixUnit, 1}, {F::NegativeInfSrcA, 1}},
     0x1100001fu},
    // TT_OP_MOVA2D(0, 16, 0, 0, 0) on BH (SRC_ROW16_OFFSET ADDR_MOD_0 MOV_1_ROW): 0x12<<24 | 16<<17
    {BH, Op::MOVA2D, {{F::SrcRow, 16}}, 0x12200000u},
    // TT_OP_MOVA2D(1, 42, 5, 2, 307) on BH (all fields): 0x12<<24 | 1<<23 | 42<<17 | 5<<14 | 2<<12 | 307
    {BH, Op::MOVA2D,
     {{F::DstRow, 307}, {F::Move8Rows, 1}, {F::AddrMod, 5}, {F::SrcRow, 42}, {F::UseDst32bLo, 1}},
     0x12d56133u},
    // TT_OP_MOVA2D(0, 16, 0, 0, 0) on WH (SRC_ROW16_OFFSET ADDR_MOD_0 MOV_1_ROW): 0x12<<24 | 16<<17
    {WH, Op::MOVA2D, {{F::SrcRow, 16}}, 0x12200000u},
    // TT_OP_MOVA2D(1, 42, 2, 2, 307) on WH (all fields): 0x12<<24 | 1<<23 | 42<<17 | 2<<15 | 2<<12 | 307
    {WH, Op::MOVA2D,
     {{F::DstRow, 307}, {F::Move8Rows, 1}, {F::AddrMod, 2}, {F::SrcRow, 42}, {F::UseDst32bLo, 1}},
     0x12d52133u},
    // TT_OP_MOVB2D(1, 28, 3, 4, 0) on BH (DEST_32B_LOW SRC_ROW16_OFFSET+12 ADDR_MOD_3 MOV_4_ROWS):
    //   0x13<<24 | 1<<23 | 28<<17 | 3<<14 | 4<<11
    {BH, Op::MOVB2D, {{F::Move4Rows, 1}, {F::AddrMod, 3}, {F::SrcRow, 28}, {F::UseDst32bLo, 1}}, 0x13b8e000u},
    // TT_OP_MOVB2D(0, 0, 3, 3, 24) on BH (MOV_8_ROW_BRCST_D0_BRCST): 0x13<<24 | 3<<14 | 3<<11 | 24
    {BH, Op::MOVB2D, {{F::DstRow, 24}, {F::BroadcastCol0, 1}, {F::Broadcast1RowTo8, 1}, {F::AddrMod, 3}}, 0x1300d818u},
    // TT_OP_MOVB2D(1, 37, 6, 7, 712) on BH (all fields): 0x13<<24 | 1<<23 | 37<<17 | 6<<14 | 7<<11 | 712
    {BH, Op::MOVB2D,
     {{F::DstRow, 712}, {F::BroadcastCol0, 1}, {F::Broadcast1RowTo8, 1}, {F::Move4Rows, 1}, {F::AddrMod, 6},
      {F::SrcRow, 37}, {F::UseDst32bLo, 1}},
     0x13cbbac8u},
    // TT_OP_MOVB2D(1, 28, 3, 4, 0) on WH (DEST_32B_LOW SRC_ROW16_OFFSET+12 ADDR_MOD_3 MOV_4_ROWS):
    //   0x13<<24 | 1<<23 | 28<<17 | 3<<15 | 4<<12
    {WH, Op::MOVB2D, {{F::Move4Rows, 1}, {F::AddrMod, 3}, {F::SrcRow, 28}, {F::UseDst32bLo, 1}}, 0x13b9c000u},
    // TT_OP_MOVB2D(0, 0, 3, 3, 24) on WH (MOV_8_ROW_BRCST_D0_BRCST): 0x13<<24 | 3<<15 | 3<<12 | 24
    {WH, Op::MOVB2D, {{F::DstRow, 24}, {F::BroadcastCol0, 1}, {F::Broadcast1RowTo8, 1}, {F::AddrMod, 3}}, 0x1301b018u},
    // TT_OP_MOVB2D(1, 37, 1, 7, 712) on WH (all fields): 0x13<<24 | 1<<23 | 37<<17 | 1<<15 | 7<<12 | 712
    {WH, Op::MOVB2D,
     {{F::DstRow, 712}, {F::BroadcastCol0, 1}, {F::Broadcast1RowTo8, 1}, {F::Move4Rows, 1}, {F::AddrMod, 1},
      {F::SrcRow, 37}, {F::UseDst32bLo, 1}},
     0x13caf2c8u},
    // TT_OP_MOVD2A(0, 16, 0, 0, 0) on BH (SRC_ROW16_OFFSET ADDR_MOD_0 MOV_1_ROW): 0x08<<24 | 16<<17
    {BH, Op::MOVD2A, {{F::SrcRow, 16}}, 0x08200000u},
    // TT_OP_MOVD2A(1, 42, 5, 2, 307) on BH (all fields): 0x08<<24 | 1<<23 | 42<<17 | 5<<14 | 2<<12 | 307
    {BH, Op::MOVD2A,
     {{F::DstRow, 307}, {F::Move4Rows, 1}, {F::AddrMod, 5}, {F::SrcRow, 42}, {F::UseDst32bLo, 1}},
     0x08d56133u},
    // TT_OP_MOVD2A(0, 16, 0, 0, 0) on WH (SRC_ROW16_OFFSET ADDR_MOD_0 MOV_1_ROW): 0x08<<24 | 16<<17
    {WH, Op::MOVD2A, {{F::SrcRow, 16}}, 0x08200000u},
    // TT_OP_MOVD2A(1, 42, 2, 2, 307) on WH (all fields): 0x08<<24 | 1<<23 | 42<<17 | 2<<15 | 2<<12 | 307
    {WH, Op::MOVD2A,
     {{F::DstRow, 307}, {F::Move4Rows, 1}, {F::AddrMod, 2}, {F::SrcRow, 42}, {F::UseDst32bLo, 1}},
     0x08d52133u},
    // TT_OP_MOVD2B(0, 16, 0, 0, 0) on BH (SRC_ROW16_OFFSET ADDR_MOD_0 MOV_1_ROW): 0x0a<<24 | 16<<17
    {BH, Op::MOVD2B, {{F::SrcRow, 16}}, 0x0a200000u},
    // TT_OP_MOVD2B(1, 42, 5, 2, 307) on BH (all fields): 0x0a<<24 | 1<<23 | 42<<17 | 5<<14 | 2<<12 | 307
    {BH, Op::MOVD2B,
     {{F::DstRow, 307}, {F::Move4Rows, 1}, {F::AddrMod, 5}, {F::SrcRow, 42}, {F::UseDst32bLo, 1}},
     0x0ad56133u},
    // TT_OP_MOVD2B(0, 16, 0, 0, 0) on WH (SRC_ROW16_OFFSET ADDR_MOD_0 MOV_1_ROW): 0x0a<<24 | 16<<17
    {WH, Op::MOVD2B, {{F::SrcRow, 16}}, 0x0a200000u},
    // TT_OP_MOVD2B(1, 42, 2, 2, 307) on WH (all fields): 0x0a<<24 | 1<<23 | 42<<17 | 2<<15 | 2<<12 | 307
    {WH, Op::MOVD2B,
     {{F::DstRow, 307}, {F::Move4Rows, 1}, {F::AddrMod, 2}, {F::SrcRow, 42}, {F::UseDst32bLo, 1}},
     0x0ad52133u},
    // TT_OP_MOVB2A(4, 0, 2, 20) on BH (SRCA+4 ADDR_MOD_0 MOV_4_ROWS SRCB_ROW16_OFFSET+4): 0x0b<<24 | 4<<17 | 2<<12 | 20
    {BH, Op::MOVB2A, {{F::SrcBRow, 20}, {F::Move4Rows, 1}, {F::SrcARow, 4}}, 0x0b082014u},
    // TT_OP_MOVB2A(50, 7, 2, 29) on BH (all fields): 0x0b<<24 | 50<<17 | 7<<14 | 2<<12 | 29
    {BH, Op::MOVB2A, {{F::SrcBRow, 29}, {F::Move4Rows, 1}, {F::AddrMod, 7}, {F::SrcARow, 50}}, 0x0b65e01du},
    // TT_OP_MOVB2A(4, 0, 2, 20) on WH (SRCA+4 ADDR_MOD_0 MOV_4_ROWS SRCB_ROW16_OFFSET+4): 0x0b<<24 | 4<<17 | 2<<12 | 20
    {WH, Op::MOVB2A, {{F::SrcBRow, 20}, {F::Move4Rows, 1}, {F::SrcARow, 4}}, 0x0b082014u},
    // TT_OP_MOVB2A(50, 3, 2, 29) on WH (all fields): 0x0b<<24 | 50<<17 | 3<<15 | 2<<12 | 29
    {WH, Op::MOVB2A, {{F::SrcBRow, 29}, {F::Move4Rows, 1}, {F::AddrMod, 3}, {F::SrcARow, 50}}, 0x0b65a01du},
    // TT_OP_SETRWC(0, 0, 0, 0, 0, 15) on BH+WH (SET_ABD_F (seed's word)): 0x37<<24 | 15
    {Both, Op::SETRWC, {{F::SrcA, 1}, {F::SrcB, 1}, {F::Dst, 1}, {F::Fidelity, 1}}, 0x3700000fu},
    // TT_OP_SETRWC(0, 4, 8, 0, 0, 4) on BH+WH (CLR_NONE CR_D 8 SET_D): 0x37<<24 | 4<<18 | 8<<14 | 4
    {Both, Op::SETRWC, {{F::Dst, 1}, {F::DstVal, 8}, {F::DstCr, 1}}, 0x37120004u},
    // TT_OP_SETRWC(3, 15, 9, 5, 3, 15) on BH+WH (all fields): 0x37<<24 | 3<<22 | 15<<18 | 9<<14 | 5<<10 | 3<<6 | 15
    {Both, Op::SETRWC,
     {{F::SrcA, 1}, {F::SrcB, 1}, {F::Dst, 1}, {F::Fidelity, 1}, {F::SrcAVal, 3},
      {F::SrcBVal, 5}, {F::DstVal, 9}, {F::SrcACr, 1}, {F::SrcBCr, 1}, {F::DstCr, 1},
      {F::DstCtoCr, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x37fe54cfu},
    // TT_OP_INCRWC(0, 8, 0, 0) on BH+WH (Dst += 8): 0x38<<24 | 8<<14
    {Both, Op::INCRWC, {{F::DstInc, 8}}, 0x38020000u},
    // TT_OP_INCRWC(7, 12, 6, 2) on BH+WH (all fields): 0x38<<24 | 7<<18 | 12<<14 | 6<<10 | 2<<6
    {Both, Op::INCRWC,
     {{F::SrcAInc, 2}, {F::SrcBInc, 6}, {F::DstInc, 12}, {F::SrcACr, 1}, {F::SrcBCr, 1},
      {F::DstCr, 1}},
     0x381f1880u},
    // TT_OP_CLEARDVALID(2, 0) on BH+WH (CLR_SRCB_VLD): 0x36<<24 | 2<<22
    {Both, Op::CLEARDVALID, {{F::FlipSrcB, 1}}, 0x36800000u},
    // TT_OP_CLEARDVALID(3, 3) on BH+WH (all fields): 0x36<<24 | 3<<22 | 3
    {Both, Op::CLEARDVALID,
     {{F::Reset, 1}, {F::KeepReadingSameSrc, 1}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x36c00003u},
    // TT_OP_TRNSPSRCB on BH+WH (no fields): 0x16<<24
    {Both, Op::TRNSPSRCB, {}, 0x16000000u},
    // TT_OP_CONV3S1(3, 21, 6, 483) on BH (all fields): 0x22<<24 | 3<<22 | 21<<17 | 6<<14 | 483
    {BH, Op::CONV3S1,
     {{F::DstRow, 483}, {F::AddrMod, 6}, {F::RotateWeights, 21}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x22eb81e3u},
    // TT_OP_CONV3S1(3, 21, 2, 483) on WH (all fields): 0x22<<24 | 3<<22 | 21<<17 | 2<<15 | 483
    {WH, Op::CONV3S1,
     {{F::DstRow, 483}, {F::AddrMod, 2}, {F::RotateWeights, 21}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x22eb01e3u},
    // TT_OP_CONV3S2(3, 21, 6, 483) on BH (all fields): 0x23<<24 | 3<<22 | 21<<17 | 6<<14 | 483
    {BH, Op::CONV3S2,
     {{F::DstRow, 483}, {F::AddrMod, 6}, {F::RotateWeights, 21}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x23eb81e3u},
    // TT_OP_CONV3S2(3, 21, 2, 483) on WH (all fields): 0x23<<24 | 3<<22 | 21<<17 | 2<<15 | 483
    {WH, Op::CONV3S2,
     {{F::DstRow, 483}, {F::AddrMod, 2}, {F::RotateWeights, 21}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x23eb01e3u},
    // TT_OP_APOOL3S1(3, 5, 1, 683) on BH (all fields): 0x25<<24 | 3<<22 | 5<<15 | 1<<14 | 683
    {BH, Op::APOOL3S1,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 5}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x25c2c2abu},
    // TT_OP_APOOL3S1(3, 3, 1, 683) on WH (all fields): 0x25<<24 | 3<<22 | 3<<15 | 1<<14 | 683
    {WH, Op::APOOL3S1,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 3}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x25c1c2abu},
    // TT_OP_APOOL3S2(3, 5, 1, 683) on BH (all fields): 0x32<<24 | 3<<22 | 5<<15 | 1<<14 | 683
    {BH, Op::APOOL3S2,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 5}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x32c2c2abu},
    // TT_OP_APOOL3S2(3, 3, 1, 683) on WH (all fields): 0x32<<24 | 3<<22 | 3<<15 | 1<<14 | 683
    {WH, Op::APOOL3S2,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 3}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x32c1c2abu},
    // TT_OP_MPOOL3S1(3, 5, 1, 683) on BH (all fields): 0x24<<24 | 3<<22 | 5<<15 | 1<<14 | 683
    {BH, Op::MPOOL3S1,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 5}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x24c2c2abu},
    // TT_OP_MPOOL3S1(3, 3, 1, 683) on WH (all fields): 0x24<<24 | 3<<22 | 3<<15 | 1<<14 | 683
    {WH, Op::MPOOL3S1,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 3}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x24c1c2abu},
    // TT_OP_MPOOL3S2(3, 5, 1, 683) on BH (all fields): 0x31<<24 | 3<<22 | 5<<15 | 1<<14 | 683
    {BH, Op::MPOOL3S2,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 5}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x31c2c2abu},
    // TT_OP_MPOOL3S2(3, 3, 1, 683) on WH (all fields): 0x31<<24 | 3<<22 | 3<<15 | 1<<14 | 683
    {WH, Op::MPOOL3S2,
     {{F::DstRow, 683}, {F::IndexEn, 1}, {F::AddrMod, 3}, {F::FlipSrcA, 1}, {F::FlipSrcB, 1}},
     0x31c1c2abu},
    // TT_OP_GATESRCRST(1, 0) on BH+WH (ISA syntax form): 0x35<<24 | 1<<1
    {Both, Op::GATESRCRST, {{F::InvalidateSrcBCache, 1}}, 0x35000002u},
    // TT_OP_GATESRCRST(1, 1) on BH+WH (kernel form (0b1, 0b1), all fields): 0x35<<24 | 1<<1 | 1
    {Both, Op::GATESRCRST, {{F::ResetSrcAGateControl, 1}, {F::InvalidateSrcBCache, 1}}, 0x35000003u},
    // TT_OP_CLREXPHIST on BH+WH (no fields): 0x21<<24
    {Both, Op::CLREXPHIST, {}, 0x21000000u},
    // TT_OP_SHIFTXA(0, 3) on BH+WH (LEFT_TOWARD0, all fields): 0x17<<24 | 3
    {Both, Op::SHIFTXA, {{F::Direction, 3}}, 0x17000003u},
    // TT_OP_SHIFTXA(0, 2) on BH+WH (RIGHT_AWAY0): 0x17<<24 | 2
    {Both, Op::SHIFTXA, {{F::Direction, 2}}, 0x17000002u},
    // TT_OP_SHIFTXB(0, 0, 10) on BH (debug read of SrcB row 20 (row_addr >> 1)): 0x18<<24 | 10
    {BH, Op::SHIFTXB, {{F::SrcRow, 10}}, 0x1800000au},
    // TT_OP_SHIFTXB(5, 1, 45) on BH (all fields): 0x18<<24 | 5<<14 | 1<<10 | 45
    {BH, Op::SHIFTXB, {{F::SrcRow, 45}, {F::ShiftInZero, 1}, {F::AddrMod, 5}}, 0x1801442du},
    // TT_OP_SHIFTXB(0, 0, 10) on WH (debug read of SrcB row 20 (row_addr >> 1)): 0x18<<24 | 10
    {WH, Op::SHIFTXB, {{F::SrcRow, 10}}, 0x1800000au},
    // TT_OP_SHIFTXB(2, 1, 45) on WH (all fields): 0x18<<24 | 2<<15 | 1<<10 | 45
    {WH, Op::SHIFTXB, {{F::SrcRow, 45}, {F::ShiftInZero, 1}, {F::AddrMod, 2}}, 0x1801042du},
    // TT_OP_SETDMAREG(0, 0xBEEF, 0, 9) on BH+WH (immediate form; 0xBEEF<<8 spills into bits 23:22):
    //   0x45<<24 | 0xBEEF<<8 | 9
    {Both, Op::SETDMAREG, {{F::ResultHalfReg, 9}, {F::NewValue, 0xbeef}}, 0x45beef09u},
    // TT_OP_SETDMAREG(2, 691, 1, 77) on BH+WH (all fields; special form ResultSize=2, and
    //   Payload_SigSel = WhichPackers=5<<7 + InputSource=6<<3 + InputHalfReg=3 = 691):
    //   0x45<<24 | 2<<22 | 691<<8 | 1<<7 | 77, so NewValue (bits 23:8) = 2<<14 | 691 = 0x82b3
    {Both, Op::SETDMAREG, {{F::ResultHalfReg, 77}, {F::SetSignalsMode, 1}, {F::NewValue, 0x82b3}}, 0x4582b3cdu},
    // TT_OP_ADDDMAREG(0, 3, 2, 1) on BH+WH (reg-reg): 0x58<<24 | 3<<12 | 2<<6 | 1
    {Both, Op::ADDDMAREG, {{F::LeftReg, 1}, {F::RightReg, 2}, {F::ResultReg, 3}}, 0x58003081u},
    // TT_OP_ADDDMAREG(1, 45, 33, 17) on BH+WH (immediate 33, all fields): 0x58<<24 | 1<<23 | 45<<12 | 33<<6 | 17
    {Both, Op::ADDDMAREG, {{F::LeftReg, 17}, {F::RightReg, 33}, {F::ResultReg, 45}, {F::OpBisConst, 1}}, 0x5882d851u},
    // TT_OP_SUBDMAREG(0, 3, 2, 1) on BH+WH (reg-reg): 0x59<<24 | 3<<12 | 2<<6 | 1
    {Both, Op::SUBDMAREG, {{F::LeftReg, 1}, {F::RightReg, 2}, {F::ResultReg, 3}}, 0x59003081u},
    // TT_OP_SUBDMAREG(1, 45, 33, 17) on BH+WH (immediate 33, all fields): 0x59<<24 | 1<<23 | 45<<12 | 33<<6 | 17
    {Both, Op::SUBDMAREG, {{F::LeftReg, 17}, {F::RightReg, 33}, {F::ResultReg, 45}, {F::OpBisConst, 1}}, 0x5982d851u},
    // TT_OP_MULDMAREG(0, 3, 2, 1) on BH+WH (reg-reg): 0x5a<<24 | 3<<12 | 2<<6 | 1
    {Both, Op::MULDMAREG, {{F::LeftReg, 1}, {F::RightReg, 2}, {F::ResultReg, 3}}, 0x5a003081u},
    // TT_OP_MULDMAREG(1, 45, 33, 17) on BH+WH (immediate 33, all fields): 0x5a<<24 | 1<<23 | 45<<12 | 33<<6 | 17
    {Both, Op::MULDMAREG, {{F::LeftReg, 17}, {F::RightReg, 33}, {F::ResultReg, 45}, {F::OpBisConst, 1}}, 0x5a82d851u},
    // TT_OP_SHIFTDMAREG(0, 1, 3, 2, 1) on BH+WH (reg-reg, Mode 1): 0x5c<<24 | 1<<18 | 3<<12 | 2<<6 | 1
    {Both, Op::SHIFTDMAREG, {{F::LeftReg, 1}, {F::RightReg, 2}, {F::ResultReg, 3}, {F::Mode, 1}}, 0x5c043081u},
    // TT_OP_SHIFTDMAREG(1, 2, 45, 31, 17) on BH+WH (immediate 31, all fields):
    //   0x5c<<24 | 1<<23 | 2<<18 | 45<<12 | 31<<6 | 17
    {Both, Op::SHIFTDMAREG,
     {{F::LeftReg, 17}, {F::RightReg, 31}, {F::ResultReg, 45}, {F::Mode, 2}, {F::OpBisConst, 1}},
     0x5c8ad7d1u},
    // TT_OP_BITWOPDMAREG(0, 1, 3, 2, 1) on BH+WH (reg-reg, Mode 1): 0x5b<<24 | 1<<18 | 3<<12 | 2<<6 | 1
    {Both, Op::BITWOPDMAREG, {{F::LeftReg, 1}, {F::RightReg, 2}, {F::ResultReg, 3}, {F::Mode, 1}}, 0x5b043081u},
    // TT_OP_BITWOPDMAREG(1, 2, 45, 62, 17) on BH+WH (immediate 62, all fields):
    //   0x5b<<24 | 1<<23 | 2<<18 | 45<<12 | 62<<6 | 17
    {Both, Op::BITWOPDMAREG,
     {{F::LeftReg, 17}, {F::RightReg, 62}, {F::ResultReg, 45}, {F::Mode, 2}, {F::OpBisConst, 1}},
     0x5b8adf91u},
    // TT_OP_CMPDMAREG(0, 1, 3, 2, 1) on BH+WH (reg-reg, Mode 1): 0x5d<<24 | 1<<18 | 3<<12 | 2<<6 | 1
    {Both, Op::CMPDMAREG, {{F::LeftReg, 1}, {F::RightReg, 2}, {F::ResultReg, 3}, {F::Mode, 1}}, 0x5d043081u},
    // TT_OP_CMPDMAREG(1, 2, 45, 40, 17) on BH+WH (immediate 40, all fields):
    //   0x5d<<24 | 1<<23 | 2<<18 | 45<<12 | 40<<6 | 17
    {Both, Op::CMPDMAREG,
     {{F::LeftReg, 17}, {F::RightReg, 40}, {F::ResultReg, 45}, {F::Mode, 2}, {F::OpBisConst, 1}},
     0x5d8ada11u},
    // TT_OP_FLUSHDMA(0) on BH+WH (wait on all conditions): 0x46<<24
    {Both, Op::FLUSHDMA, {}, 0x46000000u},
    // TT_OP_FLUSHDMA(10) on BH+WH (C1 and C3, all fields): 0x46<<24 | 10
    {Both, Op::FLUSHDMA, {{F::ConditionMask, 10}}, 0x4600000au},
    // TT_OP_DMANOP on BH+WH (no fields): 0x60<<24
    {Both, Op::DMANOP, {}, 0x60000000u},
    // UNPACR_Regular (Bits32.lua UNPACR_Regular, both architectures), unpacker 0 in MultiContextMode
    // handing the bank over: 0x42<<24 | 1<<7 | 1<<6
    {Both, Op::UNPACR, {{F::MultiContextMode, 1}, {F::FlipSrc, 1}}, 0x420000c0u},
    // UNPACR, every field: 0x42<<24 | 1<<23 (WhichUnpacker) | 3<<21 (Ch1YInc) | 2<<19 (Ch1ZInc) |
    // 1<<17 (Ch0YInc) | 3<<15 (Ch0ZInc) | 5<<10 (ContextNumber) | 2<<8 (ContextADC) | 1<<7 | 1<<6 |
    // 1<<4 (AllDatumsAreZero) | 1<<3 (UseContextCounter) | 1<<2 (RowSearch) = 0x42f396dc
    {Both, Op::UNPACR, {{F::WhichUnpacker, 1}, {F::Ch1YInc, 3}, {F::Ch1ZInc, 2}, {F::Ch0YInc, 1}, {F::Ch0ZInc, 3},
                        {F::ContextNumber, 5}, {F::ContextADC, 2}, {F::MultiContextMode, 1}, {F::FlipSrc, 1},
                        {F::AllDatumsAreZero, 1}, {F::UseContextCounter, 1}, {F::RowSearch, 1}}, 0x42f396dcu},
    // PACR on WH (Bits32.lua PACR), packer 0, last of a tile, ADDR_MOD_PACK_SEC2: 0x41<<24 | 2<<15 | 1<<8 | 1
    {WH, Op::PACR, {{F::Last, 1}, {F::PackerMask, 1}, {F::AddrMod, 2}}, 0x41010101u},
    // PACR on WH, every field: 0x41<<24 | 3<<15 | 1<<12 | 0xf<<8 | 1<<7 | 1<<4 | 1<<1 | 1 = 0x41019f93
    {WH, Op::PACR, {{F::AddrMod, 3}, {F::ZeroWrite, 1}, {F::PackerMask, 0xf}, {F::OvrdThreadId, 1}, {F::Concat, 1},
                    {F::Flush, 1}, {F::Last, 1}}, 0x41019f93u},
    // PACR on BH (Bits32_PACR_BH.svg), all four read interfaces, last: 0x41<<24 | 0xf<<8 | 1
    {BH, Op::PACR, {{F::ReadIntfSel, 0xf}, {F::Last, 1}}, 0x41000f01u},
    // PACR on BH, every field: 0x41<<24 | 3<<21 (CfgContext) | 5<<18 (RowPadZero) | 1<<17 (DstAccessMode) |
    // 1<<15 (AddrMod) | 2<<13 (AddrCntContext) | 1<<12 | 0xa<<8 (ReadIntfSel) | 1<<7 | 1<<4 |
    // 3<<2 (CtxtCtrl) | 1<<1 | 1 = 0x4176da9f
    {BH, Op::PACR, {{F::CfgContext, 3}, {F::RowPadZero, 5}, {F::DstAccessMode, 1}, {F::AddrMod, 1},
                    {F::AddrCntContext, 2}, {F::ZeroWrite, 1}, {F::ReadIntfSel, 0xa}, {F::OvrdThreadId, 1},
                    {F::Concat, 1}, {F::CtxtCtrl, 3}, {F::Flush, 1}, {F::Last, 1}}, 0x4176da9fu},
  };
  return cases;
}

std::string describe(Arch arch, Op op) { return std::string(op_name(op)) + " on " + arch_name(arch); }

uint32_t expected_value(const FieldList& fields, Field f) {
  for (const auto& [field, value] : fields)
    if (field == f) return value;
  return 0;
}

TEST(IsaEncodings, EncodingTheFieldsGivesTheHandDerivedWord) {
  for (const WordCase& c : word_cases())
    for (Arch arch : arches_of(c.on)) try {
        EXPECT_EQ(encode(arch, c.op, c.fields), c.word) << describe(arch, c.op);
      } catch (const Error& e) {
        ADD_FAILURE() << describe(arch, c.op) << ": " << e.what();
      }
}

TEST(IsaEncodings, DecodingTheHandDerivedWordGivesTheFields) {
  for (const WordCase& c : word_cases()) {
    for (Arch arch : arches_of(c.on)) {
      Insn insn;
      try {
        insn = decode(c.word, arch);
      } catch (const Error& e) {
        ADD_FAILURE() << describe(arch, c.op) << ": " << e.what();
        continue;
      }
      ASSERT_EQ(insn.op(), c.op) << describe(arch, c.op);
      EXPECT_EQ(insn.word, c.word);
      for (const FieldSpec& fs : insn.spec->fields())
        EXPECT_EQ(insn[fs.id], expected_value(c.fields, fs.id))
            << describe(arch, c.op) << " field " << field_name(fs.id);
      for (const auto& [field, value] : c.fields) EXPECT_TRUE(insn.has(field)) << field_name(field);
    }
  }
}

// The 39 instructions tmu covers, by name, so that a lost table entry shows.
const std::vector<std::string> kAllMnemonics = {
    "MVMUL",       "DOTPV",      "GAPOOL",      "GMPOOL",     "ELWMUL",     "ELWADD",    "ELWSUB",       "ZEROACC",
    "ZEROSRC",     "MOVA2D",     "MOVB2D",      "MOVD2A",     "MOVD2B",     "MOVB2A",    "SETRWC",       "INCRWC",
    "CLEARDVALID", "TRNSPSRCB",  "CONV3S1",     "CONV3S2",    "APOOL3S1",   "APOOL3S2",  "MPOOL3S1",     "MPOOL3S2",
    "GATESRCRST",  "CLREXPHIST", "SHIFTXA",     "SHIFTXB",    "SETDMAREG",  "ADDDMAREG", "SUBDMAREG",    "MULDMAREG",
    "SHIFTDMAREG", "BITWOPDMAREG", "CMPDMAREG", "FLUSHDMA",   "DMANOP",    "UNPACR",       "PACR"};

TEST(IsaEncodings, EveryInstructionOnEveryArchitectureHasHandDerivedWords) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    EXPECT_EQ(instructions(arch).size(), kAllMnemonics.size()) << arch_name(arch);
    for (const std::string& mn : kAllMnemonics) {
      const InsnSpec* spec = find_by_mnemonic(arch, mn);
      ASSERT_NE(spec, nullptr) << mn << " on " << arch_name(arch);
      bool covered = false;
      for (const WordCase& c : word_cases())
        for (Arch a : arches_of(c.on)) covered = covered || (a == arch && c.op == spec->op);
      EXPECT_TRUE(covered) << mn << " on " << arch_name(arch) << " has no hand-derived word";
    }
  }
}

TEST(IsaEncodings, DmaregInstructionsBelongToTheScalarUnit) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole})
    for (const InsnSpec& spec : instructions(arch)) {
      const std::string mn = spec.mnemonic;
      const bool scalar = mn.find("DMA") != std::string::npos;
      const Unit expected = scalar ? Unit::ScalarUnit : mn == "UNPACR" ? Unit::Unpacker : mn == "PACR" ? Unit::Packer
                                                                                                     : Unit::MatrixUnit;
      EXPECT_EQ(spec.unit, expected) << mn;
      EXPECT_NE(std::string(spec.summary), "") << mn;
    }
}

// Bit mask of every field, per architecture. Max is the mask's value shifted down (no field here has a
// tighter unconditional limit); every bit of 23:0 outside the masks is reserved.
struct Layout {
  On on;
  Op op;
  FieldList masks;
};

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> all = {
      {BH, Op::MVMUL, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x1c000}, {F::BroadcastSrcBRow, 0x80000},
                       {F::FlipSrcA, 0x400000},
                       {F::FlipSrcB, 0x800000}}},
      {WH, Op::MVMUL, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x18000}, {F::BroadcastSrcBRow, 0x80000},
                       {F::FlipSrcA, 0x400000},
                       {F::FlipSrcB, 0x800000}}},
      {BH, Op::DOTPV, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x1c000}, {F::AddDst, 0x200000}, {F::FlipSrcA, 0x400000},
                       {F::FlipSrcB, 0x800000}}},
      {WH, Op::DOTPV, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x18000}, {F::AddDst, 0x200000}, {F::FlipSrcA, 0x400000},
                       {F::FlipSrcB, 0x800000}}},
      {BH, Op::GAPOOL, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x38000}, {F::Dim16x16, 0x80000}, {F::FlipSrcA, 0x400000},
                        {F::FlipSrcB, 0x800000}}},
      {WH, Op::GAPOOL, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x18000}, {F::Dim16x16, 0x80000}, {F::FlipSrcA, 0x400000},
                        {F::FlipSrcB, 0x800000}}},
      {BH, Op::GMPOOL, {{F::DstRow, 0x3ff}, {F::ArgMax, 0x4000}, {F::AddrMod, 0x38000}, {F::Dim16x16, 0x80000},
                        {F::FlipSrcA, 0x400000}, {F::FlipSrcB, 0x800000}}},
      {WH, Op::GMPOOL, {{F::DstRow, 0x3ff}, {F::ArgMax, 0x4000}, {F::AddrMod, 0x18000}, {F::Dim16x16, 0x80000},
                        {F::FlipSrcA, 0x400000}, {F::FlipSrcB, 0x800000}}},
      {BH, Op::ZEROACC, {{F::Imm10, 0x3ff}, {F::AddrMod, 0x1c000}, {F::Revert, 0x20000}, {F::UseDst32b, 0x40000},
                         {F::Mode, 0x180000}}},
      {WH, Op::ZEROACC, {{F::Imm10, 0x3ff}, {F::AddrMod, 0x18000}, {F::Revert, 0x40000}, {F::Mode, 0x180000},
                         {F::UseDst32b, 0x200000}}},
      {Both, Op::ZEROSRC, {{F::ClearSrcA, 0x1}, {F::ClearSrcB, 0x2}, {F::BothBanks, 0x4},
                           {F::SingleBankMatrixUnit, 0x8},
                           {F::NegativeInfSrcA, 0x10}}},
      {BH, Op::MOVB2D, {{F::DstRow, 0x3ff}, {F::BroadcastCol0, 0x800}, {F::Broadcast1RowTo8, 0x1000},
                        {F::Move4Rows, 0x2000}, {F::AddrMod, 0x1c000}, {F::SrcRow, 0x7e0000},
                        {F::UseDst32bLo, 0x800000}}},
      {WH, Op::MOVB2D, {{F::DstRow, 0x3ff}, {F::BroadcastCol0, 0x1000}, {F::Broadcast1RowTo8, 0x2000},
                        {F::Move4Rows, 0x4000}, {F::AddrMod, 0x18000}, {F::SrcRow, 0x7e0000},
                        {F::UseDst32bLo, 0x800000}}},
      {BH, Op::MOVB2A, {{F::SrcBRow, 0x3f}, {F::Move4Rows, 0x2000}, {F::AddrMod, 0x1c000}, {F::SrcARow, 0x7e0000}}},
      {WH, Op::MOVB2A, {{F::SrcBRow, 0x3f}, {F::Move4Rows, 0x2000}, {F::AddrMod, 0x18000}, {F::SrcARow, 0x7e0000}}},
      {Both, Op::SETRWC, {{F::SrcA, 0x1}, {F::SrcB, 0x2}, {F::Dst, 0x4}, {F::Fidelity, 0x8}, {F::SrcAVal, 0x3c0},
                          {F::SrcBVal, 0x3c00}, {F::DstVal, 0x3c000},
                          {F::SrcACr, 0x40000}, {F::SrcBCr, 0x80000}, {F::DstCr, 0x100000}, {F::DstCtoCr, 0x200000},
                              {F::FlipSrcA, 0x400000}, {F::FlipSrcB, 0x800000}}},
      {Both, Op::INCRWC, {{F::SrcAInc, 0x3c0}, {F::SrcBInc, 0x3c00}, {F::DstInc, 0x3c000}, {F::SrcACr, 0x40000},
                          {F::SrcBCr, 0x80000}, {F::DstCr, 0x100000}}},
      {Both, Op::CLEARDVALID, {{F::Reset, 0x1}, {F::KeepReadingSameSrc, 0x2}, {F::FlipSrcA, 0x400000},
                               {F::FlipSrcB, 0x800000}}},
      {Both, Op::TRNSPSRCB, {}},
      {Both, Op::CLREXPHIST, {}},
      {Both, Op::DMANOP, {}},
      {Both, Op::GATESRCRST, {{F::ResetSrcAGateControl, 0x1}, {F::InvalidateSrcBCache, 0x2}}},
      {Both, Op::SHIFTXA, {{F::Direction, 0x3}}},
      {BH, Op::SHIFTXB, {{F::SrcRow, 0x3f}, {F::ShiftInZero, 0x400}, {F::AddrMod, 0x1c000}}},
      {WH, Op::SHIFTXB, {{F::SrcRow, 0x3f}, {F::ShiftInZero, 0x400}, {F::AddrMod, 0x18000}}},
      {Both, Op::SETDMAREG, {{F::ResultHalfReg, 0x7f}, {F::SetSignalsMode, 0x80}, {F::NewValue, 0xffff00}}},
      {Both, Op::FLUSHDMA, {{F::ConditionMask, 0xf}}},
  };
  return all;
}

// Families that share one layout: the same masks under several opcodes.
std::vector<Layout> family_layouts() {
  std::vector<Layout> out;
  const auto add = [&](std::initializer_list<Op> ops, On on, const FieldList& masks) {
    for (Op op : ops) out.push_back({on, op, masks});
  };
  const FieldList elw_bh = {{F::DstRow, 0x3ff}, {F::AddrMod, 0x1c000}, {F::BroadcastSrcBCol0, 0x80000},
                            {F::BroadcastSrcBRow, 0x100000},
                            {F::AddDst, 0x200000}, {F::FlipSrcA, 0x400000}, {F::FlipSrcB, 0x800000}};
  FieldList elw_wh = elw_bh;
  elw_wh[1].second = 0x18000;
  add({Op::ELWMUL, Op::ELWADD, Op::ELWSUB}, BH, elw_bh);
  add({Op::ELWMUL, Op::ELWADD, Op::ELWSUB}, WH, elw_wh);
  add({Op::MOVA2D}, BH, {{F::DstRow, 0x3ff}, {F::Move8Rows, 0x2000}, {F::AddrMod, 0x1c000}, {F::SrcRow, 0x7e0000},
                         {F::UseDst32bLo, 0x800000}});
  add({Op::MOVA2D}, WH, {{F::DstRow, 0x3ff}, {F::Move8Rows, 0x2000}, {F::AddrMod, 0x18000}, {F::SrcRow, 0x7e0000},
                         {F::UseDst32bLo, 0x800000}});
  add({Op::MOVD2A, Op::MOVD2B}, BH, {{F::DstRow, 0x3ff}, {F::Move4Rows, 0x2000}, {F::AddrMod, 0x1c000},
                                     {F::SrcRow, 0x7e0000}, {F::UseDst32bLo, 0x800000}});
  add({Op::MOVD2A, Op::MOVD2B}, WH, {{F::DstRow, 0x3ff}, {F::Move4Rows, 0x2000}, {F::AddrMod, 0x18000},
                                     {F::SrcRow, 0x7e0000}, {F::UseDst32bLo, 0x800000}});
  add({Op::CONV3S1, Op::CONV3S2}, BH, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x1c000}, {F::RotateWeights, 0x3e0000},
                                       {F::FlipSrcA, 0x400000}, {F::FlipSrcB, 0x800000}});
  add({Op::CONV3S1, Op::CONV3S2}, WH, {{F::DstRow, 0x3ff}, {F::AddrMod, 0x18000}, {F::RotateWeights, 0x3e0000},
                                       {F::FlipSrcA, 0x400000}, {F::FlipSrcB, 0x800000}});
  const std::initializer_list<Op> legacy_pools = {Op::APOOL3S1, Op::APOOL3S2, Op::MPOOL3S1, Op::MPOOL3S2};
  add(legacy_pools, BH, {{F::DstRow, 0x3ff}, {F::IndexEn, 0x4000}, {F::AddrMod, 0x38000}, {F::FlipSrcA, 0x400000},
                         {F::FlipSrcB, 0x800000}});
  add(legacy_pools, WH, {{F::DstRow, 0x3ff}, {F::IndexEn, 0x4000}, {F::AddrMod, 0x18000}, {F::FlipSrcA, 0x400000},
                         {F::FlipSrcB, 0x800000}});
  add({Op::ADDDMAREG, Op::SUBDMAREG, Op::MULDMAREG}, Both,
      {{F::LeftReg, 0x3f}, {F::RightReg, 0xfc0}, {F::ResultReg, 0x3f000}, {F::OpBisConst, 0x800000}});
  add({Op::SHIFTDMAREG, Op::BITWOPDMAREG, Op::CMPDMAREG}, Both,
      {{F::LeftReg, 0x3f}, {F::RightReg, 0xfc0}, {F::ResultReg, 0x3f000}, {F::Mode, 0x1c0000},
       {F::OpBisConst, 0x800000}});
  // UNPACR_Regular.md / Bits32.lua UNPACR_Regular; PACR.md / Bits32.lua PACR (WH), Bits32_PACR_BH.svg (BH).
  // Bit 0 is tt-llk's Last (TT_OP_UNPACR's last argument, ckernel_ops.h), which the ISA page leaves out.
  add({Op::UNPACR}, Both,
      {{F::Last, 0x1}, {F::RowSearch, 0x4}, {F::UseContextCounter, 0x8}, {F::AllDatumsAreZero, 0x10}, {F::FlipSrc, 0x40},
       {F::MultiContextMode, 0x80}, {F::ContextADC, 0x300}, {F::ContextNumber, 0x1c00}, {F::Ch0ZInc, 0x18000},
       {F::Ch0YInc, 0x60000}, {F::Ch1ZInc, 0x180000}, {F::Ch1YInc, 0x600000}, {F::WhichUnpacker, 0x800000}});
  add({Op::PACR}, WH, {{F::Last, 0x1}, {F::Flush, 0x2}, {F::Concat, 0x10}, {F::OvrdThreadId, 0x80},
                       {F::PackerMask, 0xf00}, {F::ZeroWrite, 0x1000}, {F::AddrMod, 0x18000}});
  add({Op::PACR}, BH, {{F::Last, 0x1}, {F::Flush, 0x2}, {F::CtxtCtrl, 0xc}, {F::Concat, 0x10}, {F::OvrdThreadId, 0x80},
                       {F::ReadIntfSel, 0xf00}, {F::ZeroWrite, 0x1000}, {F::AddrCntContext, 0x6000},
                       {F::AddrMod, 0x18000}, {F::DstAccessMode, 0x20000}, {F::RowPadZero, 0x1c0000},
                       {F::CfgContext, 0x600000}});
  for (const Layout& l : layouts()) out.push_back(l);
  return out;
}

uint32_t opcode_word(Arch arch, Op op) { return uint32_t{find_by_op(arch, op)->opcode} << 24; }
uint32_t max_of(uint32_t mask) { return mask >> std::countr_zero(mask); }

TEST(IsaLayouts, EveryInstructionHasAStatedLayout) {
  std::set<std::pair<Arch, Op>> stated;
  for (const Layout& l : family_layouts())
    for (Arch arch : arches_of(l.on))
      EXPECT_TRUE(stated.insert({arch, l.op}).second) << describe(arch, l.op) << " twice";
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole})
    for (const InsnSpec& spec : instructions(arch))
      EXPECT_TRUE(stated.count({arch, spec.op})) << describe(arch, spec.op);
}

TEST(IsaLayouts, TheTableHasExactlyTheStatedFields) {
  for (const Layout& l : family_layouts())
    for (Arch arch : arches_of(l.on)) {
      const InsnSpec* spec = find_by_op(arch, l.op);
      ASSERT_NE(spec, nullptr) << describe(arch, l.op);
      EXPECT_EQ(spec->fields().size(), l.masks.size()) << describe(arch, l.op);
      for (const auto& [field, mask] : l.masks)
        EXPECT_NE(spec->find_field(field), nullptr) << describe(arch, l.op) << " " << field_name(field);
    }
}

// A field alone at its maximum lands exactly on its mask and decodes back with every other field 0;
// one more is refused by name. This is what catches a field that is shifted, narrowed or widened.
TEST(IsaLayouts, EachFieldAloneAtItsMaximumRoundTripsAndOneMoreIsRejected) {
  for (const Layout& l : family_layouts())
    for (Arch arch : arches_of(l.on))
      for (const auto& [field, mask] : l.masks) {
        const std::string what = describe(arch, l.op) + " " + field_name(field);
        const uint32_t max = max_of(mask);
        const uint32_t word = opcode_word(arch, l.op) | mask;
        EXPECT_EQ(encode(arch, l.op, {{field, max}}), word) << what;
        const Insn insn = decode(word, arch);
        for (const auto& [other, other_mask] : l.masks) EXPECT_EQ(insn[other], other == field ? max : 0u) << what;
        try {
          encode(arch, l.op, {{field, max + 1}});
          ADD_FAILURE() << what << ": max+1 accepted";
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::DecodeError);
          EXPECT_NE(std::string(e.what()).find(field_name(field)), std::string::npos) << e.what();
        }
      }
}

TEST(IsaLayouts, EveryBitOutsideTheFieldsIsReservedAndRejected) {
  for (const Layout& l : family_layouts())
    for (Arch arch : arches_of(l.on)) {
      uint32_t used = 0;
      for (const auto& [field, mask] : l.masks) used |= mask;
      for (unsigned bit = 0; bit < 24; ++bit) {
        const uint32_t word = opcode_word(arch, l.op) | (1u << bit);
        if (used & (1u << bit)) {
          EXPECT_NO_THROW(decode(word, arch)) << describe(arch, l.op) << " bit " << bit;
        } else {
          EXPECT_THROW(decode(word, arch), Error) << describe(arch, l.op) << " bit " << bit << " should be reserved";
        }
      }
    }
}

// SHIFTDMAREG's immediate (OpBisConst=1) is RightImm5: bit 11 of RightReg is then reserved.
TEST(IsaLayouts, ShiftdmaregImmediateIsFiveBits) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    // TT_OP_SHIFTDMAREG(0, 0, 0, 63, 0): 0x5c<<24 | 63<<6 -- a register index may use all six bits.
    EXPECT_EQ(encode(arch, Op::SHIFTDMAREG, {{F::RightReg, 63}}), 0x5c000fc0u);
    // TT_OP_SHIFTDMAREG(1, 0, 0, 31, 0): 0x5c<<24 | 1<<23 | 31<<6
    EXPECT_EQ(encode(arch, Op::SHIFTDMAREG, {{F::OpBisConst, 1}, {F::RightReg, 31}}), 0x5c8007c0u);
    EXPECT_THROW(encode(arch, Op::SHIFTDMAREG, {{F::OpBisConst, 1}, {F::RightReg, 32}}), Error);
    EXPECT_THROW(decode(0x5c800800u, arch), Error);
    // The other DMAREG immediates are six bits: TT_OP_ADDDMAREG(1, 0, 63, 0) = 0x58<<24 | 1<<23 | 63<<6
    EXPECT_EQ(decode(0x58800fc0u, arch)[F::RightReg], 63u);
  }
}

// The same operand bits mean different things per architecture (docs/spec-deltas.md, E17).
TEST(IsaLayouts, ArchitecturesPlaceFieldsDifferently) {
  // Bit 13 of MOVB2D: Move4Rows on BH (movb2d_instr_mod<<11 = 4), Broadcast1RowTo8 on WH (instr_mod<<12 = 2).
  EXPECT_EQ(decode(0x13002000u, Arch::Blackhole)[F::Move4Rows], 1u);
  EXPECT_EQ(decode(0x13002000u, Arch::Wormhole)[F::Broadcast1RowTo8], 1u);
  // Bit 17 of GMPOOL: top bit of BH's 3-bit AddrMod at 17:15; reserved on WH.
  EXPECT_EQ(decode(0x33020000u, Arch::Blackhole)[F::AddrMod], 4u);
  EXPECT_THROW(decode(0x33020000u, Arch::Wormhole), Error);
  // Bit 18 of ZEROACC: UseDst32b on BH, Revert on WH.
  EXPECT_EQ(decode(0x10040000u, Arch::Blackhole)[F::UseDst32b], 1u);
  EXPECT_EQ(decode(0x10040000u, Arch::Wormhole)[F::Revert], 1u);
}

}  // namespace
}  // namespace tmu::tensix
