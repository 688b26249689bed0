// tmu_dst_regs against the refmodel's DstRegs. Every cycle drives a random 8-row block write
// (Dst16b or Dst32b, row mask, with or without committing validity) and a random ZEROACC, which the
// mirror TensixState executes through tmu::execute (all row offsets zero, so the RTL's ZEROACC
// inputs are the instruction's fields). Before each clock edge both read ports (random block, view
// and identity) are compared with DstRegs::read16/read32, the validity of every row, and a random
// raw row; at the end every raw row.
#include <array>
#include <cinttypes>
#include <string>

#include <fmt/format.h>

#include "harness.h"
#include "tmu/decode.h"
#include "tmu/exec.h"

namespace tmu_rtl {
namespace {

constexpr unsigned kReadPorts = 2;  // tmu_blocks_tb: tmu_dst_regs NumReadPorts
constexpr unsigned kBlockRows = 8;
constexpr unsigned kBlockLanes = kBlockRows * tmu::kDstCols;
constexpr unsigned kBlocks = tmu::kDstRows / kBlockRows;

// Blocks are drawn from a small window most of the time, so that writes, ZEROACCs and reads meet.
unsigned random_block(Rng& rng, unsigned window_start) {
  return rng.chance(70) ? (window_start + static_cast<unsigned>(rng.bits(3))) % kBlocks
                        : static_cast<unsigned>(rng.bits(7));
}

uint32_t random_identity(Rng& rng) {
  const unsigned k = static_cast<unsigned>(rng.range(0, 2));
  return k == 0 ? 0u : k == 1 ? 0xFFFFFFFFu : static_cast<uint32_t>(rng.bits(32));
}

}  // namespace

int test_dst_regs(Sim& sim, const Options& opt) {
  Checker chk("dst_regs");
  Rng rng(opt.seed);
  Model& top = *sim.top;
  const uint64_t total = opt.cases ? opt.cases : 40000;
  tmu::TensixState s;
  top.dr_wr_en_i = top.dr_za_valid_i = 0;
  sim.reset();

  // The storage is not reset (the refmodel's is zero): write every block once, bits only.
  for (unsigned blk = 0; blk < kBlocks; ++blk) {
    top.dr_wr_en_i = 1;
    top.dr_wr_block_i = blk;
    top.dr_wr_dst32_i = 0;
    top.dr_wr_row_mask_i = 0xFF;
    top.dr_wr_set_valid_i = 0;
    for (unsigned e = 0; e < kBlockLanes; ++e) {
      const uint32_t v = static_cast<uint32_t>(rng.bits(16));
      top.dr_wr_data_i[e] = v;
      s.Dst.write16_bits(blk * kBlockRows + e / tmu::kDstCols, e % tmu::kDstCols, static_cast<uint16_t>(v));
    }
    sim.tick();
  }
  top.dr_wr_en_i = 0;

  auto compare_raw = [&](uint64_t cycle, unsigned row) {
    for (unsigned c = 0; c < tmu::kDstCols; ++c) {
      const uint32_t got = (top.dr_dbg_bits_o[c / 2] >> (16 * (c % 2))) & 0xFFFF;
      const uint32_t want = s.Dst.DstBits[row][c];
      if (got == want) chk.pass();
      else chk.fail("cycle %" PRIu64 " raw row %u col %u: rtl %04x ref %04x", cycle, row, c, got, want);
    }
  };

  unsigned window = 0;
  for (uint64_t cycle = 0; cycle < total; ++cycle) {
    if (rng.chance(1)) window = static_cast<unsigned>(rng.bits(7));

    // ---- stimulus ----
    const bool wr = rng.chance(50);
    const unsigned wr_block = random_block(rng, window);
    const bool wr_dst32 = rng.bits(1), set_valid = rng.chance(70);
    const unsigned mask = rng.chance(60) ? 0xFFu : static_cast<unsigned>(rng.bits(8));
    std::array<uint32_t, kBlockLanes> wr_data{};
    for (auto& v : wr_data) v = static_cast<uint32_t>(rng.bits(32));

    const bool za = rng.chance(15);
    const unsigned mode = static_cast<unsigned>(rng.range(0, 99)) < 60 ? 1u : static_cast<unsigned>(rng.range(0, 3));
    const bool use_dst32b = rng.bits(1), revert = mode == 1 && rng.chance(30), fp32 = rng.bits(1);
    // 16-row blocks mostly near the window (and now and then out of range, which clears nothing).
    unsigned imm10 = static_cast<unsigned>(rng.bits(10));
    if (mode == 1 && rng.chance(80)) imm10 = (window * kBlockRows / 16 / (use_dst32b ? 2 : 1) + rng.bits(1)) & 0xFF;
    if (mode == 0 && rng.chance(70)) imm10 = (random_block(rng, window) * kBlockRows + rng.bits(3)) & 0x3FF;

    unsigned rd_block[kReadPorts], rd_dst32[kReadPorts];
    uint32_t identity[kReadPorts];
    for (unsigned p = 0; p < kReadPorts; ++p) {
      rd_block[p] = random_block(rng, window);
      rd_dst32[p] = static_cast<unsigned>(rng.bits(1));
      identity[p] = random_identity(rng);
    }
    const unsigned dbg_row = static_cast<unsigned>(rng.bits(10));

    top.dr_wr_en_i = wr;
    top.dr_wr_block_i = wr_block;
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
    top.dr_rd_block_i = rd_block[0] | (rd_block[1] << 7);
    top.dr_rd_dst32_i = rd_dst32[0] | (rd_dst32[1] << 1);
    top.dr_rd_identity_i = uint64_t{identity[0]} | (uint64_t{identity[1]} << 32);
    top.dr_dbg_row_i = dbg_row;
    sim.eval();

    // ---- compare the state before the clock edge ----
    for (unsigned p = 0; p < kReadPorts; ++p) {
      for (unsigned e = 0; e < kBlockLanes; ++e) {
        const unsigned row = rd_block[p] * kBlockRows + e / tmu::kDstCols, col = e % tmu::kDstCols;
        const uint32_t got = top.dr_rd_data_o[p * kBlockLanes + e];
        const uint32_t want = rd_dst32[p] ? s.Dst.read32(row, col, identity[p])
                                          : s.Dst.read16(row, col, static_cast<uint16_t>(identity[p]));
        if (got == want) chk.pass();
        else chk.fail("cycle %" PRIu64 " port %u Dst%s row %u col %u (identity %08x): rtl %08x ref %08x", cycle, p,
                      rd_dst32[p] ? "32b" : "16b", row, col, identity[p], got, want);
      }
    }
    for (unsigned row = 0; row < tmu::kDstRows; ++row) {
      const bool got = (top.dr_row_valid_o[row / 32] >> (row % 32)) & 1;
      if (got == s.Dst.RowValid[row]) chk.pass();
      else chk.fail("cycle %" PRIu64 " validity of row %u: rtl %d ref %d", cycle, row, got, s.Dst.RowValid[row]);
    }
    compare_raw(cycle, dbg_row);

    // ---- the mirror: the write (and its commit), then ZEROACC ----
    if (wr) {
      for (unsigned r = 0; r < kBlockRows; ++r) {
        if (!((mask >> r) & 1)) continue;
        const unsigned row = wr_block * kBlockRows + r;
        for (unsigned c = 0; c < tmu::kDstCols; ++c) {
          const uint32_t v = wr_data[r * tmu::kDstCols + c];
          if (wr_dst32) s.Dst.write32_bits(row, c, v);
          else s.Dst.write16_bits(row, c, static_cast<uint16_t>(v));
        }
        if (set_valid) s.Dst.RowValid[wr_dst32 ? tmu::DstRegs::hi_row(row) : row] = true;
      }
    }
    if (za) {
      s.config_for(0).ALU_ACC_CTRL_Fp32_enabled = fp32;
      const std::string text = fmt::format("ZEROACC Mode={} UseDst32b={} Revert={} Imm10={}", mode, int{use_dst32b},
                                           int{revert}, imm10);
      tmu::execute(s, tmu::assemble(text, s.arch), 0);
    }
    sim.tick();
  }

  top.dr_wr_en_i = top.dr_za_valid_i = 0;
  for (unsigned row = 0; row < tmu::kDstRows; ++row) {
    top.dr_dbg_row_i = row;
    sim.eval();
    compare_raw(total, row);
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
