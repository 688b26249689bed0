// tmu_src_regs (SrcA and SrcB, both with 16-row windows) against the refmodel. Every cycle drives
// random unpacker row writes and hand-overs, Matrix Unit window writes (any first row, wrapping
// past row 63, random row masks, into a bank the Matrix Unit holds), and one Matrix Unit command -
// a clear_dvalid flip (a SETRWC word with FlipSrcA/FlipSrcB), CLEARDVALID or ZEROSRC - which the
// mirror TensixState executes through tmu::tensix::execute. The unpacker steps mirror
// Scoreboard::unpack_src_row / hand_over_src_bank. Before each clock edge the read window (any
// bank, any first row), a random raw row and the bank state are compared; at the end every row of
// every bank.
#include <array>
#include <cinttypes>
#include <string>

#include <fmt/format.h>

#include "harness.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"

namespace tmu_rtl {
namespace {

constexpr unsigned kRowW = tmu::tensix::kSrcCols * kSrcDatumW;  // 304 bits
constexpr unsigned kReadRows = 16;                       // tmu_blocks_tb: SrcA and SrcB windows
constexpr unsigned kRowMask = tmu::tensix::kSrcRows - 1;
enum Cmd : unsigned { kNone = 0, kClearDvalid = 1, kClearDvalidInsn = 2, kZeroSrc = 3 };

// A field of at most 32 bits of a wide port, read word-wise (the harness's get_bits goes bit by bit).
template <typename Port>
uint32_t wide_field(const Port& p, unsigned lo, unsigned width) {
  const unsigned w = lo / 32, sh = lo % 32;
  uint64_t v = p[w] >> sh;
  if (sh + width > 32) v |= uint64_t{p[w + 1]} << (32 - sh);
  return static_cast<uint32_t>(v & ((uint64_t{1} << width) - 1));
}

std::array<tmu::tensix::SrcBank, 2>& banks(tmu::tensix::TensixState& s, unsigned op) { return op == 0 ? s.SrcA : s.SrcB; }

std::array<uint32_t, tmu::tensix::kSrcCols> random_row(Rng& rng) {
  std::array<uint32_t, tmu::tensix::kSrcCols> row{};
  for (auto& d : row) d = static_cast<uint32_t>(rng.bits(kSrcDatumW));
  return row;
}

// Word-wise counterpart of wide_field.
template <typename Port>
void put_field(Port& p, unsigned lo, unsigned width, uint32_t value) {
  const unsigned w = lo / 32, sh = lo % 32;
  const uint64_t mask = ((uint64_t{1} << width) - 1) << sh, v = (uint64_t{value} << sh) & mask;
  p[w] = static_cast<uint32_t>((p[w] & ~mask) | v);
  if (sh + width > 32) p[w + 1] = static_cast<uint32_t>((p[w + 1] & ~(mask >> 32)) | (v >> 32));
}

template <typename Port>
void put_row(Port& port, unsigned lo, const std::array<uint32_t, tmu::tensix::kSrcCols>& row) {
  for (unsigned c = 0; c < tmu::tensix::kSrcCols; ++c) put_field(port, lo + c * kSrcDatumW, kSrcDatumW, row[c]);
}

// A first row: now and then close to the top of the bank, so that windows wrap.
unsigned random_first_row(Rng& rng) {
  return rng.chance(25, 100) ? (tmu::tensix::kSrcRows - 1 - static_cast<unsigned>(rng.bits(4))) : static_cast<unsigned>(rng.bits(6));
}

// Window row masks: whole windows, runs (MOV's 1/4/8 rows), single rows, random sets.
uint32_t random_mask(Rng& rng) {
  const unsigned pick = static_cast<unsigned>(rng.between(0, 99));
  if (pick < 25) return 0xFFFFu;
  if (pick < 50) {
    const unsigned len = static_cast<unsigned>(rng.between(1, kReadRows));
    const unsigned first = static_cast<unsigned>(rng.between(0, kReadRows - len));
    return ((1u << len) - 1) << first;
  }
  if (pick < 65) return 1u << rng.bits(4);
  return static_cast<uint32_t>(rng.bits(16));
}

}  // namespace

int test_src_regs(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "src_regs");
  const uint64_t total = opt.random_cases(60000);
  tmu::tensix::TensixState s;  // Blackhole; the bank logic is the same on both architectures
  top.sr_unp_we_i = top.sr_unp_dvalid_i = top.sr_mu_we_i = 0;
  top.sr_cmd_i = kNone;
  top.sr_rd_en_i = 1;  // this test reads every cycle; the other blocks' tests leave the reads idle
  sim.reset();

