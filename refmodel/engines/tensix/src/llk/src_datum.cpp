// Audit numbers as Src datums (src_datum.h).
#include "tmu/tensix/llk/src_datum.h"

#include "tmu/tensix/formats.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;

uint32_t src_datum(const SrcNumber& x, SrcFormat f) {
  const SrcFormatInfo& fi = info(f);
  if (x.is_zero()) return pack_src(SrcFields{x.sign, 0, 0}, fi.style);
  // pack_src takes the mantissa in the ten-bit Src field; BF16 occupies its top seven bits.
  const uint32_t mantissa = x.significand & ((uint32_t{1} << fi.mantissa_bits) - 1);
  const uint32_t mantissa10 = mantissa << (10 - fi.mantissa_bits);
  return pack_src(SrcFields{x.sign, static_cast<uint32_t>(x.exponent + fi.bias), mantissa10}, fi.style);
}


}  // namespace tmu::tensix::llk
