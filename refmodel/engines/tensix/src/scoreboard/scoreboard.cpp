// The lock-step scoreboard: stimulus mirrored onto the model, and each retired instruction executed
// on the model and compared write by write with what the RTL reported (docs/scoreboard.md).
#include "tmu/tensix/scoreboard.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "scoreboard_internal.h"
#include "tmu/error.h"
#include "tmu/tensix/query.h"

namespace tmu::tensix {

using namespace sb_detail;

namespace {

// The RTL's class for each way the model refuses (NonContractualBehaviour is refused like undefined).
RtlVerdict rtl_verdict_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::DecodeError: return RtlVerdict::DecodeError;
    case ErrorKind::Unsupported: return RtlVerdict::Unsupported;
    default: return RtlVerdict::Undefined;
  }
}

[[noreturn]] void bad_input(const std::string& why) { throw Error(ErrorKind::BadInput, "scoreboard: " + why); }

void check_index(unsigned value, unsigned limit, const char* what) {
  if (value >= limit) bad_input(fmt::format("{} {} is out of range 0..{}", what, value, limit - 1));
}

std::array<SrcBank, kSrcBanks>& banks_of_operand(TensixState& s, SrcOperand op) {
  return op == SrcOperand::SrcA ? s.SrcA : s.SrcB;
}

std::array<uint32_t, kSrcCols> checked_src_values(const std::array<uint32_t, kSrcCols>& values) {
  for (uint32_t v : values)
    if (v > kSrcDatumMask) bad_input(fmt::format("Src datum {} is wider than 19 bits", hex(v, 8)));
  return values;
}

// Arithmetic instructions whose Dst writes are element results worth a datapath diagnosis.
bool writes_dst_values(Op op) { return op != Op::ZEROACC; }

}  // namespace

DstView active_dst_view(const TensixState& before, const Insn&, unsigned thread) {
  const MathMode f = math_mode(before, thread);
  return DstView{f.use_dst32b || f.int8_math, f.int8_math, f.srca_style};
}

SrcStyle active_src_style(const TensixState& state, SrcOperand operand, unsigned bank, unsigned thread) {
  // The same precedence as the instructions' format selection (refmodel/engines/tensix/src/exec/context.cpp), but for
  // a given bank rather than the one the Matrix Unit points at.
  const ConfigRegs& c = state.config_for(thread);
  const ThreadConfigRegs& t = state.ThreadConfig[thread];
  if (t.FP16A_FORCE_Enable) return SrcStyle::FP16;
  if (c.ALU_ACC_CTRL_INT8_math_enabled) return SrcStyle::INT8;
  const bool a = operand == SrcOperand::SrcA;
  if (a ? c.ALU_FORMAT_SPEC_REG_SrcA_override : c.ALU_FORMAT_SPEC_REG_SrcB_override)
    return src_style_of_format_code(a ? c.ALU_FORMAT_SPEC_REG_SrcA_val : c.ALU_FORMAT_SPEC_REG_SrcB_val);
  const bool implied_disabled = a ? t.DISABLE_IMPLIED_SRCA_FMT_Base : t.DISABLE_IMPLIED_SRCB_FMT_Base;
  if (state.arch == Arch::Blackhole && !implied_disabled)
    return src_style_of_format((a ? state.SrcA : state.SrcB)[bank & 1].Format);
  return src_style_of_format_code(a ? c.ALU_FORMAT_SPEC_REG0_SrcA : c.ALU_FORMAT_SPEC_REG1_SrcB);
}

Scoreboard::Scoreboard(ScoreboardOptions options) : options_(std::move(options)) {
  model_.arch = options_.arch;
  before_.arch = options_.arch;
}

void Scoreboard::set_test(const std::string& name, uint64_t seed) {
  options_.test_name = name;
  options_.seed = seed;
}

// ---------------------------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------------------------

