// Scoreboard tests: a correct "fake RTL" (a second TensixState that the same stimulus drives and that
// executes each instruction itself) and a bench that applies every stimulus to both. The fake RTL's
// observation reports everything an RTL observation port would: each written row, GPR, and always its
// RWCs, bank state and SHIFTXA latch after the instruction. Tests corrupt that observation.
#pragma once

#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "test_fpu_support.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/scoreboard.h"
#include "tmu/tensix/state_fields.h"

namespace tmu::test {
using namespace tmu::tensix;

using Row16 = std::array<uint32_t, kSrcCols>;  // one Src row of datums

inline Observation observation_of(const TensixState& after, const WriteSet& w, unsigned thread, uint32_t word,
                                  uint64_t cycle) {
  Observation o;
  o.thread = static_cast<uint8_t>(thread);
  o.word = word;
  o.cycle = cycle;
  for (uint16_t row : w.dst_rows) o.dst.push_back(ObservedDstRow{row, after.Dst.DstBits[row], after.Dst.RowValid[row], true});
  for (const auto& r : w.srca_rows) o.src.push_back(ObservedSrcRow{SrcOperand::SrcA, r.bank, r.row, after.SrcA[r.bank].Rows[r.row]});
  for (const auto& r : w.srcb_rows) o.src.push_back(ObservedSrcRow{SrcOperand::SrcB, r.bank, r.row, after.SrcB[r.bank].Rows[r.row]});
  for (uint8_t g : w.gprs) o.gprs.push_back(ObservedGpr{static_cast<uint8_t>(thread), g, after.GPRs[thread][g]});
  o.rwcs = after.RWCs[thread];
  ObservedBanks b;
  b.srca_bank = after.MatrixUnit.SrcABank;
  b.srcb_bank = after.MatrixUnit.SrcBBank;
  for (unsigned i = 0; i < kSrcBanks; ++i) {
    b.srca_allowed[i] = after.SrcA[i].AllowedClient;
    b.srcb_allowed[i] = after.SrcB[i].AllowedClient;
  }
  b.unpacker_bank = {after.Unpackers[0].SrcBank, after.Unpackers[1].SrcBank};
  o.banks = b;
  o.last_srca_row = after.MatrixUnit.LastSrcARow;
  return o;
}

struct Bench {
  explicit Bench(ScoreboardOptions options = {}) : sb(options) { rtl.arch = options.arch; }

  Scoreboard sb;
  TensixState rtl;  // the fake RTL's state
  uint64_t cycle = 100;

  void field(FieldScope scope, const std::string& name, uint32_t value, unsigned thread = 0, unsigned index = 0) {
    sb.set_field(scope, name, value, thread, index);
    find_state_field(scope, name)->set(rtl, thread, index, value);
  }
  // SETDVALID.md: the unpacker writes its current bank, then hands it over and moves to the other.
  void unpack(SrcOperand op, unsigned row, const Row16& values, DataFormat format) {
    sb.unpack_src_row(op, row, values, format);
    SrcBank& b = (op == SrcOperand::SrcA ? rtl.SrcA : rtl.SrcB)[rtl.Unpackers[static_cast<unsigned>(op)].SrcBank];
    b.Rows[row] = values;
    b.Format = format;
  }
  void hand_over(SrcOperand op) {
    sb.hand_over_src_bank(op);
    uint8_t& bank = rtl.Unpackers[static_cast<unsigned>(op)].SrcBank;
    (op == SrcOperand::SrcA ? rtl.SrcA : rtl.SrcB)[bank].AllowedClient = SrcClient::MatrixUnit;
    bank ^= 1;
  }
  void dst16(unsigned row, const std::array<uint16_t, kDstCols>& values) {
    sb.preload_dst16(row, values);
    rtl.Dst.DstBits[row] = values;
    rtl.Dst.RowValid[row] = true;
  }
  void gpr(unsigned thread, unsigned index, uint32_t value) {
    sb.preload_gpr(thread, index, value);
    rtl.GPRs[thread][index] = value;
  }

  // The fake RTL executes the instruction; `corrupt` edits its observation before the scoreboard
  // sees it.
  std::vector<Mismatch> step(unsigned thread, const std::string& text,
                             const std::function<void(Observation&)>& corrupt = {}) {
    const Insn insn = assemble(text, rtl.arch);
    const ExecResult r = execute(rtl, insn, thread);
    EXPECT_EQ(r.status, ExecResult::Status::Retired) << text;
    Observation o = observation_of(rtl, r.writes, thread, insn.word, cycle);
    cycle += 3;
    if (corrupt) corrupt(o);
    return sb.retire(o);
  }
};

inline ObservedDstRow* find_dst_row(Observation& o, unsigned row) {
  for (auto& r : o.dst)
    if (r.row == row) return &r;
  return nullptr;
}

// BF16 operands in the Src layout, written from the bit diagrams (test_fpu_support.h).
constexpr uint32_t bf16(uint32_t exponent, uint32_t mantissa7, uint32_t sign = 0) {
  return tmu_test::bf16_datum(sign, exponent, mantissa7);
}
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline constexpr uint32_t kOne = bf16(127, 0);        // 1.0
inline constexpr uint32_t kOneAndHalf = bf16(127, 0x40);  // 1.5

inline Row16 row_of(uint32_t first, uint32_t rest = 0) {
  Row16 r;
  r.fill(rest);
  r[0] = first;
  return r;
}
inline Row16 filled(uint32_t v) {
  Row16 r;
  r.fill(v);
  return r;
}

// SrcA rows 0..15 and SrcB rows 0..15 of bank 0, handed to the Matrix Unit, BF16. SrcA row 0 is all
// `srca0`, the other SrcA rows zero; every SrcB row is `srcb_row`.
inline void load_simple_matmul(Bench& b, uint32_t srca0, const Row16& srcb_row) {
  for (unsigned r = 0; r < 16; ++r) {
    b.unpack(SrcOperand::SrcA, r, r == 0 ? filled(srca0) : filled(0), DataFormat::BF16);
    b.unpack(SrcOperand::SrcB, r, srcb_row, DataFormat::BF16);
  }
  b.hand_over(SrcOperand::SrcA);
  b.hand_over(SrcOperand::SrcB);
}

}  // namespace tmu::test
