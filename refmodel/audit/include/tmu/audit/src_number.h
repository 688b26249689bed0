// The three floating-point source formats the audit covers and numbers in them, kept as integer
// fields (sign, unbiased exponent, significand) so the exact value, the Src datum and the fidelity
// slices all come from the same bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tmu/audit/exact.h"

namespace tmu::audit {

enum class SrcFormat : uint8_t { BF16, FP16, TF32 };

struct SrcFormatInfo {
  SrcFormat id;
  const char* name;
  int mantissa_bits;  // explicit mantissa bits: 7 (BF16) or 10
  int bias;
  int emin, emax;     // unbiased exponents of the normal numbers (an exponent field of all ones is
                      // an ordinary number: the stream draws none that large)
  OutFormat acc16;    // the 16-bit accumulation format of this source: FP16 for FP16, else BF16
};
const SrcFormatInfo& info(SrcFormat f);
std::optional<SrcFormat> parse_src_format(std::string_view name);  // "bf16", "fp16", "tf32"
// What a matmul of the format accumulates into: FP32, or the source's 16-bit accumulation format.
const OutFormat& output_format(SrcFormat f, bool dst32);

// (-1)^sign * significand * 2^(exponent - mantissa_bits); significand 0 is zero. A number of the
// format has its implicit one at bit mantissa_bits; a fidelity slice (slices.h) may lack it.
struct SrcNumber {
  uint32_t sign = 0;
  int32_t exponent = 0;
  uint32_t significand = 0;
  bool is_zero() const { return significand == 0; }
  friend bool operator==(const SrcNumber&, const SrcNumber&) = default;
};

// x rounded to nearest-even into the format. Magnitudes below the smallest normal become zero (the
// streams hold no subnormals); beyond the largest normal is an error (the audit never asks).
SrcNumber round_to_src(const Real& x, SrcFormat f);
SrcNumber src_from_fields(uint32_t sign, int32_t exponent, uint32_t mantissa, SrcFormat f);

Real value_of(const SrcNumber& x, SrcFormat f);
double double_of(const SrcNumber& x, SrcFormat f);  // exact
SrcNumber negated(SrcNumber x);

}  // namespace tmu::audit