void Scoreboard::set_field(FieldScope scope, const std::string& name, uint32_t value, unsigned thread, unsigned index) {
  const StateField* f = find_state_field(scope, name);
  if (!f) bad_input(fmt::format("no configuration field '{}' in that scope", name));
  check_index(thread, kNumThreads, "thread");
  if (scope == FieldScope::Config) check_index(index, kNumConfigStates, "config state");
  if (scope == FieldScope::AddrMod) check_index(index, kNumAddrMods, "ADDR_MOD slot");
  if (value > low_mask(f->width)) bad_input(fmt::format("{}={} does not fit its {} bits", f->name, value, f->width));
  f->set(model_, thread, index, value);
}

void Scoreboard::set_config(unsigned state_id, const ConfigRegs& regs) {
  check_index(state_id, kNumConfigStates, "config state");
  model_.Config[state_id] = regs;
}

void Scoreboard::set_thread_config(unsigned thread, const ThreadConfigRegs& regs) {
  check_index(thread, kNumThreads, "thread");
  model_.ThreadConfig[thread] = regs;
}

void Scoreboard::set_addr_mod(unsigned thread, unsigned slot, const AddrModAB& ab, const AddrModDst& dst,
                              const AddrModBias& bias) {
  check_index(thread, kNumThreads, "thread");
  check_index(slot, kNumAddrMods, "ADDR_MOD slot");
  ThreadConfigRegs& t = model_.ThreadConfig[thread];
  t.ADDR_MOD_AB_SEC[slot] = ab;
  t.ADDR_MOD_DST_SEC[slot] = dst;
  t.ADDR_MOD_BIAS_SEC[slot] = bias;
}

void Scoreboard::unpack_src_row(SrcOperand operand, unsigned row, const std::array<uint32_t, kSrcCols>& values,
                                DataFormat format) {
  check_index(row, kSrcRows, "Src row");
  const unsigned unpacker = static_cast<unsigned>(operand);
  const unsigned bank = model_.Unpackers[unpacker].SrcBank;
  SrcBank& b = banks_of_operand(model_, operand)[bank];
  if (b.AllowedClient != SrcClient::Unpackers)
    bad_input(fmt::format("unpacker {} writes {} bank {} row {} while the Matrix Unit holds that bank", unpacker,
                          src_operand_name(operand), bank, row));
  b.Rows[row] = checked_src_values(values);
  b.Format = format;
}

void Scoreboard::hand_over_src_bank(SrcOperand operand) {
  // SETDVALID.md / UNPACR: the bank goes to the Matrix Unit and the unpacker moves to the other one.
  UnpackerState& u = model_.Unpackers[static_cast<unsigned>(operand)];
  banks_of_operand(model_, operand)[u.SrcBank].AllowedClient = SrcClient::MatrixUnit;
  u.SrcBank ^= 1;
}

void Scoreboard::preload_src_row(SrcOperand operand, unsigned bank, unsigned row,
                                 const std::array<uint32_t, kSrcCols>& values) {
  check_index(bank, kSrcBanks, "Src bank");
  check_index(row, kSrcRows, "Src row");
  banks_of_operand(model_, operand)[bank].Rows[row] = checked_src_values(values);
}

void Scoreboard::set_src_bank(SrcOperand operand, unsigned bank, SrcClient allowed, DataFormat format) {
  check_index(bank, kSrcBanks, "Src bank");
  SrcBank& b = banks_of_operand(model_, operand)[bank];
  b.AllowedClient = allowed;
  b.Format = format;
}

void Scoreboard::set_unpacker_bank(SrcOperand operand, unsigned bank) {
  check_index(bank, kSrcBanks, "Src bank");
  model_.Unpackers[static_cast<unsigned>(operand)].SrcBank = static_cast<uint8_t>(bank);
}

void Scoreboard::preload_dst_row(unsigned storage_row, const std::array<uint16_t, kDstCols>& values, bool valid) {
  check_index(storage_row, kDstRows, "Dst storage row");
  model_.Dst.DstBits[storage_row] = values;
  model_.Dst.RowValid[storage_row] = valid;
}

void Scoreboard::preload_dst16(unsigned row, const std::array<uint16_t, kDstCols>& values) {
  preload_dst_row(row, values, true);
}

