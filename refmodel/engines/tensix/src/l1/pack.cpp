// The packer's datum conversions, Dst -> L1: which modes exist (plan_pack), the early conversion
// with its roundings, exponent thresholding, the late conversion, and a whole PACR's bytes.
//
// Sources: tenstorrent/ttsim, src/tensix.cpp (TENSIX_EXECUTE_PACR); tenstorrent/tt-isa-documentation,
// WormholeB0/TensixTile/TensixCoprocessor/Packers/FormatConversion.md and ExponentThresholding.md.
// Every rounding below is "round to nearest, ties away from zero" on the magnitude (FormatConversion.md),
// which ttsim writes as adding half a unit of the kept precision before shifting.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "tmu/bits.h"
#include "tmu/error.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix {

namespace {

[[noreturn]] void refuse(const PackConfig& c, std::string_view why) {
  throw Error(ErrorKind::BadInput, fmt::format("pack {} -> {} on {}: {}", pack_source_name(c.from), l1_format_name(c.to),
                                               arch_name(c.arch), why));
}

constexpr uint32_t kSign32 = 0x80000000u;
constexpr uint32_t kSign16 = 0x8000u;
constexpr uint32_t kInf32 = 0x7F800000u;
constexpr uint32_t kInfBf16 = 0x7F80u;

constexpr uint32_t code(DataFormat f) { return static_cast<uint32_t>(f); }

// The intermediates each Dst source may use (the early conversion table of FormatConversion.md,
// narrowed to ttsim's modes). A BF16 Dst reaches FP16 only on Blackhole's Round_10b_mant read, which
// ttsim runs with mode 0x1A alone (FP8 out) and refuses on every other mode.
bool intermediate_fits_source(PackSource s, DataFormat i, L1Format to) {
  switch (s) {
    case PackSource::FP32: return i == DataFormat::FP32 || i == DataFormat::BF16 || i == DataFormat::BFP8 || i == DataFormat::FP16;
    case PackSource::INT32: return i == DataFormat::INT32 || i == DataFormat::INT8;
    case PackSource::BF16: return i == DataFormat::BF16 || i == DataFormat::BFP8 || (i == DataFormat::FP16 && to == L1Format::FP8);
    case PackSource::FP16: return i == DataFormat::FP16 || i == DataFormat::BFP8a;
    case PackSource::INT16: return i == DataFormat::INT16;
  }
  return false;
}

uint32_t mode_of(PackSource s, DataFormat intermediate, L1Format to) {
  return (pack_source_is_32bit(s) ? 0x100u : 0u) | code(intermediate) << 4 | code(l1_format_code(to));
}

// The exponent field ExponentThresholding.md compares, per intermediate format; nullopt for the
// integer intermediates, which its switch leaves alone.
std::optional<uint32_t> threshold_exponent(DataFormat intermediate, uint32_t v) {
  switch (intermediate) {
    case DataFormat::FP32: return bits<30, 23>(v);
    case DataFormat::BF16: case DataFormat::BFP8: return bits<14, 7>(v);
    case DataFormat::FP16: case DataFormat::BFP8a: return bits<14, 10>(v);
    default: return std::nullopt;
  }
}

}  // namespace

const char* pack_source_name(PackSource s) {
  switch (s) {
    case PackSource::FP32: return "FP32";
    case PackSource::INT32: return "INT32";
    case PackSource::BF16: return "BF16";
    case PackSource::FP16: return "FP16";
    case PackSource::INT16: return "INT16";
  }
  return "?";
}

std::optional<PackSource> parse_pack_source(std::string_view s) {
  for (PackSource p : {PackSource::FP32, PackSource::INT32, PackSource::BF16, PackSource::FP16, PackSource::INT16}) {
    const std::string_view n = pack_source_name(p);
    if (n.size() == s.size() && std::equal(n.begin(), n.end(), s.begin(), [](char a, char b) { return a == std::toupper(static_cast<unsigned char>(b)); })) {
      return p;
    }
  }
  return std::nullopt;
}

bool pack_source_is_32bit(PackSource s) { return s == PackSource::FP32 || s == PackSource::INT32; }

