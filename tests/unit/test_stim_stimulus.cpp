// The co-simulation stimulus library (tb/stim/): determinism, every test on both architectures, and
// long random streams replayed through a fresh model exactly as the testbench drives them (initial
// state, then each step, fills handed over as an unpacker would), which must never be refused and
// must cover every Matrix Unit and GPR opcode, all Src styles, both Dst modes and all fidelity phases.
#include <cstdio>
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "stim/stimulus.h"
#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/scoreboard.h"

namespace tmu::tb {
using namespace tmu::tensix;
namespace {

// Fixed in ctest; TMU_STIM_SEED=<n> reruns the suite with another seed (seed sweeps).
const uint64_t kSeed = [] {
  const char* env = std::getenv("TMU_STIM_SEED");
  return env ? std::strtoull(env, nullptr, 0) : uint64_t{20261122};
}();

bool same_fill(const UnpackFill& a, const UnpackFill& b) { return a.format == b.format && a.rows == b.rows; }

bool same_field(const FieldWrite& a, const FieldWrite& b) {
  return a.scope == b.scope && a.name == b.name && a.thread == b.thread && a.index == b.index && a.value == b.value;
}

bool same_step(const Step& a, const Step& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Step::Kind::Field) return same_field(a.field, b.field);
  return a.thread == b.thread && a.word == b.word;
}

bool same_initial(const InitialState& a, const InitialState& b) {
  if (a.fields.size() != b.fields.size() || a.banks.size() != b.banks.size() || a.src_rows.size() != b.src_rows.size() ||
      a.dst_rows.size() != b.dst_rows.size() || a.gprs.size() != b.gprs.size())
    return false;
  for (size_t i = 0; i < a.fields.size(); ++i)
    if (!same_field(a.fields[i], b.fields[i])) return false;
  for (size_t i = 0; i < a.banks.size(); ++i)
    if (a.banks[i].operand != b.banks[i].operand || a.banks[i].bank != b.banks[i].bank ||
        a.banks[i].matrix_unit_owns != b.banks[i].matrix_unit_owns || a.banks[i].format != b.banks[i].format)
      return false;
  for (size_t i = 0; i < a.src_rows.size(); ++i)
    if (a.src_rows[i].operand != b.src_rows[i].operand || a.src_rows[i].bank != b.src_rows[i].bank ||
        a.src_rows[i].row != b.src_rows[i].row || a.src_rows[i].values != b.src_rows[i].values)
      return false;
  for (size_t i = 0; i < a.dst_rows.size(); ++i)
    if (a.dst_rows[i].row != b.dst_rows[i].row || a.dst_rows[i].values != b.dst_rows[i].values ||
        a.dst_rows[i].valid != b.dst_rows[i].valid)
      return false;
  for (size_t i = 0; i < a.gprs.size(); ++i)
    if (a.gprs[i].thread != b.gprs[i].thread || a.gprs[i].index != b.gprs[i].index || a.gprs[i].value != b.gprs[i].value)
      return false;
  return a.unpacker_bank == b.unpacker_bank && a.matrix_unit_bank == b.matrix_unit_bank;
}

// Everything a stimulus produces, with fills requested in one of two orders: all steps first, or a
// fill of each operand after every 7th step (as an eager unpacker would pull them).
struct Recording {
  std::vector<Step> steps;
  std::array<std::vector<UnpackFill>, 2> fills;
};

Recording record(Stimulus& s, bool interleave, unsigned fills_each) {
  Recording r;
  while (auto st = s.next()) {
    r.steps.push_back(*st);
    if (interleave && r.steps.size() % 7 == 0)
      for (unsigned op = 0; op < 2; ++op)
        if (r.fills[op].size() < fills_each) r.fills[op].push_back(s.next_fill(op));
  }
  for (unsigned op = 0; op < 2; ++op)
    while (r.fills[op].size() < fills_each) r.fills[op].push_back(s.next_fill(op));
  return r;
}

bool same_recording(const Recording& a, const Recording& b) {
  if (a.steps.size() != b.steps.size()) return false;
  for (size_t i = 0; i < a.steps.size(); ++i)
    if (!same_step(a.steps[i], b.steps[i])) return false;
  for (unsigned op = 0; op < 2; ++op) {
    if (a.fills[op].size() != b.fills[op].size()) return false;
    for (size_t i = 0; i < a.fills[op].size(); ++i)
      if (!same_fill(a.fills[op][i], b.fills[op][i])) return false;
  }
  return true;
}

// ---- Replay through a fresh model, as the testbench drives the RTL and the scoreboard ----
struct Replay {
  uint64_t instructions = 0, fields = 0, refusals = 0;
  std::array<uint64_t, 2> fills{};
  std::string first_refusal;
  std::set<Op> ops;
  std::set<SrcStyle> styles;
  std::set<bool> dst32;
  std::set<unsigned> phases;
  std::set<unsigned> threads;
};

bool is_datapath(Op op) {
  return op == Op::MVMUL || op == Op::DOTPV || op == Op::GAPOOL || op == Op::ELWMUL || op == Op::ELWADD ||
         op == Op::ELWSUB || op == Op::GMPOOL;
}

std::array<SrcBank, kSrcBanks>& banks(TensixState& s, unsigned op) { return op ? s.SrcB : s.SrcA; }

// eager: the unpackers fill every bank they own at once (the testbench's behaviour); otherwise a
// fill is delivered only when an instruction would stall.
Replay replay(Stimulus& stim, Arch arch, bool eager) {
  Replay out;
  TensixState m;
  m.arch = arch;
  apply_initial_state(m, stim.initial());
  auto deliver = [&](unsigned op) {
    apply_fill(m, op, stim.next_fill(op));
    ++out.fills[op];
  };
  auto settle = [&] {
    if (!eager) return;
    for (unsigned op = 0; op < 2; ++op)
      while (banks(m, op)[m.Unpackers[op].SrcBank].AllowedClient == SrcClient::Unpackers) deliver(op);
  };
  auto refuse = [&](const std::string& why) {
    if (out.refusals++ == 0) out.first_refusal = why;
  };
  settle();
  while (auto st = stim.next()) {
    if (st->kind == Step::Kind::Field) {
      apply_field(m, st->field);
      ++out.fields;
      continue;
    }
    ++out.instructions;
    bool retired = false;
    try {
      const Insn in = decode(st->word, arch);
      for (int attempt = 0; attempt < 8 && !retired; ++attempt) {
        const SrcStyle style = active_src_style(m, SrcOperand::SrcA, m.MatrixUnit.SrcABank, st->thread);
        const bool d32 = active_dst_view(m, in, st->thread).dst32;
        const unsigned phase = (m.RWCs[st->thread].FidelityPhase + m.ThreadConfig[st->thread].FIDELITY_BASE_Phase) & 3;
        const ExecResult r = execute(m, in, st->thread);
        if (r.status == ExecResult::Status::Retired) {
          retired = true;
          out.ops.insert(in.op());
          out.threads.insert(st->thread);
          if (is_datapath(in.op())) {
            out.styles.insert(style);
            out.dst32.insert(d32);
            out.phases.insert(phase);
          }
          break;
        }
        bool progressed = false;
        for (unsigned op = 0; op < 2; ++op) {
          const unsigned mb = op ? m.MatrixUnit.SrcBBank : m.MatrixUnit.SrcABank;
          if (banks(m, op)[mb].AllowedClient == SrcClient::MatrixUnit) continue;
          if (banks(m, op)[m.Unpackers[op].SrcBank].AllowedClient != SrcClient::Unpackers) continue;
          deliver(op);
          progressed = true;
        }
        if (!progressed) break;
      }
      if (!retired) refuse(disassemble(in) + ": waits forever");
    } catch (const Error& e) {
      refuse(e.what());
    }
    settle();
  }
  return out;
}

TEST(StimRegistry, NamesAndUnknownTest) {
  const auto all = stimulus_tests();
  const auto directed = directed_tests();
  EXPECT_EQ(all.front(), "random");
  EXPECT_EQ(all.size(), directed.size() + 1);
  for (const char* want : {"matmul_lofi", "matmul_hifi2", "matmul_hifi3", "matmul_hifi4", "matmul_fidelity_dependent",
                           "eltwise_add_none",
                           "eltwise_sub_col", "eltwise_mul_row", "eltwise_add_scalar", "reduce_gapool",
                           "maxpool_gmpool_argmax", "zeroacc_row", "zeroacc_16rows", "zeroacc_half", "zeroacc_all",
                           "mov_round_trip", "gpr_program", "dst_hazard_sweep", "dst_no_false_hazard",
                           "src_writes_sweep", "zeroacc_sweep", "maxpool_argmax_signed", "addr_mod_threads",
                           "operand_formats", "refused_instructions", "elw_wrapped_difference", "int8_zero_flag"})
    EXPECT_NE(std::find(directed.begin(), directed.end(), want), directed.end()) << want;
  try {
    make_stimulus("no_such_test", Arch::Blackhole, 1, 10);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("no_such_test"), std::string::npos);
  }
}

