// tmu_dst_regs against the refmodel's DstRegs. Every cycle drives a random 8-row window write
// (Dst16b or Dst32b, first row anywhere - wrapping past row 1023, and in Dst32b also across row 512
// into the rows adj32_row aliases - row mask, with or without committing validity) and a random
// ZEROACC, which the mirror TensixState executes through tmu::tensix::execute (all row offsets zero, so the
// RTL's ZEROACC inputs are the instruction's fields). Before each clock edge both read ports
// (random window, view and identity) are compared with DstRegs::read16/read32, the validity of every
// row, a random raw row, and za_rows_o with the DstBits rows the ZEROACC's WriteSet notes (the rows
// zeroacc.cpp passes to set_row_valid); at the end every raw row.
#include <array>
#include <cinttypes>
#include <string>

#include <fmt/format.h>

#include "harness.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"

namespace tmu_rtl {
namespace {

constexpr unsigned kReadPorts = 2;  // tmu_blocks_tb: tmu_dst_regs NumReadPorts
constexpr unsigned kBlockRows = 8;  // rows of a window
constexpr unsigned kBlockLanes = kBlockRows * tmu::tensix::kDstCols;
constexpr unsigned kBlocks = tmu::tensix::kDstRows / kBlockRows;
constexpr unsigned kRowMask = tmu::tensix::kDstRows - 1;

// First rows are drawn from a small area most of the time, so that writes, ZEROACCs and reads
// meet; now and then next to the wrap of Dst (row 1023 -> 0) or of the Dst32b rows below 512.
unsigned random_first_row(Rng& rng, unsigned area_block) {
  const unsigned pick = static_cast<unsigned>(rng.between(0, 99));
  if (pick < 65) return (area_block * kBlockRows + static_cast<unsigned>(rng.bits(6))) & kRowMask;
  if (pick < 75) return (tmu::tensix::kDstRows - 1 - static_cast<unsigned>(rng.bits(3))) & kRowMask;
  if (pick < 85) return tmu::tensix::kDst32Rows - 1 - static_cast<unsigned>(rng.bits(3));
  return static_cast<unsigned>(rng.bits(10));
}

uint32_t random_identity(Rng& rng) {
  const unsigned k = static_cast<unsigned>(rng.between(0, 2));
  return k == 0 ? 0u : k == 1 ? 0xFFFFFFFFu : static_cast<uint32_t>(rng.bits(32));
}

}  // namespace

int test_dst_regs(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "dst_regs");
  const uint64_t total = opt.random_cases(40000);
  tmu::tensix::TensixState s;
  top.dr_wr_en_i = top.dr_za_valid_i = 0;
  top.dr_rd_en_i = 1;  // this test reads every cycle; the other blocks' tests leave the reads idle
  sim.reset();

  // The storage is not reset (the refmodel's is zero): write every block once, bits only.
  for (unsigned blk = 0; blk < kBlocks; ++blk) {
    top.dr_wr_en_i = 1;
    top.dr_wr_row_i = blk * kBlockRows;
    top.dr_wr_dst32_i = 0;
    top.dr_wr_row_mask_i = 0xFF;
    top.dr_wr_set_valid_i = 0;
    for (unsigned e = 0; e < kBlockLanes; ++e) {
      const uint32_t v = static_cast<uint32_t>(rng.bits(16));
      top.dr_wr_data_i[e] = v;
      s.Dst.write16_bits(blk * kBlockRows + e / tmu::tensix::kDstCols, e % tmu::tensix::kDstCols, static_cast<uint16_t>(v));
    }
    sim.tick();
  }
  top.dr_wr_en_i = 0;

  auto compare_raw = [&](uint64_t cycle, unsigned row) {
    for (unsigned c = 0; c < tmu::tensix::kDstCols; ++c) {
      const uint32_t got = (top.dr_dbg_bits_o[c / 2] >> (16 * (c % 2))) & 0xFFFF;
      const uint32_t want = s.Dst.DstBits[row][c];
      if (got == want) chk.pass();
      else chk.fail("cycle %" PRIu64 " raw row %u col %u: rtl %04x ref %04x", cycle, row, c, got, want);
    }
  };