  // Operand op's bank pointers and AllowedClient bits as the RTL outputs them (mu_bank / unp_bank: a bit per
  // operand, allowed_client: two per operand, 1 = MatrixUnit) against the mirror's.
  auto pointers_match = [&](unsigned op, unsigned mu_bits, unsigned unp_bits, unsigned allowed_client_bits) {
    const auto& b = banks(s, op);
    const unsigned mu_bank = op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank;
    bool ok = ((mu_bits >> op) & 1) == mu_bank && ((unp_bits >> op) & 1) == s.Unpackers[op].SrcBank;
    for (unsigned k = 0; k < 2; ++k)
      ok &= ((allowed_client_bits >> (op * 2 + k)) & 1) == (b[k].AllowedClient == tmu::tensix::SrcClient::MatrixUnit);
    return ok;
  };

  // Compare everything observable of operand op against the mirror (state before the clock edge).
  auto compare = [&](unsigned op, uint64_t cycle, unsigned rd_bank, unsigned rd_row, unsigned dbg_bank,
                     unsigned dbg_row) {
    auto& b = banks(s, op);
    const unsigned mu_bank = op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank;
    const unsigned unp_bank = s.Unpackers[op].SrcBank;
    bool ok = pointers_match(op, top.sr_mu_bank_o, top.sr_unp_bank_o, top.sr_allowed_client_o);
    for (unsigned k = 0; k < 2; ++k)
      ok &= ((top.sr_format_o >> (op * 8 + k * 4)) & 0xF) == static_cast<unsigned>(b[k].Format);
    ok &= ((top.sr_mu_format_o >> (op * 4)) & 0xF) == static_cast<unsigned>(b[mu_bank].Format);
    if (ok) chk.pass();
    else chk.fail("cycle %" PRIu64 " Src%c bank state: rtl mu=%u unp=%u AllowedClient=%x fmt=%x ref mu=%u unp=%u AllowedClient=%d%d",
                  cycle, "AB"[op], (top.sr_mu_bank_o >> op) & 1, (top.sr_unp_bank_o >> op) & 1,
                  (top.sr_allowed_client_o >> (op * 2)) & 3, (top.sr_format_o >> (op * 8)) & 0xFF, mu_bank, unp_bank,
                  b[1].AllowedClient == tmu::tensix::SrcClient::MatrixUnit, b[0].AllowedClient == tmu::tensix::SrcClient::MatrixUnit);

    for (unsigned k = 0; k < kReadRows; ++k) {
      const unsigned row = (rd_row + k) & kRowMask;
      for (unsigned c = 0; c < tmu::tensix::kSrcCols; ++c) {
        const unsigned lo = k * kRowW + c * kSrcDatumW;
        const uint32_t got = op == 0 ? wide_field(top.sra_rd_data_o, lo, kSrcDatumW)
                                     : wide_field(top.srb_rd_data_o, lo, kSrcDatumW);
        const uint32_t want = b[rd_bank].Rows[row][c];
        if (got == want) chk.pass();
        else chk.fail("cycle %" PRIu64 " Src%c read bank %u row %u (window at %u) col %u: rtl %05x ref %05x", cycle,
                      "AB"[op], rd_bank, row, rd_row, c, got, want);
      }
    }
    for (unsigned c = 0; c < tmu::tensix::kSrcCols; ++c) {
      const uint32_t got = wide_field(top.sr_dbg_data_o, op * kRowW + c * kSrcDatumW, kSrcDatumW);
      const uint32_t want = b[dbg_bank].Rows[dbg_row][c];
      if (got == want) chk.pass();
      else chk.fail("cycle %" PRIu64 " Src%c raw bank %u row %u col %u: rtl %05x ref %05x", cycle, "AB"[op],
                    dbg_bank, dbg_row, c, got, want);
    }
  };

