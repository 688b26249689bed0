// Directed sequences for the corners the LLK sequences leave alone: Dst hazards at every window, a
// hazard-free stream that must not stall, Matrix Unit writes of every Src row and window offset,
// ZEROACC under every Dst offset and tile mode, GMPOOL argmax over negative maxima, ADDR_MOD bias and
// CLR_DVALID on every thread, the INT8 zero flag on every SrcB exponent bit, INT8 accumulation at the
// INT32 saturation limits, and the bank format tags and format overrides the operands are read with.
// docs/mutation-report.md gives, for each, the RTL mutants that showed the corner untested.
#include "directed.h"
#include "tmu/bits.h"
#include "tmu/tensix/isa.h"

namespace tmu::tb {
using namespace tmu::tensix;

namespace {

constexpr uint32_t kResetCounters = 0x3700000f;  // SETRWC SrcA SrcB Dst Fidelity: counters and phase to 0

RowFn bf16_rows() {
  return [](unsigned, unsigned, Rng& rng) { return realistic_row(rng); };
}

// Both Dst views, 16-bit then 32-bit, with the counters at 0: body(g, windows, dst32) for each of the
// view's 8-row windows g.
template <typename Body>
void for_each_dst_window(D& d, Body body) {
  d.addr_mod(0, {});
  for (unsigned dst32 = 0; dst32 < 2; ++dst32) {
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", dst32);
    d.word(kResetCounters);
    const unsigned windows = dst32 ? kDstRows / 16 : kDstRows / 8;
    for (unsigned g = 0; g < windows; ++g) body(g, windows, dst32 != 0);
  }
}

// ---- Dst hazards: every 8-row window is written and read back at once (the reader must wait for the
// write), in both views; in the 16-bit view a ZEROACC of one row is read back at once too. ----
void dst_hazard_body(D& d) {
  for_each_dst_window(d, [&d](unsigned g, unsigned, bool dst32) {
    const unsigned base = 8 * g, j = g % 8;
    d.op(fmt::format("ELWADD DstRow={} AddDst=1", base));
    d.op(fmt::format("MOVD2B DstRow={} SrcRow={}", base + j, 32 + g % 32));
    if (!dst32 && g % 2 == 0) {
      const unsigned row = base + (j + 3) % 8;
      d.op(fmt::format("ZEROACC Mode=0 Imm10={}", row));
      d.op(fmt::format("MOVD2A DstRow={} SrcRow={}", row, 32 + g % 32));
    }
  });
}

// ---- The same traffic with every reader half of Dst away from the writes before it: no instruction
// has a reason to wait for Dst (the test is marked so; a Dst hazard stall fails it). ----
void dst_no_hazard_body(D& d) {
  for_each_dst_window(d, [&d](unsigned g, unsigned windows, bool) {
    d.op(fmt::format("ELWADD DstRow={} AddDst=1", 8 * g));
    d.op(fmt::format("MOVD2B DstRow={} SrcRow={}", 8 * ((g + windows / 2) % windows) + g % 8, g % 64));
  });
}

// ---- Matrix Unit writes of Src: the low halves of 32-bit Dst rows, four rows at every aligned offset, then cleared banks and single
// rows at every offset but two in eight (those stay cleared to the end, so a stray change of their
// "cleared" state shows), MOVB2A for every aligned SrcB row, SHIFTXA around each 16-row block,
// SHIFTXB, TRNSPSRCB; twice, the second time with -inf SrcA and denormal flushing off. ----
void src_writes_body(D& d) {
  // The low halves of 32-bit Dst rows, from every row of an 8-row group (the Dst read port's window
  // starts where the MOV does), one and four rows at a time.
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 1);
  for (unsigned r = 0; r < 16; ++r) {
    d.op(fmt::format("MOVD2A DstRow={} SrcRow={} UseDst32bLo=1", 40 + r, r));
    d.op(fmt::format("MOVD2B DstRow={} SrcRow={} UseDst32bLo=1", 200 + r, 16 + r));
  }
  for (unsigned r = 0; r < 16; r += 4) {
    d.op(fmt::format("MOVD2A DstRow={} SrcRow={} Move4Rows=1 UseDst32bLo=1", 64 + r, 32 + r));
    d.op(fmt::format("MOVD2B DstRow={} SrcRow={} Move4Rows=1 UseDst32bLo=1", 300 + r, 48 + r));
  }
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 0);
  for (unsigned pass = 0; pass < 2; ++pass) {
    d.cfg("ALU_ACC_CTRL_Zero_Flag_disabled_src", pass);
    for (unsigned r = 0; r < kSrcRows; r += 4) {
      d.op(fmt::format("MOVD2A DstRow={} SrcRow={} Move4Rows=1", (8 * r + 4 * pass) % kDstRows, r));
      d.op(fmt::format("MOVD2B DstRow={} SrcRow={} Move4Rows=1", (12 * r + 512) % kDstRows, r));
    }
    d.op(fmt::format("ZEROSRC ClearSrcA=1 ClearSrcB=1 SingleBankMatrixUnit=1 NegativeInfSrcA={}", pass));
    for (unsigned r = 0; r < kSrcRows; ++r) {
      if (r % 8 == 3 || r % 8 == 6) continue;
      d.op(fmt::format("MOVD2A DstRow={} SrcRow={}", (37 * r + pass) % kDstRows, r));
      d.op(fmt::format("MOVD2B DstRow={} SrcRow={}", (53 * r + 7) % kDstRows, r));
    }
    for (unsigned k = 0; k < kSrcRows / 4; ++k)
      d.op(fmt::format("MOVB2A SrcBRow={} SrcARow={} Move4Rows=1", 4 * k, 4 * ((5 * k + pass) % 16)));
    for (unsigned block = 0; block < 4; ++block)
      for (unsigned direction = 2; direction < 4; ++direction) {
        d.op(fmt::format("MOVD2A DstRow={} SrcRow={}", 100 + block, 16 * block + 5));  // sets LastSrcARow
        d.op(fmt::format("SHIFTXA Direction={}", direction));
      }
    for (unsigned r = 0; r < kSrcRows; r += 9) d.op(fmt::format("SHIFTXB SrcRow={} ShiftInZero={}", r, r % 2));
    d.op("TRNSPSRCB");
  }
  // Cleared SrcB rows under four-row writes: every row holds data, ZEROSRC clears the bank, half the
  // four-row groups are written again (each write sets four rows' "cleared" state back), and every
  // row is moved out to Dst. The two rounds swap the halves, so each row is once written after the
  // clear and once left cleared (stale data beneath) while the other groups are written.
  for (unsigned round = 0; round < 2; ++round) {
    for (unsigned r = 0; r < kSrcRows; r += 4)
      d.op(fmt::format("MOVD2B DstRow={} SrcRow={} Move4Rows=1", (16 * r + 4 * round) % kDstRows, r));
    d.op("ZEROSRC ClearSrcB=1 SingleBankMatrixUnit=1");
    for (unsigned r = 4 * round; r < kSrcRows; r += 8)
      d.op(fmt::format("MOVD2B DstRow={} SrcRow={} Move4Rows=1", (24 * r + 8) % kDstRows, r));
    for (unsigned r = 0; r < kSrcRows; ++r)
      d.op(fmt::format("MOVB2D DstRow={} SrcRow={}", 256 + 128 * round + r, r));
  }
}

