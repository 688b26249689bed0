#include "driver.h"

#include <fmt/format.h>

#include "tmu/tensix/decode.h"
#include "tmu/error.h"

namespace tmu::tb {
using namespace tmu::tensix;

namespace {

// tmu_pkg::cfg_field_e values (rtl/tmu_pkg.sv); the RTL port carries them as numbers.
struct RtlField {
  FieldScope scope;
  const char* name;
  RtlCfgScope rtl_scope;
  unsigned id;
};
constexpr RtlField kRtlFields[] = {
    {FieldScope::Config, "ALU_FORMAT_SPEC_REG_SrcA_val", RtlCfgScope::Config, 0},
    {FieldScope::Config, "ALU_FORMAT_SPEC_REG_SrcA_override", RtlCfgScope::Config, 1},
    {FieldScope::Config, "ALU_FORMAT_SPEC_REG_SrcB_val", RtlCfgScope::Config, 2},
    {FieldScope::Config, "ALU_FORMAT_SPEC_REG_SrcB_override", RtlCfgScope::Config, 3},
    {FieldScope::Config, "ALU_FORMAT_SPEC_REG0_SrcA", RtlCfgScope::Config, 4},
    {FieldScope::Config, "ALU_FORMAT_SPEC_REG1_SrcB", RtlCfgScope::Config, 5},
    {FieldScope::Config, "ALU_ACC_CTRL_Fp32_enabled", RtlCfgScope::Config, 6},
    {FieldScope::Config, "ALU_ACC_CTRL_INT8_math_enabled", RtlCfgScope::Config, 7},
    {FieldScope::Config, "ALU_ACC_CTRL_Zero_Flag_disabled_src", RtlCfgScope::Config, 8},
    {FieldScope::Config, "DEST_REGW_BASE_Base", RtlCfgScope::Config, 9},
    {FieldScope::ThreadConfig, "CFG_STATE_ID_StateID", RtlCfgScope::ThreadConfig, 10},
    {FieldScope::ThreadConfig, "DEST_TARGET_REG_CFG_MATH_Offset", RtlCfgScope::ThreadConfig, 11},
    {FieldScope::ThreadConfig, "DISABLE_IMPLIED_SRCA_FMT_Base", RtlCfgScope::ThreadConfig, 12},
    {FieldScope::ThreadConfig, "DISABLE_IMPLIED_SRCB_FMT_Base", RtlCfgScope::ThreadConfig, 13},
    {FieldScope::ThreadConfig, "CLR_DVALID_SrcA_Disable", RtlCfgScope::ThreadConfig, 14},
    {FieldScope::ThreadConfig, "CLR_DVALID_SrcB_Disable", RtlCfgScope::ThreadConfig, 15},
    {FieldScope::ThreadConfig, "FIDELITY_BASE_Phase", RtlCfgScope::ThreadConfig, 16},
    {FieldScope::ThreadConfig, "FP16A_FORCE_Enable", RtlCfgScope::ThreadConfig, 17},
    {FieldScope::ThreadConfig, "ADDR_MOD_SET_Base", RtlCfgScope::ThreadConfig, 18},
    {FieldScope::Global, "DbgFeatureDisableBit11", RtlCfgScope::Global, 19},
    {FieldScope::Global, "DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", RtlCfgScope::Global, 20},
};
constexpr unsigned kAddrModAbSec = 21, kAddrModDstSec = 22, kAddrModBiasSec = 23;

// Fields the Matrix Unit does not read: the model receives them, the RTL has no storage for them.
constexpr const char* kModelOnlyFields[] = {
    "ALU_FORMAT_SPEC_REG_Dstacc_val", "ALU_FORMAT_SPEC_REG_Dstacc_override", "ALU_FORMAT_SPEC_REG2_Dstacc",
    "ALU_ACC_CTRL_SFPU_Fp32_enabled", "ALU_ACC_CTRL_Zero_Flag_disabled_dst"};

// ADDR_MOD field -> (section, low bit, width) in tmu_pkg's addr_mod_{ab,dst,bias}_t layouts.
struct AddrModBits {
  const char* name;
  unsigned section, lo, width;
};
constexpr AddrModBits kAddrModBits[] = {
    {"SrcAIncr", 0, 0, 6},  {"SrcACR", 0, 6, 1},      {"SrcAClear", 0, 7, 1},     {"SrcBIncr", 0, 8, 6},
    {"SrcBCR", 0, 14, 1},   {"SrcBClear", 0, 15, 1},  {"DestIncr", 1, 0, 10},     {"DestCR", 1, 10, 1},
    {"DestClear", 1, 11, 1}, {"DestCToCR", 1, 12, 1}, {"FidelityIncr", 1, 13, 2}, {"FidelityClear", 1, 15, 1},
    {"BiasIncr", 2, 0, 4},  {"BiasClear", 2, 4, 1},
};

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace

Driver::Driver(const DriverOptions& options, Scoreboard& scoreboard)
    : options_(options), sb_(scoreboard),
      stimulus_(make_stimulus(options.test, options.arch, options.seed, options.instructions)) {
  // The initial state as back-door preloads, in InitialState's order.
  const InitialState& init = stimulus_->initial();
  for (const FieldWrite& f : init.fields) {
    if (f.scope == FieldScope::Global && (same_name(f.name, "SrcABank") || same_name(f.name, "SrcBBank")))
      throw Error(ErrorKind::BadInput, "testbench: set the Matrix Unit's banks through InitialState, not a Global field");
    const auto rtl = rtl_cfg_write(f);
    sb_.set_field(f.scope, f.name, f.value, f.thread, f.index);
    if (rtl) preloads_.push_back(Preload::config(*rtl));
  }
  for (const SrcBankInit& b : init.banks) preloads_.push_back(Preload::bank_state(b));
  for (unsigned op = 0; op < 2; ++op)
    preloads_.push_back(Preload::pointers(op, init.matrix_unit_bank[op] & 1, init.unpacker_bank[op] & 1));
  for (const SrcRowInit& r : init.src_rows) preloads_.push_back(Preload::src_row(r));
  for (const DstRowInit& r : init.dst_rows) preloads_.push_back(Preload::dst_row(r));
  for (const GprInit& g : init.gprs) preloads_.push_back(Preload::gpr(g));
}

std::optional<RtlCfgWrite> Driver::rtl_cfg_write(const FieldWrite& w) {
  if (w.scope == FieldScope::Rwc)
    throw Error(ErrorKind::BadInput, fmt::format("testbench: RWC field {} has no RTL write port (use SETRWC)", w.name));
  if (w.scope == FieldScope::AddrMod) {
    for (const AddrModBits& b : kAddrModBits) {
      if (!same_name(b.name, w.name)) continue;
      if (w.thread >= 3 || w.index >= 8)
        throw Error(ErrorKind::BadInput, fmt::format("testbench: ADDR_MOD thread {} slot {}", w.thread, w.index));
      uint32_t& reg = addr_mod_regs_[w.thread][w.index][b.section];
      const uint32_t mask = ((1u << b.width) - 1) << b.lo;
      reg = (reg & ~mask) | ((w.value << b.lo) & mask);
      RtlCfgWrite out;
      out.scope = RtlCfgScope::AddrMod;
      out.index = w.index;
      out.thread = w.thread;
      out.field = b.section == 0 ? kAddrModAbSec : b.section == 1 ? kAddrModDstSec : kAddrModBiasSec;
      out.value = reg;
      return out;
    }
    throw Error(ErrorKind::BadInput, fmt::format("testbench: unknown ADDR_MOD field {}", w.name));
  }
  for (const RtlField& f : kRtlFields) {
    if (f.scope != w.scope || !same_name(f.name, w.name)) continue;
    RtlCfgWrite out;
    out.scope = f.rtl_scope;
    out.index = w.scope == FieldScope::Config ? w.index : w.thread;
    out.thread = w.thread;
    out.field = f.id;
    out.value = w.value;
    return out;
  }
  for (const char* name : kModelOnlyFields)
    if (same_name(name, w.name)) return std::nullopt;
  throw Error(ErrorKind::BadInput, fmt::format("testbench: field {} cannot be driven into the RTL", w.name));
}

std::optional<Preload> Driver::next_preload() {
  if (next_preload_ >= preloads_.size()) return std::nullopt;
  const Preload& p = preloads_[next_preload_++];
  const auto op = static_cast<SrcOperand>(p.operand);
  switch (p.kind) {
    case Preload::Kind::Config: break;  // mirrored when the list was built (fields come first)
    case Preload::Kind::BankState:
      sb_.set_src_bank(op, p.bank, p.flag ? SrcClient::MatrixUnit : SrcClient::Unpackers, static_cast<DataFormat>(p.value));
      break;
    case Preload::Kind::Pointers:
      sb_.set_field(FieldScope::Global, p.operand ? "SrcBBank" : "SrcABank", p.mu_bank);
      sb_.set_unpacker_bank(op, p.unp_bank);
      break;
    case Preload::Kind::SrcRow: sb_.preload_src_row(op, p.bank, p.row, p.values); break;
    case Preload::Kind::DstRow: {
      std::array<uint16_t, kDstCols> row{};
      for (unsigned c = 0; c < kDstCols; ++c) row[c] = static_cast<uint16_t>(p.values[c]);
      sb_.preload_dst_row(p.row, row, p.flag);
      break;
    }
    case Preload::Kind::Gpr: sb_.preload_gpr(p.thread, p.index, p.value); break;
  }
  return p;
}

bool Driver::is_scalar(uint32_t word) const {
  const InsnSpec* spec = find_by_opcode(options_.arch, static_cast<uint8_t>(word >> 24));
  return spec && spec->unit == Unit::ScalarUnit;
}

bool Driver::is_mvmul(uint32_t word) const {
  const InsnSpec* spec = find_by_opcode(options_.arch, static_cast<uint8_t>(word >> 24));
  return spec && spec->op == Op::MVMUL;
}

void Driver::event(std::string_view name, uint64_t cycle) {
  coverage_.event(name);
  if (name == "dst_hazard_stall" && (recent_mvmuls_ & 0xf) && step_ && step_->kind == Step::Kind::Instruction &&
      is_mvmul(step_->word))
    coverage_.event("back_to_back_dependent_mvmul");
  if (name == "dst_hazard_stall" && stimulus_->forbids_dst_hazard_stalls()) {
    if (forbidden_stalls_++ == 0 && step_) {
      first_forbidden_stall_cycle_ = cycle;
      first_forbidden_stall_ = fmt::format("at cycle {} thread {}, word 0x{:08x} ({}), instruction number {} of the test",
                                           cycle, step_->thread, step_->word,
                                           disassemble(decode(step_->word, options_.arch)), issued_ + 1);
    }
  }
}

void Driver::fetch_step() {
  if (step_ || stream_done_) return;
  step_ = stimulus_->next();
  if (!step_) stream_done_ = true;
}

DriveRequest Driver::drive(std::array<bool, 2> unp_bank_mu_owned) {
  DriveRequest r;
  fetch_step();
  if (step_) {
    if (step_->kind == Step::Kind::Instruction) {
      r.issue_valid = true;
      r.issue_thread = step_->thread;
      r.issue_word = step_->word;
    } else {
      r.cfg = rtl_cfg_write(step_->field);
      if (!r.cfg) {  // model-only field: no RTL cycle needed, but it keeps its place in the order
        pending_.push_back(Pending{issued_, Pending::Kind::Field, step_->field, 0, 0, {}, 0});
        step_.reset();
        flush();
        return drive(unp_bank_mu_owned);
      }
    }
  }
  // Unpackers: fill the bank they point at while the Unpackers hold it, then hand it over. They
  // stop once the instruction stream is over.
  for (unsigned op = 0; op < 2; ++op) {
    Unpacker& u = unpackers_[op];
    if (stream_done_) break;  // a fill cut short is fine: every row written reached the model
    if (!u.fill) {
      if (unp_bank_mu_owned[op]) continue;
      u.fill = stimulus_->next_fill(op);
      u.next_row = 0;
    }
    if (u.next_row < u.fill->rows.size()) {
      r.unp_we[op] = true;
      r.unp_row[op] = u.fill->rows[u.next_row].first;
      r.unp_data[op] = u.fill->rows[u.next_row].second;
      r.unp_format[op] = u.fill->format;
    } else {
      r.unp_dvalid[op] = true;
    }
  }
  unp_we_requested_ = r.unp_we;
  unp_dvalid_requested_ = r.unp_dvalid;
  return r;
}

void Driver::handshake(bool issue_fired, bool cfg_fired, std::array<bool, 2> unp_we_fired,
                       std::array<bool, 2> unp_dvalid_fired) {
  if (issue_fired) {
    if (!is_scalar(step_->word)) recent_mvmuls_ = ((recent_mvmuls_ << 1) | (is_mvmul(step_->word) ? 1u : 0u)) & 0xf;
    (is_scalar(step_->word) ? gpr_inflight_ : mu_inflight_).push_back(issued_);
    ++issued_;
    retired_flags_.push_back(false);
    step_.reset();
    idle_cycles_ = 0;
  }
  if (cfg_fired) {
    pending_.push_back(Pending{issued_, Pending::Kind::Field, step_->field, 0, 0, {}, 0});
    step_.reset();
    idle_cycles_ = 0;
  }
  for (unsigned op = 0; op < 2; ++op) {
    if ((unp_we_requested_[op] && !unp_we_fired[op]) || (unp_dvalid_requested_[op] && !unp_dvalid_fired[op]))
      coverage_.event("unpacker_backpressure");
    unp_we_requested_[op] = unp_dvalid_requested_[op] = false;
    Unpacker& u = unpackers_[op];
    if (unp_we_fired[op]) {
      const auto& [row, values] = u.fill->rows[u.next_row++];
      pending_.push_back(Pending{issued_, Pending::Kind::UnpackRow, {}, op, row, values, u.fill->format});
    }
    if (unp_dvalid_fired[op]) {
      pending_.push_back(Pending{issued_, Pending::Kind::HandOver, {}, op, 0, {}, 0});
      u.fill.reset();
    }
  }
  flush();
}

void Driver::before_retire(unsigned thread, uint32_t word) { coverage_.sample(sb_.model(), thread, word); }

void Driver::after_retire(bool gpr_unit) {
  std::deque<uint64_t>& fifo = gpr_unit ? gpr_inflight_ : mu_inflight_;
  if (fifo.empty()) throw Error(ErrorKind::BadInput, "testbench: a retirement with no instruction in flight");
  const uint64_t n = fifo.front();
  fifo.pop_front();
  retired_flags_[n - retired_prefix_] = true;
  while (!retired_flags_.empty() && retired_flags_.front()) {
    retired_flags_.pop_front();
    ++retired_prefix_;
  }
  ++retired_;
  idle_cycles_ = 0;
  flush();
}

void Driver::flush() {
  while (!pending_.empty() && pending_.front().after_issued <= retired_prefix_) {
    const Pending p = pending_.front();
    pending_.pop_front();
    if (!options_.check) continue;  // without the scoreboard the model does not follow the run
    const auto op = static_cast<SrcOperand>(p.operand);
    switch (p.kind) {
      case Pending::Kind::Field: sb_.set_field(p.field.scope, p.field.name, p.field.value, p.field.thread, p.field.index); break;
      case Pending::Kind::UnpackRow: sb_.unpack_src_row(op, p.row, p.values, static_cast<DataFormat>(p.format)); break;
      case Pending::Kind::HandOver: sb_.hand_over_src_bank(op); break;
    }
  }
}

bool Driver::finished() const {
  return stream_done_ && !step_ && mu_inflight_.empty() && gpr_inflight_.empty() && pending_.empty();
}

}  // namespace tmu::tb
