// Legacy and housekeeping Matrix Unit instructions (MatrixUnit.md "Legacy instructions",
// GATESRCRST.md, CLREXPHIST.md). None of them changes Dst, SrcA or SrcB in tmu's model.
#include "handlers.h"

namespace tmu::tensix::insn {

// CONV3S1/CONV3S2/APOOL3S1/APOOL3S2 compute Dst += 0 on Wormhole and Blackhole; MPOOL3S1/MPOOL3S2
// do "something similar to GMPOOL on an all-zero SrcA" (a NonContractualBehaviour). What remains
// architecturally visible, and what software relies on (RWCs.md uses them to apply an AddrMod), is
// the clear_dvalid bank hand-back and the RWC update.
void exec_legacy_neutered(ExecContext& ctx) {
  ctx.latch_srca_row(ctx.rwc().SrcA);  // they compute a SrcA row address too (SHIFTXA.md)
  ctx.release_src_banks();
  ctx.apply_addr_mod(ctx.field(Field::AddrMod));
}

// The SrcB operand cache and the packers' exponent histograms are micro-architectural state that
// tmu does not hold; both instructions retire with no architectural effect.
void exec_gatesrcrst(ExecContext&) {}
void exec_clrexphist(ExecContext&) {}

}  // namespace tmu::tensix::insn