// ---- ZEROACC: every mode under every Dst offset, in the relative and (Blackhole) absolute tile
// modes, both views; reverts of single blocks after a whole clear. Writes between make the cleared
// rows visible; the final compare checks every row's validity. ----
void zeroacc_sweep_body(D& d) {
  d.addr_mod(0, {{"SrcAIncr", 8}, {"SrcBIncr", 8}, {"DestIncr", 8}});
  d.addr_mod(2, {});
  const bool blackhole = d.arch() == Arch::Blackhole;
  for (unsigned dst32 : {1u, 0u}) {  // the 16-bit pass last: its reverts' validity lasts to the final compare
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", dst32);
    // Every block alone, with its partner in the other half of the block numbers written too and
    // both read back at once (AddDst reads the cleared rows): a row a block misses, or a block
    // number that loses its high bit, shows at the next instruction. First in the pass, so the
    // reverts below keep their validity to the final compare.
    const unsigned blocks = dst32 ? kDstRows / 32 : kDstRows / 16, half = blocks / 2;
    d.word(kResetCounters);
    for (unsigned block = 0; block < blocks; ++block) {
      const unsigned partner = block ^ half;
      for (unsigned b : {block, partner})
        for (unsigned w = 0; w < 2; ++w) d.op(fmt::format("ELWADD AddrMod=2 DstRow={} AddDst=1", 16 * b + 8 * w));
      d.op(fmt::format("ZEROACC Mode=1 Imm10={} UseDst32b={}", block, dst32));
      for (unsigned b : {block, partner})
        for (unsigned w = 0; w < 2; ++w) d.op(fmt::format("ELWADD AddrMod=2 DstRow={} AddDst=1", 16 * b + 8 * w));
    }
    d.op("ZEROACC Mode=3");
    for (unsigned block : {0u, 3u, 17u, 32u, 40u, 63u})
      d.op(fmt::format("ZEROACC Mode=1 Imm10={} UseDst32b={} Revert=1", block, dst32));
    for (unsigned absolute = 0; absolute < (blackhole ? 2u : 1u); ++absolute) {
      if (blackhole) d.global("DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", absolute);
      for (unsigned offset : {0x000u, 0x100u, 0x200u, 0x300u}) {
        d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", offset);
        d.word(kResetCounters);
        for (unsigned b = 0; b < 4; ++b) d.op("ELWADD AddrMod=0 AddDst=1");
        for (unsigned block : {0u, 1u, 17u, 32u, 33u, 100u})
          d.op(fmt::format("ZEROACC Mode=1 Imm10={} UseDst32b={}", block, dst32));
        d.op(fmt::format("ZEROACC Mode=1 Imm10=2 UseDst32b={} Revert=1", dst32));
        d.op(fmt::format("ZEROACC Mode=0 Imm10={}", 5 + offset / 64));
      }
    }
    d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", 0);
    if (blackhole) d.global("DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", 0);
    d.op(fmt::format("ZEROACC Mode=2 Imm10={}", dst32));
    d.word(kResetCounters);
    for (unsigned b = 0; b < 8; ++b) d.op("ELWADD AddrMod=0 AddDst=1");
  }
}

