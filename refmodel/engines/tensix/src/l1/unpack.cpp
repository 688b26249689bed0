// The unpackers' datum conversions, L1 -> SrcA/SrcB (19-bit datums) or Dst (unpack-to-Dst).
//
// Sources: tenstorrent/ttsim, src/tensix.cpp (TENSIX_EXECUTE_UNPACR, bfp8_to_bf16), whose Src frame
// is binary32's (sign 31, exponent 30:23, mantissa 22:13) — here the same fields are placed in the
// Src layout of formats.h; tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/TensixCoprocessor/
// UNPACR_Regular.md and FloatBitPatterns.md (BFP8ToBF16).
#include <fmt/format.h>

#include <bit>

#include "tmu/bits.h"
#include "tmu/error.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix {

namespace {

[[noreturn]] void refuse(const UnpackConfig& c, std::string_view why) {
  throw Error(ErrorKind::BadInput, fmt::format("unpack {} -> {}{} on {}: {}", l1_format_name(c.from),
                                               c.target == UnpackTarget::Dst ? "Dst" : "Src",
                                               c.to ? fmt::format(" {}", l1_format_name(*c.to)) : std::string(), arch_name(c.arch), why));
}

// ttsim's binary32-framed Src value -> the Src datum of formats.h.
uint32_t src_from_fp32_frame(uint32_t v) {
  return src_layout::assemble(bits<31, 31>(v), bits<22, 13>(v), bits<30, 23>(v));
}
uint32_t src_from_fp16(uint32_t fp16) {
  return src_layout::assemble(bits<15, 15>(fp16), bits<9, 0>(fp16), bits<14, 10>(fp16));
}
uint32_t src_from_bf16(uint32_t bf16) { return src_from_fp32_frame(bf16 << 16); }

L1Format fp32_target(const UnpackConfig& c) {
  return c.to.value_or(c.target == UnpackTarget::Dst ? L1Format::FP32 : L1Format::TF32);
}

}  // namespace

uint32_t fp32_truncate_to_src_tf32(uint32_t fp32) { return src_from_fp32_frame(fp32); }

uint32_t fp32_truncate_to_src_bf16(uint32_t fp32) {
  if (bits<30, 23>(fp32) == 0) fp32 &= 0x80000000u;
  return src_from_fp32_frame(fp32 & 0xFFFF0000u);
}

uint32_t fp32_to_src_fp16_saturate(uint32_t fp32) {
  const uint32_t s = bits<31, 31>(fp32);
  const int e = static_cast<int>(bits<30, 23>(fp32)) - 112;
  if (e < 0) return src_layout::assemble(s, 0, 0);
  if (e > 31) return src_layout::assemble(s, 0x3FF, 31);
  return src_layout::assemble(s, bits<22, 13>(fp32), static_cast<uint32_t>(e));
}

uint16_t bfp_datum_to_bf16(L1Format f, uint8_t datum, uint8_t exponent) {
  const unsigned width = l1_datum_bits(f);
  const auto d8 = static_cast<uint8_t>(datum << (8 - width));  // BFP4/BFP2 enter at BFP8's position
  const uint32_t sign = d8 >> 7;
  auto mag = static_cast<uint8_t>(d8 << 1);
  if (mag == 0) return sign ? 0xFF80 : 0;  // a lone sign is -inf (FloatBitPatterns.md)
  const int lz = std::countl_zero(mag);
  mag = static_cast<uint8_t>(mag << lz);
  const auto e = static_cast<uint8_t>(exponent - lz);  // wraps below zero, as silicon does (ttsim)
  return static_cast<uint16_t>(sign << 15 | static_cast<uint32_t>(e) << 7 | (mag & 0x7Eu));
}

void check_unpack(const UnpackConfig& c) {
  const L1Format f = c.from;
  if (c.to && f != L1Format::FP32) refuse(c, "only FP32 data has a choice of output format (Out_data_format)");
  if (c.fp8_e4m3 && f != L1Format::FP8) refuse(c, "Unp_LF8_4b_exp applies to FP8 data only");
  if (f == L1Format::BFP8a || f == L1Format::BFP4a || f == L1Format::BFP2a) {
    refuse(c, "ttsim does not unpack the 'a' BFP flavours; FloatBitPatterns.md's BFP8aToFP16 leaves a block exponent "
              "below the datum's shift undefined (tmu.formats models the ISA's reading)");
  }
  if (f == L1Format::TF32) refuse(c, "TF32 is an L1 output format of the packer; the unpacker reads FP32 (ttsim)");
  if (c.target == UnpackTarget::Dst) {
    if (f == L1Format::FP32) {
      const L1Format to = fp32_target(c);
      if (to != L1Format::FP32 && to != L1Format::TF32) refuse(c, "FP32 data unpacks to Dst as FP32 (or TF32, the same bits) only (ttsim)");
      return;
    }
    if (f == L1Format::INT32) return;
    refuse(c, "ttsim implements unpack-to-Dst for FP32 and INT32 data only");
  }
  if (f == L1Format::INT32) refuse(c, "INT32 data goes to Dst only: into Src it is undefined (ttsim UndefinedBehavior)");
  if (f == L1Format::FP32) {
    const L1Format to = fp32_target(c);
    if (to == L1Format::FP32) refuse(c, "FP32 into Src is undefined (ttsim UndefinedBehavior): Src holds at most TF32");
    if (to != L1Format::TF32 && to != L1Format::BF16 && to != L1Format::FP16) refuse(c, "FP32 data converts to TF32, BF16 or FP16 in Src");
  }
}

