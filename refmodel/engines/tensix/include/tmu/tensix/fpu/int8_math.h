// The Matrix Unit's integer path (ALU_ACC_CTRL_INT8_math_enabled): Src holds integer "8" (sign and a
// 10-bit magnitude in the mantissa field, SrcASrcB.md), Dst holds sign-magnitude integer "32" in the
// Dst32b layout, and every accumulation saturates at +/-(2^31 - 1).
//
// The multiplier is the same 5x7 array as the float path, so MVMUL/ELWMUL consume the magnitude in
// fidelity-phase slices that stay at their bit positions (SrcASrcB.md "Fidelity phases (integer)"):
//   SrcA: phase bit 0 set -> magnitude bits 4:0, clear -> bits 7:5 (bits 9:8 never used);
//   SrcB: phase bit 1 set -> magnitude bits 3:0, clear -> bits 9:4.
// Summing the four phases therefore gives the full (8-bit x 10-bit) product.
//
// Zero flag (ttsim): a datum whose 8-bit exponent field is zero reads as 0 - always for SrcA, for
// SrcB unless ALU_ACC_CTRL_Zero_Flag_disabled_src. The ISA's ReadSrcInt8 ignores the exponent; with
// unpacker-written data (exponent 16, or 0 only for magnitude 0) the two agree.
#pragma once

#include <cstdint>
#include <span>

namespace tmu::tensix::fpu {

inline constexpr int32_t kInt32SaturationLimit = 0x7FFFFFFF;  // +/-(2^31 - 1); -2^31 is never produced

// The whole signed value of an integer "8" datum (ELWADD/ELWSUB; no fidelity masking).
int32_t int8_operand(uint32_t datum19, bool zero_flag_disabled = false);
// The signed fidelity slices; the magnitude bits stay in place.
int32_t int8_srca_slice(uint32_t datum19, uint32_t phase);
int32_t int8_srcb_slice(uint32_t datum19, uint32_t phase, bool zero_flag_disabled = false);
uint32_t int8_srca_slice_mask(uint32_t phase);  // magnitude bits kept, for tests and traces
uint32_t int8_srcb_slice_mask(uint32_t phase);

// x + y clamped to [-(2^31 - 1), 2^31 - 1] (ISA SaturateAddInt32).
int32_t saturating_add_int32(int32_t x, int32_t y);

struct Int8Trace {
  int32_t dot = 0;     // the product or sum before Dst is added
  int32_t dst_in = 0;  // Dst as read (0 when not accumulating)
  int32_t result = 0;
};
// Each returns the new Dst32b physical value.
uint32_t int8_mvmul_element(std::span<const uint32_t, 16> srca_column, std::span<const uint32_t, 16> srcb_row,
                            uint32_t dst32_stored, uint32_t phase, Int8Trace* trace = nullptr);
uint32_t int8_elwmul_element(uint32_t srca, uint32_t srcb, uint32_t dst32_stored, uint32_t phase,
                             bool srcb_zero_flag_disabled = false, Int8Trace* trace = nullptr);
uint32_t int8_elwadd_element(uint32_t srca, uint32_t srcb, uint32_t dst32_stored, bool add_dst,
                             bool srcb_zero_flag_disabled = false, Int8Trace* trace = nullptr);
uint32_t int8_elwsub_element(uint32_t srca, uint32_t srcb, uint32_t dst32_stored, bool add_dst,
                             bool srcb_zero_flag_disabled = false, Int8Trace* trace = nullptr);

}  // namespace tmu::tensix::fpu