// ---- GMPOOL argmax with negative maxima: odd columns hold only negative values (the largest, -2^-7,
// planted with ties), even columns the positive max-pool data; FP32 Dst, then 16-bit Dst. ----
RowFn signed_maxpool_rows() {
  return [](unsigned operand, unsigned, Rng& rng) {
    std::array<uint32_t, kSrcCols> r{};
    if (operand == 1) {
      r.fill(bf16_datum(0, 127, 0));
      return r;
    }
    for (unsigned c = 0; c < kSrcCols; ++c) {
      const bool planted = rng.below(8) == 0;
      const uint32_t exp = static_cast<uint32_t>(121 + rng.below(6)), mant = static_cast<uint32_t>(rng() & 127);
      if (c % 2) r[c] = planted ? bf16_datum(1, 120, 0) : bf16_datum(1, exp, mant);
      else       r[c] = planted ? bf16_datum(0, 127, 64) : bf16_datum(0, exp, mant);
    }
    return r;
  };
}

void signed_maxpool_body(D& d) {
  d.addr_mod(1, {{"SrcAIncr", 16}});
  d.op("ZEROACC Mode=3");
  for (unsigned block = 0; block < 4; ++block) d.op("GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1");
  // Without argmax, twice on rows 4..7: the second keeps some of the first's FP32 maxima (both halves).
  d.op("SETRWC SrcA=1 Fidelity=1");
  for (unsigned block = 0; block < 2; ++block) d.op("GMPOOL Dim16x16=1 ArgMax=0 AddrMod=1 DstRow=4");
  d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  for (unsigned block = 0; block < 4; ++block) d.op("GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1");  // onto those maxima
  d.op("GMPOOL Dim16x16=1 ArgMax=0 AddrMod=1 DstRow=4");
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 0);
  d.op("SETRWC SrcA=1 Fidelity=1");
  d.op("GMPOOL Dim16x16=1 ArgMax=0 AddrMod=1 DstRow=64");
  d.op("GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1 DstRow=72");
}

