// tmu_rwc against the refmodel: random ADDR_MOD configuration, SETRWC / INCRWC words (through
// tmu::tensix::execute_word) and ApplyAddrMod commands (tmu::tensix::apply_addr_mod) on three threads, on both
// architectures. Every command's status is compared in its cycle and every thread's counters after
// every clock edge.
#include <cinttypes>

#include "harness.h"
#include "tmu/error.h"
#include "tmu/tensix/exec.h"

namespace tmu_rtl {
namespace {

using tmu::tensix::Arch;

enum Cmd : unsigned { kSetRwc = 0, kIncRwc = 1, kAddrMod = 2 };
enum CfgSel : unsigned { kAb = 0, kDst = 1, kBias = 2, kSetBase = 3 };
enum Status : unsigned { kOk = 0, kDecodeErr = 1, kUndefined = 2, kUnsupported = 3 };

constexpr uint32_t kSetRwcOp = 0x37, kIncRwcOp = 0x38;
constexpr uint32_t kSetRwcReserved = 0x000030, kIncRwcReserved = 0xE0003F;

uint32_t field(uint32_t v, unsigned lo, unsigned width) { return (v >> lo) & ((1u << width) - 1); }

// ADDR_MOD_{AB,DST,BIAS}_SEC register layouts (ttsim data/*/tensix_regs.json), into the refmodel.
void store_config(tmu::tensix::ThreadConfigRegs& tc, unsigned slot, unsigned sel, uint32_t v) {
  switch (sel) {
    case kAb: {
      tmu::tensix::AddrModAB& ab = tc.ADDR_MOD_AB_SEC[slot];
      ab.SrcAIncr = static_cast<uint8_t>(field(v, 0, 6));
      ab.SrcACR = field(v, 6, 1);
      ab.SrcAClear = field(v, 7, 1);
      ab.SrcBIncr = static_cast<uint8_t>(field(v, 8, 6));
      ab.SrcBCR = field(v, 14, 1);
      ab.SrcBClear = field(v, 15, 1);
      break;
    }
    case kDst: {
      tmu::tensix::AddrModDst& d = tc.ADDR_MOD_DST_SEC[slot];
      d.DestIncr = static_cast<uint16_t>(field(v, 0, 10));
      d.DestCR = field(v, 10, 1);
      d.DestClear = field(v, 11, 1);
      d.DestCToCR = field(v, 12, 1);
      d.FidelityIncr = static_cast<uint8_t>(field(v, 13, 2));
      d.FidelityClear = field(v, 15, 1);
      break;
    }
    case kBias: {
      tmu::tensix::AddrModBias& b = tc.ADDR_MOD_BIAS_SEC[slot];
      b.BiasIncr = static_cast<uint8_t>(field(v, 0, 4));
      b.BiasClear = field(v, 4, 1);
      break;
    }
    default: tc.ADDR_MOD_SET_Base = field(v, 0, 1); break;
  }
}

// tmu_pkg::rwc_t, MSB first: Dst, Dst_Cr, SrcA, SrcA_Cr, SrcB, SrcB_Cr, FidelityPhase, ExtraAddrModBit.
tmu::tensix::Rwc unpack_rwc(uint64_t v) {
  tmu::tensix::Rwc r;
  r.ExtraAddrModBit = static_cast<uint8_t>(v & 1);
  r.FidelityPhase = static_cast<uint8_t>((v >> 1) & 3);
  r.SrcB_Cr = static_cast<uint8_t>((v >> 3) & 63);
  r.SrcB = static_cast<uint8_t>((v >> 9) & 63);
  r.SrcA_Cr = static_cast<uint8_t>((v >> 15) & 63);
  r.SrcA = static_cast<uint8_t>((v >> 21) & 63);
  r.Dst_Cr = static_cast<uint16_t>((v >> 27) & 1023);
  r.Dst = static_cast<uint16_t>((v >> 37) & 1023);
  return r;
}

bool same(const tmu::tensix::Rwc& a, const tmu::tensix::Rwc& b) {
  return a.Dst == b.Dst && a.Dst_Cr == b.Dst_Cr && a.SrcA == b.SrcA && a.SrcA_Cr == b.SrcA_Cr && a.SrcB == b.SrcB &&
         a.SrcB_Cr == b.SrcB_Cr && a.FidelityPhase == b.FidelityPhase && a.ExtraAddrModBit == b.ExtraAddrModBit;
}

unsigned status_of(const tmu::Error& e) {
  switch (e.kind()) {
    case tmu::ErrorKind::DecodeError: return kDecodeErr;
    case tmu::ErrorKind::UndefinedBehaviour: return kUndefined;
    case tmu::ErrorKind::Unsupported: return kUnsupported;
    default: return 99;
  }
}

uint32_t random_config(Rng& rng, unsigned sel, Arch arch) {
  switch (sel) {
    case kAb: {
      // Clears are rare so counters get somewhere; increments are often small.
      uint32_t v = static_cast<uint32_t>(rng.bits(16)) & ~0x8080u;
      if (rng.chance(10, 100)) v |= 0x0080;
      if (rng.chance(10, 100)) v |= 0x8000;
      return v;
    }
    case kDst: {
      uint32_t v = static_cast<uint32_t>(rng.bits(16)) & ~0x8800u;
      if (rng.chance(50, 100)) v = (v & ~0x3FFu) | static_cast<uint32_t>(rng.between(0, 16));
      if (rng.chance(10, 100)) v |= 0x0800;
      if (rng.chance(10, 100)) v |= 0x8000;
      return v;
    }
    case kBias:
      // On Blackhole a set ExtraAddrModBit makes every ApplyAddrMod unsupported: keep it rare.
      if (arch == Arch::Blackhole && !rng.chance(3, 100)) return static_cast<uint32_t>(rng.bits(1)) << 4;
      return static_cast<uint32_t>(rng.bits(5));
    default: return static_cast<uint32_t>(rng.bits(1));
  }
}

}  // namespace

int test_rwc(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "rwc");
  const uint64_t total = opt.random_cases(400000);
  constexpr uint64_t kRunLength = 4000;
  for (uint64_t done = 0; done < total;) {
    tmu::tensix::TensixState state;
    state.arch = (done / kRunLength) % 2 ? Arch::Wormhole : Arch::Blackhole;
    top.rwc_arch_i = state.arch == Arch::Wormhole;
    top.rwc_cfg_we_i = 0;
    top.rwc_cmd_valid_i = 0;
    sim.reset();

    for (uint64_t n = 0; n < kRunLength && done < total; ++n, ++done) {
      top.rwc_cfg_we_i = 0;
      top.rwc_cmd_valid_i = 0;
      // The configuration is a register: a command in the cycle of a write still sees the old value.
      struct PendingConfig { bool valid; unsigned thread, slot, sel; uint32_t value; } cfg{};
      // A configuration write in some cycles, a command in most (both may share a cycle).
      if (rng.chance(25, 100)) {
        const unsigned t = static_cast<unsigned>(rng.between(0, 2)), slot = static_cast<unsigned>(rng.bits(3));
        const unsigned sel = static_cast<unsigned>(rng.between(0, 3));
        const uint32_t v = random_config(rng, sel, state.arch);
        top.rwc_cfg_we_i = 1;
        top.rwc_cfg_thread_i = t;
        top.rwc_cfg_slot_i = slot;
        top.rwc_cfg_sel_i = sel;
        top.rwc_cfg_wdata_i = static_cast<uint16_t>(v | (rng.bits(16) << (sel == kBias ? 5 : sel == kSetBase ? 1 : 16)));
        cfg = PendingConfig{true, t, slot, sel, v};
      }
      const bool has_cmd = rng.chance(80, 100);
      const unsigned thread = static_cast<unsigned>(rng.between(0, 2));
      const unsigned cmd = static_cast<unsigned>(rng.between(0, 2));
      uint32_t word = 0;
      unsigned addr_mod = 0;
      bool update_fidelity = false;
      unsigned want_status = kOk;
      const auto rwcs_before = state.RWCs;  // a refused command changes nothing
      if (has_cmd) {
        if (cmd == kSetRwc || cmd == kIncRwc) {
          const uint32_t reserved = cmd == kSetRwc ? kSetRwcReserved : kIncRwcReserved;
          word = ((cmd == kSetRwc ? kSetRwcOp : kIncRwcOp) << 24) | static_cast<uint32_t>(rng.bits(24));
          if (!rng.chance(3, 100)) word &= ~reserved;
          if (rng.chance(1, 100)) word = (word & 0x00FFFFFFu);  // opcode 0x00: no instruction
          try {
            tmu::tensix::execute_word(state, word, thread);
          } catch (const tmu::Error& e) {
            want_status = status_of(e);
            state.RWCs = rwcs_before;
          }
        } else {
          addr_mod = static_cast<unsigned>(rng.bits(3));
          update_fidelity = rng.bits(1);
          try {
            tmu::tensix::apply_addr_mod(state, thread, addr_mod, update_fidelity);
          } catch (const tmu::Error& e) {
            want_status = status_of(e);
            state.RWCs = rwcs_before;
          }
        }
        top.rwc_cmd_valid_i = 1;
        top.rwc_cmd_thread_i = thread;
        top.rwc_cmd_i = cmd;
        top.rwc_cmd_insn_i = word;
        top.rwc_cmd_addr_mod_i = addr_mod;
        top.rwc_cmd_update_fidelity_i = update_fidelity;
        sim.eval();
        if (top.rwc_cmd_status_o == want_status) chk.pass();
        else chk.fail("#%" PRIu64 " %s cmd %u thread %u word %08x addr_mod %u: rtl status %u ref %u", done,
                      tmu::tensix::arch_name(state.arch), cmd, thread, word, addr_mod, top.rwc_cmd_status_o, want_status);
      }
      if (cfg.valid) store_config(state.ThreadConfig[cfg.thread], cfg.slot, cfg.sel, cfg.value);
      sim.tick();
      for (unsigned t = 0; t < tmu::tensix::kNumThreads; ++t) {
        const tmu::tensix::Rwc got = unpack_rwc(get_bits(top.rwc_o, t * kRwcW, kRwcW));
        const tmu::tensix::Rwc& want = state.RWCs[t];
        if (same(got, want)) {
          chk.pass();
        } else {
          chk.fail("#%" PRIu64 " %s after cmd %u (thread %u word %08x addr_mod %u fid %d): thread %u rtl "
                   "Dst=%u/%u A=%u/%u B=%u/%u F=%u X=%u ref Dst=%u/%u A=%u/%u B=%u/%u F=%u X=%u",
                   done, tmu::tensix::arch_name(state.arch), has_cmd ? cmd : 9u, thread, word, addr_mod, update_fidelity, t,
                   got.Dst, got.Dst_Cr, got.SrcA, got.SrcA_Cr, got.SrcB, got.SrcB_Cr, got.FidelityPhase,
                   got.ExtraAddrModBit, want.Dst, want.Dst_Cr, want.SrcA, want.SrcA_Cr, want.SrcB, want.SrcB_Cr,
                   want.FidelityPhase, want.ExtraAddrModBit);
        }
      }
    }
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