TEST(StimDeterminism, SameArgumentsSameEverythingInAnyCallOrder) {
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed));
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    for (const std::string& name : stimulus_tests()) {
      auto a = make_stimulus(name, arch, kSeed, 3000);
      auto b = make_stimulus(name, arch, kSeed, 3000);
      ASSERT_TRUE(same_initial(a->initial(), b->initial())) << name;
      const Recording ra = record(*a, false, 6), rb = record(*b, true, 6);
      EXPECT_TRUE(same_recording(ra, rb)) << name << " on " << arch_name(arch);
      EXPECT_FALSE(ra.steps.empty()) << name;
      // A different seed gives different data (and, for random, a different stream).
      auto c = make_stimulus(name, arch, kSeed + 1, 3000);
      const Recording rc = record(*c, false, 6);
      EXPECT_FALSE(same_recording(ra, rc) && same_initial(a->initial(), c->initial())) << name;
    }
  }
}

TEST(StimDirected, EveryTestRunsOnBothArchesWithoutRefusal) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    for (const std::string& name : stimulus_tests()) {
      for (bool eager : {false, true}) {
        auto s = make_stimulus(name, arch, kSeed, 2000);
        const Replay r = replay(*s, arch, eager);
        if (name == "refused_instructions") continue;  // refused on purpose (its own test below)
        EXPECT_EQ(r.refusals, 0u) << name << " on " << arch_name(arch) << (eager ? " eager" : " lazy") << ": "
                                  << r.first_refusal;
        EXPECT_GT(r.instructions, 0u) << name;
        if (eager && name == "random") std::printf("%s\n", s->description().c_str());
      }
    }
  }
}

