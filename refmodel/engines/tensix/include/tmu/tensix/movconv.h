// Per-datum format conversions of the Matrix Unit's data-movement instructions MOVA2D, MOVDBGA2D,
// MOVB2D (Src -> Dst), MOVD2A, MOVD2B (Dst -> Src) and MOVB2A (SrcB -> SrcA). Only the datum
// conversions live here; the instructions themselves (Wait Gate, row ranges, BLOCK_DEST_MOV lanes,
// broadcasts, RWCs) are in refmodel/engines/tensix/src/insn/ and call these functions once per datum.
//
// Sources: MOVA2D.md, MOVB2D.md, MOVD2A.md, MOVD2B.md, MOVDBGA2D.md (= MOVA2D), and ttsim's
// src/tensix.cpp (TENSIX_EXECUTE_MOV*; the only source for MOVB2A). Where ttsim implements a case it
// is followed (it matches silicon); where it refuses one, the ISA documentation defines it.
// Architecture: the conversions are the same on Wormhole and Blackhole. What differs is which format
// code the caller passes: Wormhole uses ALU_FORMAT_SPEC (SrcA override applied); Blackhole, unless
// ThreadConfig DISABLE_IMPLIED_SRC{A,B}_FMT is set, uses the format tag of the bank — for MOVA2D and
// MOVD2A the SrcA bank's tag, for MOVB2D and MOVD2B the SrcB bank's tag (ttsim).
#pragma once

#include <cstdint>

#include "tmu/tensix/formats.h"

