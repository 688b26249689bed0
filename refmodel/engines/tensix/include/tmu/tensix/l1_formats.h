// The packers' and unpackers' datum conversions between L1 storage formats and the Matrix Unit's
// registers: Dst -> L1 (PACR's early and late format conversions, BFP block assembly, L1
// accumulation, INT8 clamping) and L1 -> SrcA/SrcB or Dst (UNPACR's conversion). Pure functions on
// integers; no host floating point. Which (Dst format, intermediate, L1 format) triples exist, per
// architecture, is one table (pack_mode_supported); every other triple is refused with the reason.
//
// Patterns here are in IEEE bit order (sign|exponent|mantissa), as ttsim decodes Dst before
// converting: a Dst32b FP32 value as binary32 bits (dst32_to_fp32 in formats.h undoes Dst's
// shuffle), INT32 as the 32-bit sign-magnitude word, Dst16b BF16/FP16 as the 16-bit patterns,
// INT16 as the raw 16 bits. Src results are 19-bit datums in the Src layout of formats.h.
//
// Sources: tenstorrent/ttsim, src/tensix.cpp (TENSIX_EXECUTE_PACR: pack_fmt_conv_mode, the early and
// late conversions, the BFP assembly, pack_l1_acc_fp32/_bf16/_fp16; TENSIX_EXECUTE_UNPACR and
// bfp8_to_bf16), which is validated against silicon and followed where it implements a case;
// tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/TensixCoprocessor/Packers/
// FormatConversion.md and ExponentThresholding.md, UNPACR_Regular.md, FloatBitPatterns.md. Where
// the two differ: docs/spec-deltas.md (L1-*); the table of pairs: docs/l1-formats.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/tensix/formats.h"
#include "tmu/tensix/isa.h"

