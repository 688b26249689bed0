// The co-simulation driver: the C++ half of the SystemVerilog testbench top (tb/sv/tmu_tb_top.sv).
// Each cycle the top asks it what to drive into tmu_top (instruction, configuration write, unpacker
// rows and hand-overs, or in the first cycles a back-door preload), reports which handshakes
// completed, and reports every retired instruction through the scoreboard's observation calls.
//
// Ordering. The RTL applies a configuration write or an unpacker action in the cycle it is accepted;
// the model executes an instruction when it retires, several cycles after it issued. So the driver
// tags every accepted action with the number of instructions issued up to and including that cycle
// and hands it to the scoreboard only once all of those instructions have retired (the Matrix Unit
// and the GPR unit each retire in issue order, so which instruction retired is known without the RTL
// naming it). The model then sees each action exactly between the instructions the RTL saw it
// between.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cov/coverage.h"
#include "stim/stimulus.h"
#include "tmu/tensix/scoreboard.h"

namespace tmu::tb {
using namespace tmu::tensix;

struct DriverOptions {
  std::string test = "random";
  Arch arch = Arch::Blackhole;
  uint64_t seed = 1;
  uint64_t instructions = 10000;
  uint64_t stuck_cycles = 20000;  // no issue and no retirement for this long: a stimulus deadlock
  bool check = true;              // false: drive and retire without the scoreboard (speed baseline)
  // Demonstration: the first Dst row or GPR write retiring at or after this cycle reaches the
  // scoreboard with bit 0 of its first datum flipped, as a faulty design would write it (0: none).
  uint64_t inject_fault_cycle = 0;
};

// tmu_pkg::cfg_scope_e / cfg_field_e (rtl/tmu_pkg.sv): the RTL's configuration port.
enum class RtlCfgScope : uint8_t { Config = 0, ThreadConfig = 1, Global = 2, AddrMod = 3 };

// One write on the RTL's configuration port.
struct RtlCfgWrite {
  RtlCfgScope scope = RtlCfgScope::Config;
  unsigned index = 0;   // config state, thread, or ADDR_MOD slot
  unsigned thread = 0;  // ADDR_MOD's thread
  unsigned field = 0;   // tmu_pkg::cfg_field_e
  uint32_t value = 0;
};

// What the top drives into tmu_top this cycle.
struct DriveRequest {
  bool issue_valid = false;
  unsigned issue_thread = 0;
  uint32_t issue_word = 0;
  std::optional<RtlCfgWrite> cfg;
  std::array<bool, 2> unp_we{};
  std::array<unsigned, 2> unp_row{};
  std::array<std::array<uint32_t, 16>, 2> unp_data{};
  std::array<uint32_t, 2> unp_format{};
  std::array<bool, 2> unp_dvalid{};
};

// One back-door preload, before the first instruction.
struct Preload {
  enum class Kind { DstRow, SrcRow, BankState, Pointers, Gpr, Config } kind = Kind::DstRow;
  unsigned operand = 0, bank = 0, row = 0, thread = 0, index = 0;
  bool flag = false;            // DstRow: valid; BankState: Matrix Unit owns it
  unsigned mu_bank = 0, unp_bank = 0;  // Pointers
  uint32_t value = 0;           // BankState: format code; Gpr: value
  std::array<uint32_t, 16> values{};  // DstRow: 16-bit values; SrcRow: 19-bit datums
  RtlCfgWrite cfg;              // Config

  // One per kind, from the initial state's records, so each kind sets exactly its own fields.
  static Preload config(const RtlCfgWrite& w) {
    Preload p;
    p.kind = Kind::Config;
    p.cfg = w;
    return p;
  }
  static Preload bank_state(const SrcBankInit& b) {
    Preload p;
    p.kind = Kind::BankState;
    p.operand = b.operand;
    p.bank = b.bank;
    p.flag = b.matrix_unit_owns;
    p.value = b.format;
    return p;
  }
  static Preload pointers(unsigned operand, unsigned mu_bank, unsigned unp_bank) {
    Preload p;
    p.kind = Kind::Pointers;
    p.operand = operand;
    p.mu_bank = mu_bank;
    p.unp_bank = unp_bank;
    return p;
  }
  static Preload src_row(const SrcRowInit& r) {
    Preload p;
    p.kind = Kind::SrcRow;
    p.operand = r.operand;
    p.bank = r.bank;
    p.row = r.row;
    p.values = r.values;
    return p;
  }
  static Preload dst_row(const DstRowInit& r) {
    Preload p;
    p.kind = Kind::DstRow;
    p.row = r.row;
    p.flag = r.valid;
    for (unsigned c = 0; c < 16; ++c) p.values[c] = r.values[c];
    return p;
  }
  static Preload gpr(const GprInit& g) {
    Preload p;
    p.kind = Kind::Gpr;
    p.thread = g.thread;
    p.index = g.index;
    p.value = g.value;
    return p;
  }
};

class Driver {
 public:
  Driver(const DriverOptions& options, Scoreboard& scoreboard);

