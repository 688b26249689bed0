// Dst validity is tracked per row but instructions write a row column by column: every column must
// still read the identity of an undefined row, even after earlier columns of the same row were
// written by the same instruction (ZEROACC.md; ttsim sets validity on the last column only).
#include "llk_harness.h"

namespace tmu::tensix {
namespace {

void fill_dst_garbage(TensixState& s) {
  for (unsigned r = 0; r < kDstRows; ++r)
    for (unsigned c = 0; c < kDstCols; ++c) s.Dst.write16(r, c, 0x3F80);  // valid, non-zero bits
}

TEST(DstValidity, MvmulAfterZeroAccReadsZeroInEveryColumn) {
  for (bool fp32 : {false, true}) {
    TensixState s = test::fresh();
    fill_dst_garbage(s);
    test::give_banks_to_matrix_unit(s);
    s.SrcA[0].Format = s.SrcB[0].Format = DataFormat::BF16;
    s.Config[0].ALU_ACC_CTRL_Fp32_enabled = fp32;
    test::run(s, "ZEROACC Mode=3");
    test::run(s, "MVMUL DstRow=0");  // all-zero Src: Dst = identity + 0 = +0 in every column
    for (unsigned r = 0; r < 8; ++r) {
      for (unsigned c = 0; c < 16; ++c) {
        const uint32_t got = fp32 ? s.Dst.read32(r, c, 0xDEAD) : s.Dst.read16(r, c, 0xDEAD);
        EXPECT_EQ(got, 0u) << r << "," << c;
      }
    }
  }
}

TEST(DstValidity, ElwaddWithAddDstAfterZeroAccIgnoresStaleBits) {
  TensixState s = test::fresh();
  fill_dst_garbage(s);
  test::give_banks_to_matrix_unit(s);
  s.SrcA[0].Format = s.SrcB[0].Format = DataFormat::BF16;
  for (auto& row : s.SrcA[0].Rows) row.fill(test::Bf16{0, 127, 0}.datum());  // 1.0
  test::run(s, "ZEROACC Mode=3");
  test::run(s, "ELWADD AddDst=1");  // 1.0 + 0 + identity 0
  for (unsigned c = 0; c < 16; ++c) EXPECT_EQ(dst16_to_bf16(s.Dst.read16(3, c, 0)), 0x3F80) << c;
}

TEST(DstValidity, RowsBecomeValidOnlyWhenTheInstructionCompletes) {
  TensixState s = test::fresh();
  test::give_banks_to_matrix_unit(s);
  s.SrcA[0].Format = s.SrcB[0].Format = DataFormat::BF16;
  const ExecResult r = test::run(s, "MVMUL DstRow=8");
  EXPECT_EQ(r.writes.dst_rows.size(), 8u);
  for (unsigned row = 8; row < 16; ++row) EXPECT_TRUE(s.Dst.RowValid[row]);
  EXPECT_FALSE(s.Dst.RowValid[7]);
  EXPECT_FALSE(s.Dst.RowValid[16]);
}

}  // namespace
}  // namespace tmu::tensix
