// Scalar Unit GPR ops. Expected values are worked out by hand from the *DMAREG.md functional models.
#include "exec_harness.h"

#include "tmu/error.h"

namespace tmu::tensix {
namespace {

using test::fresh;
using test::run;

TEST(GprOps, SetDmaRegWritesOneHalfAndKeepsTheOther) {
  TensixState s = fresh();
  s.GPRs[0][5] = 0xAAAABBBB;
  run(s, "SETDMAREG ResultHalfReg=10 NewValue=0x1234");  // half 10 = GPR 5, low half
  EXPECT_EQ(s.GPRs[0][5], 0xAAAA1234u);
  run(s, "SETDMAREG ResultHalfReg=11 NewValue=0xCAFE");  // GPR 5, high half
  EXPECT_EQ(s.GPRs[0][5], 0xCAFE1234u);
}

TEST(GprOps, SetDmaRegSpecialModeIsRefusedByName) {
  TensixState s = fresh();
  try {
    execute(s, assemble("SETDMAREG SetSignalsMode=1", s.arch), 0);
    FAIL() << "expected an Unsupported error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("SetSignalsMode"), std::string::npos);
  }
}

TEST(GprOps, AddWrapsAt32Bits) {
  TensixState s = fresh();
  s.GPRs[0][1] = 0xFFFFFFF0u;
  s.GPRs[0][2] = 0x20u;
  run(s, "ADDDMAREG LeftReg=1 RightReg=2 ResultReg=3");
  EXPECT_EQ(s.GPRs[0][3], 0x10u);  // 0xFFFFFFF0 + 0x20 = 0x1_0000_0010
  run(s, "ADDDMAREG OpBisConst=1 LeftReg=3 RightReg=63 ResultReg=4");
  EXPECT_EQ(s.GPRs[0][4], 0x10u + 63u);
}

TEST(GprOps, SubWrapsBelowZero) {
  TensixState s = fresh();
  s.GPRs[0][0] = 5;
  run(s, "SUBDMAREG OpBisConst=1 LeftReg=0 RightReg=7 ResultReg=1");
  EXPECT_EQ(s.GPRs[0][1], 0xFFFFFFFEu);  // 5 - 7 = -2 mod 2^32
}

TEST(GprOps, MulUsesOnlyLow16BitsOfEachOperand) {
  TensixState s = fresh();
  s.GPRs[0][8] = 0x0001FFFFu;   // low half 0xFFFF
  s.GPRs[0][9] = 0x12340003u;   // low half 3
  run(s, "MULDMAREG LeftReg=8 RightReg=9 ResultReg=10");
  EXPECT_EQ(s.GPRs[0][10], 0xFFFFu * 3u);  // 0x2FFFD
  s.GPRs[0][11] = 0xFFFFu;
  s.GPRs[0][12] = 0xFFFFu;
  run(s, "MULDMAREG LeftReg=11 RightReg=12 ResultReg=13");
  EXPECT_EQ(s.GPRs[0][13], 0xFFFE0001u);  // full 32-bit unsigned product
}

TEST(GprOps, ShiftUsesFiveBitsOfTheRegisterAndRejectsWideImmediates) {
  TensixState s = fresh();
  s.GPRs[0][0] = 0x80000001u;
  s.GPRs[0][1] = 33;  // & 0x1F = 1
  run(s, "SHIFTDMAREG LeftReg=0 RightReg=1 ResultReg=2 Mode=0");
  EXPECT_EQ(s.GPRs[0][2], 0x00000002u);
  run(s, "SHIFTDMAREG LeftReg=0 RightReg=1 ResultReg=3 Mode=1");
  EXPECT_EQ(s.GPRs[0][3], 0x40000000u);
  run(s, "SHIFTDMAREG OpBisConst=1 LeftReg=0 RightReg=31 ResultReg=4 Mode=1");
  EXPECT_EQ(s.GPRs[0][4], 1u);
  EXPECT_THROW(execute(s, assemble("SHIFTDMAREG OpBisConst=1 LeftReg=0 RightReg=32 ResultReg=4", s.arch), 0), Error);
  EXPECT_THROW(execute(s, assemble("SHIFTDMAREG LeftReg=0 RightReg=1 ResultReg=4 Mode=2", s.arch), 0), Error);
}

TEST(GprOps, BitwiseOps) {
  TensixState s = fresh();
  s.GPRs[0][0] = 0xF0F0F0F0u;
  s.GPRs[0][1] = 0x0FF00FF0u;
  run(s, "BITWOPDMAREG LeftReg=0 RightReg=1 ResultReg=2 Mode=0");
  run(s, "BITWOPDMAREG LeftReg=0 RightReg=1 ResultReg=3 Mode=1");
  run(s, "BITWOPDMAREG LeftReg=0 RightReg=1 ResultReg=4 Mode=2");
  run(s, "BITWOPDMAREG OpBisConst=1 LeftReg=0 RightReg=0x3F ResultReg=5 Mode=0");
  EXPECT_EQ(s.GPRs[0][2], 0x00F000F0u);
  EXPECT_EQ(s.GPRs[0][3], 0xFFF0FFF0u);
  EXPECT_EQ(s.GPRs[0][4], 0xFF00FF00u);
  EXPECT_EQ(s.GPRs[0][5], 0x30u);
  EXPECT_THROW(execute(s, assemble("BITWOPDMAREG LeftReg=0 RightReg=1 ResultReg=6 Mode=3", s.arch), 0), Error);
}

TEST(GprOps, ComparesAreUnsigned) {
  TensixState s = fresh();
  s.GPRs[0][0] = 0xFFFFFFFFu;  // -1 if it were signed
  s.GPRs[0][1] = 1;
  run(s, "CMPDMAREG LeftReg=0 RightReg=1 ResultReg=2 Mode=0");  // GT
  run(s, "CMPDMAREG LeftReg=0 RightReg=1 ResultReg=3 Mode=1");  // LT
  run(s, "CMPDMAREG LeftReg=1 RightReg=1 ResultReg=4 Mode=2");  // EQ
  run(s, "CMPDMAREG OpBisConst=1 LeftReg=1 RightReg=1 ResultReg=5 Mode=2");
  EXPECT_EQ(s.GPRs[0][2], 1u);
  EXPECT_EQ(s.GPRs[0][3], 0u);
  EXPECT_EQ(s.GPRs[0][4], 1u);
  EXPECT_EQ(s.GPRs[0][5], 1u);
  EXPECT_THROW(execute(s, assemble("CMPDMAREG LeftReg=0 RightReg=1 ResultReg=2 Mode=3", s.arch), 0), Error);
}

TEST(GprOps, CycleCountsFollowTheAlignedGroupOfFourRule) {
  TensixState s = fresh();
  EXPECT_EQ(run(s, "ADDDMAREG LeftReg=4 RightReg=7 ResultReg=0").cycles, 3u);  // both in group 1
  EXPECT_EQ(run(s, "ADDDMAREG LeftReg=3 RightReg=4 ResultReg=0").cycles, 4u);  // groups 0 and 1
  EXPECT_EQ(run(s, "ADDDMAREG OpBisConst=1 LeftReg=3 RightReg=60 ResultReg=0").cycles, 3u);
  EXPECT_EQ(run(s, "SETDMAREG ResultHalfReg=0 NewValue=1").cycles, 1u);
  EXPECT_EQ(run(s, "FLUSHDMA ConditionMask=0").cycles, 2u);
}

TEST(GprOps, EachThreadHasItsOwnGprs) {
  TensixState s = fresh(Arch::Wormhole);
  run(s, "SETDMAREG ResultHalfReg=0 NewValue=7", 2);
  EXPECT_EQ(s.GPRs[2][0], 7u);
  EXPECT_EQ(s.GPRs[0][0], 0u);
  EXPECT_EQ(s.GPRs[1][0], 0u);
}

TEST(GprOps, WriteSetNamesTheResultRegister) {
  TensixState s = fresh();
  const ExecResult r = run(s, "ADDDMAREG OpBisConst=1 LeftReg=0 RightReg=1 ResultReg=42");
  ASSERT_EQ(r.writes.gprs.size(), 1u);
  EXPECT_EQ(r.writes.gprs[0], 42u);
  EXPECT_TRUE(r.writes.dst_rows.empty());
}

}  // namespace
}  // namespace tmu::tensix
