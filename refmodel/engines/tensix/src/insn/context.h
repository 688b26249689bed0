// What every instruction implementation sees: the state, the issuing thread, the decoded fields,
// and helpers for the steps the ISA's functional models share (Wait Gate, clear_dvalid bank flips,
// ApplyAddrMod), which take their rules from tmu/tensix/query.h. Writes go through here so that the WriteSet
// the scoreboard compares is complete by construction.
#pragma once

#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/query.h"

#include <vector>

namespace tmu::tensix::insn {

class ExecContext {
 public:
  ExecContext(TensixState& state, const Insn& insn, unsigned thread, ExecResult& result)
      : s(state), insn(insn), thread(thread), result(result) {}

  TensixState& s;
  const Insn& insn;
  const unsigned thread;
  ExecResult& result;

  uint32_t field(Field f) const { return insn[f]; }
  Rwc& rwc() { return s.RWCs[thread]; }
  ThreadConfigRegs& tcfg() { return s.ThreadConfig[thread]; }
  ConfigRegs& cfg() { return s.config_for(thread); }
  Arch arch() const { return s.arch; }

  // Wait Gate: true when every Src bank the instruction waits for (src_waits) is handed to the
  // Matrix Unit. Otherwise marks the result Stalled with the reason; the caller must return without
  // touching state.
  bool wait_for_src();

  // The bank hand-backs and pointer flips of src_release: the FlipSrcA/FlipSrcB (clear_dvalid)
  // step of MVMUL/ELW*/GMPOOL/SETRWC/the legacy ops, and CLEARDVALID.
  void release_src_banks();

  void apply_addr_mod(uint32_t addr_mod, bool update_fidelity_phase = true);

  // The answers of tmu/tensix/query.h for this instruction.
  uint32_t dst_row_unaligned(uint32_t dst_row_field) const { return tmu::tensix::dst_row_unaligned(s, thread, dst_row_field); }
  uint32_t fidelity_phase() const { return tmu::tensix::fidelity_phase(s, thread); }
  MathMode math_mode() const { return tmu::tensix::math_mode(s, thread); }
  InsnAccess access() const { return insn_access(s, thread, insn); }

  // Remember the SrcA row address an instruction computed (for SHIFTXA's input block).
  void latch_srca_row(uint32_t row) {
    s.MatrixUnit.LastSrcARow = static_cast<uint8_t>(row & (kSrcRows - 1));
    result.writes.matrix_unit = true;
  }

  // Reads of an invalid row yield the reading instruction's identity. Dst16b writes with
  // RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11 set also put "generally garbage" into the low half of
  // Dst32b, which no model can reproduce, so they are refused.
  uint16_t read_dst16(uint32_t row, uint32_t col, uint16_t identity) const {
    return tmu::tensix::read_dst16(s, row, col).value_or(identity);
  }
  uint32_t read_dst32(uint32_t row, uint32_t col, uint32_t identity) const {
    return tmu::tensix::read_dst32(s, row, col).value_or(identity);
  }
  // A whole row, as the per-element reads above give it: validity is per storage row, so it is
  // checked once (a matrix instruction reads eight rows of sixteen; per element this was a tenth of
  // an MVMUL's host instructions).
  template <typename Values>
  void read_dst16_row(uint32_t row, uint16_t identity, Values& out) const {
    const uint32_t r = dst16_storage_row(s, row);
    // Masks rather than a select per datum, so that the loop vectorises.
    const uint32_t keep = s.Dst.RowValid[r] ? ~0u : 0u, fill = keep ? 0u : identity;
    for (unsigned c = 0; c < kDstCols; ++c) out[c] = (s.Dst.DstBits[r][c] & keep) | fill;
  }
  template <typename Values>
  void read_dst32_row(uint32_t row, uint32_t identity, Values& out) const {
    const auto& hi = s.Dst.DstBits[DstRegs::hi_row(row)];
    const auto& lo = s.Dst.DstBits[DstRegs::lo_row(row)];
    const uint32_t keep = s.Dst.RowValid[DstRegs::hi_row(row)] ? ~0u : 0u, fill = keep ? 0u : identity;
    for (unsigned c = 0; c < kDstCols; ++c) out[c] = (((uint32_t{hi[c]} << 16) | lo[c]) & keep) | fill;
  }

