// tmu_src_regs (SrcA: 16-row reads, SrcB: 8-row reads) against the refmodel. Every cycle drives
// random unpacker row writes and hand-overs, Matrix Unit row writes, and one Matrix Unit command -
// a clear_dvalid flip (a SETRWC word with FlipSrcA/FlipSrcB), CLEARDVALID or ZEROSRC - which the
// mirror TensixState executes through tmu::execute. The unpacker steps mirror
// Scoreboard::unpack_src_row / hand_over_src_bank. Before each clock edge the read ports, a
// random raw row and the bank state are compared; at the end every row of every bank.
#include <array>
#include <cinttypes>
#include <string>

#include <fmt/format.h>

#include "harness.h"
#include "tmu/decode.h"
#include "tmu/exec.h"

namespace tmu_rtl {
namespace {

constexpr unsigned kRowW = tmu::kSrcCols * kSrcDatumW;  // 304 bits
constexpr unsigned kReadRows[2] = {16, 8};               // tmu_blocks_tb: SrcA, SrcB
enum Cmd : unsigned { kNone = 0, kClearDvalid = 1, kClearDvalidInsn = 2, kZeroSrc = 3 };

// A field of at most 32 bits of a wide port, read word-wise (the harness's get_bits goes bit by bit).
template <typename Port>
uint32_t wide_field(const Port& p, unsigned lo, unsigned width) {
  const unsigned w = lo / 32, sh = lo % 32;
  uint64_t v = p[w] >> sh;
  if (sh + width > 32) v |= uint64_t{p[w + 1]} << (32 - sh);
  return static_cast<uint32_t>(v & ((uint64_t{1} << width) - 1));
}

std::array<tmu::SrcBank, 2>& banks(tmu::TensixState& s, unsigned op) { return op == 0 ? s.SrcA : s.SrcB; }

std::array<uint32_t, tmu::kSrcCols> random_row(Rng& rng) {
  std::array<uint32_t, tmu::kSrcCols> row{};
  for (auto& d : row) d = static_cast<uint32_t>(rng.bits(kSrcDatumW));
  return row;
}

template <typename Port>
void put_row(Port& port, unsigned lo, const std::array<uint32_t, tmu::kSrcCols>& row) {
  for (unsigned c = 0; c < tmu::kSrcCols; ++c) put_bits(port, lo + c * kSrcDatumW, kSrcDatumW, row[c]);
}

}  // namespace

int test_src_regs(Sim& sim, const Options& opt) {
  Checker chk("src_regs");
  Rng rng(opt.seed);
  Model& top = *sim.top;
  const uint64_t total = opt.cases ? opt.cases : 60000;
  tmu::TensixState s;  // Blackhole; the bank logic is the same on both architectures
  top.sr_unp_we_i = top.sr_unp_dvalid_i = top.sr_mu_we_i = 0;
  top.sr_cmd_i = kNone;
  sim.reset();

  // Compare everything observable of operand op against the mirror (state before the clock edge).
  auto compare = [&](unsigned op, uint64_t cycle, unsigned rd_row, unsigned dbg_bank, unsigned dbg_row) {
    auto& b = banks(s, op);
    const unsigned mu_bank = op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank;
    const unsigned unp_bank = s.Unpackers[op].SrcBank;
    bool ok = ((top.sr_mu_bank_o >> op) & 1) == mu_bank && ((top.sr_unp_bank_o >> op) & 1) == unp_bank;
    for (unsigned k = 0; k < 2; ++k) {
      ok &= ((top.sr_mu_owns_o >> (op * 2 + k)) & 1) == (b[k].AllowedClient == tmu::SrcClient::MatrixUnit);
      ok &= ((top.sr_format_o >> (op * 8 + k * 4)) & 0xF) == static_cast<unsigned>(b[k].Format);
    }
    ok &= ((top.sr_mu_format_o >> (op * 4)) & 0xF) == static_cast<unsigned>(b[mu_bank].Format);
    if (ok) chk.pass();
    else chk.fail("cycle %" PRIu64 " Src%c bank state: rtl mu=%u unp=%u owns=%x fmt=%x ref mu=%u unp=%u owns=%d%d",
                  cycle, "AB"[op], (top.sr_mu_bank_o >> op) & 1, (top.sr_unp_bank_o >> op) & 1,
                  (top.sr_mu_owns_o >> (op * 2)) & 3, (top.sr_format_o >> (op * 8)) & 0xFF, mu_bank, unp_bank,
                  b[1].AllowedClient == tmu::SrcClient::MatrixUnit, b[0].AllowedClient == tmu::SrcClient::MatrixUnit);

    const unsigned n = kReadRows[op];
    const unsigned base = rd_row & ~(n - 1);
    for (unsigned r = 0; r < n; ++r) {
      for (unsigned c = 0; c < tmu::kSrcCols; ++c) {
        const unsigned lo = r * kRowW + c * kSrcDatumW;
        const uint32_t got = op == 0 ? wide_field(top.sra_rd_data_o, lo, kSrcDatumW)
                                     : wide_field(top.srb_rd_data_o, lo, kSrcDatumW);
        const uint32_t want = b[mu_bank].Rows[base + r][c];
        if (got == want) chk.pass();
        else chk.fail("cycle %" PRIu64 " Src%c read bank %u row %u col %u: rtl %05x ref %05x", cycle, "AB"[op],
                      mu_bank, base + r, c, got, want);
      }
    }
    for (unsigned c = 0; c < tmu::kSrcCols; ++c) {
      const uint32_t got = wide_field(top.sr_dbg_data_o, op * kRowW + c * kSrcDatumW, kSrcDatumW);
      const uint32_t want = b[dbg_bank].Rows[dbg_row][c];
      if (got == want) chk.pass();
      else chk.fail("cycle %" PRIu64 " Src%c raw bank %u row %u col %u: rtl %05x ref %05x", cycle, "AB"[op],
                    dbg_bank, dbg_row, c, got, want);
    }
  };

  for (uint64_t cycle = 0; cycle < total; ++cycle) {
    // ---- stimulus and the mirror's view of it ----
    struct Write { bool we; unsigned row; std::array<uint32_t, tmu::kSrcCols> data; unsigned format; };
    Write unp[2], mu[2];
    bool dvalid[2];
    unsigned rd_row[2], dbg_bank[2], dbg_row[2];
    for (unsigned op = 0; op < 2; ++op) {
      auto& b = banks(s, op);
      const unsigned mu_bank = op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank;
      // Writers wait for their bank, as the Wait Gate and the unpackers' stalls would make them.
      const bool unp_may = b[s.Unpackers[op].SrcBank].AllowedClient == tmu::SrcClient::Unpackers;
      unp[op] = {unp_may && rng.chance(40), static_cast<unsigned>(rng.bits(6)), random_row(rng),
                 static_cast<unsigned>(rng.bits(4))};
      mu[op] = {b[mu_bank].AllowedClient == tmu::SrcClient::MatrixUnit && rng.chance(20),
                static_cast<unsigned>(rng.bits(6)), random_row(rng), 0};
      dvalid[op] = rng.chance(8);
      rd_row[op] = static_cast<unsigned>(rng.bits(6));
      dbg_bank[op] = static_cast<unsigned>(rng.bits(1));
      dbg_row[op] = static_cast<unsigned>(rng.bits(6));
    }
    const unsigned pick = static_cast<unsigned>(rng.range(0, 99));
    const Cmd cmd = pick < 40 ? kNone : pick < 70 ? kClearDvalid : pick < 85 ? kClearDvalidInsn : kZeroSrc;
    const unsigned flip = static_cast<unsigned>(rng.bits(2)), clear = static_cast<unsigned>(rng.bits(2));
    const unsigned disable = static_cast<unsigned>(rng.bits(2)) & (rng.chance(30) ? 3u : 0u);
    const bool reset = rng.chance(10), keep = rng.chance(30), both = rng.chance(30), single_mu = rng.bits(1),
               neg_inf = rng.bits(1);

    top.sr_unp_we_i = unp[0].we | (unp[1].we << 1);
    top.sr_unp_row_i = unp[0].row | (unp[1].row << 6);
    top.sr_unp_format_i = unp[0].format | (unp[1].format << 4);
    top.sr_unp_dvalid_i = dvalid[0] | (dvalid[1] << 1);
    top.sr_mu_we_i = mu[0].we | (mu[1].we << 1);
    top.sr_mu_row_i = mu[0].row | (mu[1].row << 6);
    for (unsigned op = 0; op < 2; ++op) {
      put_row(top.sr_unp_data_i, op * kRowW, unp[op].data);
      put_row(top.sr_mu_data_i, op * kRowW, mu[op].data);
    }
    top.sr_rd_row_i = rd_row[0] | (rd_row[1] << 6);
    top.sr_dbg_bank_i = dbg_bank[0] | (dbg_bank[1] << 1);
    top.sr_dbg_row_i = dbg_row[0] | (dbg_row[1] << 6);
    top.sr_cmd_i = cmd;
    top.sr_flip_i = flip;
    top.sr_clr_dvalid_disable_i = disable;
    top.sr_reset_i = reset;
    top.sr_keep_reading_i = keep;
    top.sr_clear_i = clear;
    top.sr_both_banks_i = both;
    top.sr_single_bank_mu_i = single_mu;
    top.sr_negative_inf_i = neg_inf;
    sim.eval();
    compare(0, cycle, rd_row[0], dbg_bank[0], dbg_row[0]);
    compare(1, cycle, rd_row[1], dbg_bank[1], dbg_row[1]);

    // ---- the mirror: writes (old bank pointers), then the command, then the hand-overs ----
    for (unsigned op = 0; op < 2; ++op) {
      auto& b = banks(s, op);
      if (unp[op].we) {
        tmu::SrcBank& bank = b[s.Unpackers[op].SrcBank];
        bank.Rows[unp[op].row] = unp[op].data;
        bank.Format = static_cast<tmu::DataFormat>(unp[op].format);
      }
      if (mu[op].we) b[op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank].Rows[mu[op].row] = mu[op].data;
    }
    std::string text;
    switch (cmd) {
      case kClearDvalid:
        s.ThreadConfig[0].CLR_DVALID_SrcA_Disable = disable & 1;
        s.ThreadConfig[0].CLR_DVALID_SrcB_Disable = (disable >> 1) & 1;
        text = fmt::format("SETRWC FlipSrcA={} FlipSrcB={}", flip & 1, flip >> 1);
        break;
      case kClearDvalidInsn:
        text = fmt::format("CLEARDVALID Reset={} KeepReadingSameSrc={} FlipSrcA={} FlipSrcB={}", int{reset},
                           int{keep}, flip & 1, flip >> 1);
        break;
      case kZeroSrc:
        text = fmt::format("ZEROSRC ClearSrcA={} ClearSrcB={} BothBanks={} SingleBankMatrixUnit={} NegativeInfSrcA={}",
                           clear & 1, clear >> 1, int{both}, int{single_mu}, int{neg_inf});
        break;
      default: break;
    }
    if (!text.empty()) {
      const tmu::ExecResult r = tmu::execute(s, tmu::assemble(text, s.arch), 0);
      if (r.status != tmu::ExecResult::Status::Retired) chk.fail("cycle %" PRIu64 " %s stalled", cycle, text.c_str());
    }
    for (unsigned op = 0; op < 2; ++op) {
      if (!dvalid[op]) continue;
      tmu::UnpackerState& u = s.Unpackers[op];
      banks(s, op)[u.SrcBank].AllowedClient = tmu::SrcClient::MatrixUnit;
      u.SrcBank ^= 1;
    }
    sim.tick();
  }

  // ---- every row of every bank ----
  top.sr_unp_we_i = top.sr_unp_dvalid_i = top.sr_mu_we_i = 0;
  top.sr_cmd_i = kNone;
  top.sr_rd_row_i = 0;
  for (unsigned bank = 0; bank < 2; ++bank) {
    for (unsigned row = 0; row < tmu::kSrcRows; ++row) {
      top.sr_dbg_bank_i = bank | (bank << 1);
      top.sr_dbg_row_i = row | (row << 6);
      sim.eval();
      compare(0, total, 0, bank, row);
      compare(1, total, 0, bank, row);
    }
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
