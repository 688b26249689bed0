// ZEROACC, ZEROSRC, CLEARDVALID, TRNSPSRCB, SHIFTXA, SHIFTXB, legacy ops: expectations from the ISA
// pages' functional models, worked out by hand.
#include "exec_harness.h"

#include "tmu/error.h"

namespace tmu::tensix {
namespace {

using test::fresh;
using test::run;

void fill_dst_valid(TensixState& s) {
  for (unsigned r = 0; r < kDstRows; ++r)
    for (unsigned c = 0; c < kDstCols; ++c) s.Dst.write16(r, c, static_cast<uint16_t>(r * 16 + c));
}

unsigned count_invalid(const TensixState& s) {
  unsigned n = 0;
  for (bool v : s.Dst.RowValid) n += !v;
  return n;
}

TEST(ZeroAcc, SeedClearAllWordInvalidatesEveryRowKeepsBitsAndSkipsAddrMod) {
  TensixState s = fresh();
  fill_dst_valid(s);
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[1].SrcAIncr = 4;
  execute_word(s, 0x10184000, 0);  // ZEROACC CLR_ALL, AddrMod 1 (matmul_peak's word)
  EXPECT_EQ(count_invalid(s), kDstRows);
  EXPECT_EQ(s.Dst.DstBits[5][3], 5 * 16 + 3);  // bits untouched
  EXPECT_EQ(s.Dst.read16(5, 3, 0xBEEF), 0xBEEF);  // reads see the caller's identity
  EXPECT_EQ(s.RWCs[0].SrcA, 0);                   // CLR_ALL applies no AddrMod
}

TEST(ZeroAcc, HalfModes) {
  TensixState s = fresh(Arch::Wormhole);
  fill_dst_valid(s);
  run(s, "ZEROACC Mode=2 Imm10=1");
  EXPECT_TRUE(s.Dst.RowValid[511]);
  EXPECT_FALSE(s.Dst.RowValid[512]);
  EXPECT_FALSE(s.Dst.RowValid[1023]);
  EXPECT_EQ(count_invalid(s), 512u);
  run(s, "ZEROACC Mode=2 Imm10=2");  // bit 0 clear: low half
  EXPECT_EQ(count_invalid(s), 1024u);
}

TEST(ZeroAcc, SixteenRowsIn16And32BitViews) {
  TensixState s = fresh(Arch::Wormhole);
  fill_dst_valid(s);
  run(s, "ZEROACC Mode=1 Imm10=3");  // rows 48..63
  EXPECT_TRUE(s.Dst.RowValid[47]);
  for (unsigned r = 48; r < 64; ++r) EXPECT_FALSE(s.Dst.RowValid[r]) << r;
  EXPECT_TRUE(s.Dst.RowValid[64]);
  EXPECT_EQ(count_invalid(s), 16u);
  fill_dst_valid(s);
  // Dst32b rows 16..31 = block 1; Adj32 puts their high halves at DstBits rows 32..39 and 48..55.
  run(s, "ZEROACC Mode=1 UseDst32b=1 Imm10=1");
  for (unsigned r = 32; r < 40; ++r) EXPECT_FALSE(s.Dst.RowValid[r]) << r;
  for (unsigned r = 40; r < 48; ++r) EXPECT_TRUE(s.Dst.RowValid[r]) << r;  // low halves
  for (unsigned r = 48; r < 56; ++r) EXPECT_FALSE(s.Dst.RowValid[r]) << r;
  EXPECT_EQ(count_invalid(s), 16u);
}

TEST(ZeroAcc, OutOfRangeBlockOnlyAppliesTheAddrMod) {
  TensixState s = fresh(Arch::Wormhole);
  fill_dst_valid(s);
  s.ThreadConfig[0].ADDR_MOD_DST_SEC[2].DestIncr = 8;
  const ExecResult r = run(s, "ZEROACC Mode=1 Imm10=0xff AddrMod=2");
  EXPECT_EQ(count_invalid(s), 0u);
  EXPECT_EQ(s.RWCs[0].Dst, 8);
  EXPECT_TRUE(r.writes.dst_rows.empty());
  // Imm10 is masked to 8 bits first: 0x140 & 0xff = 0x40 = 64 is still out of range for 16-bit.
  run(s, "ZEROACC Mode=1 Imm10=0x140 AddrMod=2");
  EXPECT_EQ(count_invalid(s), 0u);
}

TEST(ZeroAcc, OneRowUsesRwcOffsetsAndThe32BitViewWhenFp32) {
  TensixState s = fresh(Arch::Wormhole);
  fill_dst_valid(s);
  s.RWCs[0].Dst = 8;
  s.ThreadConfig[0].DEST_TARGET_REG_CFG_MATH_Offset = 32;
  run(s, "ZEROACC Mode=0 Imm10=1");  // row 1 + 32 + 8 = 41
  EXPECT_FALSE(s.Dst.RowValid[41]);
  EXPECT_EQ(count_invalid(s), 1u);
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
  s.RWCs[0].Dst = 0;
  s.ThreadConfig[0].DEST_TARGET_REG_CFG_MATH_Offset = 0;
  run(s, "ZEROACC Mode=0 Imm10=9");  // Dst32b row 9 -> Adj32 = ((9&0x1f8)<<1)|(9&7) = 16|1 = 17
  EXPECT_FALSE(s.Dst.RowValid[17]);
  EXPECT_EQ(count_invalid(s), 2u);
}

TEST(ZeroAcc, BlackholeRelativeTileModeOffsetsTheBlockInTheUpperHalf) {
  TensixState s = fresh(Arch::Blackhole);
  fill_dst_valid(s);
  s.ThreadConfig[0].DEST_TARGET_REG_CFG_MATH_Offset = 512;
  run(s, "ZEROACC Mode=1 Imm10=0");  // block 0 relative to the upper half = rows 512..527
  EXPECT_FALSE(s.Dst.RowValid[512]);
  EXPECT_TRUE(s.Dst.RowValid[0]);
  s.DEST_ACCESS_CFG_zeroacc_absolute_tile_mode = true;
  run(s, "ZEROACC Mode=1 Imm10=0");
  EXPECT_FALSE(s.Dst.RowValid[0]);
}

TEST(ZeroAcc, RevertRevalidatesSixteenRowsAndIsUndefinedElsewhere) {
  TensixState s = fresh(Arch::Wormhole);
  run(s, "ZEROACC Mode=1 Imm10=0 Revert=1");
  for (unsigned r = 0; r < 16; ++r) EXPECT_TRUE(s.Dst.RowValid[r]);
  EXPECT_THROW(execute(s, assemble("ZEROACC Mode=3 Revert=1", s.arch), 0), Error);
}

TEST(ZeroSrc, BankSelection) {
  TensixState s = fresh();
  for (unsigned b = 0; b < 2; ++b)
    for (auto& row : s.SrcA[b].Rows) row.fill(0x1234);
  for (unsigned b = 0; b < 2; ++b)
    for (auto& row : s.SrcB[b].Rows) row.fill(0x4321);
  s.Unpackers[0].SrcBank = 1;
  s.MatrixUnit.SrcBBank = 1;
  run(s, "ZEROSRC ClearSrcA=1");  // unpacker 0's bank = 1
  EXPECT_EQ(s.SrcA[1].Rows[63][15], 0u);
  EXPECT_EQ(s.SrcA[0].Rows[0][0], 0x1234u);
  run(s, "ZEROSRC ClearSrcB=1 SingleBankMatrixUnit=1");  // Matrix Unit's SrcB bank = 1
  EXPECT_EQ(s.SrcB[1].Rows[10][2], 0u);
  EXPECT_EQ(s.SrcB[0].Rows[10][2], 0x4321u);
  run(s, "ZEROSRC ClearSrcA=1 BothBanks=1 NegativeInfSrcA=1");
  EXPECT_EQ(s.SrcA[0].Rows[7][7], 0x7FFFFu);  // all 19 bits set
  EXPECT_EQ(s.SrcA[1].Rows[7][7], 0x7FFFFu);
}

TEST(ClearDvalid, FlipKeepAndReset) {
  TensixState s = fresh();
  test::give_banks_to_matrix_unit(s);
  s.ThreadConfig[0].CLR_DVALID_SrcA_Disable = true;  // ignored by CLEARDVALID
  run(s, "CLEARDVALID FlipSrcA=1");
  EXPECT_EQ(s.SrcA[0].AllowedClient, SrcClient::Unpackers);
  EXPECT_EQ(s.MatrixUnit.SrcABank, 1);
  run(s, "CLEARDVALID FlipSrcB=1 KeepReadingSameSrc=1");
  EXPECT_EQ(s.SrcB[0].AllowedClient, SrcClient::Unpackers);
  EXPECT_EQ(s.MatrixUnit.SrcBBank, 0);
  s.Unpackers[1].SrcBank = 1;
  run(s, "CLEARDVALID Reset=1");
  EXPECT_EQ(s.MatrixUnit.SrcABank, 0);
  EXPECT_EQ(s.Unpackers[1].SrcBank, 0);
  for (unsigned b = 0; b < 2; ++b) {
    EXPECT_EQ(s.SrcA[b].AllowedClient, SrcClient::Unpackers);
    EXPECT_EQ(s.SrcB[b].AllowedClient, SrcClient::Unpackers);
  }
}

TEST(TrnspSrcB, TransposesRows16To31AndStallsWithoutTheBank) {
  TensixState s = fresh();
  for (unsigned r = 0; r < 64; ++r)
    for (unsigned c = 0; c < 16; ++c) s.SrcB[0].Rows[r][c] = r * 100 + c;
  const ExecResult stalled = execute(s, assemble("TRNSPSRCB", s.arch), 0);
  EXPECT_EQ(stalled.status, ExecResult::Status::Stalled);
  EXPECT_EQ(s.SrcB[0].Rows[16][1], 16u * 100 + 1);  // untouched while stalled
  test::give_banks_to_matrix_unit(s);
  run(s, "TRNSPSRCB");
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) EXPECT_EQ(s.SrcB[0].Rows[16 + i][j], (16 + j) * 100 + i);
  EXPECT_EQ(s.SrcB[0].Rows[15][3], 15u * 100 + 3);
  EXPECT_EQ(s.SrcB[0].Rows[32][3], 32u * 100 + 3);
}

TEST(ShiftXb, RotateAndShiftInZero) {
  TensixState s = fresh();
  test::give_banks_to_matrix_unit(s);
  for (unsigned c = 0; c < 16; ++c) s.SrcB[0].Rows[9][c] = c + 1;
  s.RWCs[0].SrcB = 4;
  run(s, "SHIFTXB SrcRow=5");  // row 9
  for (unsigned c = 0; c < 15; ++c) EXPECT_EQ(s.SrcB[0].Rows[9][c], c + 2);
  EXPECT_EQ(s.SrcB[0].Rows[9][15], 1u);
  run(s, "SHIFTXB SrcRow=5 ShiftInZero=1");
  EXPECT_EQ(s.SrcB[0].Rows[9][0], 3u);
  EXPECT_EQ(s.SrcB[0].Rows[9][14], 1u);
  EXPECT_EQ(s.SrcB[0].Rows[9][15], 0u);
}

TEST(ShiftXa, UsesTheLatchedRowBlockAndWritesRows0To15) {
  TensixState s = fresh();
  test::give_banks_to_matrix_unit(s);
  for (unsigned r = 0; r < 64; ++r)
    for (unsigned c = 0; c < 16; ++c) s.SrcA[0].Rows[r][c] = r * 100 + c;
  s.RWCs[0].SrcA = 37;  // a legacy op latches its SrcA row (37 & 0x30 = 32)
  run(s, "CONV3S1");
  run(s, "SHIFTXA Direction=2");  // right
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(s.SrcA[0].Rows[i][0], 0u);
    for (unsigned c = 1; c < 16; ++c) EXPECT_EQ(s.SrcA[0].Rows[i][c], (32 + i) * 100 + c - 1);
  }
  run(s, "SHIFTXA Direction=3");  // left, now from the same block 32..47 (unchanged)
  for (unsigned c = 0; c < 15; ++c) EXPECT_EQ(s.SrcA[0].Rows[3][c], (32 + 3) * 100 + c + 1);
  EXPECT_EQ(s.SrcA[0].Rows[3][15], 0u);
  EXPECT_THROW(execute(s, assemble("SHIFTXA Direction=1", s.arch), 0), Error);
}

TEST(Legacy, NeuteredOpsOnlyFlipBanksAndApplyAddrMod) {
  TensixState s = fresh(Arch::Wormhole);
  test::give_banks_to_matrix_unit(s);
  fill_dst_valid(s);
  const TensixState before = s;
  s.ThreadConfig[0].ADDR_MOD_DST_SEC[1].DestIncr = 8;
  run(s, "APOOL3S2 FlipSrcA=1 AddrMod=1");
  EXPECT_EQ(s.Dst.DstBits, before.Dst.DstBits);
  EXPECT_EQ(s.RWCs[0].Dst, 8);
  EXPECT_EQ(s.MatrixUnit.SrcABank, 1);
  EXPECT_EQ(s.SrcA[0].AllowedClient, SrcClient::Unpackers);
}

}  // namespace
}  // namespace tmu::tensix