TEST(StimDirected, SequencesUseTheirInstructions) {
  auto ops_of = [](const std::string& name, Arch arch) {
    auto s = make_stimulus(name, arch, kSeed, 0);
    return replay(*s, arch, true).ops;
  };
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    EXPECT_TRUE(ops_of("matmul_hifi4", arch).count(Op::MVMUL));
    EXPECT_TRUE(ops_of("eltwise_mul_scalar", arch).count(Op::ELWMUL));
    EXPECT_TRUE(ops_of("reduce_gapool", arch).count(Op::GAPOOL));
    EXPECT_TRUE(ops_of("maxpool_gmpool_argmax", arch).count(Op::GMPOOL));
    EXPECT_TRUE(ops_of("zeroacc_half", arch).count(Op::ZEROACC));
    const auto mov = ops_of("mov_round_trip", arch);
    for (Op op : {Op::MOVA2D, Op::MOVB2D, Op::MOVD2A, Op::MOVD2B, Op::MOVB2A}) EXPECT_TRUE(mov.count(op)) << op_name(op);
    const auto src = ops_of("src_writes_sweep", arch);
    for (Op op : {Op::ZEROSRC, Op::MOVD2A, Op::MOVD2B, Op::MOVB2A, Op::SHIFTXA, Op::SHIFTXB, Op::TRNSPSRCB})
      EXPECT_TRUE(src.count(op)) << op_name(op);
    EXPECT_TRUE(ops_of("maxpool_argmax_signed", arch).count(Op::GMPOOL));
    EXPECT_TRUE(ops_of("zeroacc_sweep", arch).count(Op::ZEROACC));
    const auto gpr = ops_of("gpr_program", arch);
    for (const InsnSpec& spec : instructions(arch))
      if (spec.unit == Unit::ScalarUnit) {
        EXPECT_TRUE(gpr.count(spec.op)) << spec.mnemonic;
      }
  }
}

