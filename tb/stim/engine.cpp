// The shadow-state engine: every instruction is dry-run on a copy of the shadow before it is emitted,
// then applied to the shadow with the unpacker protocol of stimulus.h.
#include "engine.h"

#include <stdexcept>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/query.h"

namespace tmu::tb {
using namespace tmu::tensix;

Stimulus::~Stimulus() = default;

namespace {

std::array<SrcBank, kSrcBanks>& banks_of(TensixState& s, unsigned operand) { return operand ? s.SrcB : s.SrcA; }
const std::array<SrcBank, kSrcBanks>& banks_of(const TensixState& s, unsigned operand) {
  return operand ? s.SrcB : s.SrcA;
}
// Src banks an instruction addresses without waiting for them (MOVD2A, MOVD2B, MOVB2A's SrcA); their
// content (and, for MOVD2x, the format tag that decides whether the model accepts the move) would
// depend on the unpacker's timing unless the bank is known to be held by the Matrix Unit. Whole-bank
// clears (ZEROSRC) leave the same content whoever held the bank, so they have no window to guard.
std::array<bool, 2> unguarded_of(const TensixState& s, unsigned thread, const Insn& in, const std::array<bool, 2>& waits) {
  const InsnAccess access = insn_access(s, thread, in);
  return {access.srca.rows && !waits[0], access.srcb.rows && !waits[1]};
}

}  // namespace

void apply_field(TensixState& state, const FieldWrite& w) {
  const StateField* f = find_state_field(w.scope, w.name);
  if (!f) throw Error(ErrorKind::BadInput, fmt::format("stimulus: no configuration field '{}'", w.name));
  if (w.thread >= kNumThreads) throw Error(ErrorKind::BadInput, fmt::format("stimulus: thread {}", w.thread));
  if (f->width < 32 && (w.value >> f->width) != 0)
    throw Error(ErrorKind::BadInput, fmt::format("stimulus: {}={} does not fit {} bits", w.name, w.value, f->width));
  f->set(state, w.thread, w.index, w.value);
}

void apply_initial_state(TensixState& s, const InitialState& init) {
  for (const FieldWrite& w : init.fields) apply_field(s, w);
  for (const SrcBankInit& b : init.banks) {
    SrcBank& bank = banks_of(s, b.operand & 1)[b.bank & 1];
    bank.AllowedClient = b.matrix_unit_owns ? SrcClient::MatrixUnit : SrcClient::Unpackers;
    bank.Format = static_cast<DataFormat>(b.format);
  }
  s.Unpackers[0].SrcBank = static_cast<uint8_t>(init.unpacker_bank[0] & 1);
  s.Unpackers[1].SrcBank = static_cast<uint8_t>(init.unpacker_bank[1] & 1);
  s.MatrixUnit.SrcABank = static_cast<uint8_t>(init.matrix_unit_bank[0] & 1);
  s.MatrixUnit.SrcBBank = static_cast<uint8_t>(init.matrix_unit_bank[1] & 1);
  for (const SrcRowInit& r : init.src_rows) banks_of(s, r.operand & 1)[r.bank & 1].Rows[r.row & 63] = r.values;
  for (const DstRowInit& r : init.dst_rows) {
    s.Dst.DstBits[r.row & (kDstRows - 1)] = r.values;
    s.Dst.RowValid[r.row & (kDstRows - 1)] = r.valid;
  }
  for (const GprInit& g : init.gprs) s.GPRs[g.thread % kNumThreads][g.index % kNumGprs] = g.value;
}

void apply_fill(TensixState& s, unsigned operand, const UnpackFill& fill) {
  UnpackerState& u = s.Unpackers[operand & 1];
  SrcBank& bank = banks_of(s, operand & 1)[u.SrcBank];
  if (bank.AllowedClient != SrcClient::Unpackers)
    throw Error(ErrorKind::BadInput,
                fmt::format("stimulus: unpacker {} fills bank {} while the Matrix Unit holds it", operand, u.SrcBank));
  for (const auto& [row, values] : fill.rows) {
    bank.Rows[row & (kSrcRows - 1)] = values;
    bank.Format = static_cast<DataFormat>(fill.format);
  }
  bank.AllowedClient = SrcClient::MatrixUnit;
  u.SrcBank ^= 1;
}

StreamStimulus::StreamStimulus(std::string test, Arch arch, uint64_t seed)
    : test_(std::move(test)),
      arch_(arch),
      seed_(seed),
      rng_(derive_seed(seed, "stream")),
      cur_(std::make_unique<TensixState>()),
      late_rng_{Rng(derive_seed(seed, "late fills SrcA")), Rng(derive_seed(seed, "late fills SrcB"))} {
  cur_->arch = arch;
}

void StreamStimulus::set_initial(InitialState init) {
  init_ = std::move(init);
  *cur_ = TensixState{};
  cur_->arch = arch_;
  apply_initial_state(*cur_, init_);
  // Zero data: the shadow never needs it, and the datapath instructions run faster on zeros.
  for (auto* banks : {&cur_->SrcA, &cur_->SrcB})
    for (SrcBank& b : *banks) b.Rows = {};
  cur_->Dst.DstBits = {};
  for (unsigned op = 0; op < 2; ++op) {
    certain_[op] = matrix_unit_holds_bank(*cur_, op);
    for (unsigned b = 0; b < kSrcBanks; ++b)
      eager_.mu_owns[op][b] = banks_of(*cur_, op)[b].AllowedClient == SrcClient::MatrixUnit;
    eager_.mu_bank[op] = matrix_unit_bank(*cur_, op);
    eager_.unpacker_bank[op] = cur_->Unpackers[op].SrcBank;
  }
  eager_.settle();
}

void StreamStimulus::EagerBanks::settle() {
  for (unsigned op = 0; op < 2; ++op)
    for (int i = 0; i < 2 && !mu_owns[op][unpacker_bank[op]]; ++i) {
      mu_owns[op][unpacker_bank[op]] = true;
      unpacker_bank[op] ^= 1;
    }
}

StreamStimulus::EagerBanks StreamStimulus::ownership_of(const TensixState& s) {
  EagerBanks b;
  for (unsigned op = 0; op < 2; ++op) {
    for (unsigned bank = 0; bank < kSrcBanks; ++bank)
      b.mu_owns[op][bank] = banks_of(s, op)[bank].AllowedClient == SrcClient::MatrixUnit;
    b.mu_bank[op] = matrix_unit_bank(s, op);
    b.unpacker_bank[op] = s.Unpackers[op].SrcBank;
  }
  return b;
}

void StreamStimulus::EagerBanks::apply(const SrcRelease& r, bool eager) {
  if (r.reset) {
    mu_owns = {};
    mu_bank = {0, 0};
    unpacker_bank = {0, 0};
  }
  for (unsigned op = 0; op < 2; ++op) {
    if (r.hand_back[op]) mu_owns[op][mu_bank[op]] = false;
    if (r.flip[op]) mu_bank[op] ^= 1;
  }
  if (eager) settle();
}

void StreamStimulus::pump() {
  if (!finished_ && !generate_some()) finished_ = true;
}

std::optional<Step> StreamStimulus::next() {
  while (pending_.empty() && !finished_) pump();
  if (pending_.empty()) return std::nullopt;
  Step s = std::move(pending_.front());
  pending_.pop_front();
  return s;
}

UnpackFill StreamStimulus::next_fill(unsigned operand) {
  operand &= 1;
  const uint64_t want = tb_fill_index_[operand];
  while (want >= fill_base_[operand] + fills_[operand].size() && !finished_) pump();
  ++tb_fill_index_[operand];
  if (want < fill_base_[operand] + fills_[operand].size()) {
    UnpackFill f = std::move(fills_[operand][want - fill_base_[operand]]);
    // Every earlier fill was handed out already: drop them (the front is the one just taken).
    while (!fills_[operand].empty() && fill_base_[operand] < tb_fill_index_[operand]) {
      fills_[operand].pop_front();
      ++fill_base_[operand];
    }
    return f;
  }
  return make_late_fill(operand, late_rng_[operand]);
}

void StreamStimulus::note_refusal() {
  ++refused_;
  ++refused_by_op_[last_op_];
}

std::string StreamStimulus::refusal_summary() const {
  std::string out;
  for (unsigned i = 0; i < kNumOps; ++i)
    if (refused_by_op_[i]) out += fmt::format(" {}:{}", op_name(static_cast<Op>(i)), refused_by_op_[i]);
  return out;
}

std::string StreamStimulus::description() const {
  return fmt::format("{} on {}, seed {}: {} instructions, {} field writes, {} SrcA / {} SrcB fills consumed, {} "
                     "candidate words refused ({})",
                     test_, arch_name(arch_), seed_, emitted_insns_, emitted_fields_, fills_consumed_[0],
                     fills_consumed_[1], refused_, refused_ ? refusal_summary().substr(1) : "none");
}

void StreamStimulus::deliver_fill(unsigned operand) {
  UnpackFill f = make_fill(operand);
  // The shadow keeps no data (see the dry run below): only the tag, the ownership and the pointer.
  UnpackerState& u = cur_->Unpackers[operand];
  SrcBank& bank = banks_of(*cur_, operand)[u.SrcBank];
  bank.Format = static_cast<DataFormat>(f.format);
  bank.AllowedClient = SrcClient::MatrixUnit;
  u.SrcBank ^= 1;
  ++fills_consumed_[operand];
  // Keep it for the testbench only if it has not been handed out already (it cannot have been:
  // next_fill waits for the shadow), so always queue it.
  fills_[operand].push_back(std::move(f));
}

// The dry run. Whether the model accepts an instruction never depends on Src or Dst data
// (refmodel/engines/tensix/src/insn/: every refusal tests instruction fields, configuration, RWCs, bank ownership
// and format tags, or the debug bit), so the shadow's data is never needed for the decision. Copying
// the whole 50 KB state per candidate would cap generation near 40k instructions/s; instead the
// candidate runs on the shadow itself after a copy of everything an instruction can change apart from
// data (RWCs, bank pointers and ownership, the SHIFTXA latch, GPRs), which is put back if the model
// refuses it — including a refusal raised half-way (Blackhole's ApplyAddrMod refusal comes after
// clear_dvalid has flipped the banks). A refused candidate may leave garbage in the shadow's data,
// which is harmless for the same reason. The replay tests execute every emitted word on a full model.
struct StreamStimulus::Backup {
  std::array<Rwc, kNumThreads> rwcs;
  MatrixUnitState mu;
  std::array<SrcClient, 4> owners;
  std::array<std::array<uint32_t, kNumGprs>, kNumThreads> gprs;

