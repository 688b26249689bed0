// tmu_gpr_unit against the refmodel's Scalar Unit GPR ops (refmodel/engines/tensix/src/insn/gpr.cpp via
// tmu::tensix::execute_word): random programs on three threads, checked at every retirement (status, the
// GPR written and its value, the cycle count) and cycle by cycle (issue_ready_o, the blocked
// thread), with a full GPR comparison through the debug port at the end of every program.
#include <cinttypes>
#include <optional>

#include "harness.h"
#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/isa.h"

namespace tmu_rtl {
namespace {

using tmu::tensix::Arch;

constexpr uint8_t kSetDmaReg = 0x45, kFlushDma = 0x46, kAddDmaReg = 0x58, kSubDmaReg = 0x59,
                  kMulDmaReg = 0x5a, kBitwOpDmaReg = 0x5b, kShiftDmaReg = 0x5c, kCmpDmaReg = 0x5d,
                  kDmaNop = 0x60;
constexpr uint8_t kRegOps[] = {kAddDmaReg, kSubDmaReg, kMulDmaReg, kBitwOpDmaReg, kShiftDmaReg, kCmpDmaReg};
// Bytes that are no instruction on either architecture (checked against the ISA table at start).
constexpr uint8_t kNoOpcodes[] = {0x00, 0x7f, 0xbf};

enum Status : unsigned { kOk = 0, kDecodeErr = 1, kUndefined = 2, kUnsupported = 3 };

// A GPR instruction word: fields at the ISA table's positions (the same for every reg-reg op:
// LeftReg 5:0, RightReg 11:6, ResultReg 17:12, Mode 20:18, OpBisConst 23; SETDMAREG ResultHalfReg
// 6:0, SetSignalsMode 7, NewValue 23:8; FLUSHDMA ConditionMask 3:0).
uint32_t random_word(Rng& rng) {
  // Registers from a small pool half the time, so results feed later operands.
  auto reg = [&rng]() { return static_cast<uint32_t>(rng.chance(50, 100) ? rng.between(0, 7) : rng.bits(6)); };
  const unsigned pick = static_cast<unsigned>(rng.between(0, 99));
  uint32_t op = 0, fields = 0;
  if (pick < 15) {
    op = kSetDmaReg;
    fields = static_cast<uint32_t>(rng.bits(7)) | (static_cast<uint32_t>(rng.bits(16)) << 8);
    if (rng.chance(3, 100)) fields |= 1u << 7;  // SetSignalsMode: refused
  } else if (pick < 20) {
    op = kFlushDma;
    fields = static_cast<uint32_t>(rng.bits(4));
  } else if (pick < 24) {
    op = kDmaNop;
  } else if (pick < 26) {
    op = kNoOpcodes[rng.between(0, 2)];
    fields = static_cast<uint32_t>(rng.bits(24));
  } else {
    op = kRegOps[rng.between(0, 5)];
    const bool imm = rng.chance(40, 100);
    uint32_t right = imm ? static_cast<uint32_t>(rng.bits(op == kShiftDmaReg ? 5 : 6)) : reg();
    if (imm && op == kShiftDmaReg && rng.chance(5, 100)) right |= 32;  // RightImm5 out of range
    uint32_t mode = 0;
    if (op == kShiftDmaReg) mode = static_cast<uint32_t>(rng.chance(97, 100) ? rng.between(0, 1) : rng.between(2, 7));
    if (op == kBitwOpDmaReg || op == kCmpDmaReg)
      mode = static_cast<uint32_t>(rng.chance(97, 100) ? rng.between(0, 2) : rng.between(3, 7));
    fields = reg() | (right << 6) | (reg() << 12) | (mode << 18) | (imm ? 1u << 23 : 0u);
  }
  uint32_t word = (op << 24) | fields;
  if (rng.chance(2, 100)) word |= 1u << rng.between(0, 23);  // maybe a reserved bit
  return word;
}

struct Expected {
  uint32_t word = 0;
  unsigned thread = 0;
  unsigned status = kOk;
  unsigned cycles = 1;
  bool gpr_we = false;
  unsigned gpr_idx = 0;
  uint32_t gpr_value = 0;
};

Expected run_refmodel(tmu::tensix::TensixState& state, uint32_t word, unsigned thread) {
  Expected e;
  e.word = word;
  e.thread = thread;
  try {
    const tmu::tensix::ExecResult r = tmu::tensix::execute_word(state, word, thread);
    e.cycles = r.cycles;
    if (!r.writes.gprs.empty()) {
      e.gpr_we = true;
      e.gpr_idx = r.writes.gprs.front();
      e.gpr_value = state.GPRs[thread][e.gpr_idx];
    }
  } catch (const tmu::Error& err) {
    switch (err.kind()) {
      case tmu::ErrorKind::DecodeError: e.status = kDecodeErr; break;
      case tmu::ErrorKind::UndefinedBehaviour: e.status = kUndefined; break;
      case tmu::ErrorKind::Unsupported: e.status = kUnsupported; break;
      default: e.status = 99; break;  // nothing else may happen: always a mismatch
    }
  }
  return e;
}

void idle_inputs(Model& top) {
  top.gpr_issue_valid_i = 0;
  top.gpr_dbg_we_i = 0;
  top.gpr_flush_wait_i = 0;
}

}  // namespace

int test_gpr_unit(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "gpr_unit");
  for (uint8_t op : kNoOpcodes)
    for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
      bool known = true;
      try { tmu::tensix::decode(uint32_t{op} << 24, arch); } catch (const tmu::Error&) { known = false; }
      if (known) { chk.fail("opcode %02x is an instruction: fix kNoOpcodes", op); return chk.report(opt.seed); }
    }

  const uint64_t total = opt.random_cases(200000);
  constexpr uint64_t kProgramLength = 5000;
  for (uint64_t done = 0; done < total;) {
    // A program: reset, random GPR contents loaded through the debug port, random instructions.
    tmu::tensix::TensixState state;
    state.arch = rng.bits(1) ? Arch::Wormhole : Arch::Blackhole;
    idle_inputs(top);
    sim.reset();
    for (unsigned t = 0; t < tmu::tensix::kNumThreads; ++t)
      for (unsigned g = 0; g < tmu::tensix::kNumGprs; ++g) {
        const uint32_t v = rng.chance(20, 100) ? static_cast<uint32_t>(rng.between(0, 70)) : static_cast<uint32_t>(rng.bits(32));
        state.GPRs[t][g] = v;
        top.gpr_dbg_we_i = 1;
        top.gpr_dbg_thread_i = t;
        top.gpr_dbg_idx_i = g;
        top.gpr_dbg_wdata_i = v;
        sim.tick();
      }
    idle_inputs(top);

    for (uint64_t n = 0; n < kProgramLength && done < total; ++n, ++done) {
      const uint32_t word = random_word(rng);
      const unsigned thread = static_cast<unsigned>(rng.between(0, 2));
      // FLUSHDMA's conditions: hold the issuing thread's (all four bits) for `wait` cycles; noise
      // on the other threads must not delay it.
      const unsigned wait = (word >> 24) == kFlushDma && rng.chance(30, 100) ? static_cast<unsigned>(rng.between(1, 6)) : 0;
      const uint16_t noise = static_cast<uint16_t>(rng.bits(12) & ~(0xFu << (4 * thread)));
      Expected want = run_refmodel(state, word, thread);
      if (want.status == kOk && wait > 0) want.cycles = std::max(want.cycles, wait + 1);

      if (!top.gpr_issue_ready_o) chk.fail("unit not ready before instruction %" PRIu64, done);
      top.gpr_issue_valid_i = 1;
      top.gpr_issue_insn_i = word;
      top.gpr_issue_thread_i = thread;
      unsigned cycle = 0;
      bool retired = false;
      while (!retired && cycle < 64) {
        top.gpr_flush_wait_i = noise | (cycle < wait ? 0xFu << (4 * thread) : 0u);
        sim.tick();
        ++cycle;
        top.gpr_issue_valid_i = 0;
        const bool busy = !top.gpr_issue_ready_o;
        if (top.gpr_retire_valid_o) {
          retired = true;
          const bool ok = top.gpr_retire_thread_o == want.thread && top.gpr_retire_insn_o == want.word &&
                          top.gpr_retire_status_o == want.status &&
                          (want.status != kOk ||
                           (top.gpr_retire_cycles_o == want.cycles && cycle == want.cycles &&
                            top.gpr_retire_gpr_we_o == want.gpr_we &&
                            (!want.gpr_we || (top.gpr_retire_gpr_idx_o == want.gpr_idx &&
                                              top.gpr_retire_gpr_data_o == want.gpr_value))));
          if (ok && !busy) {
            chk.pass();
          } else {
            chk.fail("#%" PRIu64 " thread %u word %08x: rtl status %u cycles %u (retired after %u, ready %d) we %u "
                     "gpr %u = %08x; ref status %u cycles %u we %d gpr %u = %08x",
                     done, thread, word, top.gpr_retire_status_o, top.gpr_retire_cycles_o, cycle, !busy,
                     top.gpr_retire_gpr_we_o, top.gpr_retire_gpr_idx_o, top.gpr_retire_gpr_data_o, want.status,
                     want.cycles, want.gpr_we, want.gpr_idx, want.gpr_value);
          }
        } else if (!busy || top.gpr_thread_blocked_o != (1u << thread)) {
          chk.fail("#%" PRIu64 " word %08x: cycle %u of a busy unit shows ready=%d blocked=%x", done, word, cycle, !busy,
                   top.gpr_thread_blocked_o);
        }
      }
      if (!retired) chk.fail("#%" PRIu64 " word %08x never retired", done, word);
      // Sometimes an idle cycle between instructions: nothing may retire in it.
      top.gpr_flush_wait_i = 0;
      if (rng.chance(20, 100)) {
        sim.tick();
        if (top.gpr_retire_valid_o || !top.gpr_issue_ready_o) chk.fail("#%" PRIu64 ": activity in an idle cycle", done);
      }
    }

    // Every GPR of every thread, through the debug read port.
    for (unsigned t = 0; t < tmu::tensix::kNumThreads; ++t)
      for (unsigned g = 0; g < tmu::tensix::kNumGprs; ++g) {
        top.gpr_dbg_thread_i = t;
        top.gpr_dbg_idx_i = g;
        sim.eval();
        if (top.gpr_dbg_rdata_o == state.GPRs[t][g]) chk.pass();
        else chk.fail("end of program: GPR[%u][%u] rtl %08x ref %08x", t, g, top.gpr_dbg_rdata_o, state.GPRs[t][g]);
      }
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
