// tmu/tensix/query.h against what execution does: the Dst rows an instruction's window names are the rows
// its WriteSet lists, a move's Src window is the rows it writes, src_release is the bank change
// execute() makes; and the math mode's precedence as MVMUL.md and ttsim give it.
#include <set>

#include <gtest/gtest.h>

#include "exec_harness.h"
#include "tmu/error.h"
#include "tmu/tensix/query.h"
#include "tmu/rng.h"

namespace tmu::tensix {
namespace {

std::set<uint16_t> window_storage_rows(const DstWindow& w) {
  std::set<uint16_t> rows;
  for (unsigned i = 0; i < w.rows; ++i) {
    const uint32_t row = w.row + i * w.step;
    if (w.dst32) {
      rows.insert(static_cast<uint16_t>(DstRegs::hi_row(row)));
      rows.insert(static_cast<uint16_t>(DstRegs::lo_row(row)));
    } else {
      rows.insert(static_cast<uint16_t>(row & (kDstRows - 1)));
    }
  }
  return rows;
}

TEST(Query, WindowsAreTheRowsExecutionWrites) {
  Rng rng(derive_seed(20261122, "query windows"));
  const Op ops[] = {Op::MVMUL, Op::DOTPV, Op::GAPOOL, Op::ELWADD, Op::ELWMUL, Op::GMPOOL,
                    Op::MOVA2D, Op::MOVB2D, Op::MOVD2A, Op::MOVD2B};
  unsigned checked = 0;
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    for (unsigned n = 0; n < 3000; ++n) {
      TensixState s = test::fresh(arch);
      test::give_banks_to_matrix_unit(s);
      for (auto* banks : {&s.SrcA, &s.SrcB})
        for (SrcBank& b : *banks) b.Format = DataFormat::BF16;
      const unsigned thread = static_cast<unsigned>(rng.below(kNumThreads));
      s.RWCs[thread].Dst = static_cast<uint16_t>(rng.below(kDstRows));
      s.RWCs[thread].SrcA = static_cast<uint8_t>(rng.below(kSrcRows));
      s.RWCs[thread].SrcB = static_cast<uint8_t>(rng.below(kSrcRows));
      ConfigRegs& c = s.config_for(thread);
      c.ALU_ACC_CTRL_Fp32_enabled = rng() & 1;
      c.ALU_FORMAT_SPEC_REG0_SrcA = c.ALU_FORMAT_SPEC_REG1_SrcB = static_cast<uint8_t>(DataFormat::BF16);
      const Op op = ops[rng.below(std::size(ops))];
      const Insn blank = decode(encode(arch, op, {}), arch);
      std::vector<std::pair<Field, uint32_t>> fields;
      for (Field f : {Field::DstRow, Field::SrcRow, Field::BroadcastSrcBRow, Field::BroadcastSrcBCol0, Field::AddDst,
                      Field::Move4Rows, Field::Move8Rows, Field::Broadcast1RowTo8, Field::BroadcastCol0,
                      Field::ArgMax, Field::FlipSrcA, Field::FlipSrcB, Field::Dim16x16})
        if (const FieldSpec* fs = blank.spec->find_field(f))
          fields.emplace_back(f, f == Field::Dim16x16 ? 1u : static_cast<uint32_t>(rng.below(uint64_t{fs->max} + 1)));
      const Insn insn = decode(encode(arch, op, fields), arch);
      const InsnAccess access = insn_access(s, thread, insn);
      const SrcRelease release = src_release(s, thread, insn);
      const TensixState before = s;
      ExecResult r;
      try {
        r = execute(s, insn, thread);
      } catch (const Error&) {
        continue;
      }
      ASSERT_EQ(r.status, ExecResult::Status::Retired);
      ++checked;
      const std::set<uint16_t> written(r.writes.dst_rows.begin(), r.writes.dst_rows.end());
      if (access.dst.written) EXPECT_EQ(window_storage_rows(access.dst), written) << disassemble(insn);
      else EXPECT_TRUE(written.empty()) << disassemble(insn);
      for (unsigned o = 0; o < 2; ++o) {
        const SrcWindow& w = o ? access.srcb : access.srca;
        const auto& logged = o ? r.writes.srcb_rows : r.writes.srca_rows;
        std::set<unsigned> rows;
        if (w.written)
          for (unsigned i = 0; i < w.rows; ++i) rows.insert((w.row + i) & (kSrcRows - 1));
        std::set<unsigned> got;
        for (const WriteSet::SrcRow& sr : logged) {
          EXPECT_EQ(sr.bank, w.bank);
          got.insert(sr.row);
        }
        EXPECT_EQ(rows, got) << disassemble(insn) << " operand " << o;
        const unsigned was = matrix_unit_bank(before, o);
        EXPECT_EQ(matrix_unit_bank(s, o), release.flip[o] ? was ^ 1 : was) << disassemble(insn);
        const SrcClient owner = (o ? s.SrcB : s.SrcA)[was].AllowedClient;
        EXPECT_EQ(owner, release.hand_back[o] ? SrcClient::Unpackers : SrcClient::MatrixUnit) << disassemble(insn);
      }
    }
  }
  EXPECT_GT(checked, 3000u);
}

TEST(Query, MathModePrecedence) {
  TensixState s = test::fresh(Arch::Blackhole);
  ConfigRegs& c = s.config_for(0);
  s.SrcA[0].Format = DataFormat::FP16;
  c.ALU_FORMAT_SPEC_REG_SrcA_override = true;
  c.ALU_FORMAT_SPEC_REG_SrcA_val = static_cast<uint8_t>(DataFormat::TF32);
  c.ALU_FORMAT_SPEC_REG1_SrcB = static_cast<uint8_t>(DataFormat::TF32);
  MathMode m = math_mode(s, 0);  // Blackhole: the bank's tag beats the override
  EXPECT_EQ(m.srca_style, SrcStyle::FP16);
  EXPECT_EQ(m.srca_source, StyleSource::Implied);
  s.ThreadConfig[0].DISABLE_IMPLIED_SRCA_FMT_Base = true;
  s.ThreadConfig[0].DISABLE_IMPLIED_SRCB_FMT_Base = true;
  m = math_mode(s, 0);
  EXPECT_EQ(m.srca_style, SrcStyle::TF32);
  EXPECT_EQ(m.srca_source, StyleSource::SpecOverride);
  EXPECT_EQ(m.srcb_style, SrcStyle::TF32);
  EXPECT_EQ(m.srcb_source, StyleSource::SpecReg);
  c.ALU_ACC_CTRL_INT8_math_enabled = true;
  m = math_mode(s, 0);
  EXPECT_TRUE(m.int8_math && m.use_dst32b);
  EXPECT_EQ(m.srcb_style, SrcStyle::INT8);
  s.ThreadConfig[0].FP16A_FORCE_Enable = true;  // beats INT8 math, and Dst is 16-bit
  m = math_mode(s, 0);
  EXPECT_TRUE(m.fp16a_force && !m.use_dst32b && !m.int8_math);
  EXPECT_EQ(m.srca_source, StyleSource::Fp16aForce);

  TensixState w = test::fresh(Arch::Wormhole);  // Wormhole ignores the tag
  w.SrcA[0].Format = DataFormat::FP16;
  w.config_for(0).ALU_FORMAT_SPEC_REG0_SrcA = static_cast<uint8_t>(DataFormat::BF16);
  EXPECT_EQ(math_mode(w, 0).srca_style, SrcStyle::BF16);
  EXPECT_EQ(math_mode(w, 0).srca_source, StyleSource::SpecReg);
}

TEST(Query, DbgFeatureBitReadsTheHighHalf) {
  TensixState s = test::fresh();
  s.Dst.write32(3, 5, 0x12345678);
  s.DbgFeatureDisableBit11 = true;
  EXPECT_EQ(read_dst16(s, 3, 5), std::optional<uint16_t>(0x1234));
  s.Dst.RowValid[DstRegs::hi_row(3)] = false;
  EXPECT_FALSE(read_dst16(s, 3, 5).has_value());
  EXPECT_FALSE(read_dst32(s, 3, 5).has_value());
}

}  // namespace
}  // namespace tmu::tensix
