// Audit numbers as Src datums (src_datum.h).
#include "tmu/tensix/llk/src_datum.h"

#include "tmu/tensix/formats.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;

SrcStyle src_style(SrcFormat f) {
  switch (f) {
    case SrcFormat::BF16: return SrcStyle::BF16;
    case SrcFormat::FP16: return SrcStyle::FP16;
    case SrcFormat::TF32: return SrcStyle::TF32;
  }
  return SrcStyle::BF16;
}

DataFormat data_format(SrcFormat f) {
  switch (f) {
    case SrcFormat::BF16: return DataFormat::BF16;
    case SrcFormat::FP16: return DataFormat::FP16;
    case SrcFormat::TF32: return DataFormat::TF32;
  }
  return DataFormat::BF16;
}

uint32_t src_datum(const SrcNumber& x, SrcFormat f) {
  const SrcFormatInfo& fi = info(f);
  const SrcStyle style = src_style(f);
  if (x.is_zero()) return pack_src(SrcFields{x.sign, 0, 0}, style);
  // pack_src takes the mantissa in the ten-bit Src field; BF16 occupies its top seven bits.
  const uint32_t mantissa = x.significand & ((uint32_t{1} << fi.mantissa_bits) - 1);
  const uint32_t mantissa10 = mantissa << (10 - fi.mantissa_bits);
  return pack_src(SrcFields{x.sign, static_cast<uint32_t>(x.exponent + fi.bias), mantissa10}, style);
}


}  // namespace tmu::tensix::llk
