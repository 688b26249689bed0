// RWCs: ApplyAddrMod, SETRWC, INCRWC. Expectations follow RWCs.md / SETRWC.md / INCRWC.md by hand.
#include "exec_harness.h"

#include "tmu/error.h"

namespace tmu::tensix {
namespace {

using test::fresh;
using test::run;

TEST(ApplyAddrMod, IncrementCarryResetAndClear) {
  TensixState s = fresh();
  auto& slot_ab = s.ThreadConfig[0].ADDR_MOD_AB_SEC[3];
  auto& slot_dst = s.ThreadConfig[0].ADDR_MOD_DST_SEC[3];
  slot_ab.SrcAIncr = 16;
  slot_ab.SrcBIncr = 8;
  slot_ab.SrcBCR = true;
  slot_dst.DestIncr = 8;
  slot_dst.FidelityIncr = 1;
  Rwc& r = s.RWCs[0];
  r.SrcA = 40;
  r.SrcB = 5;
  r.SrcB_Cr = 32;
  r.Dst = 1020;
  apply_addr_mod(s, 0, 3);
  EXPECT_EQ(r.SrcA, (40 + 16) & 63);       // 56
  EXPECT_EQ(r.SrcB_Cr, 40);                // carry register += incr
  EXPECT_EQ(r.SrcB, 40);                   // counter = carry register
  EXPECT_EQ(r.Dst, (1020 + 8) & 1023);     // 10-bit wrap: 4
  EXPECT_EQ(r.FidelityPhase, 1);
  apply_addr_mod(s, 0, 3);
  EXPECT_EQ(r.SrcA, (56 + 16) & 63);  // 6-bit wrap: 8
  slot_ab.SrcAClear = true;
  slot_dst.FidelityClear = true;
  apply_addr_mod(s, 0, 3);
  EXPECT_EQ(r.SrcA, 0);
  EXPECT_EQ(r.SrcA_Cr, 0);
  EXPECT_EQ(r.FidelityPhase, 0);
}

TEST(ApplyAddrMod, DestPriorityIsClearThenCToCRThenCR) {
  TensixState s = fresh();
  auto& d = s.ThreadConfig[1].ADDR_MOD_DST_SEC[0];
  Rwc& r = s.RWCs[1];
  r.Dst = 100;
  r.Dst_Cr = 10;
  d.DestIncr = 4;
  d.DestCToCR = true;
  d.DestCR = true;  // CToCR wins over CR
  apply_addr_mod(s, 1, 0);
  EXPECT_EQ(r.Dst, 104);
  EXPECT_EQ(r.Dst_Cr, 104);
  d.DestCToCR = false;
  apply_addr_mod(s, 1, 0);  // CR: Dst_Cr += 4; Dst = Dst_Cr
  EXPECT_EQ(r.Dst_Cr, 108);
  EXPECT_EQ(r.Dst, 108);
  d.DestClear = true;
  apply_addr_mod(s, 1, 0);
  EXPECT_EQ(r.Dst, 0);
  EXPECT_EQ(r.Dst_Cr, 0);
}

TEST(ApplyAddrMod, FidelityPhaseWrapsAndCanBeLeftAlone) {
  TensixState s = fresh();
  s.ThreadConfig[0].ADDR_MOD_DST_SEC[0].FidelityIncr = 3;
  s.RWCs[0].FidelityPhase = 2;
  apply_addr_mod(s, 0, 0, /*update_fidelity_phase=*/false);
  EXPECT_EQ(s.RWCs[0].FidelityPhase, 2);
  apply_addr_mod(s, 0, 0);
  EXPECT_EQ(s.RWCs[0].FidelityPhase, (2 + 3) & 3);
}

TEST(ApplyAddrMod, WormholeReachesUpperSlotsThroughExtraBitOrSetBase) {
  TensixState s = fresh(Arch::Wormhole);
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[1].SrcAIncr = 1;
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[5].SrcAIncr = 5;
  apply_addr_mod(s, 0, 1);
  EXPECT_EQ(s.RWCs[0].SrcA, 1);
  s.RWCs[0].ExtraAddrModBit = 1;
  apply_addr_mod(s, 0, 1);
  EXPECT_EQ(s.RWCs[0].SrcA, 6);
  s.RWCs[0].ExtraAddrModBit = 0;
  s.ThreadConfig[0].ADDR_MOD_SET_Base = true;
  apply_addr_mod(s, 0, 1);
  EXPECT_EQ(s.RWCs[0].SrcA, 11);
}

TEST(ApplyAddrMod, BiasSectionTogglesTheExtraBit) {
  TensixState s = fresh(Arch::Wormhole);
  s.ThreadConfig[0].ADDR_MOD_BIAS_SEC[0].BiasIncr = 1;
  apply_addr_mod(s, 0, 0);
  EXPECT_EQ(s.RWCs[0].ExtraAddrModBit, 1);
  // Now slot 4 is used; give it BiasIncr=4 (low two bits zero: no increment) then a clear.
  s.ThreadConfig[0].ADDR_MOD_BIAS_SEC[4].BiasIncr = 4;
  apply_addr_mod(s, 0, 0);
  EXPECT_EQ(s.RWCs[0].ExtraAddrModBit, 1);
  s.ThreadConfig[0].ADDR_MOD_BIAS_SEC[4].BiasClear = true;
  apply_addr_mod(s, 0, 0);
  EXPECT_EQ(s.RWCs[0].ExtraAddrModBit, 0);
}

TEST(ApplyAddrMod, BlackholeUsesThreeBitsAndRefusesTheUndocumentedExtraBit) {
  TensixState s = fresh(Arch::Blackhole);
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[5].SrcBIncr = 8;
  apply_addr_mod(s, 0, 5);
  EXPECT_EQ(s.RWCs[0].SrcB, 8);
  s.RWCs[0].ExtraAddrModBit = 1;
  EXPECT_THROW(apply_addr_mod(s, 0, 5), Error);
}

TEST(SetRwc, SetsCountersAndCarryRegisters) {
  TensixState s = fresh();
  Rwc& r = s.RWCs[0];
  r.FidelityPhase = 3;
  run(s, "SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1 SrcAVal=4 SrcBVal=8 DstVal=12");
  EXPECT_EQ(r.SrcA, 4);
  EXPECT_EQ(r.SrcA_Cr, 4);
  EXPECT_EQ(r.SrcB, 8);
  EXPECT_EQ(r.SrcB_Cr, 8);
  EXPECT_EQ(r.Dst, 12);
  EXPECT_EQ(r.Dst_Cr, 12);
  EXPECT_EQ(r.FidelityPhase, 0);
  // Cr variants add the carry register; DstCtoCr adds the counter itself and needs no Dst bit.
  r.Dst = 100;
  r.Dst_Cr = 50;
  run(s, "SETRWC SrcA=1 SrcACr=1 SrcAVal=2 DstCtoCr=1 DstVal=3");
  EXPECT_EQ(r.SrcA, 6);
  EXPECT_EQ(r.Dst, 103);
  EXPECT_EQ(r.Dst_Cr, 103);
  run(s, "SETRWC Dst=1 DstCr=1 DstVal=1");
  EXPECT_EQ(r.Dst, 104);
  // A Cr bit without its set bit does nothing (SETRWC.md nests it inside `if (SrcA)`).
  run(s, "SETRWC SrcACr=1 SrcAVal=9");
  EXPECT_EQ(r.SrcA, 6);
}

TEST(SetRwc, SeedResetWordClearsEverything) {
  TensixState s = fresh();
  s.RWCs[0] = Rwc{5, 6, 7, 8, 9, 10, 3, 0};
  execute_word(s, 0x3700000f, 0);  // SETRWC(CLR_NONE, 0, 0, 0, 0, SET_ABD_F)
  const Rwc& r = s.RWCs[0];
  EXPECT_EQ(r.Dst, 0);
  EXPECT_EQ(r.Dst_Cr, 0);
  EXPECT_EQ(r.SrcA, 0);
  EXPECT_EQ(r.SrcB, 0);
  EXPECT_EQ(r.FidelityPhase, 0);
}

TEST(SetRwc, FlipHandsTheBankBackUnlessDisabled) {
  TensixState s = fresh();
  test::give_banks_to_matrix_unit(s);
  run(s, "SETRWC FlipSrcB=1");
  EXPECT_EQ(s.SrcB[0].AllowedClient, SrcClient::Unpackers);
  EXPECT_EQ(s.MatrixUnit.SrcBBank, 1);
  s.ThreadConfig[0].CLR_DVALID_SrcA_Disable = true;
  run(s, "SETRWC FlipSrcA=1");
  EXPECT_EQ(s.SrcA[0].AllowedClient, SrcClient::MatrixUnit);  // kept: disabled hand-back
  EXPECT_EQ(s.MatrixUnit.SrcABank, 1);                        // but the pointer still flips
}

TEST(IncRwc, IncrementsWithAndWithoutCarryReset) {
  TensixState s = fresh();
  Rwc& r = s.RWCs[2];
  r.SrcA = 60;
  r.SrcB_Cr = 4;
  r.Dst = 1022;
  run(s, "INCRWC SrcAInc=15 SrcBInc=2 SrcBCr=1 DstInc=3", 2);
  EXPECT_EQ(r.SrcA, (60 + 15) & 63);  // 11
  EXPECT_EQ(r.SrcB_Cr, 6);
  EXPECT_EQ(r.SrcB, 6);
  EXPECT_EQ(r.Dst, (1022 + 3) & 1023);  // 1
  r.Dst_Cr = 7;
  run(s, "INCRWC DstInc=1 DstCr=1", 2);
  EXPECT_EQ(r.Dst, 8);
  EXPECT_EQ(r.Dst_Cr, 8);
}

}  // namespace
}  // namespace tmu::tensix