// refused_instructions: every word but its ELWADDs is refused by the model (each unknown opcode among
// them), and the ELWADDs execute.
TEST(StimDirected, RefusedInstructionsAreRefusedAndOnlyThey) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    auto s = make_stimulus("refused_instructions", arch, kSeed, 0);
    TensixState m;
    m.arch = arch;
    apply_initial_state(m, s->initial());
    std::set<unsigned> unknown_opcodes;
    unsigned refused = 0, executed = 0;
    while (auto st = s->next()) {
      if (st->kind == Step::Kind::Field) {
        apply_field(m, st->field);
        continue;
      }
      const InsnSpec* spec = find_by_opcode(arch, static_cast<uint8_t>(st->word >> 24));
      const bool elwadd = st->word == assemble("ELWADD AddrMod=0 AddDst=1", arch).word;
      bool ok = true;
      try {
        ok = execute_word(m, st->word, st->thread).status == ExecResult::Status::Retired;
      } catch (const Error&) {
        ok = false;
      }
      EXPECT_EQ(ok, elwadd) << fmt::format("0x{:08x} on {}", st->word, arch_name(arch));
      (ok ? executed : refused) += 1;
      if (!spec) unknown_opcodes.insert(st->word >> 24);
    }
    EXPECT_EQ(unknown_opcodes.size(), 256 - instructions(arch).size()) << arch_name(arch);
    EXPECT_GT(executed, instructions(arch).size()) << arch_name(arch);
    EXPECT_GT(refused, unknown_opcodes.size() + instructions(arch).size()) << arch_name(arch);
  }
}

// Only the sequence built without Dst hazards asks the testbench to fail on a Dst hazard stall.
TEST(StimDirected, OnlyTheHazardFreeSequenceForbidsDstStalls) {
  for (const std::string& name : stimulus_tests())
    EXPECT_EQ(make_stimulus(name, Arch::Blackhole, kSeed, 10)->forbids_dst_hazard_stalls(), name == "dst_no_false_hazard")
        << name;
}

// The matmul sequence really computes: HiFi4's first tile equals the model's own run of the LLK
// sequence (the replay is the model), and the fidelity phases advance once per replay.
TEST(StimDirected, MatmulFidelityPhasesAdvance) {
  for (unsigned p = 1; p <= 4; ++p) {
    const char* names[] = {"", "matmul_lofi", "matmul_hifi2", "matmul_hifi3", "matmul_hifi4"};
    auto s = make_stimulus(names[p], Arch::Blackhole, kSeed, 0);
    const Replay r = replay(*s, Arch::Blackhole, false);
    EXPECT_EQ(r.phases.size(), p) << names[p];
    EXPECT_EQ(r.fills[0], 1u) << "the second tile comes from a fill";
  }
}