void Scoreboard::preload_dst32(unsigned row32, const std::array<uint32_t, kDstCols>& values) {
  check_index(row32, kDst32Rows, "Dst32b row");
  for (unsigned c = 0; c < kDstCols; ++c) model_.Dst.write32(row32, c, values[c]);
}

void Scoreboard::preload_gpr(unsigned thread, unsigned index, uint32_t value) {
  check_index(thread, kNumThreads, "thread");
  check_index(index, kNumGprs, "GPR index");
  model_.GPRs[thread][index] = value;
}

// ---------------------------------------------------------------------------------------------
// Retirement
// ---------------------------------------------------------------------------------------------

std::vector<Mismatch> Scoreboard::retire(const Observation& obs) {
  RetireContext rc(obs);
  std::vector<Mismatch> out = retire_into(rc);
  count_locations(rc, out);
  return out;
}

std::vector<Mismatch> Scoreboard::retire_into(RetireContext& rc) {
  const Observation& obs = rc.obs;
  ++retired_;
  std::vector<Mismatch> out;
  auto remember = [&](std::string text) {
    history_.push_back(HistoryEntry{obs.cycle, obs.thread, obs.word, std::move(text)});
    while (history_.size() > options_.history_depth) history_.pop_front();
  };
  auto refuse = [&](MismatchKind kind, std::string why) {
    Mismatch m;
    m.kind = kind;
    m.where.text = std::move(why);
    record(out, std::move(m), &rc);
  };

  if (obs.thread >= kNumThreads) {
    refuse(MismatchKind::BadObservation, fmt::format("issuing thread {} does not exist (0..{})", obs.thread, kNumThreads - 1));
    remember("(bad thread)");
    return out;
  }
  // Both refused it: the right class, and nothing may have changed (the RTL's reports are compared
  // with the untouched model as those of an instruction that writes nothing).
  auto both_refused = [&](ErrorKind kind, const std::string& why) {
    if (obs.verdict != rtl_verdict_of(kind))
      refuse(MismatchKind::RtlRefused, fmt::format("both refuse the instruction, the RTL as \"{}\", the model as \"{}\": {}",
                                                   rtl_verdict_name(obs.verdict), error_kind_name(kind), why));
    rc.result = ExecResult{};
    compare_dst(rc, out);
    compare_src(rc, out);
    compare_gprs(rc, out);
    compare_small_state(rc, out);
    remember(rc.disassembly + "  [refused: " + error_kind_name(kind) + "]");
    return out;
  };
  try {
    rc.insn = decode(obs.word, model_.arch);
    rc.disassembly = disassemble(*rc.insn);
  } catch (const Error& e) {
    rc.disassembly = "(cannot be decoded)";
    if (obs.verdict != RtlVerdict::Executed) return both_refused(e.kind(), e.what());
    refuse(MismatchKind::ModelError, fmt::format("the model cannot decode the word: {}", e.what()));
    remember(rc.disassembly);
    return out;
  }

  before_ = model_;
  rc.view = active_dst_view(before_, *rc.insn, obs.thread);
  try {
    rc.result = execute(model_, *rc.insn, obs.thread);
  } catch (const Error& e) {
    model_ = before_;  // a refusal may come after some writes; keep the model where it was
    if (obs.verdict != RtlVerdict::Executed) return both_refused(e.kind(), e.what());
    refuse(MismatchKind::ModelError, fmt::format("the model refuses the instruction: {}", e.what()));
    remember(rc.disassembly + "  [model refused]");
    return out;
  }
  if (obs.verdict != RtlVerdict::Executed) {
    model_ = before_;
    refuse(MismatchKind::RtlRefused, fmt::format("the RTL refused (\"{}\") an instruction the model executes",
                                                 rtl_verdict_name(obs.verdict)));
    remember(rc.disassembly + "  [RTL refused]");
    return out;
  }
  if (rc.result.status == ExecResult::Status::Stalled) {
    refuse(MismatchKind::ModelStall,
           fmt::format("the RTL retired an instruction the model says must wait: {}", rc.result.stall_reason));
    remember(rc.disassembly + "  [model: stall]");
    return out;
  }

  compare_dst(rc, out);
  compare_src(rc, out);
  compare_gprs(rc, out);
  compare_small_state(rc, out);
  if (writes_dst_values(rc.insn->op()))
    for (uint16_t row : rc.result.writes.dst_rows) dst_views_[row] = rc.view;
  remember(rc.disassembly);
  return out;
}

