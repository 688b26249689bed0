// ApplyAddrMod (RWCs.md): the post-instruction RWC update selected by an instruction's AddrMod bits.
#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/query.h"

namespace tmu::tensix {

namespace {

constexpr uint32_t kSrcRwcMask = kSrcRows - 1;  // RWC.SrcA/SrcB are 6-bit counters
constexpr uint32_t kDstRwcMask = kDstRows - 1;  // RWC.Dst is a 10-bit counter

void step_src_counter(uint8_t& counter, uint8_t& carry, bool clear, bool carry_reset, uint32_t incr) {
  if (clear) {
    counter = carry = 0;
  } else if (carry_reset) {
    carry = static_cast<uint8_t>((carry + incr) & kSrcRwcMask);
    counter = carry;
  } else {
    counter = static_cast<uint8_t>((counter + incr) & kSrcRwcMask);
  }
}

}  // namespace

void apply_addr_mod(TensixState& state, unsigned thread, uint32_t addr_mod, bool update_fidelity_phase) {
  Rwc& rwc = state.RWCs[thread];
  const std::optional<uint32_t> index = addr_mod_slot(state, thread, addr_mod);
  if (!index)
    throw Error(ErrorKind::Unsupported,
                fmt::format("ApplyAddrMod on Blackhole with RWC.ExtraAddrModBit=1 (thread {}): the slot index "
                            "this selects is not documented for a 3-bit AddrMod",
                            thread));
  const uint32_t slot = *index;
  const ThreadConfigRegs& tc = state.ThreadConfig[thread];
  const AddrModAB& ab = tc.ADDR_MOD_AB_SEC[slot];
  const AddrModDst& dst = tc.ADDR_MOD_DST_SEC[slot];
  const AddrModBias& bias = tc.ADDR_MOD_BIAS_SEC[slot];

  step_src_counter(rwc.SrcA, rwc.SrcA_Cr, ab.SrcAClear, ab.SrcACR, ab.SrcAIncr);
  step_src_counter(rwc.SrcB, rwc.SrcB_Cr, ab.SrcBClear, ab.SrcBCR, ab.SrcBIncr);

  // Priority as RWCs.md writes it: Clear, then CToCR, then CR, then a plain increment.
  if (dst.DestClear) {
    rwc.Dst = rwc.Dst_Cr = 0;
  } else if (dst.DestCToCR) {
    rwc.Dst = static_cast<uint16_t>((rwc.Dst + dst.DestIncr) & kDstRwcMask);
    rwc.Dst_Cr = rwc.Dst;
  } else if (dst.DestCR) {
    rwc.Dst_Cr = static_cast<uint16_t>((rwc.Dst_Cr + dst.DestIncr) & kDstRwcMask);
    rwc.Dst = rwc.Dst_Cr;
  } else {
    rwc.Dst = static_cast<uint16_t>((rwc.Dst + dst.DestIncr) & kDstRwcMask);
  }

  if (update_fidelity_phase) {
    if (dst.FidelityClear) rwc.FidelityPhase = 0;
    else rwc.FidelityPhase = static_cast<uint8_t>((rwc.FidelityPhase + dst.FidelityIncr) & 3);
  }

  if (bias.BiasClear) rwc.ExtraAddrModBit = 0;
  else if (bias.BiasIncr & 3) rwc.ExtraAddrModBit ^= 1;  // a 1-bit counter: += 1 wraps
}

}  // namespace tmu::tensix
