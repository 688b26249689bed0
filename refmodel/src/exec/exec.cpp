// Dispatch: Op -> handler, plus the per-instruction timing of MatrixUnit.md's latency/throughput
// table. The handlers themselves live one family per file in refmodel/src/insn/.
#include <array>

#include <fmt/format.h>

#include "../insn/handlers.h"

namespace tmu {

namespace {

struct OpInfo {
  insn::Handler handler = nullptr;
  uint8_t issue_cycles = 1;  // 1 / throughput
  uint8_t latency = 1;
};

constexpr std::array<OpInfo, kNumOps> make_op_table() {
  std::array<OpInfo, kNumOps> t{};
  auto set = [&t](Op op, insn::Handler h, uint8_t issue, uint8_t latency) {
    t[static_cast<unsigned>(op)] = OpInfo{h, issue, latency};
  };
  using namespace insn;
  set(Op::MVMUL, exec_mvmul, 1, 5);
  set(Op::DOTPV, exec_dotpv, 1, 5);
  set(Op::GAPOOL, exec_gapool, 1, 5);
  set(Op::ELWMUL, exec_elwmul, 1, 5);
  set(Op::ELWADD, exec_elwadd, 1, 5);
  set(Op::ELWSUB, exec_elwsub, 1, 5);
  set(Op::GMPOOL, exec_gmpool, 1, 5);
  set(Op::MOVA2D, exec_mova2d, 1, 4);
  set(Op::MOVB2D, exec_movb2d, 1, 4);
  set(Op::MOVB2A, exec_movb2a, 1, 4);
  set(Op::MOVD2A, exec_movd2a, 1, 2);
  set(Op::MOVD2B, exec_movd2b, 1, 2);  // not in the table; MOVD2B.md mirrors MOVD2A
  set(Op::SHIFTXA, exec_shiftxa, 1, 1);
  set(Op::SHIFTXB, exec_shiftxb, 2, 2);
  set(Op::ZEROACC, exec_zeroacc, 1, 1);
  set(Op::ZEROSRC, exec_zerosrc, 1, 1);
  set(Op::TRNSPSRCB, exec_trnspsrcb, 1, 1);
  set(Op::CLEARDVALID, exec_cleardvalid, 1, 1);
  set(Op::SETRWC, exec_setrwc, 1, 1);
  set(Op::INCRWC, exec_incrwc, 1, 1);
  set(Op::GATESRCRST, exec_gatesrcrst, 1, 1);
  set(Op::CLREXPHIST, exec_clrexphist, 1, 1);
  // Legacy ops count as Matrix Unit instructions with the MVMUL-class latency (the latency table of
  // "Specialty Matrix Unit operations", docs/sources.md).
  set(Op::CONV3S1, exec_legacy_neutered, 1, 5);
  set(Op::CONV3S2, exec_legacy_neutered, 1, 5);
  set(Op::APOOL3S1, exec_legacy_neutered, 1, 5);
  set(Op::APOOL3S2, exec_legacy_neutered, 1, 5);
  set(Op::MPOOL3S1, exec_legacy_neutered, 1, 5);
  set(Op::MPOOL3S2, exec_legacy_neutered, 1, 5);
  // Scalar Unit: the handler sets the 3-or-4 cycle figure; the unit is unpipelined, so issue
  // occupancy and latency are the same number.
  set(Op::SETDMAREG, exec_setdmareg, 1, 1);
  set(Op::ADDDMAREG, exec_adddmareg, 3, 3);
  set(Op::SUBDMAREG, exec_subdmareg, 3, 3);
  set(Op::MULDMAREG, exec_muldmareg, 3, 3);
  set(Op::SHIFTDMAREG, exec_shiftdmareg, 3, 3);
  set(Op::BITWOPDMAREG, exec_bitwopdmareg, 3, 3);
  set(Op::CMPDMAREG, exec_cmpdmareg, 3, 3);
  set(Op::FLUSHDMA, exec_flushdma, 2, 2);
  set(Op::DMANOP, exec_dmanop, 1, 1);
  return t;
}

const std::array<OpInfo, kNumOps> kOpTable = make_op_table();

}  // namespace

ExecResult execute(TensixState& state, const Insn& insn, unsigned thread) {
  if (thread >= kNumThreads)
    throw Error(ErrorKind::BadInput, fmt::format("thread {} does not exist (0..{})", thread, kNumThreads - 1));
  if (insn.arch != state.arch)
    throw Error(ErrorKind::BadInput, fmt::format("{} was decoded for {} but the state is {}", insn.mnemonic(),
                                                 arch_name(insn.arch), arch_name(state.arch)));
  const OpInfo& info = kOpTable[static_cast<unsigned>(insn.op())];
  if (!info.handler)
    throw Error(ErrorKind::Unsupported, fmt::format("{} has no execution model", insn.mnemonic()));
  ExecResult result;
  result.cycles = info.issue_cycles;
  result.latency = info.latency;
  insn::ExecContext ctx(state, insn, thread, result);
  info.handler(ctx);
  ctx.commit_written_rows();
  if (insn.spec->unit == Unit::ScalarUnit) result.latency = result.cycles;
  return result;
}

ExecResult execute_word(TensixState& state, uint32_t raw_word, unsigned thread) {
  return execute(state, decode(raw_word, state.arch), thread);
}

}  // namespace tmu