void Scoreboard::record(std::vector<Mismatch>& out, Mismatch m, RetireContext* rc) {
  ++mismatch_count_;
  const bool keep = mismatches_.size() < options_.max_reports;
  if (rc) {
    m.cycle = rc->obs.cycle;
    m.thread = rc->obs.thread;
    m.word = rc->obs.word;
    m.disassembly = rc->disassembly;
  }
  const bool first_of_instruction = rc && !rc->reported_in_full;
  finish_report(m, rc, keep);
  if (rc) {
    ++rc->locations;
    if (first_of_instruction && keep) {
      rc->first_kept = mismatches_.size();
      rc->first_was_kept = true;
    }
  }
  if (keep) mismatches_.push_back(m);
  out.push_back(std::move(m));
}

// After an instruction's compares: its full report says how many locations differ in all.
void Scoreboard::count_locations(const RetireContext& rc, std::vector<Mismatch>& out) {
  if (rc.locations < 2 || out.empty()) return;
  const std::string note = fmt::format("  this instruction: {} locations differ (the first above, the others below)\n",
                                       rc.locations);
  out.front().report += note;
  if (rc.first_was_kept) mismatches_[rc.first_kept].report += note;
}

std::string Scoreboard::report_text() const {
  std::string text;
  for (const Mismatch& m : mismatches_) text += m.report + "\n";
  if (mismatch_count_ > mismatches_.size())
    text += fmt::format("... and {} more mismatches (only the first {} are reported in full)\n",
                        mismatch_count_ - mismatches_.size(), mismatches_.size());
  return text;
}

// ---------------------------------------------------------------------------------------------
// Dst
// ---------------------------------------------------------------------------------------------