  // Logged writes.
  void write_dst16(uint32_t row, uint32_t col, uint16_t v) {
    if (s.DbgFeatureDisableBit11)
      fail(ErrorKind::NonContractualBehaviour,
           "a Dst16b write with DBG_FEATURE_DISABLE bit 11 set leaves garbage in the low half of Dst32b");
    s.Dst.write16_bits(row, col, v);
    note_written_row(row & (kDstRows - 1));
  }
  void write_dst32(uint32_t row, uint32_t col, uint32_t v) {
    s.Dst.write32_bits(row, col, v);
    note_written_row(DstRegs::hi_row(row));
    result.writes.note_dst_row(DstRegs::lo_row(row));
  }
  // A whole row of sixteen values in one logged write (the matrix instructions produce rows).
  template <typename Values>
  void write_dst16_row(uint32_t row, const Values& values) {
    write_dst16(row, 0, static_cast<uint16_t>(values[0]));  // checks, logs the row, schedules validity
    for (unsigned c = 1; c < kDstCols; ++c) s.Dst.write16_bits(row, c, static_cast<uint16_t>(values[c]));
  }
  template <typename Values>
  void write_dst32_row(uint32_t row, const Values& values) {
    write_dst32(row, 0, values[0]);  // logs both storage rows once and schedules validity
    // The two storage rows once, not per datum (DstRegs::write32_bits).
    auto& hi = s.Dst.DstBits[DstRegs::hi_row(row)];
    auto& lo = s.Dst.DstBits[DstRegs::lo_row(row)];
    for (unsigned c = 1; c < kDstCols; ++c) {
      hi[c] = static_cast<uint16_t>(values[c] >> 16);
      lo[c] = static_cast<uint16_t>(values[c] & 0xFFFF);
    }
  }
  // Rows written by this instruction become valid only when it completes (see DstRegs::write16_bits).
  void commit_written_rows() {
    for (uint16_t row : rows_to_validate_) s.Dst.RowValid[row] = true;
    rows_to_validate_.clear();
  }
  void invalidate_dst_row(uint32_t row) {
    row &= kDstRows - 1;
    s.Dst.RowValid[row] = false;
    result.writes.note_dst_row(row);
  }
  void write_srca(uint32_t bank, uint32_t row, uint32_t col, uint32_t datum) {
    s.SrcA[bank & 1].Rows[row & (kSrcRows - 1)][col] = datum & kSrcDatumMask;
    result.writes.note_srca_row(bank & 1, row & (kSrcRows - 1));
  }
  void write_srcb(uint32_t bank, uint32_t row, uint32_t col, uint32_t datum) {
    s.SrcB[bank & 1].Rows[row & (kSrcRows - 1)][col] = datum & kSrcDatumMask;
    result.writes.note_srcb_row(bank & 1, row & (kSrcRows - 1));
  }
  void write_gpr(uint32_t index, uint32_t value) {
    s.GPRs[thread][index & (kNumGprs - 1)] = value;
    result.writes.note_gpr(index & (kNumGprs - 1));
  }

  [[noreturn]] void fail(ErrorKind kind, const std::string& why) const;

 private:
  void note_written_row(uint32_t row) {
    result.writes.note_dst_row(row);
    // Validating a row twice is harmless; listing it once per datum made the list grow per datum.
    const size_t n = rows_to_validate_.size();
    if ((n >= 1 && rows_to_validate_[n - 1] == row) || (n >= 2 && rows_to_validate_[n - 2] == row)) return;
    if (rows_to_validate_.capacity() == 0) rows_to_validate_.reserve(8);  // a matrix instruction's rows: one allocation
    rows_to_validate_.push_back(static_cast<uint16_t>(row));
  }
  std::vector<uint16_t> rows_to_validate_;
};

using Handler = void (*)(ExecContext&);

}  // namespace tmu::tensix::insn