// ---- INCRWC's every increment; per-thread ADDR_MOD slots with counter increments and bias steps
// (odd BiasIncr only on Wormhole: on Blackhole an odd ExtraAddrModBit makes later ADDR_MOD use
// unsupported, refused_instructions has those), each slot applied by its thread; then
// CLR_DVALID_*_Disable on that thread: a flip that keeps the bank; then the thread's Dst offset. ----
void addr_mod_threads_body(D& d) {
  const bool wormhole = d.arch() == Arch::Wormhole;
  // INCRWC with every increment value in each counter, each followed by an ELWADD at the counters
  // it set (slot 0 adds nothing).
  d.addr_mod(0, {});
  for (unsigned v = 0; v < 16; ++v) {
    d.word(kResetCounters);
    d.op(fmt::format("INCRWC SrcAInc={} SrcBInc={} DstInc={}", v, 15 - v, v));
    d.op("ELWADD AddrMod=0 AddDst=1");
  }
  for (unsigned t = 0; t < kNumThreads; ++t) {
    for (unsigned slot = 0; slot < kNumAddrMods; ++slot) {
      const uint32_t bias = wormhole ? (slot % 2 ? 1u : 2u) + 4 * (slot / 2) : 4 * (slot % 4);
      d.addr_mod(slot, {{"SrcAIncr", slot}, {"SrcBIncr", 2 * slot}, {"DestIncr", 8 * slot + t},
                        {"BiasIncr", bias}, {"BiasClear", slot == 7 ? 1u : 0u}}, t);
    }
    d.word(kResetCounters, t);
    for (unsigned slot = 0; slot < kNumAddrMods; ++slot) d.op_am("ZEROACC Mode=0 Imm10=0", slot, t);
    for (unsigned slot = kNumAddrMods; slot-- > 0;) d.op_am("ZEROACC Mode=0 Imm10=1", slot, t);
    d.word(kResetCounters, t);
    d.tcfg("CLR_DVALID_SrcA_Disable", 1, t);
    d.tcfg("CLR_DVALID_SrcB_Disable", 1, t);
    d.op("ELWADD AddrMod=0 FlipSrcA=1 FlipSrcB=1", t);  // keeps bank 0, moves on to the filled bank 1
    d.tcfg("CLR_DVALID_SrcA_Disable", 0, t);
    d.tcfg("CLR_DVALID_SrcB_Disable", 0, t);
    d.op("ELWADD AddrMod=0 DstRow=16 FlipSrcA=1 FlipSrcB=1", t);  // releases bank 1, back to bank 0
    d.op("ELWADD AddrMod=0 DstRow=32 FlipSrcA=1 FlipSrcB=1", t);  // releases bank 0: the start again
    // The thread's own Dst offset, alternating bits (each low bit set in one write, clear in the other).
    d.word(kResetCounters, t);
    for (uint32_t offset : {0x155u, 0x2aau}) {
      d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", offset + 16 * t, t);
      d.op("ELWADD AddrMod=0 DstRow=8 AddDst=1", t);
    }
    d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", 0, t);
  }
}

// ---- Element-wise differences that wrap: SrcA and SrcB share an exponent and SrcB's magnitude is
// the larger in every lane, so the aligned subtraction goes below zero (the wrapped term of
// tmu_elw_adder); Dst's exponents lie from one below to six above the operands', where the wrapped
// term is aligned to Dst and its top bits reach the result's last kept bits. ELWADD subtracts on the
// even rows (SrcB negative there), ELWSUB on the odd ones; both Dst views. ----
constexpr uint32_t kWrapExponent = 127;

RowFn wrapped_difference_rows() {
  return [](unsigned operand, unsigned row, Rng& rng) {
    std::array<uint32_t, kSrcCols> r{};
    for (auto& v : r) {
      const auto mant = static_cast<uint32_t>(rng.below(64));  // SrcA below 64, SrcB from 64
      v = operand == 0 ? bf16_datum(0, kWrapExponent, mant) : bf16_datum(row % 2 == 0, kWrapExponent, 64 + mant);
    }
    return r;
  };
}