void Scoreboard::compare_dst(RetireContext& rc, std::vector<Mismatch>& out) {
  const auto& written = rc.result.writes.dst_rows;
  std::map<uint16_t, const ObservedDstRow*> reported;
  for (const ObservedDstRow& r : rc.obs.dst) {
    Mismatch m;
    m.kind = MismatchKind::BadObservation;
    m.where.target = Target::Dst;
    m.where.row = r.row;
    if (r.row >= kDstRows) {
      m.where.text = fmt::format("Dst storage row {} does not exist (0..{})", r.row, kDstRows - 1);
      record(out, std::move(m), &rc);
    } else if (!reported.emplace(r.row, &r).second) {
      m.where.text = fmt::format("DstBits row {} reported twice", r.row);
      record(out, std::move(m), &rc);
    }
  }

  const DstRegs& dst = model_.Dst;
  for (uint16_t row : written) {
    const auto it = reported.find(row);
    if (it == reported.end()) {
      Mismatch m;
      m.kind = MismatchKind::MissingWrite;
      m.where.target = Target::Dst;
      m.where.row = row;
      m.where.text = fmt::format("DstBits row {} ({})", row, dst_location_text(row, 0, rc.view));
      m.expected_text = dst_row_text(dst.DstBits[row], dst.RowValid[row]);
      m.actual_text = "(not reported)";
      record(out, std::move(m), &rc);
      continue;
    }
    const ObservedDstRow& r = *it->second;
    if (r.valid != dst.RowValid[row]) {
      Mismatch m;
      m.kind = MismatchKind::ValueDiffers;
      m.where.target = Target::DstValidity;
      m.where.row = row;
      m.where.text = fmt::format("validity of DstBits row {}", row);
      m.expected = dst.RowValid[row];
      m.actual = r.valid;
      m.expected_text = dst.RowValid[row] ? "valid" : "invalid";
      m.actual_text = r.valid ? "valid" : "invalid";
      record(out, std::move(m), &rc);
    }
    // A validity-only report stands for "bits unchanged".
    const auto& actual_row = r.has_values ? r.values : before_.Dst.DstBits[row];
    const uint32_t partner = dst32_partner_row(row);
    const auto partner_it = reported.find(static_cast<uint16_t>(partner));
    for (unsigned c = 0; c < kDstCols; ++c) {
      const uint16_t e16 = dst.DstBits[row][c];
      const uint16_t a16 = actual_row[c];
      if (e16 == a16) continue;
      const bool low = dst32_place_of_storage_row(row).low_half;
      const uint16_t e_other = dst.DstBits[partner][c];
      const uint16_t a_other = partner_it != reported.end() && partner_it->second->has_values
                                   ? partner_it->second->values[c] : e_other;
      Mismatch m;
      m.kind = MismatchKind::ValueDiffers;
      m.where.target = Target::Dst;
      m.where.row = row;
      m.where.col = c;
      m.where.text = dst_location_text(row, c, rc.view) + (r.has_values ? "" : ", reported as validity only");
      m.expected = dst_element_value(e16, e_other, low, rc.view);
      m.actual = dst_element_value(a16, a_other, low, rc.view);
      m.expected_text = describe_dst_element(m.expected, rc.view);
      m.actual_text = describe_dst_element(m.actual, rc.view);
      if (mismatches_.size() < options_.max_reports) {
        const StageProbe* probe = nullptr;
        const uint32_t high_row = rc.view.dst32 && low ? partner : row;
        for (const StageProbe& p : rc.obs.probes)
          if (p.dst_row == high_row && p.col == c) probe = &p;
        m.datapath = diagnose_datapath_element(before_, rc.obs.thread, rc.obs.word, row, c, m.expected, m.actual, probe);
      }
      record(out, std::move(m), &rc);
    }
  }

  for (const auto& [row, r] : reported) {
    if (std::find(written.begin(), written.end(), row) != written.end()) continue;
    Mismatch m;
    m.kind = MismatchKind::ExtraWrite;
    m.where.target = Target::Dst;
    m.where.row = row;
    m.where.text = fmt::format("DstBits row {} ({}), which the model's instruction does not write", row,
                               dst_location_text(row, 0, rc.view));
    m.expected_text = dst_row_text(dst.DstBits[row], dst.RowValid[row]) + " (unchanged)";
    const bool same = (!r->has_values || r->values == dst.DstBits[row]) && r->valid == dst.RowValid[row];
    m.actual_text = (r->has_values ? dst_row_text(r->values, r->valid) : std::string(r->valid ? "valid" : "invalid")) +
                    (same ? " (the same contents the row already holds)" : "");
    record(out, std::move(m), &rc);
  }
}

// ---------------------------------------------------------------------------------------------
// Src
// ---------------------------------------------------------------------------------------------