bool pack_mode_supported(Arch arch, uint32_t mode) {
  // ttsim's pack_fmt_conv_mode list, less 0x199 (INT32 read as INT16: FormatConversion.md says "No",
  // and ttsim marks it as doubtful).
  static constexpr uint32_t kBoth[] = {0x10, 0x11, 0x15, 0x26, 0x50, 0x55, 0x56, 0x57, 0x5F, 0x60, 0x65, 0x66, 0x67, 0x99,
                                       0x100, 0x101, 0x106, 0x107, 0x10F, 0x155, 0x166, 0x167, 0x188, 0x1EE};
  static constexpr uint32_t kBlackholeOnly[] = {0x1A, 0x111, 0x11A};
  if (std::find(std::begin(kBoth), std::end(kBoth), mode) != std::end(kBoth)) return true;
  return arch == Arch::Blackhole && std::find(std::begin(kBlackholeOnly), std::end(kBlackholeOnly), mode) != std::end(kBlackholeOnly);
}

std::optional<DataFormat> default_intermediate(Arch arch, PackSource from, L1Format to) {
  // Preference order: the rounding conversions first, then the identity-like ones.
  static constexpr DataFormat kOrder[] = {DataFormat::BF16, DataFormat::BFP8, DataFormat::FP16, DataFormat::FP32,
                                          DataFormat::BFP8a, DataFormat::INT32, DataFormat::INT8, DataFormat::INT16};
  for (DataFormat i : kOrder) {
    if (!intermediate_fits_source(from, i, to)) continue;
    // FP32 -> FP16 on Blackhole: the rounding path through TF32 before the truncating late one.
    if (from == PackSource::FP32 && to == L1Format::FP16 && i == DataFormat::BF16) continue;
    if (pack_mode_supported(arch, mode_of(from, i, to))) return i;
  }
  return std::nullopt;
}

PackPlan plan_pack(const PackConfig& cfg) {
  if (cfg.stochastic_rounding) {
    refuse(cfg, "stochastic rounding (ALU_ROUNDING_MODE_Packer_srnd_en) is not modelled: ttsim leaves it out of scope, "
                "and FormatConversion.md describes a biased hardware implementation without defining its random source");
  }
  const std::optional<DataFormat> inter = cfg.intermediate ? cfg.intermediate : default_intermediate(cfg.arch, cfg.from, cfg.to);
  if (!inter) refuse(cfg, "no packer format-conversion mode converts this pair (ttsim's pack_fmt_conv_mode list; docs/l1-formats.md)");
  if (!intermediate_fits_source(cfg.from, *inter, cfg.to)) {
    refuse(cfg, fmt::format("intermediate format {} cannot be reached from {} Dst data (FormatConversion.md early conversion; "
                            "a BF16 Dst is read as FP16 only by the Round_10b_mant path to FP8, ttsim's mode 0x1A)",
                            data_format_name(*inter), pack_source_name(cfg.from)));
  }
  const uint32_t mode = mode_of(cfg.from, *inter, cfg.to);
  if (!pack_mode_supported(cfg.arch, mode)) {
    refuse(cfg, fmt::format("intermediate {}: pack_fmt_conv_mode 0x{:x} is not one ttsim implements on {} (docs/l1-formats.md)",
                            data_format_name(*inter), mode, arch_name(cfg.arch)));
  }
  if (cfg.l1_acc && cfg.to != L1Format::FP32 && cfg.to != L1Format::BF16 && cfg.to != L1Format::FP16) {
    refuse(cfg, "L1 accumulation (Pack_L1_Acc) is defined for FP32, BF16 and FP16 outputs only (ttsim)");
  }
  if (cfg.exp_threshold && !threshold_exponent(*inter, 0)) {
    refuse(cfg, "exponent thresholding applies to floating-point intermediates only (ExponentThresholding.md)");
  }
  PackPlan p;
  p.cfg = cfg;
  p.intermediate = *inter;
  p.mode = mode;
  p.round_10b_mant = mode == 0x111 || mode == 0x11A || (mode == 0x1A && cfg.from == PackSource::BF16);
  return p;
}

// ---- The early conversion's steps ----

uint16_t fp32_round_to_bf16(uint32_t fp32) {
  if ((fp32 & ~kSign32) > kInf32) fp32 = (fp32 & kSign32) | kInf32;
  const uint32_t r = (fp32 + 0x8000u) >> 16;  // half of BF16's unit in the last place, then drop 16 bits
  return bits<14, 7>(r) == 0 ? 0 : static_cast<uint16_t>(r);
}