namespace tmu::tensix {

// The L1 storage formats by the ISA's names (Packers/FormatConversion.md, "Final L1 output format").
// UINT8 shares INT8's 4-bit code; Read_unsigned (packer) or SrcA/BUnsigned (unpacker) selects it.
enum class L1Format : uint8_t {
  FP32, TF32, BF16, FP16, FP8, BFP8, BFP4, BFP2, BFP8a, BFP4a, BFP2a, INT32, INT16, INT8, UINT8,
};
inline constexpr std::array<L1Format, 15> kL1Formats = {
    L1Format::FP32, L1Format::TF32,  L1Format::BF16,  L1Format::FP16,  L1Format::FP8,
    L1Format::BFP8, L1Format::BFP4,  L1Format::BFP2,  L1Format::BFP8a, L1Format::BFP4a,
    L1Format::BFP2a, L1Format::INT32, L1Format::INT16, L1Format::INT8,  L1Format::UINT8,
};
const char* l1_format_name(L1Format f);                      // "BFP8a", ...
std::optional<L1Format> parse_l1_format(std::string_view s);  // case-insensitive name
DataFormat l1_format_code(L1Format f);                       // the 4-bit code (UINT8 -> INT8)
// The L1 format a 4-bit code names (INT8 -> UINT8 when is_unsigned); nullopt for 12, 13 and >= 16.
std::optional<L1Format> l1_format_of_code(uint32_t code, bool is_unsigned);
unsigned l1_datum_bits(L1Format f);                          // 32, 16, 8, 4 or 2
bool l1_is_bfp(L1Format f);
// Bytes of n datums in L1: n * bits / 8, plus one exponent byte per 16 datums for BFP formats
// (whose n must be a multiple of 16). The layout is the exponent bytes, then the datums (the
// packer's exponent section before its data section), datums packed low bits first.
size_t l1_byte_count(L1Format f, size_t n);
inline constexpr size_t kBfpBlock = 16;

// ======================= Packer: Dst -> L1 =======================
// What the packer reads from Dst: FP32 and INT32 with Read_32b_data, the others from Dst16b.
enum class PackSource : uint8_t { FP32, INT32, BF16, FP16, INT16 };
const char* pack_source_name(PackSource s);
std::optional<PackSource> parse_pack_source(std::string_view s);
bool pack_source_is_32bit(PackSource s);

struct PackConfig {
  Arch arch = Arch::Blackhole;
  PackSource from = PackSource::FP32;
  L1Format to = L1Format::BF16;
  // IntermediateFormat (= In_data_format, the early conversion's output). nullopt: the one
  // default_intermediate gives for the pair.
  std::optional<DataFormat> intermediate;
  std::optional<uint8_t> exp_threshold;  // Exp_threshold_en with Exp_threshold (ExponentThresholding.md)
  bool l1_acc = false;                   // Pack_L1_Acc: L1 = L1 + datum
  bool stochastic_rounding = false;      // ALU_ROUNDING_MODE_Packer_srnd_en (always refused)
};

// A validated configuration: the mode code ttsim names pack_fmt_conv_mode,
// Read_32b_data << 8 | IntermediateFormat << 4 | LateToFormat code.
struct PackPlan {
  PackConfig cfg;
  DataFormat intermediate = DataFormat::FP32;
  uint32_t mode = 0;
  // PCK_DEST_RD_CTRL_Round_10b_mant, which the mode needs set (Blackhole): the rounding FP32 -> TF32 ->
  // FP16 path (modes 0x111, 0x11A), and a Dst16b datum read as BF16 into FP16 for FP8 out (0x1A, BF16 source).
  bool round_10b_mant = false;
};
// The intermediate format used when the caller names none: the rounding early conversion where the
// pair has one (FP32 -> BF16 through BF16, FP32 -> BFP8/BFP4 through BFP8 (E8M6), Blackhole FP32 ->
// FP16/FP8 through TF32), otherwise the one the pair has. nullopt when the pair has none.
std::optional<DataFormat> default_intermediate(Arch arch, PackSource from, L1Format to);
// Whether ttsim implements the mode on the architecture (its pack_fmt_conv_mode list).
bool pack_mode_supported(Arch arch, uint32_t mode);
// Throws tmu::Error (BadInput) naming the pair and the reason when the sources refuse or leave the
// configuration undefined: stochastic rounding, a triple without a mode, L1 accumulation into a
// format other than FP32/BF16/FP16, thresholding of an integer intermediate.
PackPlan plan_pack(const PackConfig& cfg);

// The early conversion (Dst datum -> intermediate datum), then exponent thresholding. The
// intermediate is a binary32 pattern (FP32, INT32 sign-magnitude), a 16-bit BF16/E8M6 pattern, a
// 16-bit FP16/E5M6 pattern, INT16 bits or an 8-bit INT8/UINT8 datum.
uint32_t pack_early(const PackPlan& p, uint32_t dst);
// The late conversion (intermediate -> L1 datum). For BFP outputs the result is the BF16 pattern
// that enters the block assembly (bfp_block_from_bf16).
uint32_t pack_late(const PackPlan& p, uint32_t intermediate);

// The rounding steps, named for what they do ("round" is to nearest, ties away from zero, as
// FormatConversion.md says of every deterministic packer rounding).
uint16_t fp32_round_to_bf16(uint32_t fp32);   // NaN -> inf; exponent-0 results -> +0
uint16_t fp32_round_to_e8m6(uint32_t fp32);   // BF16 frame, mantissa bit 0 cleared
uint32_t fp32_round_to_tf32(uint32_t fp32);   // 19-bit sign|exp8|man10; NaN -> inf; exp 0 -> +0
uint16_t tf32_to_fp16_saturate(uint32_t tf32_19);   // exponent - 112: below 0 -> ±0, above 31 -> ±max
uint16_t bf16_to_fp16_saturate(uint16_t bf16);     // exponent - 112: below 0 -> ±0, above 31 -> ±max; mantissa << 3
uint16_t bf16_flush_nan_to_inf(uint16_t bf16);     // NaN -> inf, exponent 0 -> +0
uint16_t bf16_round_to_e8m6(uint16_t bf16);
uint16_t fp16_flush_denormal(uint16_t fp16);       // exponent 0 -> +0
uint16_t fp16_round_to_e5m6(uint16_t fp16);        // saturating at 0x7ff0, then exponent 0 -> +0
uint8_t int32_saturate_to_int8(uint32_t sign_magnitude);   // sign | min(magnitude, 127)
uint8_t int32_saturate_to_uint8(uint32_t sign_magnitude);  // negative -> 0, above 255 -> 255
uint32_t fp16_to_fp32_late(uint16_t fp16);
uint16_t fp16_to_bf16_late(uint16_t fp16);         // truncating; exponent 0 -> +0
uint8_t fp16_to_fp8_e4m3_late(uint16_t fp16);      // Blackhole, Pac_LF8_4b_exp: saturating, truncating
uint16_t fp32_to_fp16_late(uint32_t fp32);         // saturating, truncating; exponent 112 kept
uint16_t fp32_to_bf16_truncate_late(uint32_t fp32);  // exponent 0 -> +0 (BFP inputs)

// One block of 16 BF16 patterns -> the shared exponent (the largest exponent field; 255 counts as
// an ordinary exponent) and 16 datums of the BFP8/BFP4/BFP2 width: each mantissa with its hidden
// bit aligned to the shared exponent and rounded to 7 magnitude bits (ties away from zero, a
// magnitude of 128 kept at 127), then truncated to the narrower width; the sign is kept only with
// a nonzero magnitude (a lone sign means -inf to the unpacker).
struct BfpBlock {
  uint8_t exponent = 0;
  std::array<uint8_t, kBfpBlock> datums{};  // sign at bit width-1, magnitude below
};
BfpBlock bfp_block_from_bf16(std::span<const uint16_t, kBfpBlock> bf16, L1Format to);

// L1 accumulation (L1 = L1 + datum), per format, with the operand order ttsim uses (the old L1
// datum first). FP32: denormal operands and results read as zeros of their sign, round to nearest
// even, every NaN -> 0x7fc00000. BF16: +inf + -inf -> 0x7fc0, denormals -> signed zeros, an L1 NaN
// acts as the largest magnitude of its sign, a datum NaN as the finite 2^128 * 1.m, round to nearest
// even once, a result below 2^-126 -> signed zero, from 2^128 up -> inf. FP16 (no inf or NaN): exact
// cancellation -> 0 unless the L1 exponent is 30 or 31 (then 0x7fff), a result below 2^-15 -> 0x7fff
// with its sign, exponent 0 -> signed zero, round to nearest even, overflow -> 0x7fff with its sign.
uint32_t l1_acc_fp32(uint32_t l1, uint32_t datum);
uint16_t l1_acc_bf16(uint16_t l1, uint16_t datum);
uint16_t l1_acc_fp16(uint16_t l1, uint16_t datum);

// A whole PACR's worth: dst.size() datums (a multiple of 16 for BFP outputs) -> L1 bytes in the
// layout of l1_byte_count. With cfg.l1_acc, `l1_before` holds the bytes being accumulated into
// (the same size). Throws tmu::Error (BadInput) on a size mismatch.
std::vector<uint8_t> pack_to_l1(const PackPlan& p, std::span<const uint32_t> dst, std::span<const uint8_t> l1_before = {});

// ======================= Unpacker: L1 -> Src or Dst =======================
enum class UnpackTarget : uint8_t { Src, Dst };
struct UnpackConfig {
  Arch arch = Arch::Blackhole;
  L1Format from = L1Format::BF16;
  // Out_data_format for the FP32 input (TF32, BF16 or FP16 into Src; FP32 or TF32 into Dst);
  // ignored (nullopt) for every other input, which has one conversion.
  std::optional<L1Format> to;
  UnpackTarget target = UnpackTarget::Src;
  bool fp8_e4m3 = false;  // Unp_LF8_4b_exp: FP8 data as S1E4M3 rather than S1E5M2
};
// Throws tmu::Error (BadInput) when the sources refuse or leave the configuration undefined.
void check_unpack(const UnpackConfig& cfg);
// A non-BFP datum (the L1 bits, right-aligned) -> the 19-bit Src datum, or for target Dst the
// binary32 / INT32 sign-magnitude pattern written to Dst32b.
uint32_t unpack_datum(const UnpackConfig& cfg, uint32_t l1_datum);
// The unpacker's FP32 -> Src conversions.
uint32_t fp32_truncate_to_src_tf32(uint32_t fp32);       // drops the low 13 mantissa bits
uint32_t fp32_truncate_to_src_bf16(uint32_t fp32);       // denormals -> signed zero, drops 16 bits
uint32_t fp32_to_src_fp16_saturate(uint32_t fp32);       // ttsim: exponent - 112, saturating, truncating
// A BFP datum of the 'b' flavour (BFP8/BFP4/BFP2) with its block's exponent -> the BF16 pattern:
// shifted to BFP8's position, normalised with the exponent lowered as far (wrapping below zero, as
// the ISA and silicon do); a lone sign -> 0xff80.
uint16_t bfp_datum_to_bf16(L1Format f, uint8_t datum, uint8_t exponent);
// A whole UNPACR's worth: the L1 bytes of n datums (l1_byte_count) -> n Src datums or Dst32 patterns.
std::vector<uint32_t> unpack_from_l1(const UnpackConfig& cfg, std::span<const uint8_t> l1, size_t n);

}  // namespace tmu::tensix