void Scoreboard::compare_src(RetireContext& rc, std::vector<Mismatch>& out) {
  using Key = std::tuple<unsigned, unsigned, unsigned>;  // operand, bank, row
  std::map<Key, const ObservedSrcRow*> reported;
  for (const ObservedSrcRow& r : rc.obs.src) {
    Mismatch m;
    m.kind = MismatchKind::BadObservation;
    m.where.target = r.operand == SrcOperand::SrcA ? Target::SrcA : Target::SrcB;
    if (r.bank >= kSrcBanks || r.row >= kSrcRows) {
      m.where.text = fmt::format("{} bank {} row {} does not exist", src_operand_name(r.operand), r.bank, r.row);
      record(out, std::move(m), &rc);
    } else if (!reported.emplace(Key{static_cast<unsigned>(r.operand), r.bank, r.row}, &r).second) {
      m.where.text = fmt::format("{} bank {} row {} reported twice", src_operand_name(r.operand), r.bank, r.row);
      record(out, std::move(m), &rc);
    }
  }

  std::vector<Key> written;
  for (const auto& w : rc.result.writes.srca_rows) written.push_back(Key{0, w.bank, w.row});
  for (const auto& w : rc.result.writes.srcb_rows) written.push_back(Key{1, w.bank, w.row});

  for (const Key& key : written) {
    const auto [op_index, bank, row] = key;
    const auto operand = static_cast<SrcOperand>(op_index);
    const Target target = operand == SrcOperand::SrcA ? Target::SrcA : Target::SrcB;
    const auto& expected_row = banks_of_operand(model_, operand)[bank].Rows[row];
    const auto it = reported.find(key);
    if (it == reported.end()) {
      Mismatch m;
      m.kind = MismatchKind::MissingWrite;
      m.where = MismatchLocation{target, rc.obs.thread, bank, row, 0, 0, "", fmt::format("{} bank {} row {}", src_operand_name(operand), bank, row)};
      m.expected_text = src_row_text(expected_row);
      m.actual_text = "(not reported)";
      record(out, std::move(m), &rc);
      continue;
    }
    const SrcStyle style = active_src_style(model_, operand, bank, rc.obs.thread);
    for (unsigned c = 0; c < kSrcCols; ++c) {
      const uint32_t e = expected_row[c], a = it->second->values[c];
      if (e == a) continue;
      Mismatch m;
      m.kind = MismatchKind::ValueDiffers;
      m.where = MismatchLocation{target, rc.obs.thread, bank, row, c, 0, "",
                                 fmt::format("{} bank {} row {} col {}", src_operand_name(operand), bank, row, c)};
      m.expected = e;
      m.actual = a;
      m.expected_text = describe_src_datum(e, style);
      m.actual_text = describe_src_datum(a, style);
      record(out, std::move(m), &rc);
    }
  }

  for (const auto& [key, r] : reported) {
    if (std::find(written.begin(), written.end(), key) != written.end()) continue;
    const auto [op_index, bank, row] = key;
    const auto operand = static_cast<SrcOperand>(op_index);
    const auto& current = banks_of_operand(model_, operand)[bank].Rows[row];
    Mismatch m;
    m.kind = MismatchKind::ExtraWrite;
    m.where = MismatchLocation{operand == SrcOperand::SrcA ? Target::SrcA : Target::SrcB, rc.obs.thread, bank, row, 0, 0, "",
                               fmt::format("{} bank {} row {}, which the model's instruction does not write",
                                           src_operand_name(operand), bank, row)};
    m.expected_text = src_row_text(current) + " (unchanged)";
    m.actual_text = src_row_text(r->values) + (r->values == current ? " (the same contents the row already holds)" : "");
    record(out, std::move(m), &rc);
  }
}

// ---------------------------------------------------------------------------------------------
// GPRs
// ---------------------------------------------------------------------------------------------

void Scoreboard::compare_gprs(RetireContext& rc, std::vector<Mismatch>& out) {
  const unsigned thread = rc.obs.thread;
  const auto& written = rc.result.writes.gprs;
  std::map<std::pair<unsigned, unsigned>, const ObservedGpr*> reported;
  for (const ObservedGpr& g : rc.obs.gprs) {
    if (g.thread >= kNumThreads || g.index >= kNumGprs || !reported.emplace(std::pair{g.thread, g.index}, &g).second) {
      Mismatch m;
      m.kind = MismatchKind::BadObservation;
      m.where.target = Target::Gpr;
      m.where.text = fmt::format("GPR thread {} index {} does not exist or is reported twice", g.thread, g.index);
      record(out, std::move(m), &rc);
    }
  }
  auto gpr_text = [](uint32_t v) { return fmt::format("{} ({})", hex(v, 8), v); };
  for (uint8_t index : written) {
    const uint32_t e = model_.GPRs[thread][index];
    const auto it = reported.find({thread, index});
    Mismatch m;
    m.where = MismatchLocation{Target::Gpr, thread, 0, 0, 0, index, "", fmt::format("GPR {} of thread {}", index, thread)};
    m.expected = e;
    m.expected_text = gpr_text(e);
    if (it == reported.end()) {
      m.kind = MismatchKind::MissingWrite;
      m.actual_text = "(not reported)";
    } else if (it->second->value != e) {
      m.kind = MismatchKind::ValueDiffers;
      m.actual = it->second->value;
      m.actual_text = gpr_text(m.actual);
    } else {
      continue;
    }
    record(out, std::move(m), &rc);
  }
  for (const auto& [key, g] : reported) {
    if (key.first == thread && std::find(written.begin(), written.end(), key.second) != written.end()) continue;
    Mismatch m;
    m.kind = MismatchKind::ExtraWrite;
    m.where = MismatchLocation{Target::Gpr, key.first, 0, 0, 0, key.second, "",
                               fmt::format("GPR {} of thread {}, which the model's instruction does not write", key.second, key.first)};
    m.expected = model_.GPRs[key.first][key.second];
    m.actual = g->value;
    m.expected_text = gpr_text(m.expected) + " (unchanged)";
    m.actual_text = gpr_text(m.actual);
    record(out, std::move(m), &rc);
  }
}