void wrapped_difference_dst(InitialState& init, Rng& rng) {
  for (unsigned r = 0; r < kDstRows; ++r) {
    std::array<uint16_t, kDstCols> values{};
    for (auto& v : values) {
      const auto exp = static_cast<uint32_t>(kWrapExponent - 1 + rng.below(8));
      v = static_cast<uint16_t>(((rng() & 1) << 15) | (exp << 7) | (rng() & 127));
    }
    init.dst_rows.push_back({r, values, true});
  }
}

void wrapped_difference_body(D& d) {
  d.addr_mod(0, {{"SrcAIncr", 8}, {"SrcBIncr", 8}, {"DestIncr", 8}});
  for (unsigned dst32 : {1u, 0u}) {
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", dst32);
    for (const char* op : {"ELWADD", "ELWSUB"}) {
      d.word(kResetCounters);
      for (unsigned w = 0; w < kSrcRows / 8; ++w)
        d.op(fmt::format("{} AddrMod=0 DstRow={} AddDst=1", op, dst32 ? 0 : 256));
    }
  }
}

// ---- The INT8 zero flag: it reads all eight bits of SrcB's exponent field (int8_math.cpp
// masked_operand), but the unpackers write only the marker 16 or 0. SrcB's datums carry each
// single-bit exponent in turn beside 0 and the marker, so a datapath that tests fewer bits reads
// some non-zero magnitude as 0; ELWADD, ELWSUB and ELWMUL, with the flag enabled and disabled. ----
RowFn int8_exponent_bit_rows() {
  static constexpr std::array<uint32_t, 10> kExponents = {0, 16, 1, 2, 4, 8, 32, 64, 128, 0xFF};
  return [](unsigned operand, unsigned row, Rng& rng) {
    std::array<uint32_t, kSrcCols> r{};
    for (unsigned c = 0; c < kSrcCols; ++c) {
      const auto sign = static_cast<uint32_t>(rng() & 1);
      if (operand == 0) {
        const auto mag = static_cast<uint32_t>(rng.below(1024));
        r[c] = src_layout::assemble(sign, mag, mag ? src_layout::kInt8Marker : 0u);
      } else {
        const auto mag = static_cast<uint32_t>(1 + rng.below(1023));
        r[c] = src_layout::assemble(sign, mag, kExponents[(row * kSrcCols + c) % kExponents.size()]);
      }
    }
    return r;
  };
}

void int8_zero_flag_body(D& d) {
  d.cfg("ALU_ACC_CTRL_INT8_math_enabled", 1);
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 1);
  d.addr_mod(0, {{"SrcAIncr", 8}, {"SrcBIncr", 8}, {"DestIncr", 8}});
  for (unsigned disabled : {0u, 1u}) {
    d.cfg("ALU_ACC_CTRL_Zero_Flag_disabled_src", disabled);
    for (const char* op : {"ELWADD", "ELWSUB", "ELWMUL"}) {
      d.word(kResetCounters);
      for (unsigned w = 0; w < kSrcRows / 8; ++w) d.op(fmt::format("{} AddrMod=0 AddDst=1", op));
    }
  }
}

// ---- INT8 accumulation at the INT32 limits: Dst32b values near +/-(2^31 - 1) plus INT8 products,
// so tmu_int8_sat_acc saturates (both signs), lands on the limit exactly and subtracts next to it.
// SrcA is +32 everywhere and SrcB row r is 64 with the sign (-1)^r: at fidelity phase 0 (SrcA
// magnitude bits 7:5, SrcB bits 9:4, int8_math.cpp) ELWMUL's product is +/-2048 and MVMUL's dot
// (16 such products) +/-32768, with SrcB's row's sign. ELWMUL accumulates into Dst32b rows 0..7,
// MVMUL into rows 8..15; column c of a row holds int8_limit_dst(c) with that row's product sign and
// magnitude. The seed varies only columns 8..15. ----
constexpr int64_t kInt32Limit = (int64_t{1} << 31) - 1;
constexpr uint32_t kInt8LimitSrcA = 32, kInt8LimitSrcB = 64;
constexpr int64_t kElwmulProduct = int64_t{kInt8LimitSrcA} * kInt8LimitSrcB, kMvmulDot = 16 * kElwmulProduct;

