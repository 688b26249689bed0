// MVMUL from L1 to L1 in the audit: the FP32 Dst result through the packer and back through the
// unpacker, with the packer's own rounding (l1_formats.h), so the tables show what packing adds to
// what the fidelity phases lose (docs/audit.md, "From L1 to L1"). The operands reach Src unchanged:
// the stream's numbers are BF16, FP16 or TF32 numbers, which the unpacker reads exactly from L1 in
// their own format (TF32 from FP32 bytes), so the input side adds nothing.
#include <bit>
#include <stdexcept>

#include "parts.h"

namespace tmu::audit {

SeriesOp packed_op(L1Format f) {
  switch (f) {
    case L1Format::BF16: return kMvmulToL1Bf16;
    case L1Format::FP16: return kMvmulToL1Fp16;
    case L1Format::BFP8: return kMvmulToL1Bfp8;
    default: break;
  }
  throw std::invalid_argument(std::string("the audit does not pack to L1 ") + l1_format_name(f));
}

OutFormat packed_format(L1Format f) {
  if (f == L1Format::FP16) return kFp16;
  if (f == L1Format::BFP8) return OutFormat{"BFP8", 7, -126, 127};
  return kBf16;
}

std::vector<double> through_l1(const std::vector<double>& dst_fp32, Arch arch, L1Format to) {
  PackConfig pack;
  pack.arch = arch;
  pack.to = to;
  const PackPlan plan = plan_pack(pack);
  std::vector<uint32_t> bits(dst_fp32.size());
  // Each value is an FP32 Dst value, so the conversion to float is exact.
  for (size_t i = 0; i < bits.size(); ++i) bits[i] = std::bit_cast<uint32_t>(static_cast<float>(dst_fp32[i]));
  const std::vector<uint8_t> l1 = pack_to_l1(plan, bits);
  UnpackConfig unpack;
  unpack.arch = arch;
  unpack.from = to;
  const std::vector<uint32_t> src = unpack_from_l1(unpack, l1, bits.size());
  // BF16 and BFP8 reach Src in the BF16 layout, FP16 in its own (UNPACR_Regular.md).
  const SrcStyle style = to == L1Format::FP16 ? SrcStyle::FP16 : SrcStyle::BF16;
  std::vector<double> values(src.size());
  for (size_t i = 0; i < src.size(); ++i) values[i] = src_datum_value(src[i], style);
  return values;
}

}  // namespace tmu::audit