namespace tmu::tensix {

// ======================= Src -> Dst: MOVA2D, MOVDBGA2D, MOVB2D =======================
// The conversion is chosen by the SrcA format even for MOVB2D ("This is not a documentation typo;
// SrcAFmt really is used", MOVB2D.md). Per datum, in order:
//   1. flush_src_denormal: if FlushDenormals and exponent field 7:0 is zero, the datum becomes 0.
//   2. (MOVB2D only, ttsim) movb2d_srcb_read: SrcB is read in the SrcB format's style.
//   3. Val16b = Use8bExponent ? src_to_dst16_exp8 (RemoveLowMantissa) : src_to_dst16_exp5 (RemoveHighExponent).
//   4. SrcA format TF32       -> Dst32b write: Val16b in the high half, Src mantissa bits 10:8 in
//                                bits 15:13 (the Dst32 FP32 layout of the TF32 value); with
//                                UseDst32bLo the low half is additionally ORed with Val16b (ISA).
//      else UseDst32bLo       -> low 16 bits of Dst32b replaced by Val16b, high 16 bits kept.
//      else                   -> Dst16b write of Val16b.
// How the caller applies a DstWrite to Dst[row][col]:
//   Dst16b      : Dst16b[row][col] = value
//   Dst32b      : Dst32b[row][col] = value
//   Dst32bLow16 : Dst32b[row][col] = (Dst32b[row][col] & 0xffff0000) | value
enum class DstWriteKind : uint8_t { Dst16b, Dst32b, Dst32bLow16 };
const char* dst_write_kind_name(DstWriteKind k);
struct DstWrite {
  DstWriteKind kind = DstWriteKind::Dst16b;
  uint32_t value = 0;
};

struct MovToDstConfig {
  uint32_t srca_format_code = 0;  // 4-bit SrcA format (see the architecture note above)
  bool fp16a_force = false;       // ThreadConfig FP16A_FORCE_Enable
  bool flush_denormals = true;    // !ALU_ACC_CTRL_Zero_Flag_disabled_src
  bool use_dst32b_lo = false;     // instruction field UseDst32bLo
};

// Use8bExponent: SrcA format in {FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16} and no FP16A_FORCE.
bool mov_uses_8bit_exponent(uint32_t srca_format_code, bool fp16a_force);
// Step 1. Applies to every style alike: INT8 zero with marker 0 and INT16 data whose low 8 bits
// are zero are cleared too (SrcASrcB.md warns about INT16).
uint32_t flush_src_denormal(uint32_t datum19, bool flush_denormals);
// RemoveLowMantissa: Src sign|mantissa 17:11|exponent 7:0 -> Dst16 BF16 layout (drops Src bits 10:8).
uint16_t src_to_dst16_exp8(uint32_t datum19);
// RemoveHighExponent: Src sign|mantissa 17:8|exponent 4:0 -> Dst16 FP16 layout (drops Src bits 7:5).
uint16_t src_to_dst16_exp5(uint32_t datum19);
// Which kind of write the configuration produces (the same for every datum of an instruction).
DstWriteKind mov_to_dst_write_kind(const MovToDstConfig& cfg);
// Non-null when ttsim refuses the configuration although the ISA defines it: TF32 with UseDst32bLo
// (ttsim: UndefinedBehavior, hardware erratum TEN-4245). The datum functions still give the ISA result.
const char* mov_to_dst_caveat(const MovToDstConfig& cfg);

// MOVA2D (and MOVDBGA2D): steps 1, 3, 4.
DstWrite mova2d_datum(uint32_t srca_datum, const MovToDstConfig& cfg);
// Step 2 (ttsim): SrcB data in an FP16-style format (FP16, FP8, BFP*a, INT8) loses exponent bits
// 7:5; in a BF16-style format loses mantissa bits 10:8; TF32 (and codes 12/13) is read whole.
// (ttsim distinguishes FP16, TF32 and "other"; the FP16 family is the generalisation. Only
// observable when the SrcA and SrcB formats disagree or the data does not match its format.)
uint32_t movb2d_srcb_read(uint32_t srcb_datum, uint32_t srcb_format_code);
// MOVB2D: steps 1-4. srcb_format_code is ALU_FORMAT_SPEC_REG1_SrcB (Wormhole) or the SrcB bank's
// tag (Blackhole, implied formats). Under FP16A_FORCE, which ttsim does not model, step 2 is
// skipped and the ISA model is followed exactly.
DstWrite movb2d_datum(uint32_t srcb_datum, const MovToDstConfig& cfg, uint32_t srcb_format_code);

// ======================= Dst -> Src: MOVD2A, MOVD2B =======================
// Both instructions convert identically (MOVD2B also takes its style from the SrcA format).
// Usage: plan once per instruction, then per datum read the view the plan names and convert:
//   MovFromDstPlan p = plan_mov_from_dst(cfg);       // p.undefined -> UndefinedBehaviour
//   uint32_t dst = p.read_dst32b ? Dst32b[row][col] : Dst16b[row][col];
//   Src[bank][row][col] = mov_from_dst_datum(dst, p);
// Style: FP16A_FORCE -> FP16 from Dst16b; else the SrcA format's style (src_style_of_format_code)
// and the 32-bit view when ALU_ACC_CTRL_Fp32_enabled || ALU_ACC_CTRL_INT8_math_enabled.
//   Dst32b, no Lo : BF16 -> dst16_bf16_to_src(high half) (truncates FP32 to BF16)
//                   FP16 -> dst16_fp16_to_src(high half)
//                   TF32 -> dst32_to_src_tf32 (truncates FP32 to TF32)
//   Dst32b, Lo    : the low half stands in for the high half: BF16/FP16 as above on the low 16
//                   bits; TF32 -> the low 13 bits as they are (the bits FP32->TF32 discards)
//   Dst16b        : BF16 -> dst16_bf16_to_src; FP16 -> dst16_fp16_to_src (INT8 data too, being
//                   overlaid on FP16); TF32 or UseDst32bLo -> UndefinedBehaviour
struct MovFromDstConfig {
  uint32_t srca_format_code = 0;  // 4-bit SrcA format (see the architecture note above)
  bool fp16a_force = false;       // ThreadConfig FP16A_FORCE_Enable
  bool use_dst32b = false;        // ALU_ACC_CTRL_Fp32_enabled || ALU_ACC_CTRL_INT8_math_enabled
  bool use_dst32b_lo = false;     // instruction field UseDst32bLo
};
struct MovFromDstPlan {
  bool read_dst32b = false;
  SrcStyle style = SrcStyle::BF16;  // BF16, FP16 or TF32
  bool use_dst32b_lo = false;
  const char* undefined = nullptr;  // non-null: the ISA defines no result; the reason
};
MovFromDstPlan plan_mov_from_dst(const MovFromDstConfig& cfg);
// dst_value is the Dst32b value (plan.read_dst32b) or the Dst16b value. Throws tmu::Error
// (UndefinedBehaviour) when plan.undefined is set.
uint32_t mov_from_dst_datum(uint32_t dst_value, const MovFromDstPlan& plan);
// ShuffleBF16: Dst16 BF16 layout -> Src BF16 layout (mantissa to 17:11, zeros in 10:8).
uint32_t dst16_bf16_to_src(uint16_t dst_bits);
// ShuffleFP16: Dst16 FP16 layout -> Src FP16 layout (mantissa to 17:8, zeros in 7:5).
uint32_t dst16_fp16_to_src(uint16_t dst_bits);
// ShuffleTF32(DstVal >> 13): the Dst32 FP32 layout truncated to the Src TF32 layout. MOVD2A.md's
// mask for the sign and high mantissa (0x3fc000) is a typo for 0x7f800 (it would drop three
// mantissa bits its own comment keeps); ttsim keeps all ten mantissa bits, and so do we.
uint32_t dst32_to_src_tf32(uint32_t dst_bits);

// ======================= SrcB -> SrcA: MOVB2A =======================
// ttsim: the datum is copied unchanged, except that FlushDenormals (as step 1 above) applies.
uint32_t movb2a_datum(uint32_t srcb_datum, bool flush_denormals);

}  // namespace tmu::tensix