// Dst's value for column c, with s the sign of the product added to it and p its magnitude.
int64_t int8_limit_dst(unsigned c, int64_t s, int64_t p, Rng& rng) {
  switch (c) {
    case 0: return s * kInt32Limit;                // at the limit already: stays there
    case 1: return s * (kInt32Limit - p);          // reaches the limit exactly
    case 2: return s * (kInt32Limit - p + 1);      // 2^31: one past it
    case 3: return s * (kInt32Limit - 1);          // p - 1 past it
    case 4: return -s * kInt32Limit;               // opposite signs: a subtraction, never saturated
    case 5: return 0;
    case 6: return s * (int64_t{1} << 30);
    case 7: return -s * p;                         // sums to +0
    default: return s * (kInt32Limit - static_cast<int64_t>(rng.below(2 * static_cast<uint64_t>(p))));
  }
}

RowFn int8_limit_rows() {
  return [](unsigned operand, unsigned row, Rng&) {
    std::array<uint32_t, kSrcCols> r{};
    const uint32_t sign = operand == 1 ? row & 1 : 0;
    r.fill(src_layout::assemble(sign, operand == 0 ? kInt8LimitSrcA : kInt8LimitSrcB, src_layout::kInt8Marker));
    return r;
  };
}

void int8_limit_dst_rows(InitialState& init, Rng& rng) {
  for (unsigned row32 = 0; row32 < 16; ++row32) {
    const int64_t s = row32 % 2 ? -1 : 1, p = row32 < 8 ? kElwmulProduct : kMvmulDot;
    std::array<uint16_t, kDstCols> high{}, low{};
    for (unsigned c = 0; c < kDstCols; ++c) {
      const uint32_t v = dst32_from_int32(static_cast<int32_t>(int8_limit_dst(c, s, p, rng)));
      high[c] = static_cast<uint16_t>(dst_layout::high_half(v));
      low[c] = static_cast<uint16_t>(dst_layout::low_half(v));
    }
    init.dst_rows.push_back({DstRegs::hi_row(row32), high, true});
    init.dst_rows.push_back({DstRegs::lo_row(row32), low, true});
  }
}

void int8_limit_body(D& d) {
  d.cfg("ALU_ACC_CTRL_INT8_math_enabled", 1);
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 1);
  d.addr_mod(0, {});
  d.word(kResetCounters);
  d.op("ELWMUL AddrMod=0");
  d.op("MVMUL AddrMod=0 DstRow=8");
}

// ---- The formats operands are read in: Blackhole's bank tags as preloaded, then ALU_FORMAT_SPEC
// overrides (with implied formats disabled on Blackhole). SrcB is read in its own style only when
// both operands have 8-bit exponents (BF16 or TF32 style; otherwise in SrcA's), so the pairs are
// chosen where SrcB's format decides, and the data has the mantissa bits TF32 reads and BF16 drops. ----
RowFn full_mantissa_rows() {
  return [](unsigned, unsigned, Rng& rng) { return random_src_row(rng, SrcStyle::TF32); };
}

void preload_tags(InitialState& init, Rng&) {
  for (SrcBankInit& b : init.banks)
    if (b.bank == 0) b.format = static_cast<uint32_t>(b.operand == 0 ? DataFormat::TF32 : DataFormat::FP32);
}