  for (uint64_t cycle = 0; cycle < total; ++cycle) {
    // ---- stimulus and the mirror's view of it ----
    struct Write { bool we; unsigned row; std::array<uint32_t, tmu::tensix::kSrcCols> data; unsigned format; };
    struct WindowWrite { bool we; unsigned bank, row; uint32_t mask; std::array<std::array<uint32_t, tmu::tensix::kSrcCols>, kReadRows> data; };
    Write unp[2];
    WindowWrite mu[2];
    bool dvalid[2];
    unsigned rd_bank[2], rd_row[2], dbg_bank[2], dbg_row[2];
    for (unsigned op = 0; op < 2; ++op) {
      auto& b = banks(s, op);
      const unsigned mu_bank = op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank;
      // Writers wait for their bank, as the Wait Gate and the unpackers' stalls would make them.
      const bool unp_may = b[s.Unpackers[op].SrcBank].AllowedClient == tmu::tensix::SrcClient::Unpackers;
      unp[op] = {unp_may && rng.chance(40, 100), static_cast<unsigned>(rng.bits(6)), random_row(rng),
                 static_cast<unsigned>(rng.bits(4))};
      // The Matrix Unit writes a bank it holds: its own, or now and then the other one.
      const unsigned mu_wr_bank = rng.chance(20, 100) ? mu_bank ^ 1 : mu_bank;
      mu[op].we = b[mu_wr_bank].AllowedClient == tmu::tensix::SrcClient::MatrixUnit && rng.chance(30, 100);
      mu[op].bank = mu_wr_bank;
      mu[op].row = random_first_row(rng);
      mu[op].mask = random_mask(rng);
      for (auto& r : mu[op].data) r = random_row(rng);
      // One write per memory: leave out the window row that shares the unpacker row's memory.
      if (unp[op].we) mu[op].mask &= ~(1u << ((unp[op].row - mu[op].row) % kReadRows));
      dvalid[op] = rng.chance(8, 100);
      rd_bank[op] = rng.chance(70, 100) ? mu_bank : static_cast<unsigned>(rng.bits(1));
      rd_row[op] = random_first_row(rng);
      dbg_bank[op] = static_cast<unsigned>(rng.bits(1));
      dbg_row[op] = static_cast<unsigned>(rng.bits(6));
    }
    const unsigned pick = static_cast<unsigned>(rng.between(0, 99));
    const Cmd cmd = pick < 40 ? kNone : pick < 70 ? kClearDvalid : pick < 85 ? kClearDvalidInsn : kZeroSrc;
    const unsigned flip = static_cast<unsigned>(rng.bits(2)), clear = static_cast<unsigned>(rng.bits(2));
    const unsigned disable = static_cast<unsigned>(rng.bits(2)) & (rng.chance(30, 100) ? 3u : 0u);
    const bool reset = rng.chance(10, 100), keep = rng.chance(30, 100), both = rng.chance(30, 100), single_mu = rng.bits(1),
               neg_inf = rng.bits(1);

    top.sr_unp_we_i = unp[0].we | (unp[1].we << 1);
    top.sr_unp_row_i = unp[0].row | (unp[1].row << 6);
    top.sr_unp_format_i = unp[0].format | (unp[1].format << 4);
    top.sr_unp_dvalid_i = dvalid[0] | (dvalid[1] << 1);
    top.sr_mu_we_i = mu[0].we | (mu[1].we << 1);
    top.sr_mu_bank_i = mu[0].bank | (mu[1].bank << 1);
    top.sr_mu_row_i = mu[0].row | (mu[1].row << 6);
    top.sr_mu_mask_i = mu[0].mask | (mu[1].mask << kReadRows);
    for (unsigned op = 0; op < 2; ++op) {
      put_row(top.sr_unp_data_i, op * kRowW, unp[op].data);
      for (unsigned k = 0; k < kReadRows; ++k) put_row(top.sr_mu_data_i, (op * kReadRows + k) * kRowW, mu[op].data[k]);
    }
    top.sr_rd_bank_i = rd_bank[0] | (rd_bank[1] << 1);
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
    compare(0, cycle, rd_bank[0], rd_row[0], dbg_bank[0], dbg_row[0]);
    compare(1, cycle, rd_bank[1], rd_row[1], dbg_bank[1], dbg_row[1]);

    // ---- the mirror: writes (old bank pointers), then the command, then the hand-overs ----
    for (unsigned op = 0; op < 2; ++op) {
      auto& b = banks(s, op);
      if (unp[op].we) {
        tmu::tensix::SrcBank& bank = b[s.Unpackers[op].SrcBank];
        bank.Rows[unp[op].row] = unp[op].data;
        bank.Format = static_cast<tmu::tensix::DataFormat>(unp[op].format);
      }
      for (unsigned k = 0; k < kReadRows && mu[op].we; ++k) {
        if ((mu[op].mask >> k) & 1) b[mu[op].bank].Rows[(mu[op].row + k) & kRowMask] = mu[op].data[k];
      }
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
      const tmu::tensix::ExecResult r = tmu::tensix::execute(s, tmu::tensix::assemble(text, s.arch), 0);
      if (r.status != tmu::tensix::ExecResult::Status::Retired) chk.fail("cycle %" PRIu64 " %s stalled", cycle, text.c_str());
    }
    for (unsigned op = 0; op < 2; ++op) {
      if (!dvalid[op]) continue;
      tmu::tensix::UnpackerState& u = s.Unpackers[op];
      banks(s, op)[u.SrcBank].AllowedClient = tmu::tensix::SrcClient::MatrixUnit;
      u.SrcBank ^= 1;
    }
    // The *_next_o outputs: the bank state the coming edge loads, the mirror's after this cycle.
    for (unsigned op = 0; op < 2; ++op) {
      const auto& b = banks(s, op);
      const unsigned mu_bank = op == 0 ? s.MatrixUnit.SrcABank : s.MatrixUnit.SrcBBank;
      const unsigned unp_bank = s.Unpackers[op].SrcBank;
      if (pointers_match(op, top.sr_mu_bank_next_o, top.sr_unp_bank_next_o, top.sr_allowed_client_next_o)) chk.pass();
      else chk.fail("cycle %" PRIu64 " Src%c next bank state: rtl mu=%u unp=%u AllowedClient=%x ref mu=%u unp=%u AllowedClient=%d%d", cycle,
                    "AB"[op], (top.sr_mu_bank_next_o >> op) & 1, (top.sr_unp_bank_next_o >> op) & 1,
                    (top.sr_allowed_client_next_o >> (op * 2)) & 3, mu_bank, unp_bank,
                    b[1].AllowedClient == tmu::tensix::SrcClient::MatrixUnit, b[0].AllowedClient == tmu::tensix::SrcClient::MatrixUnit);
    }
    sim.tick();
  }

  // ---- every row of every bank ----
  top.sr_unp_we_i = top.sr_unp_dvalid_i = top.sr_mu_we_i = 0;
  top.sr_cmd_i = kNone;
  for (unsigned bank = 0; bank < 2; ++bank) {
    for (unsigned row = 0; row < tmu::tensix::kSrcRows; ++row) {
      top.sr_dbg_bank_i = top.sr_rd_bank_i = bank | (bank << 1);
      top.sr_dbg_row_i = top.sr_rd_row_i = row | (row << 6);
      sim.eval();
      compare(0, total, bank, row, bank, row);
      compare(1, total, bank, row, bank, row);
    }
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