uint16_t fp32_round_to_e8m6(uint32_t fp32) {
  if ((fp32 & ~kSign32) > kInf32) fp32 = (fp32 & kSign32) | kInf32;
  // ttsim truncates to BF16 and then rounds away its last bit; adding half of the E8M6 unit (bit 16) reads
  // only bits 16 and up, so this is the single rounding FormatConversion.md names.
  const uint32_t r = ((fp32 >> 16) + 1u) & ~1u;
  return bits<14, 7>(r) == 0 ? 0 : static_cast<uint16_t>(r);
}

uint32_t fp32_round_to_tf32(uint32_t fp32) {
  if ((fp32 & ~kSign32) > kInf32) fp32 = (fp32 & kSign32) | kInf32;
  const uint32_t r = (fp32 + 0x1000u) >> 13;
  return bits<17, 10>(r) == 0 ? 0 : r;
}

uint16_t tf32_to_fp16_saturate(uint32_t tf32) {
  const uint32_t s = bits<18, 18>(tf32) << 15;
  const int e = static_cast<int>(bits<17, 10>(tf32)) - 112;
  if (e < 0) return static_cast<uint16_t>(s);
  if (e > 31) return static_cast<uint16_t>(s | 0x7FFFu);
  return static_cast<uint16_t>(s | static_cast<uint32_t>(e) << 10 | bits<9, 0>(tf32));
}

uint16_t bf16_to_fp16_saturate(uint16_t bf16) {
  const uint32_t s = bf16 & kSign16;
  const int e = static_cast<int>(bits<14, 7>(bf16)) - 112;
  if (e < 0) return static_cast<uint16_t>(s);
  if (e > 31) return static_cast<uint16_t>(s | 0x7FFFu);
  return static_cast<uint16_t>(s | static_cast<uint32_t>(e) << 10 | bits<6, 0>(bf16) << 3);
}

uint16_t bf16_flush_nan_to_inf(uint16_t bf16) {
  if ((bf16 & 0x7FFFu) > kInfBf16) return static_cast<uint16_t>((bf16 & kSign16) | kInfBf16);
  if (bits<14, 7>(bf16) == 0) return 0;
  return bf16;
}

uint16_t bf16_round_to_e8m6(uint16_t bf16) {
  return static_cast<uint16_t>((bf16_flush_nan_to_inf(bf16) + 1u) & ~1u);
}

uint16_t fp16_flush_denormal(uint16_t fp16) { return bits<14, 10>(fp16) == 0 ? 0 : fp16; }

uint16_t fp16_round_to_e5m6(uint16_t fp16) {
  uint32_t v = fp16;
  if ((v & 0x7FFFu) > 0x7FF7u) v = (v & kSign16) | 0x7FF0u;  // would round past exponent 31: the largest E5M6
  v = (v + 8u) & ~15u;
  return fp16_flush_denormal(static_cast<uint16_t>(v));
}

uint8_t int32_saturate_to_int8(uint32_t sm) {
  return static_cast<uint8_t>((sm & kSign32) >> 24 | std::min(sm & ~kSign32, 127u));
}

uint8_t int32_saturate_to_uint8(uint32_t sm) {
  if (sm & kSign32) return 0;
  return static_cast<uint8_t>(std::min(sm, 255u));
}

// ---- The late conversion's steps ----

uint32_t fp16_to_fp32_late(uint16_t fp16) {
  const uint32_t s = static_cast<uint32_t>(fp16 & kSign16) << 16;
  if (bits<14, 10>(fp16) != 0) return s | ((fp16 & 0x7FFFu) + (112u << 10)) << 13;  // rebias 15 -> 127
  return s | static_cast<uint32_t>(bits<9, 0>(fp16)) << 13;  // FormatConversion.md: denormals mishandled
}

uint16_t fp16_to_bf16_late(uint16_t fp16) {
  const uint32_t e = bits<14, 10>(fp16);
  if (e == 0) return 0;
  return static_cast<uint16_t>((fp16 & kSign16) | (e + 112u) << 7 | bits<9, 3>(fp16));
}