void operand_formats_body(D& d) {
  d.addr_mod(0, {{"SrcAIncr", 8}, {"SrcBIncr", 8}, {"DestIncr", 8}});
  d.word(kResetCounters);
  for (unsigned b = 0; b < 2; ++b) d.op("ELWMUL AddrMod=0");
  d.op("MVMUL AddrMod=0");
  d.op("ELWADD AddrMod=0 AddDst=1");
  const bool blackhole = d.arch() == Arch::Blackhole;
  if (blackhole) {
    d.tcfg("DISABLE_IMPLIED_SRCA_FMT_Base", 1);
    d.tcfg("DISABLE_IMPLIED_SRCB_FMT_Base", 1);
  }
  d.cfg("ALU_FORMAT_SPEC_REG_SrcA_override", 1);
  d.cfg("ALU_FORMAT_SPEC_REG_SrcB_override", 1);
  const std::array<std::pair<DataFormat, DataFormat>, 4> overrides = {{{DataFormat::TF32, DataFormat::BF16},
                                                                        {DataFormat::BF16, DataFormat::TF32},
                                                                        {DataFormat::FP32, DataFormat::BF16},
                                                                        {DataFormat::FP16, DataFormat::FP32}}};
  // Each pair through ELWADD (the whole mantissa) and MVMUL at all four fidelity phases (the low
  // SrcB bits that tell TF32 from BF16 enter only in the phases that take SrcB's low slice).
  d.addr_mod(1, {{"FidelityIncr", 1}});
  for (const auto& [a, b] : overrides) {
    d.cfg("ALU_FORMAT_SPEC_REG_SrcA_val", static_cast<uint32_t>(a));
    d.cfg("ALU_FORMAT_SPEC_REG_SrcB_val", static_cast<uint32_t>(b));
    d.word(kResetCounters);
    d.op("ELWMUL AddrMod=0");
    d.op("ELWADD AddrMod=0 AddDst=1");
    for (unsigned phase = 0; phase < 4; ++phase) d.op("MVMUL AddrMod=1 DstRow=32");
    // Dst to Src in this SrcA format from the 32-bit view, all 32 bits read (not Dst32bLo's low
    // half): the format decides what the FP32 value becomes.
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", 1);
    d.op("MOVD2A DstRow=0 SrcRow=40 Move4Rows=1");
    d.op("MOVD2B DstRow=4 SrcRow=44 Move4Rows=1");
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", 0);
  }
  d.cfg("ALU_FORMAT_SPEC_REG_SrcA_override", 0);
  d.cfg("ALU_FORMAT_SPEC_REG_SrcB_override", 0);
  if (blackhole) {
    d.tcfg("DISABLE_IMPLIED_SRCA_FMT_Base", 0);
    d.tcfg("DISABLE_IMPLIED_SRCB_FMT_Base", 0);
  }
  d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  d.op("ELWMUL AddrMod=0 DstRow=64");  // the filled banks, tagged BF16 by the unpackers
}