// ---------------------------------------------------------------------------------------------
// RWCs, bank state, the SHIFTXA row latch
// ---------------------------------------------------------------------------------------------

void Scoreboard::compare_small_state(RetireContext& rc, std::vector<Mismatch>& out) {
  const unsigned thread = rc.obs.thread;
  const WriteSet& w = rc.result.writes;
  auto missing = [&](Target target, std::string what, std::string expected) {
    Mismatch m;
    m.kind = MismatchKind::MissingWrite;
    m.where = MismatchLocation{target, thread, 0, 0, 0, 0, "", std::move(what)};
    m.expected_text = std::move(expected);
    m.actual_text = "(not reported)";
    record(out, std::move(m), &rc);
  };

  const Rwc& rwc = model_.RWCs[thread];
  if (rc.obs.rwcs) {
    std::string names;
    const std::string diff = rwc_difference(rwc, *rc.obs.rwcs, &names);
    if (!diff.empty()) {
      Mismatch m;
      m.kind = MismatchKind::ValueDiffers;
      m.where = MismatchLocation{Target::Rwc, thread, 0, 0, 0, 0, names, fmt::format("RWCs of thread {}: {}", thread, diff)};
      m.expected_text = rwc_text(rwc);
      m.actual_text = rwc_text(*rc.obs.rwcs);
      record(out, std::move(m), &rc);
    }
  } else if (w.rwcs) {
    missing(Target::Rwc, fmt::format("RWCs of thread {}", thread), rwc_text(rwc));
  }

  const ObservedBanks banks = banks_of(model_);
  if (rc.obs.banks) {
    std::string names;
    const std::string diff = banks_difference(banks, *rc.obs.banks, &names);
    if (!diff.empty()) {
      Mismatch m;
      m.kind = MismatchKind::ValueDiffers;
      m.where = MismatchLocation{Target::Banks, thread, 0, 0, 0, 0, names, "bank state: " + diff};
      m.expected_text = banks_text(banks);
      m.actual_text = banks_text(*rc.obs.banks);
      record(out, std::move(m), &rc);
    }
  } else if (w.banks) {
    missing(Target::Banks, "bank state", banks_text(banks));
  }

  const uint8_t latch = model_.MatrixUnit.LastSrcARow;
  if (rc.obs.last_srca_row) {
    if (*rc.obs.last_srca_row != latch) {
      Mismatch m;
      m.kind = MismatchKind::ValueDiffers;
      m.where = MismatchLocation{Target::MatrixUnit, thread, 0, 0, 0, 0, "LastSrcARow", "MatrixUnit.LastSrcARow"};
      m.expected = latch;
      m.actual = *rc.obs.last_srca_row;
      m.expected_text = std::to_string(latch);
      m.actual_text = std::to_string(*rc.obs.last_srca_row);
      record(out, std::move(m), &rc);
    }
  } else if (w.matrix_unit) {
    missing(Target::MatrixUnit, "MatrixUnit.LastSrcARow (SHIFTXA's input row latch)", std::to_string(latch));
  }
}

}  // namespace tmu::tensix
