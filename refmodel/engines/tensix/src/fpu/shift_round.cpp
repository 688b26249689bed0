// The two right-shift roundings the datapath uses when it aligns a value to a larger exponent or
// drops low bits. Both add half an output LSB and truncate; they differ only in how a negative value
// held as sign and magnitude breaks a tie. The file has the name of rtl/tmu_shift_round.sv, which
// does both behind one port (negative_i), so that either side of a mismatch leads to the other.
#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {

uint32_t shift_right_round_half_away(uint32_t magnitude, uint32_t amount, ShiftRounding rounding) {
  if (amount == 0) return magnitude;
  if (amount >= 32) return 0;
  if (rounding == ShiftRounding::Truncate) return magnitude >> amount;
  // The rounding adder is 32 bits wide and wraps like the hardware's (and ttsim's). No legal operand
  // comes near 2^31; only a wrapped ELWADD difference (see elementwise.cpp) can.
  return (magnitude + (uint32_t{1} << (amount - 1))) >> amount;
}

uint32_t shift_right_round_half_up_signed(uint32_t magnitude, uint32_t negative, uint32_t amount,
                                          ShiftRounding rounding) {
  if (amount == 0 || magnitude == 0) return magnitude;
  // Subtracting the sign bit before adding half makes an exact tie of a negative value round toward
  // zero in magnitude, i.e. toward +infinity, as a two's-complement add-half-and-truncate would. The
  // subtraction stays when the half is lost (it comes before the adder in the RTL).
  return shift_right_round_half_away(magnitude - (negative & 1u), amount, rounding);
}

}  // namespace tmu::tensix::fpu