uint8_t fp16_to_fp8_e4m3_late(uint16_t fp16) {
  const uint32_t s = bits<15, 15>(fp16) << 7;
  const uint32_t e = bits<14, 10>(fp16);
  if (e <= 8) return static_cast<uint8_t>(s);
  if (e >= 24) return static_cast<uint8_t>(s | 0x7Fu);
  return static_cast<uint8_t>(s | (e - 8) << 3 | bits<9, 7>(fp16));
}

uint16_t fp32_to_fp16_late(uint32_t fp32) {
  const uint32_t s = bits<31, 31>(fp32) << 15;
  const int e = static_cast<int>(bits<30, 23>(fp32)) - 112;
  if (e < 0) return static_cast<uint16_t>(s);
  if (e > 31) return static_cast<uint16_t>(s | 0x7FFFu);
  return static_cast<uint16_t>(s | static_cast<uint32_t>(e) << 10 | bits<22, 13>(fp32));
}

uint16_t fp32_to_bf16_truncate_late(uint32_t fp32) {
  const auto v = static_cast<uint16_t>(fp32 >> 16);
  return bits<14, 7>(v) == 0 ? 0 : v;
}

namespace {

// The conversions run a step over a whole tile: the switch on the plan is taken once per tile, not
// once per datum, so each loop is one inlined conversion the compiler can vectorise.
template <class Step>
void each(std::span<uint32_t> v, Step step) {
  for (uint32_t& x : v) x = step(x);
}

void early_steps(const PackPlan& p, std::span<uint32_t> v) {
  const auto lo16 = [](uint32_t x) { return static_cast<uint16_t>(x); };
  switch (p.cfg.from) {
    case PackSource::FP32:
      switch (p.intermediate) {
        case DataFormat::BF16: each(v, [](uint32_t x) -> uint32_t { return fp32_round_to_bf16(x); }); break;
        case DataFormat::BFP8: each(v, [](uint32_t x) -> uint32_t { return fp32_round_to_e8m6(x); }); break;
        case DataFormat::FP16: each(v, [](uint32_t x) -> uint32_t { return tf32_to_fp16_saturate(fp32_round_to_tf32(x)); }); break;
        default: break;  // FP32: identity
      }
      break;
    case PackSource::INT32:
      if (p.intermediate != DataFormat::INT8) break;
      if (p.cfg.to == L1Format::UINT8) each(v, [](uint32_t x) -> uint32_t { return int32_saturate_to_uint8(x); });
      else each(v, [](uint32_t x) -> uint32_t { return int32_saturate_to_int8(x); });
      break;
    case PackSource::BF16:
      if (p.intermediate == DataFormat::BFP8) each(v, [&](uint32_t x) -> uint32_t { return bf16_round_to_e8m6(lo16(x)); });
      else if (p.intermediate == DataFormat::FP16) each(v, [&](uint32_t x) -> uint32_t { return bf16_to_fp16_saturate(lo16(x)); });
      else each(v, [&](uint32_t x) -> uint32_t { return bf16_flush_nan_to_inf(lo16(x)); });
      break;
    case PackSource::FP16:
      if (p.intermediate == DataFormat::BFP8a) each(v, [&](uint32_t x) -> uint32_t { return fp16_round_to_e5m6(lo16(x)); });
      else each(v, [&](uint32_t x) -> uint32_t { return fp16_flush_denormal(lo16(x)); });
      break;
    case PackSource::INT16: break;
  }
  if (!p.cfg.exp_threshold || !threshold_exponent(p.intermediate, 0)) return;
  const DataFormat inter = p.intermediate;
  const uint32_t threshold = *p.cfg.exp_threshold;
  each(v, [&](uint32_t x) -> uint32_t { return *threshold_exponent(inter, x) < threshold ? 0 : x; });
}

void late_steps(const PackPlan& p, std::span<uint32_t> v) {
  const auto lo16 = [](uint32_t x) { return static_cast<uint16_t>(x); };
  switch (p.mode & 0xFFu) {
    case 0x10: each(v, [&](uint32_t x) -> uint32_t { return fp16_to_fp32_late(lo16(x)); }); break;
    case 0x15: case 0x26: each(v, [&](uint32_t x) -> uint32_t { return fp16_to_bf16_late(lo16(x)); }); break;
    case 0x1A: each(v, [&](uint32_t x) -> uint32_t { return fp16_to_fp8_e4m3_late(lo16(x)); }); break;
    case 0x50: case 0x60: each(v, [](uint32_t x) -> uint32_t { return x << 16; }); break;
    case 0x01: each(v, [](uint32_t x) -> uint32_t { return fp32_to_fp16_late(x); }); break;
    case 0x06: case 0x07: case 0x0F: each(v, [](uint32_t x) -> uint32_t { return fp32_to_bf16_truncate_late(x); }); break;
    default: break;  // identity: 0x11, 0x55, 0x56/57/5F, 0x65, 0x66/67, 0x99, 0x00, 0x88, 0xEE
  }
}

}  // namespace