  // The next back-door preload (mirrored onto the scoreboard as it is handed out); nullopt when the
  // initial state is complete.
  std::optional<Preload> next_preload();

  // unp_bank_mu_owned[op]: the bank unpacker op points at is held by the Matrix Unit (it must wait).
  DriveRequest drive(std::array<bool, 2> unp_bank_mu_owned);
  // Which of this cycle's requests completed (valid && ready at the clock edge).
  void handshake(bool issue_fired, bool cfg_fired, std::array<bool, 2> unp_we_fired,
                 std::array<bool, 2> unp_dvalid_fired);

  // Retirement: sample coverage on the model's state before it executes the word, then after the
  // scoreboard retired it, account for it and release the actions waiting for it.
  void before_retire(unsigned thread, uint32_t word);
  void after_retire(bool gpr_unit);
  // An RTL event of this cycle (the DPI layer names the event bits), reported while an instruction is
  // presented. The testbench derives one event of its own from it: a MVMUL held by the Dst hazard
  // while one of the previous four Matrix Unit instructions was a MVMUL (the fidelity-loop dependency
  // the stall exists for; the RTL's hazard window is those four instructions).
  void event(std::string_view name, uint64_t cycle = 0);

  // Dst hazard stalls the RTL reported in a test that forbids them (Stimulus::forbids_dst_hazard_stalls),
  // and a description of the first one (empty when none).
  uint64_t forbidden_stalls() const { return forbidden_stalls_; }
  const std::string& first_forbidden_stall() const { return first_forbidden_stall_; }
  uint64_t first_forbidden_stall_cycle() const { return first_forbidden_stall_cycle_; }

  // The stream is exhausted, everything issued has retired and every action reached the model.
  bool finished() const;
  // Cycles since the last issue or retirement while work is outstanding (deadlock watchdog).
  bool stuck() const { return idle_cycles_ > options_.stuck_cycles; }
  void tick() { ++idle_cycles_; }

  uint64_t issued() const { return issued_; }
  uint64_t retired() const { return retired_; }
  const Coverage& coverage() const { return coverage_; }
  std::string description() const { return stimulus_->description(); }
  Scoreboard& scoreboard() { return sb_; }
  bool checking() const { return options_.check; }

  // The RTL port write for a named field, or nullopt when the RTL holds no such field (the model
  // still receives it). Throws Error(BadInput) for a field the testbench cannot drive (RWCs).
  std::optional<RtlCfgWrite> rtl_cfg_write(const FieldWrite& w);

 private:
  struct Pending {  // an accepted action waiting for the instructions issued before it to retire
    uint64_t after_issued = 0;
    enum class Kind { Field, UnpackRow, HandOver } kind = Kind::Field;
    FieldWrite field;
    unsigned operand = 0, row = 0;
    std::array<uint32_t, 16> values{};
    uint32_t format = 0;
  };
  struct Unpacker {
    std::optional<UnpackFill> fill;
    size_t next_row = 0;
  };

  void flush();
  void fetch_step();
  bool is_scalar(uint32_t word) const;
  bool is_mvmul(uint32_t word) const;

  DriverOptions options_;
  Scoreboard& sb_;
  std::unique_ptr<Stimulus> stimulus_;
  Coverage coverage_;

  std::vector<Preload> preloads_;
  size_t next_preload_ = 0;

  std::optional<Step> step_;  // the step being presented
  unsigned recent_mvmuls_ = 0;  // bit i: the Matrix Unit instruction issued i + 1 before was a MVMUL
  // What this cycle's drive() asked of the unpacker ports: a request the handshake does not take
  // is the RTL's back-pressure (a coverage event).
  std::array<bool, 2> unp_we_requested_{}, unp_dvalid_requested_{};
  bool stream_done_ = false;
  std::array<Unpacker, 2> unpackers_{};
  std::deque<Pending> pending_;
  std::deque<uint64_t> mu_inflight_, gpr_inflight_;  // issue numbers, oldest first
  std::deque<bool> retired_flags_;                    // by issue number, from retired_prefix_
  uint64_t issued_ = 0, retired_ = 0, retired_prefix_ = 0;
  uint64_t idle_cycles_ = 0;
  uint64_t forbidden_stalls_ = 0;
  std::string first_forbidden_stall_;
  uint64_t first_forbidden_stall_cycle_ = 0;
  // ADDR_MOD section registers as the RTL holds them, per thread and slot (AB, DST, BIAS).
  std::array<std::array<std::array<uint32_t, 3>, 8>, 3> addr_mod_regs_{};
};

}  // namespace tmu::tb
