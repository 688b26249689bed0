// Dispatch: Op -> handler. Each instruction's issue cycles and latency come from the ISA table
// (refmodel/engines/tensix/isa/tensix_isa.json, through InsnSpec); the handlers live one family per file in
// refmodel/engines/tensix/src/insn/.
#include <array>

#include <fmt/format.h>

#include "../insn/handlers.h"

namespace tmu::tensix {

namespace {

// Handlers by Op.
constexpr std::array<insn::Handler, kNumOps> make_handler_table() {
  std::array<insn::Handler, kNumOps> t{};
  auto set = [&t](Op op, insn::Handler h) { t[static_cast<unsigned>(op)] = h; };
  using namespace insn;
  set(Op::MVMUL, exec_mvmul);
  set(Op::DOTPV, exec_dotpv);
  set(Op::GAPOOL, exec_gapool);
  set(Op::ELWMUL, exec_elwmul);
  set(Op::ELWADD, exec_elwadd);
  set(Op::ELWSUB, exec_elwsub);
  set(Op::GMPOOL, exec_gmpool);
  set(Op::MOVA2D, exec_mova2d);
  set(Op::MOVB2D, exec_movb2d);
  set(Op::MOVB2A, exec_movb2a);
  set(Op::MOVD2A, exec_movd2a);
  set(Op::MOVD2B, exec_movd2b);
  set(Op::SHIFTXA, exec_shiftxa);
  set(Op::SHIFTXB, exec_shiftxb);
  set(Op::ZEROACC, exec_zeroacc);
  set(Op::ZEROSRC, exec_zerosrc);
  set(Op::TRNSPSRCB, exec_trnspsrcb);
  set(Op::CLEARDVALID, exec_cleardvalid);
  set(Op::SETRWC, exec_setrwc);
  set(Op::INCRWC, exec_incrwc);
  set(Op::GATESRCRST, exec_gatesrcrst);
  set(Op::CLREXPHIST, exec_clrexphist);
  set(Op::CONV3S1, exec_legacy_neutered);
  set(Op::CONV3S2, exec_legacy_neutered);
  set(Op::APOOL3S1, exec_legacy_neutered);
  set(Op::APOOL3S2, exec_legacy_neutered);
  set(Op::MPOOL3S1, exec_legacy_neutered);
  set(Op::MPOOL3S2, exec_legacy_neutered);
  set(Op::SETDMAREG, exec_setdmareg);
  set(Op::ADDDMAREG, exec_adddmareg);
  set(Op::SUBDMAREG, exec_subdmareg);
  set(Op::MULDMAREG, exec_muldmareg);
  set(Op::SHIFTDMAREG, exec_shiftdmareg);
  set(Op::BITWOPDMAREG, exec_bitwopdmareg);
  set(Op::CMPDMAREG, exec_cmpdmareg);
  set(Op::FLUSHDMA, exec_flushdma);
  set(Op::DMANOP, exec_dmanop);
  set(Op::UNPACR, exec_unpacr);
  set(Op::PACR, exec_pacr);
  return t;
}

const std::array<insn::Handler, kNumOps> kHandlers = make_handler_table();

}  // namespace

ExecResult execute(TensixState& state, const Insn& insn, unsigned thread) {
  if (thread >= kNumThreads)
    throw Error(ErrorKind::BadInput, fmt::format("thread {} does not exist (0..{})", thread, kNumThreads - 1));
  if (insn.arch != state.arch)
    throw Error(ErrorKind::BadInput, fmt::format("{} was decoded for {} but the state is {}", insn.mnemonic(),
                                                 arch_name(insn.arch), arch_name(state.arch)));
  const insn::Handler handler = kHandlers[static_cast<unsigned>(insn.op())];
  if (!handler) throw Error(ErrorKind::Unsupported, fmt::format("{} has no execution model", insn.mnemonic()));
  ExecResult result;
  result.cycles = insn.spec->issue_cycles;
  result.latency = insn.spec->latency;
  insn::ExecContext ctx(state, insn, thread, result);
  handler(ctx);
  ctx.commit_written_rows();
  // The Scalar Unit is not pipelined: its results are ready when the cycles the handler settled on
  // (the table's figure, or more for some operands) have passed.
  if (insn.spec->unit == Unit::ScalarUnit) result.latency = result.cycles;
  return result;
}

ExecResult execute_word(TensixState& state, uint32_t raw_word, unsigned thread) {
  return execute(state, decode(raw_word, state.arch), thread);
}

}  // namespace tmu::tensix