uint32_t pack_early(const PackPlan& p, uint32_t dst) {
  early_steps(p, {&dst, 1});
  return dst;
}

uint32_t pack_late(const PackPlan& p, uint32_t v) {
  late_steps(p, {&v, 1});
  return v;
}

std::vector<uint8_t> pack_to_l1(const PackPlan& p, std::span<const uint32_t> dst, std::span<const uint8_t> l1_before) {
  const L1Format to = p.cfg.to;
  const size_t n = dst.size();
  if (l1_is_bfp(to) && n % kBfpBlock != 0) {
    refuse(p.cfg, fmt::format("{} datums: BFP outputs take whole blocks of {}", n, kBfpBlock));
  }
  std::vector<uint8_t> out(l1_byte_count(to, n));
  if (p.cfg.l1_acc && l1_before.size() != out.size()) {
    refuse(p.cfg, fmt::format("L1 accumulation needs the {} bytes of L1 being accumulated into, got {}", out.size(), l1_before.size()));
  }
  if (!pack_source_is_32bit(p.cfg.from)) {
    const auto wide = std::find_if(dst.begin(), dst.end(), [](uint32_t d) { return d > 0xFFFFu; });
    if (wide != dst.end()) {
      refuse(p.cfg, fmt::format("Dst datum {} is 0x{:x}, wider than the 16 bits of a Dst16b {} value", wide - dst.begin(), *wide,
                                pack_source_name(p.cfg.from)));
    }
  }
  std::vector<uint32_t> v(dst.begin(), dst.end());
  early_steps(p, v);
  late_steps(p, v);
  const unsigned width = l1_datum_bits(to);
  if (l1_is_bfp(to)) {
    const size_t exp_bytes = n / kBfpBlock;
    std::array<uint16_t, kBfpBlock> block{};
    for (size_t first = 0; first < n; first += kBfpBlock) {
      for (size_t j = 0; j < kBfpBlock; ++j) block[j] = static_cast<uint16_t>(v[first + j]);
      const BfpBlock b = bfp_block_from_bf16(block, to);
      out[first / kBfpBlock] = b.exponent;
      for (size_t j = 0; j < kBfpBlock; ++j) {
        const size_t bit = (first + j) * width;
        out[exp_bytes + bit / 8] |= static_cast<uint8_t>(b.datums[j] << (bit % 8));
      }
    }
    return out;
  }
  const unsigned bytes = width / 8;
  if (p.cfg.l1_acc) {
    for (size_t i = 0; i < n; ++i) {
      uint32_t old = 0;
      for (unsigned k = 0; k < bytes; ++k) old |= static_cast<uint32_t>(l1_before[i * bytes + k]) << (8 * k);
      if (to == L1Format::FP32) v[i] = l1_acc_fp32(old, v[i]);
      else if (to == L1Format::BF16) v[i] = l1_acc_bf16(static_cast<uint16_t>(old), static_cast<uint16_t>(v[i]));
      else v[i] = l1_acc_fp16(static_cast<uint16_t>(old), static_cast<uint16_t>(v[i]));
    }
  }
  // L1 is little-endian, whatever the host.
  const auto store = [&]<unsigned B>() {
    for (size_t i = 0; i < n; ++i)
      for (unsigned k = 0; k < B; ++k) out[i * B + k] = static_cast<uint8_t>(v[i] >> (8 * k));
  };
  if (bytes == 4) store.template operator()<4>();
  else if (bytes == 2) store.template operator()<2>();
  else store.template operator()<1>();
  return out;
}

}  // namespace tmu::tensix