uint32_t unpack_datum(const UnpackConfig& c, uint32_t v) {
  switch (c.from) {
    case L1Format::FP32:
      if (c.target == UnpackTarget::Dst) return v;
      switch (fp32_target(c)) {
        case L1Format::BF16: return fp32_truncate_to_src_bf16(v);
        case L1Format::FP16: return fp32_to_src_fp16_saturate(v);
        default: return fp32_truncate_to_src_tf32(v);
      }
    case L1Format::INT32: return v;
    case L1Format::FP16: return src_from_fp16(v & 0xFFFFu);
    case L1Format::BF16: return src_from_bf16(v & 0xFFFFu);
    case L1Format::INT16:  // raw bits: low 8 in the exponent field, high 7 in the BF16 mantissa
      return src_layout::assemble(bits<15, 15>(v), bits<14, 8>(v) << 3, bits<7, 0>(v));
    case L1Format::FP8: {
      uint32_t fp16;
      if (c.fp8_e4m3) {  // S1E4M3, rebiased 7 -> 15; exponent 15 with mantissa 7 widens to all ones
        const uint32_t e = bits<6, 3>(v), m = bits<2, 0>(v);
        fp16 = bits<7, 7>(v) << 15 | (e ? e + 8 : 0) << 10 | m << 7 | (e == 15 && m == 7 ? 0x7Fu : 0u);
      } else if (c.arch == Arch::Blackhole && bits<6, 0>(v) == 0x7F) {
        fp16 = (v & 0xFFu) << 8 | 0xFFu;  // Blackhole: exponent and mantissa all ones widen to all ones (ttsim)
      } else {
        fp16 = (v & 0xFFu) << 8;  // S1E5M2: the top byte of FP16
      }
      return src_from_fp16(fp16);
    }
    case L1Format::INT8: case L1Format::UINT8: {
      const bool is_unsigned = c.from == L1Format::UINT8;
      const uint32_t sign = is_unsigned ? 0 : bits<7, 7>(v);
      const uint32_t mag = is_unsigned ? (v & 0xFFu) : bits<6, 0>(v);
      return src_layout::assemble(sign, mag, mag ? src_layout::kInt8Marker : 0);
    }
    default: refuse(c, "a BFP datum needs its block's exponent (unpack_from_l1)");
  }
}

std::vector<uint32_t> unpack_from_l1(const UnpackConfig& c, std::span<const uint8_t> l1, size_t n) {
  check_unpack(c);
  const L1Format f = c.from;
  if (l1_is_bfp(f) && n % kBfpBlock != 0) refuse(c, fmt::format("{} datums: BFP data comes in whole blocks of {}", n, kBfpBlock));
  if (l1.size() != l1_byte_count(f, n)) {
    refuse(c, fmt::format("{} datums of {} take {} bytes of L1, got {}", n, l1_format_name(f), l1_byte_count(f, n), l1.size()));
  }
  const unsigned width = l1_datum_bits(f);
  const size_t exp_bytes = l1_is_bfp(f) ? n / kBfpBlock : 0;
  std::vector<uint32_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t bit = i * width;
    uint32_t v = 0;
    if (width >= 8) {
      for (unsigned k = 0; k < width / 8; ++k) v |= static_cast<uint32_t>(l1[exp_bytes + bit / 8 + k]) << (8 * k);
    } else {
      v = (l1[exp_bytes + bit / 8] >> (bit % 8)) & low_mask(width);
    }
    out[i] = l1_is_bfp(f) ? src_from_bf16(bfp_datum_to_bf16(f, static_cast<uint8_t>(v), l1[i / kBfpBlock])) : unpack_datum(c, v);
  }
  return out;
}

}  // namespace tmu::tensix