  unsigned window = 0;  // the 8-row block the accesses gather around
  uint64_t za_cycles = 0, za_rows_total = 0;
  for (uint64_t cycle = 0; cycle < total; ++cycle) {
    if (rng.chance(1, 100)) window = static_cast<unsigned>(rng.bits(7));

    // ---- stimulus ----
    const bool wr = rng.chance(50, 100);
    const unsigned wr_row = random_first_row(rng, window);
    const bool wr_dst32 = rng.bits(1), set_valid = rng.chance(70, 100);
    const unsigned mask = rng.chance(60, 100) ? 0xFFu : static_cast<unsigned>(rng.bits(8));
    std::array<uint32_t, kBlockLanes> wr_data{};
    for (auto& v : wr_data) v = static_cast<uint32_t>(rng.bits(32));

    const bool za = rng.chance(15, 100);
    const unsigned mode = static_cast<unsigned>(rng.between(0, 99)) < 60 ? 1u : static_cast<unsigned>(rng.between(0, 3));
    const bool use_dst32b = rng.bits(1), revert = mode == 1 && rng.chance(30, 100), fp32 = rng.bits(1);
    // 16-row blocks mostly near the window (and now and then out of range, which clears nothing).
    unsigned imm10 = static_cast<unsigned>(rng.bits(10));
    if (mode == 1 && rng.chance(80, 100)) imm10 = (window * kBlockRows / 16 / (use_dst32b ? 2 : 1) + rng.bits(1)) & 0xFF;
    if (mode == 0 && rng.chance(70, 100)) imm10 = random_first_row(rng, window);

    unsigned rd_row[kReadPorts], rd_dst32[kReadPorts];
    uint32_t identity[kReadPorts];
    for (unsigned p = 0; p < kReadPorts; ++p) {
      rd_row[p] = random_first_row(rng, window);
      rd_dst32[p] = static_cast<unsigned>(rng.bits(1));
      identity[p] = random_identity(rng);
    }
    const unsigned dbg_row = static_cast<unsigned>(rng.bits(10));

    top.dr_wr_en_i = wr;
    top.dr_wr_row_i = wr_row;
    top.dr_wr_dst32_i = wr_dst32;
    top.dr_wr_row_mask_i = mask;
    top.dr_wr_set_valid_i = set_valid;
    for (unsigned e = 0; e < kBlockLanes; ++e) top.dr_wr_data_i[e] = wr_data[e];
    top.dr_za_valid_i = za;
    top.dr_za_mode_i = mode;
    top.dr_za_row_i = imm10;
    top.dr_za_dst32_i = mode == 0 ? fp32 : use_dst32b;
    top.dr_za_block_i = imm10 & 0xFF;
    top.dr_za_revert_i = revert;
    top.dr_za_upper_half_i = imm10 & 1;
    top.dr_rd_row_i = rd_row[0] | (rd_row[1] << 10);
    top.dr_rd_dst32_i = rd_dst32[0] | (rd_dst32[1] << 1);
    top.dr_rd_identity_i = uint64_t{identity[0]} | (uint64_t{identity[1]} << 32);
    top.dr_dbg_row_i = dbg_row;
    sim.eval();

    // ---- compare the state before the clock edge ----
    for (unsigned p = 0; p < kReadPorts; ++p) {
      for (unsigned e = 0; e < kBlockLanes; ++e) {
        const unsigned row = (rd_row[p] + e / tmu::tensix::kDstCols) & kRowMask, col = e % tmu::tensix::kDstCols;
        const uint32_t got = top.dr_rd_data_o[p * kBlockLanes + e];
        const uint32_t want = rd_dst32[p] ? s.Dst.read32(row, col, identity[p])
                                          : s.Dst.read16(row, col, static_cast<uint16_t>(identity[p]));
        if (got == want) chk.pass();
        else chk.fail("cycle %" PRIu64 " port %u Dst%s row %u col %u (identity %08x): rtl %08x ref %08x", cycle, p,
                      rd_dst32[p] ? "32b" : "16b", row, col, identity[p], got, want);
      }
    }
    for (unsigned row = 0; row < tmu::tensix::kDstRows; ++row) {
      const bool got = (top.dr_row_valid_o[row / 32] >> (row % 32)) & 1;
      if (got == s.Dst.RowValid[row]) chk.pass();
      else chk.fail("cycle %" PRIu64 " validity of row %u: rtl %d ref %d", cycle, row, got, s.Dst.RowValid[row]);
    }
    compare_raw(cycle, dbg_row);
    std::array<bool, tmu::tensix::kDstRows> za_rows{};
    for (unsigned row = 0; row < tmu::tensix::kDstRows; ++row) za_rows[row] = (top.dr_za_rows_o[row / 32] >> (row % 32)) & 1;

    // ---- the mirror: the write (and its commit), then ZEROACC ----
    if (wr) {
      for (unsigned r = 0; r < kBlockRows; ++r) {
        if (!((mask >> r) & 1)) continue;
        const unsigned row = (wr_row + r) & kRowMask;
        for (unsigned c = 0; c < tmu::tensix::kDstCols; ++c) {
          const uint32_t v = wr_data[r * tmu::tensix::kDstCols + c];
          if (wr_dst32) s.Dst.write32_bits(row, c, v);
          else s.Dst.write16_bits(row, c, static_cast<uint16_t>(v));
        }
        if (set_valid) s.Dst.RowValid[wr_dst32 ? tmu::tensix::DstRegs::hi_row(row) : row] = true;
      }
    }
    if (za) {
      s.config_for(0).ALU_ACC_CTRL_Fp32_enabled = fp32;
      const std::string text = fmt::format("ZEROACC Mode={} UseDst32b={} Revert={} Imm10={}", mode, int{use_dst32b},
                                           int{revert}, imm10);
      const tmu::tensix::ExecResult res = tmu::tensix::execute(s, tmu::tensix::assemble(text, s.arch), 0);
      std::array<bool, tmu::tensix::kDstRows> want{};
      for (uint16_t row : res.writes.dst_rows) want[row] = true;
      za_cycles += 1;
      za_rows_total += res.writes.dst_rows.size();
      for (unsigned row = 0; row < tmu::tensix::kDstRows; ++row) {
        if (za_rows[row] == want[row]) chk.pass();
        else chk.fail("cycle %" PRIu64 " %s: za_rows_o[%u] rtl %d ref %d", cycle, text.c_str(), row, za_rows[row],
                      want[row]);
      }
    } else {
      bool none = true;
      for (bool r : za_rows) none &= !r;
      if (none) chk.pass();
      else chk.fail("cycle %" PRIu64 " za_rows_o not zero without a ZEROACC", cycle);
    }
    sim.tick();
  }

  top.dr_wr_en_i = top.dr_za_valid_i = 0;
  for (unsigned row = 0; row < tmu::tensix::kDstRows; ++row) {
    top.dr_dbg_row_i = row;
    sim.eval();
    compare_raw(total, row);
  }
  std::printf("dst_regs: %" PRIu64 " ZEROACCs noting %" PRIu64 " rows\n", za_cycles, za_rows_total);
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
