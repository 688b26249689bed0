// What every instruction implementation sees: the state, the issuing thread, the decoded fields,
// and helpers for the steps the ISA's functional models share (Wait Gate, clear_dvalid bank flips,
// ApplyAddrMod, Dst row addressing, operand style). Writes go through here so that the WriteSet
// the scoreboard compares is complete by construction.
#pragma once

#include "tmu/error.h"
#include "tmu/exec.h"
#include "tmu/formats.h"

#include <vector>

namespace tmu::insn {

// The Src operand interpretation and Dst mode an arithmetic Matrix Unit instruction uses
// (MVMUL.md "Determine the data formats"; on Blackhole the format tagged on the bank).
struct MathFormats {
  SrcStyle srca_style = SrcStyle::BF16;
  SrcStyle srcb_style = SrcStyle::BF16;
  bool use_dst32b = false;
  bool int8_math = false;
};

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

  // Wait Gate: true when every requested Src bank the Matrix Unit uses is handed to it. Otherwise
  // marks the result Stalled with the reason; the caller must return without touching state.
  bool wait_for_src(bool need_srca, bool need_srcb);

  // The FlipSrcA/FlipSrcB (clear_dvalid) step of MVMUL/ELW*/GMPOOL/...: hand the bank back to the
  // unpackers unless CLR_DVALID_*_Disable, and flip the Matrix Unit's bank pointer.
  void clear_dvalid(bool flip_srca, bool flip_srcb);

  void apply_addr_mod(uint32_t addr_mod, bool update_fidelity_phase = true);

  // DstRow + DEST_TARGET_REG_CFG_MATH_Offset + RWC.Dst + DEST_REGW_BASE_Base, before alignment.
  uint32_t dst_row_unaligned(uint32_t dst_row_field);
  // (RWC.FidelityPhase + FIDELITY_BASE_Phase) & 3
  uint32_t fidelity_phase();
  MathFormats math_formats();

  // Remember the SrcA row address an instruction computed (for SHIFTXA's input block).
  void latch_srca_row(uint32_t row) {
    s.MatrixUnit.LastSrcARow = static_cast<uint8_t>(row & (kSrcRows - 1));
    result.writes.matrix_unit = true;
  }

  // Dst16b through the debug-feature bit: with RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11 set,
  // Dst16b reads the high half of Dst32b (Dst.md). Writes then also put "generally garbage" into
  // the low half, which no model can reproduce, so they are refused.
  uint16_t read_dst16(uint32_t row, uint32_t col, uint16_t identity) const {
    if (s.DbgFeatureDisableBit11) return static_cast<uint16_t>(s.Dst.read32(row, col, uint32_t{identity} << 16) >> 16);
    return s.Dst.read16(row, col, identity);
  }
  uint32_t read_dst32(uint32_t row, uint32_t col, uint32_t identity) const { return s.Dst.read32(row, col, identity); }

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
    for (unsigned c = 1; c < kDstCols; ++c) s.Dst.write32_bits(row, c, values[c]);
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
    rows_to_validate_.push_back(static_cast<uint16_t>(row));
  }
  std::vector<uint16_t> rows_to_validate_;
};

using Handler = void (*)(ExecContext&);

}  // namespace tmu::insn