  explicit Backup(const TensixState& s)
      : rwcs(s.RWCs),
        mu(s.MatrixUnit),
        owners{s.SrcA[0].AllowedClient, s.SrcA[1].AllowedClient, s.SrcB[0].AllowedClient, s.SrcB[1].AllowedClient},
        gprs(s.GPRs) {}
  void restore(TensixState& s) const {
    s.RWCs = rwcs;
    s.MatrixUnit = mu;
    s.SrcA[0].AllowedClient = owners[0];
    s.SrcA[1].AllowedClient = owners[1];
    s.SrcB[0].AllowedClient = owners[2];
    s.SrcB[1].AllowedClient = owners[3];
    s.GPRs = gprs;
  }
};

bool StreamStimulus::try_insn(unsigned thread, uint32_t word) {
  Insn in;
  try {
    in = decode(word, arch_);
  } catch (const Error&) {
    note_refusal();
    return false;
  }
  const Op op = in.op();
  last_op_ = static_cast<unsigned>(op);
  const std::array<bool, 2> waits = src_waits(op);
  const std::array<bool, 2> unguarded = unguarded_of(*cur_, thread, in, waits);
  for (unsigned o = 0; o < 2; ++o) {
    // A bank released (or written) without waiting must be one the Matrix Unit is known to hold:
    // otherwise which fill it held (lazy or eager unpacker, or the RTL's timing) would decide the data.
    // A release is also safe when neither protocol has filled the bank yet (then it changes nothing;
    // this is how a stream gets out of a bank an eager unpacker cannot reach).
    const Field flip = o ? Field::FlipSrcB : Field::FlipSrcA;
    const bool releases = !waits[o] && in.has(flip) && in[flip];
    const bool nobody_filled = !matrix_unit_holds_bank(*cur_, o) && !eager_.mu_owns[o][eager_.mu_bank[o]];
    if ((unguarded[o] && !certain_[o]) || (releases && !certain_[o] && !nobody_filled)) {
      note_refusal();
      return false;
    }
    if (waits[o] && !eager_.mu_owns[o][eager_.mu_bank[o]]) {  // an eager unpacker is stuck elsewhere
      note_refusal();
      return false;
    }
  }
  const SrcRelease release = src_release(*cur_, thread, in);
  // Never leave either protocol in a state where the Matrix Unit and an unpacker wait for each other
  // (CLEARDVALID KeepReadingSameSrc with both banks full, flips with CLR_DVALID disabled).
  EagerBanks eager_after = eager_;
  eager_after.apply(release, true);
  {
    EagerBanks lazy = ownership_of(*cur_);
    for (unsigned o = 0; o < 2; ++o)  // the lazy unpacker fills until the bank waited for is in
      for (int i = 0; i < 2 && waits[o] && !lazy.mu_owns[o][lazy.mu_bank[o]] &&
                      !lazy.mu_owns[o][lazy.unpacker_bank[o]];
           ++i) {
        lazy.mu_owns[o][lazy.unpacker_bank[o]] = true;
        lazy.unpacker_bank[o] ^= 1;
      }
    if (lazy.starved(0) || lazy.starved(1)) {  // it would wait for a bank the unpacker cannot reach
      note_refusal();
      return false;
    }
    lazy.apply(release, false);
    if (eager_after.starved(0) || eager_after.starved(1) || lazy.starved(0) || lazy.starved(1)) {
      note_refusal();
      return false;
    }
  }
  // The lazy unpacker hands over what the instruction waits for (as the testbench's unpacker will
  // have done by then).
  for (unsigned o = 0; o < 2; ++o)
    for (int i = 0; i < 2 && waits[o] && !matrix_unit_holds_bank(*cur_, o); ++i) deliver_fill(o);
  const std::array<unsigned, 2> pre_bank = {matrix_unit_bank(*cur_, 0), matrix_unit_bank(*cur_, 1)};
  const Backup backup(*cur_);
  try {
    const ExecResult r = execute(*cur_, in, thread);
    if (r.status != ExecResult::Status::Retired)
      throw std::logic_error(fmt::format("stimulus {}: 0x{:08x} stalled: {}", test_, word, r.stall_reason));
  } catch (const Error&) {
    backup.restore(*cur_);
    note_refusal();
    return false;
  }
  eager_ = eager_after;
  for (unsigned o = 0; o < 2; ++o) {
    const bool same = matrix_unit_bank(*cur_, o) == pre_bank[o] && matrix_unit_holds_bank(*cur_, o);
    certain_[o] = same && (certain_[o] || waits[o]);
    if (eager_.mu_bank[o] != matrix_unit_bank(*cur_, o))
      throw std::logic_error(fmt::format("stimulus {}: the eager bank model lost track after 0x{:08x}", test_, word));
  }
  queue_insn(thread, word);
  return true;
}

void StreamStimulus::queue_insn(unsigned thread, uint32_t word) {
  Step s;
  s.kind = Step::Kind::Instruction;
  s.thread = thread;
  s.word = word;
  pending_.push_back(std::move(s));
  ++emitted_insns_;
}

void StreamStimulus::insn(unsigned thread, uint32_t word) {
  if (!try_insn(thread, word))
    throw std::logic_error(fmt::format("stimulus {}: the directed sequence's word 0x{:08x} (thread {}) is refused", test_,
                                       word, thread));
}

void StreamStimulus::refused_insn(unsigned thread, uint32_t word) {
  std::string accepted;
  try {
    const Insn in = decode(word, arch_);
    const Backup backup(*cur_);
    try {
      const ExecResult r = execute(*cur_, in, thread);
      accepted = r.status == ExecResult::Status::Retired ? "executes it" : "makes it wait (" + r.stall_reason + ")";
    } catch (const Error&) {
    }
    backup.restore(*cur_);
  } catch (const Error&) {  // a decode error
  }
  if (!accepted.empty())
    throw std::logic_error(fmt::format("stimulus {}: word 0x{:08x} (thread {}) should be refused, but the model {}",
                                       test_, word, thread, accepted));
  queue_insn(thread, word);
}

void StreamStimulus::insn(unsigned thread, const std::string& text) { insn(thread, assemble(text, arch_).word); }

void StreamStimulus::field(FieldScope scope, const std::string& name, uint32_t value, unsigned thread, unsigned index) {
  Step s;
  s.kind = Step::Kind::Field;
  s.thread = thread;
  s.field = FieldWrite{scope, name, thread, index, value};
  apply_field(*cur_, s.field);
  pending_.push_back(std::move(s));
  ++emitted_fields_;
}

}  // namespace tmu::tb
