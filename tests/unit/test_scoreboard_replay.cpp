// Replay programs: the failing instruction and the state it read, as a `tmu run` program that
// reproduces the model's values without the simulator.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_scoreboard_harness.h"
#include "tmu/tensix/program.h"
#include "tmu/rng.h"

namespace tmu::tensix {
namespace {

using test::Bench;
using test::filled;
using test::kOne;
using test::kOneAndHalf;
using test::row_of;

ProgramRun run_text(const std::string& program, Arch arch = Arch::Blackhole) {
  std::istringstream in(program);
  return run_program(in, "replay.tmu", ProgramOptions{arch, nullptr});
}

TEST(ScoreboardReplay, FailingMvmulReplaysToTheModelsValues) {
  Bench b;
  test::load_simple_matmul(b, kOne, row_of(kOneAndHalf));
  const auto found = b.step(0, "MVMUL DstRow=0", [](Observation& obs) { test::find_dst_row(obs, 3)->values[5] ^= 0x0100; });
  ASSERT_EQ(found.size(), 1u);
  const std::string& program = found[0].replay_program;
  ASSERT_FALSE(program.empty());
  EXPECT_NE(program.find(".word 0x26000000"), std::string::npos) << program;
  const ProgramRun run = run_text(program);
  EXPECT_EQ(run.instructions, 1u);
  // 1.5 * 1.0 in every element of Dst rows 0..7 (Dst16 BF16 0x407f), as worked out by hand.
  for (unsigned row = 0; row < 8; ++row) {
    EXPECT_TRUE(run.state.Dst.RowValid[row]) << row;
    for (unsigned c = 0; c < kDstCols; ++c) EXPECT_EQ(run.state.Dst.DstBits[row][c], 0x407F) << row << "," << c;
  }
  EXPECT_FALSE(run.state.Dst.RowValid[8]);
  EXPECT_NE(found[0].report.find("verified: it reproduces"), std::string::npos) << found[0].report;
}

TEST(ScoreboardReplay, ReplayIsSavedWhenADirectoryIsGiven) {
  const auto dir = std::filesystem::temp_directory_path() / "tmu_scoreboard_replay_test";
  std::filesystem::remove_all(dir);
  ScoreboardOptions o;
  o.test_name = "gpr/add";
  o.seed = 9;
  o.replay_dir = dir.string();
  o.replay_command_template = "tmu run {replay}";
  Bench b(o);
  b.gpr(0, 1, 5);
  const auto found = b.step(0, "ADDDMAREG OpBisConst=1 LeftReg=1 RightReg=3 ResultReg=2",
                            [](Observation& obs) { obs.gprs.at(0).value = 9; });
  ASSERT_EQ(found.size(), 1u);
  const Mismatch& m = found[0];
  EXPECT_EQ(m.replay_path, (dir / "gpr_add_seed9_cycle100_t0.tmu").string());
  EXPECT_EQ(m.replay_command, "tmu run " + m.replay_path);
  std::ifstream in(m.replay_path);
  std::stringstream saved;
  saved << in.rdbuf();
  EXPECT_EQ(saved.str(), m.replay_program);
  // 5 + 3 = 8, the value the model expects.
  EXPECT_EQ(run_text(saved.str()).state.GPRs[0][2], 8u);
  std::filesystem::remove_all(dir);
}

// Every part of the state an instruction can read survives the trip through a replay program.
TEST(ScoreboardReplay, ProgramRebuildsTheReadableState) {
  Rng rng(11);
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    TensixState s;
    s.arch = arch;
    const unsigned thread = 2;
    for (FieldScope scope : {FieldScope::Config, FieldScope::ThreadConfig, FieldScope::AddrMod, FieldScope::Rwc, FieldScope::Global})
      for (const StateField& f : state_fields(scope))
        for (unsigned index = 0; index < 8; ++index) f.set(s, thread, index, rng.bits(f.width));
    for (unsigned b = 0; b < kSrcBanks; ++b) {
      s.SrcA[b].AllowedClient = rng.bits(1) ? SrcClient::MatrixUnit : SrcClient::Unpackers;
      s.SrcB[b].Format = DataFormat::FP16;
      for (unsigned r = 0; r < kSrcRows; r += 1 + rng.below(5))
        for (unsigned c = 0; c < kSrcCols; ++c) s.SrcA[b].Rows[r][c] = rng.bits(32) & kSrcDatumMask;
      s.SrcB[b].Rows[63] = filled(0x12345);
    }
    s.Unpackers[1].SrcBank = 1;
    for (unsigned r = 0; r < kDstRows; ++r) {
      for (unsigned c = 0; c < kDstCols; ++c) s.Dst.DstBits[r][c] = static_cast<uint16_t>(rng.bits(16));
      s.Dst.RowValid[r] = rng.chance(1, 3);
    }
    for (unsigned g = 0; g < kNumGprs; ++g) s.GPRs[thread][g] = rng.bits(32);

    const uint32_t nop = assemble("DMANOP", arch).word;
    const ProgramRun run = run_text(replay_program_text(s, thread, nop, "round trip"), arch);
    const TensixState& r = run.state;
    for (FieldScope scope : {FieldScope::ThreadConfig, FieldScope::Rwc, FieldScope::Global})
      for (const StateField& f : state_fields(scope)) EXPECT_EQ(f.get(r, thread, 0), f.get(s, thread, 0)) << f.name;
    for (const StateField& f : state_fields(FieldScope::Config))
      for (unsigned state = 0; state < kNumConfigStates; ++state) EXPECT_EQ(f.get(r, thread, state), f.get(s, thread, state)) << f.name;
    for (const StateField& f : state_fields(FieldScope::AddrMod))
      for (unsigned slot = 0; slot < kNumAddrMods; ++slot) EXPECT_EQ(f.get(r, thread, slot), f.get(s, thread, slot)) << f.name;
    for (unsigned b = 0; b < kSrcBanks; ++b) {
      EXPECT_EQ(r.SrcA[b].AllowedClient, s.SrcA[b].AllowedClient);
      EXPECT_EQ(r.SrcB[b].Format, s.SrcB[b].Format);
      EXPECT_EQ(r.SrcA[b].Rows, s.SrcA[b].Rows);
      EXPECT_EQ(r.SrcB[b].Rows, s.SrcB[b].Rows);
    }
    EXPECT_EQ(r.Unpackers[1].SrcBank, 1);
    EXPECT_EQ(r.GPRs[thread], s.GPRs[thread]);
    // Dst as instructions read it: validity of every row; bits of valid rows, and of a low half whose
    // high half is valid (a Dst32b read takes it whatever the low row's validity).
    for (unsigned row = 0; row < kDstRows; ++row) {
      EXPECT_EQ(r.Dst.RowValid[row], s.Dst.RowValid[row]) << row;
      const bool low_half = (row & 8) != 0;
      const bool readable = s.Dst.RowValid[row] || (low_half && s.Dst.RowValid[row - 8]);
      if (readable) {
        EXPECT_EQ(r.Dst.DstBits[row], s.Dst.DstBits[row]) << row;
      }
    }
  }
}

}  // namespace
}  // namespace tmu::tensix
