// Asking the model: what one instruction will read and write, given the state before it, the issuing
// thread and the decoded instruction. Execution computes the same facts through these functions
// (refmodel/engines/tensix/src/insn/ takes its operand styles, Dst rows, Src rows, Wait Gate and bank hand-backs
// from here), so an answer is what execute() will do, not an approximation of it. Callers such as
// the coverage model and the stimulus generator's shadow ask here instead of re-deriving the rules.
//
// None of these functions refuses anything: they describe what a word addresses even when execute()
// would refuse it (undefined formats, unaligned MOVB2A rows, ...), and never modify the state.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/state.h"

namespace tmu::tensix {

// Where an operand's style comes from (MVMUL.md "Determine the data formats").
enum class StyleSource : uint8_t {
  Implied,       // Blackhole: the format the unpacker tagged the bank with
  SpecReg,       // ALU_FORMAT_SPEC_REG0_SrcA / ALU_FORMAT_SPEC_REG1_SrcB
  SpecOverride,  // ALU_FORMAT_SPEC_REG_Src{A,B}_val, its override bit set
  Fp16aForce,    // ThreadConfig FP16A_FORCE_Enable: both operands FP16, 16-bit Dst
  Int8Math,      // ALU_ACC_CTRL_INT8_math_enabled: both operands INT8, 32-bit Dst
};
// "implied", "spec_reg", "spec_override", "fp16a_force", "int8_math"
const char* style_source_name(StyleSource s);

// The operand styles and Dst mode an arithmetic Matrix Unit instruction (MVMUL, DOTPV, GAPOOL, ELW*,
// GMPOOL) runs under.
struct MathMode {
  SrcStyle srca_style = SrcStyle::BF16;
  SrcStyle srcb_style = SrcStyle::BF16;
  StyleSource srca_source = StyleSource::SpecReg;
  StyleSource srcb_source = StyleSource::SpecReg;
  bool use_dst32b = false;  // the 32-bit Dst view (set under INT8 math too)
  bool int8_math = false;
  bool fp16a_force = false;
};
MathMode math_mode(const TensixState& s, unsigned thread);

// (RWC.FidelityPhase + FIDELITY_BASE_Phase) & 3
uint32_t fidelity_phase(const TensixState& s, unsigned thread);
// DstRow + DEST_TARGET_REG_CFG_MATH_Offset + RWC.Dst + DEST_REGW_BASE_Base, before alignment.
uint32_t dst_row_unaligned(const TensixState& s, unsigned thread, uint32_t dst_row_field);

// The ADDR_MOD slot ApplyAddrMod uses for an instruction's AddrMod field (RWCs.md). Empty on
// Blackhole with RWC.ExtraAddrModBit set, which the model refuses (the index is undocumented).
std::optional<uint32_t> addr_mod_slot(const TensixState& s, unsigned thread, uint32_t addr_mod);

// Blackhole without DISABLE_IMPLIED_SRC{A,B}_FMT_Base: the operand's style comes from its bank's tag.
bool src_format_implied(const TensixState& s, unsigned thread, unsigned operand);

// A format code a move converts with, and where it came from (Implied, SpecReg or SpecOverride).
struct FormatChoice {
  uint32_t code = 0;
  StyleSource source = StyleSource::SpecReg;
};
// What the MOV pages call SrcAFmt, for a move to or from the Matrix Unit's bank of `operand` (0 = SrcA
// for MOVA2D/MOVD2A, 1 = SrcB for MOVB2D/MOVD2B, as ttsim): on Blackhole with implied SrcA formats the
// bank's tag, else ALU_FORMAT_SPEC's SrcA code (its override applied).
FormatChoice mov_srca_format(const TensixState& s, unsigned thread, unsigned operand);
// The format MOVB2D reads SrcB in: the bank's tag with implied SrcB formats, else
// ALU_FORMAT_SPEC_REG1_SrcB (the SrcB override does not apply).
FormatChoice movb2d_srcb_format(const TensixState& s, unsigned thread);
// The Dst mode of the moves out of Dst: ALU_ACC_CTRL_Fp32_enabled || ALU_ACC_CTRL_INT8_math_enabled.
bool mov_use_dst32b(const TensixState& s, unsigned thread);

// The Src rows an instruction addresses in the bank the Matrix Unit points at. Row i of the window is
// (row + (one_row ? 0 : i)) & 63.
struct SrcWindow {
  unsigned bank = 0;
  uint32_t row = 0;        // first row, aligned as the instruction aligns it (MOVB2A: not wrapped)
  unsigned rows = 0;       // 0: the operand is not addressed
  bool one_row = false;    // a broadcast: every access reads `row`
  bool col0 = false;       // a broadcast: every column reads column 0
  bool written = false;    // the rows are written (else read)
  SrcStyle style = SrcStyle::BF16;  // the style the datums are read in
};

// The Dst rows an instruction addresses. Row i of the window is row + i * step in the view chosen
// by dst32 (a Dst32b row number, or a Dst16b row number).
struct DstWindow {
  uint32_t unaligned = 0;  // dst_row_unaligned of the instruction's DstRow field
  uint32_t row = 0;        // the first row, aligned down to the instruction's block
  unsigned rows = 0;       // rows written (0: Dst is not addressed)
  unsigned step = 1;       // MVMUL with BroadcastSrcBRow writes every second row
  unsigned read_rows = 0;  // of those, the first read_rows are operands (accumulation, moves out)
  bool written = false;
  bool dst32 = false;      // the 32-bit view
  bool int32 = false;      // ... holding INT32 (INT8 math)
  SrcStyle style = SrcStyle::BF16;  // the 16-bit view's values are in this style's Dst16 layout
};

// What the Matrix Unit's arithmetic and move instructions and ZEROACC's one-row mode address. Other
// instructions have empty windows: their effects are whole banks (ZEROSRC), fixed blocks (TRNSPSRCB,
// SHIFTXA's output), lanes of one row (SHIFTXB) or 16-row blocks and halves of Dst (ZEROACC's block
// modes).
struct InsnAccess {
  SrcWindow srca, srcb;
  DstWindow dst;
};
InsnAccess insn_access(const TensixState& s, unsigned thread, const Insn& insn);

// Wait Gate: the Src operands (0 = SrcA, 1 = SrcB) whose current bank the instruction waits for
// until the Matrix Unit holds it. Every other access to a bank happens whoever holds it.
std::array<bool, 2> src_waits(Op op);
// The bank the Matrix Unit points at for `operand`, and whether it holds it (AllowedClient).
inline unsigned matrix_unit_bank(const TensixState& s, unsigned operand) {
  return operand ? s.MatrixUnit.SrcBBank : s.MatrixUnit.SrcABank;
}
inline bool matrix_unit_holds_bank(const TensixState& s, unsigned operand) {
  return (operand ? s.SrcB : s.SrcA)[matrix_unit_bank(s, operand)].AllowedClient == SrcClient::MatrixUnit;
}

// What an instruction does to Src bank ownership when it retires: the FlipSrcA/FlipSrcB
// (clear_dvalid) step of the arithmetic, legacy and SETRWC instructions, and CLEARDVALID.
struct SrcRelease {
  bool reset = false;               // CLEARDVALID Reset: every pointer to bank 0, every bank to the Unpackers
  std::array<bool, 2> hand_back{};  // the Matrix Unit's current bank goes back to the Unpackers
  std::array<bool, 2> flip{};       // the Matrix Unit's bank pointer moves to the other bank
};
SrcRelease src_release(const TensixState& s, unsigned thread, const Insn& insn);

// Dst reads as instructions perform them; empty for a row that is not valid (the reader then uses
// its identity). Dst16b with RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11 set reads the high half of
// Dst32b (Dst.md); in the 32-bit view the validity of the high-half row counts.
inline uint32_t dst16_storage_row(const TensixState& s, uint32_t row) {
  return s.DbgFeatureDisableBit11 ? DstRegs::hi_row(row) : row & (kDstRows - 1);
}
inline std::optional<uint16_t> read_dst16(const TensixState& s, uint32_t row, uint32_t col) {
  const uint32_t r = dst16_storage_row(s, row);
  if (!s.Dst.RowValid[r]) return std::nullopt;
  return s.Dst.DstBits[r][col];
}
inline std::optional<uint32_t> read_dst32(const TensixState& s, uint32_t row, uint32_t col) {
  if (!s.Dst.RowValid[DstRegs::hi_row(row)]) return std::nullopt;
  return s.Dst.read32(row, col, 0);
}

}  // namespace tmu::tensix