// ---- Words the ISA refuses: every unknown opcode, every instruction with a reserved bit set and
// with each bounded field one above its maximum (decode errors), and the encodings the model gives
// no result for (undefined, unsupported); on every thread, with valid instructions between, so a
// refusal that changes anything shows at once. ----
void refused_body(D& d) {
  d.addr_mod(0, {{"DestIncr", 8}});
  const Arch arch = d.arch();
  unsigned thread = 0;
  auto next_thread = [&] { return thread = (thread + 1) % kNumThreads; };
  for (unsigned opcode = 0; opcode < 256; ++opcode)
    if (!find_by_opcode(arch, static_cast<uint8_t>(opcode)))
      d.refused((opcode << 24) | static_cast<uint32_t>(d.rng()() & 0xFFFFFF), next_thread());
  d.op("ELWADD AddrMod=0 AddDst=1", next_thread());
  for (const InsnSpec& spec : instructions(arch)) {
    const uint32_t base = uint32_t{spec.opcode} << 24;
    const uint32_t lowest = spec.reserved_mask & (~spec.reserved_mask + 1), others = spec.reserved_mask & ~lowest;
    if (lowest) d.refused(base | lowest, next_thread());
    if (others) d.refused(base | others, next_thread());
    for (const FieldSpec& f : spec.fields())
      if (!f.has_conditional_max() && f.max < low_mask(f.width)) d.refused(base | ((f.max + 1) << f.lo), next_thread());
    d.op("ELWADD AddrMod=0 AddDst=1", next_thread());
  }
  for (const char* text : {"GMPOOL Dim16x16=0", "GAPOOL Dim16x16=0", "DOTPV AddDst=1", "MOVB2A Move4Rows=0",
                           "MOVB2A SrcARow=2 Move4Rows=1", "MOVB2A SrcBRow=1 Move4Rows=1", "SHIFTXA Direction=0",
                           "SHIFTXA Direction=1", "ZEROACC Mode=0 Revert=1", "ZEROACC Mode=2 Revert=1",
                           "ZEROACC Mode=3 Revert=1", "SETDMAREG SetSignalsMode=1", "SHIFTDMAREG Mode=2",
                           "BITWOPDMAREG Mode=3", "CMPDMAREG Mode=3"}) {
    d.refused(std::string(text), next_thread());
    d.op("ELWADD AddrMod=0 AddDst=1", thread);
  }
  // Dst -> Src moves the 16-bit view cannot serve: Dst32bLo's low half, and a TF32 SrcA format
  // (implied formats off on Blackhole, so the override decides).
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 0);
  d.refused("MOVD2A DstRow=8 SrcRow=4 UseDst32bLo=1", thread);
  d.refused("MOVD2B DstRow=16 SrcRow=12 Move4Rows=1 UseDst32bLo=1", thread);
  if (arch == Arch::Blackhole) d.tcfg("DISABLE_IMPLIED_SRCA_FMT_Base", 1, thread);
  d.cfg("ALU_FORMAT_SPEC_REG_SrcA_override", 1);
  d.cfg("ALU_FORMAT_SPEC_REG_SrcA_val", static_cast<uint32_t>(DataFormat::TF32));
  d.refused("MOVD2A DstRow=24 SrcRow=20", thread);
  d.refused("MOVD2B DstRow=32 SrcRow=28 Move4Rows=1", thread);
  d.cfg("ALU_FORMAT_SPEC_REG_SrcA_override", 0);
  if (arch == Arch::Blackhole) d.tcfg("DISABLE_IMPLIED_SRCA_FMT_Base", 0, thread);
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 1);
  d.op("ELWADD AddrMod=0 AddDst=1", thread);
  // Blackhole: an odd BiasIncr sets ExtraAddrModBit, after which every ADDR_MOD use is refused as
  // unsupported (the slot it would select is not documented) - and nothing but an ADDR_MOD use can
  // clear it, so this comes last, on each thread.
  if (arch == Arch::Blackhole)
    for (unsigned t = 0; t < kNumThreads; ++t) {
      d.addr_mod(0, {{"DestIncr", 8}, {"BiasIncr", 1}}, t);
      d.op("ELWADD AddrMod=0 AddDst=1", t);
      d.refused("ELWSUB AddrMod=0 AddDst=1", t);
      d.refused("ZEROACC Mode=0 Imm10=3", t);
    }
}

}  // namespace

void add_corner_tests(std::map<std::string, Directed>& t) {
  t["dst_hazard_sweep"] = {bf16_rows(), dst_hazard_body, random_valid_dst};
  t["dst_no_false_hazard"] = {bf16_rows(), dst_no_hazard_body, random_valid_dst, true};
  t["src_writes_sweep"] = {bf16_rows(), src_writes_body, random_valid_dst};
  t["zeroacc_sweep"] = {bf16_rows(), zeroacc_sweep_body, random_valid_dst};
  t["maxpool_argmax_signed"] = {signed_maxpool_rows(), signed_maxpool_body, nullptr};
  t["addr_mod_threads"] = {bf16_rows(), addr_mod_threads_body, nullptr};
  t["operand_formats"] = {full_mantissa_rows(), operand_formats_body, preload_tags};
  t["refused_instructions"] = {bf16_rows(), refused_body, random_valid_dst};
  t["elw_wrapped_difference"] = {wrapped_difference_rows(), wrapped_difference_body, wrapped_difference_dst};
  t["int8_zero_flag"] = {int8_exponent_bit_rows(), int8_zero_flag_body, nullptr};
  t["int8_saturation"] = {int8_limit_rows(), int8_limit_body, int8_limit_dst_rows};
}

}  // namespace tmu::tb
