// Issue cycles (1 / throughput) and latency of every instruction as the decoder hands them to the
// executor, against figures written down by hand from the sources: MatrixUnit.md's latency and
// throughput table; MOVD2B, which that table leaves out, as MOVD2A (MOVD2B.md mirrors MOVD2A.md); the
// legacy ops as the MVMUL class ("Specialty Matrix Unit operations"); the Scalar Unit's fewest cycles
// (ScalarUnit.md, "Additional Scalar Unit instructions"), with latency equal to cycles.
#include <gtest/gtest.h>

#include <map>

#include <fmt/format.h>

#include "exec_harness.h"
#include "tmu/tensix/decode.h"

namespace tmu::tensix {
namespace {

struct Timing {
  unsigned issue_cycles;
  unsigned latency;
};

const std::map<Op, Timing>& expected_timing() {
  static const std::map<Op, Timing> table = {
      // MatrixUnit.md: throughput 1, latency 5.
      {Op::MVMUL, {1, 5}}, {Op::DOTPV, {1, 5}}, {Op::GAPOOL, {1, 5}}, {Op::ELWMUL, {1, 5}},
      {Op::GMPOOL, {1, 5}}, {Op::ELWADD, {1, 5}}, {Op::ELWSUB, {1, 5}},
      // MatrixUnit.md: throughput 1, latency 1.
      {Op::SETRWC, {1, 1}}, {Op::INCRWC, {1, 1}}, {Op::CLEARDVALID, {1, 1}}, {Op::CLREXPHIST, {1, 1}},
      {Op::GATESRCRST, {1, 1}}, {Op::SHIFTXA, {1, 1}}, {Op::ZEROACC, {1, 1}}, {Op::ZEROSRC, {1, 1}},
      {Op::TRNSPSRCB, {1, 1}},
      // MatrixUnit.md: SHIFTXB at 0.5 instructions per cycle, latency 2.
      {Op::SHIFTXB, {2, 2}},
      // MatrixUnit.md: MOVD2A latency 2 (MOVD2B mirrors it); MOVA2D, MOVB2D, MOVB2A latency 4.
      {Op::MOVD2A, {1, 2}}, {Op::MOVD2B, {1, 2}},
      {Op::MOVA2D, {1, 4}}, {Op::MOVB2D, {1, 4}}, {Op::MOVB2A, {1, 4}},
      // "Specialty Matrix Unit operations": the legacy ops take the MVMUL class's figures.
      {Op::CONV3S1, {1, 5}}, {Op::CONV3S2, {1, 5}}, {Op::APOOL3S1, {1, 5}}, {Op::APOOL3S2, {1, 5}},
      {Op::MPOOL3S1, {1, 5}}, {Op::MPOOL3S2, {1, 5}},
      // Scalar Unit, fewest cycles: SETDMAREG 1, the arithmetic and logic ops 3, FLUSHDMA 2, DMANOP 1.
      {Op::SETDMAREG, {1, 1}}, {Op::ADDDMAREG, {3, 3}}, {Op::SUBDMAREG, {3, 3}}, {Op::MULDMAREG, {3, 3}},
      {Op::SHIFTDMAREG, {3, 3}}, {Op::BITWOPDMAREG, {3, 3}}, {Op::CMPDMAREG, {3, 3}},
      {Op::FLUSHDMA, {2, 2}}, {Op::DMANOP, {1, 1}},
      // Unpacker and Packer: accepted in a cycle; their throughput is not modelled (timing_source).
      {Op::UNPACR, {1, 1}}, {Op::PACR, {1, 1}},
  };
  return table;
}

TEST(IsaTiming, EveryInstructionDecodesWithItsDocumentedTiming) {
  ASSERT_EQ(expected_timing().size(), kNumOps) << "every Op needs an expected timing here";
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    for (const InsnSpec& spec : instructions(arch)) {
      SCOPED_TRACE(fmt::format("{} on {}", spec.mnemonic, arch_name(arch)));
      const auto it = expected_timing().find(spec.op);
      ASSERT_NE(it, expected_timing().end());
      // All fields zero is a legal word for every instruction.
      const Insn insn = decode(static_cast<uint32_t>(spec.opcode) << 24, arch);
      EXPECT_EQ(insn.spec->issue_cycles, it->second.issue_cycles);
      EXPECT_EQ(insn.spec->latency, it->second.latency);
    }
  }
}

TEST(IsaTiming, TheExecutorReportsTheTableTiming) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    SCOPED_TRACE(arch_name(arch));
    TensixState s = test::fresh(arch);
    test::give_banks_to_matrix_unit(s);
    for (const char* text : {"MVMUL", "ELWADD", "MOVD2A", "MOVB2A Move4Rows=1", "SHIFTXB", "ZEROACC"}) {
      SCOPED_TRACE(text);
      const Insn insn = assemble(text, arch);
      const ExecResult r = test::run(s, text);
      EXPECT_EQ(r.cycles, insn.spec->issue_cycles);
      EXPECT_EQ(r.latency, insn.spec->latency);
      EXPECT_EQ(r.cycles, expected_timing().at(insn.op()).issue_cycles);
    }
    // The Scalar Unit's figure is the fewest cycles; operands in different groups of four GPRs take
    // one more, and the latency follows the cycles.
    const ExecResult cross = test::run(s, "ADDDMAREG LeftReg=3 RightReg=4 ResultReg=0");
    EXPECT_EQ(cross.cycles, 4u);
    EXPECT_EQ(cross.latency, 4u);
  }
}

}  // namespace
}  // namespace tmu::tensix