TEST(StimInitialState, ScoreboardCallsBuildTheSameState) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    auto s = make_stimulus("random", arch, kSeed, 10);
    const InitialState& init = s->initial();
    TensixState direct;
    direct.arch = arch;
    apply_initial_state(direct, init);
    ScoreboardOptions o;
    o.arch = arch;
    Scoreboard sb(o);
    for (const FieldWrite& w : init.fields) sb.set_field(w.scope, w.name, w.value, w.thread, w.index);
    for (const SrcBankInit& b : init.banks)
      sb.set_src_bank(static_cast<SrcOperand>(b.operand), b.bank,
                      b.matrix_unit_owns ? SrcClient::MatrixUnit : SrcClient::Unpackers, static_cast<DataFormat>(b.format));
    for (unsigned op = 0; op < 2; ++op) sb.set_unpacker_bank(static_cast<SrcOperand>(op), init.unpacker_bank[op]);
    sb.set_field(FieldScope::Global, "SrcABank", init.matrix_unit_bank[0]);
    sb.set_field(FieldScope::Global, "SrcBBank", init.matrix_unit_bank[1]);
    for (const SrcRowInit& r : init.src_rows) sb.preload_src_row(static_cast<SrcOperand>(r.operand), r.bank, r.row, r.values);
    for (const DstRowInit& r : init.dst_rows) sb.preload_dst_row(r.row, r.values, r.valid);
    for (const GprInit& g : init.gprs) sb.preload_gpr(g.thread, g.index, g.value);
    // The testbench's first fills go through the scoreboard's unpacker calls.
    for (unsigned op = 0; op < 2; ++op) {
      const UnpackFill f = s->next_fill(op);
      for (const auto& [row, values] : f.rows)
        sb.unpack_src_row(static_cast<SrcOperand>(op), row, values, static_cast<DataFormat>(f.format));
      sb.hand_over_src_bank(static_cast<SrcOperand>(op));
      apply_fill(direct, op, f);
    }
    const TensixState& m = sb.model();
    EXPECT_EQ(m.Dst.DstBits, direct.Dst.DstBits);
    EXPECT_EQ(m.Dst.RowValid, direct.Dst.RowValid);
    EXPECT_EQ(m.GPRs, direct.GPRs);
    for (unsigned b = 0; b < kSrcBanks; ++b) {
      EXPECT_EQ(m.SrcA[b].Rows, direct.SrcA[b].Rows);
      EXPECT_EQ(m.SrcB[b].Rows, direct.SrcB[b].Rows);
      EXPECT_EQ(m.SrcA[b].Format, direct.SrcA[b].Format);
      EXPECT_EQ(m.SrcB[b].AllowedClient, direct.SrcB[b].AllowedClient);
    }
    EXPECT_EQ(m.Unpackers[0].SrcBank, direct.Unpackers[0].SrcBank);
    for (FieldScope scope : {FieldScope::Config, FieldScope::ThreadConfig, FieldScope::AddrMod, FieldScope::Global})
      for (const StateField& f : state_fields(scope))
        for (unsigned t = 0; t < kNumThreads; ++t)
          for (unsigned i = 0; i < kNumAddrMods; ++i) ASSERT_EQ(f.get(m, t, i), f.get(direct, t, i)) << f.name;
  }
}

// 20k-instruction random streams, replayed as the testbench replays them: nothing refused, and the
// stream covers the instruction set and the datapath's modes.
TEST(StimRandom, LongStreamsAreAcceptedAndCoverTheIsa) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    for (bool eager : {false, true}) {
      const uint64_t seed = kSeed + (eager ? 7 : 0);
      std::printf("random %s seed %llu (%s fills)\n", arch_name(arch), static_cast<unsigned long long>(seed),
                  eager ? "eager" : "lazy");
      auto s = make_stimulus("random", arch, seed, 20000);
      const Replay r = replay(*s, arch, eager);
      std::printf("  %s\n", s->description().c_str());
      EXPECT_EQ(r.instructions, 20000u);
      EXPECT_EQ(r.refusals, 0u) << r.first_refusal;
      for (const InsnSpec& spec : instructions(arch)) {
        if (unit_in_rtl(spec.unit)) EXPECT_TRUE(r.ops.count(spec.op)) << "never ran " << spec.mnemonic;
        else EXPECT_FALSE(r.ops.count(spec.op)) << "the RTL has no " << spec.mnemonic << ", yet the stream issues it";
      }
      for (SrcStyle st : {SrcStyle::BF16, SrcStyle::FP16, SrcStyle::TF32, SrcStyle::INT8})
        EXPECT_TRUE(r.styles.count(st)) << "no datapath instruction in style " << src_style_name(st);
      EXPECT_EQ(r.dst32.size(), 2u);
      EXPECT_EQ(r.phases.size(), 4u);
      EXPECT_EQ(r.threads.size(), 3u);
      EXPECT_GT(r.fields, 500u);
      EXPECT_GT(r.fills[0], 50u);
      EXPECT_GT(r.fills[1], 50u);
    }
  }
}

}  // namespace
}  // namespace tmu::tb
