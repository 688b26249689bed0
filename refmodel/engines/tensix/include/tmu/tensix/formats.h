// Number formats as the Matrix Unit stores them: the 19-bit SrcA/SrcB datum layouts, the 16-bit and
// 32-bit Dst layouts (which are NOT the IEEE bit orders), the ALU_FORMAT_SPEC format codes and the
// Src "style" a format implies. Pure functions on integers; no host floating point except in the
// display/parse helpers at the bottom, which are never used on the bit-exact path.
//
// Sources: SrcASrcB.md, Dst.md, FloatBitPatterns.md, MVMUL.md ("Determine the data formats"),
// Packers/FormatConversion.md (the 4-bit format codes), Diagrams/Src/Bits32.lua (Src_*, Dst16_*, Dst32_*).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tmu/bits.h"

namespace tmu::tensix {

// 4-bit data format codes of ALU_FORMAT_SPEC (and of the format tag Blackhole writes with Src data),
// as Packers/FormatConversion.md tabulates them (the same numbering as tt-llk's DataFormat enum).
// Codes 12 and 13 name no format.
enum class DataFormat : uint8_t {
  FP32 = 0, FP16 = 1, BFP8a = 2, BFP4a = 3, TF32 = 4, BF16 = 5, BFP8 = 6, BFP4 = 7,
  INT32 = 8, INT16 = 9, FP8 = 10, BFP2a = 11, INT8 = 14, BFP2 = 15,
};
const char* data_format_name(DataFormat f);                     // "FP32", "BFP8a", ...
std::optional<DataFormat> parse_data_format(std::string_view name);  // case-insensitive name
bool is_valid_data_format_code(uint32_t code);                  // false for 12, 13 and >= 16

// How the Matrix Unit interprets a 19-bit Src datum.
enum class SrcStyle : uint8_t { BF16, FP16, TF32, INT8 };
const char* src_style_name(SrcStyle s);
// MVMUL.md: {FP32, BF16, BFP8, BFP4, BFP2, INT32, INT16} -> BF16; {FP16, FP8, BFP8a, BFP4a, BFP2a,
// INT8} -> FP16; everything else -> TF32. INT8 style never comes from a format code; it comes from
// ALU_ACC_CTRL_INT8_math_enabled. The _code variant accepts any 4-bit value: 12 and 13 fall into
// MVMUL.md's final "else" branch and so are TF32 style, exactly like code 4.
SrcStyle src_style_of_format(DataFormat f);
SrcStyle src_style_of_format_code(uint32_t code);

// ---- Src datum layout (SrcASrcB.md, Bits32.lua Src_TF32/BF16/FP16/INT8/INT16) ----
// Every style shares one frame: sign at 18, a 10-bit mantissa/magnitude field at 17:8, an 8-bit
// exponent field at 7:0. BF16 uses only mantissa 17:11 (10:8 zero); FP16 and INT8 use only exponent
// 4:0 (7:5 zero; INT8's "exponent" is the marker 16, or 0 when the magnitude is 0); INT16 keeps its
// magnitude's low 8 bits in 7:0 and high 7 bits in 17:11. (ttsim keeps Src data in an FP32-like
// frame instead — sign 31, exponent 30:23, mantissa 22:13 — so its masks look different.)
namespace src_layout {
constexpr uint32_t sign(uint32_t d) { return bits<18, 18>(d); }
constexpr uint32_t mantissa(uint32_t d) { return bits<17, 8>(d); }      // TF32/FP16 mantissa, INT8 magnitude
constexpr uint32_t mantissa_hi7(uint32_t d) { return bits<17, 11>(d); } // BF16 mantissa
constexpr uint32_t mantissa_lo3(uint32_t d) { return bits<10, 8>(d); }  // zero in BF16 data
constexpr uint32_t exponent(uint32_t d) { return bits<7, 0>(d); }       // BF16/TF32 exponent
constexpr uint32_t exponent_lo5(uint32_t d) { return bits<4, 0>(d); }   // FP16 exponent, INT8 marker
constexpr uint32_t exponent_hi3(uint32_t d) { return bits<7, 5>(d); }   // zero in FP16/INT8 data
constexpr uint32_t assemble(uint32_t sign, uint32_t mantissa10, uint32_t exponent8) {
  return with_bits<18, 18>(with_bits<17, 8>(with_bits<7, 0>(0, exponent8), mantissa10), sign);
}
inline constexpr uint32_t kInt8Marker = 16;  // exponent field of a non-zero INT8 datum
}  // namespace src_layout

// A Src datum split into its fields, as the Matrix Unit reads them for the style. For BF16/TF32
// exponent is 8 bits (bias 127) and mantissa is 10 bits; for BF16 the three low mantissa bits are
// returned as zero because BF16 reads ignore them. For FP16 exponent is bits 4:0 (bias 15; bits
// 7:5 are ignored). For INT8, mantissa holds the 10-bit magnitude and exponent the 5-bit marker.
struct SrcFields {
  uint32_t sign = 0;
  uint32_t exponent = 0;
  uint32_t mantissa = 0;
};
// Inline: the datapaths call it once per operand of every product.
inline SrcFields unpack_src(uint32_t datum19, SrcStyle style) {
  SrcFields f;
  f.sign = src_layout::sign(datum19);
  switch (style) {
    case SrcStyle::TF32:
      f.exponent = src_layout::exponent(datum19);
      f.mantissa = src_layout::mantissa(datum19);
      break;
    case SrcStyle::BF16:
      f.exponent = src_layout::exponent(datum19);
      f.mantissa = with_bits<9, 3>(0, src_layout::mantissa_hi7(datum19));
      break;
    case SrcStyle::FP16:
    case SrcStyle::INT8:
      f.exponent = src_layout::exponent_lo5(datum19);
      f.mantissa = src_layout::mantissa(datum19);
      break;
  }
  return f;
}
// The canonical datum for the fields (zeros in the bits the style does not use; over-wide fields
// are truncated to their width).
uint32_t pack_src(const SrcFields& f, SrcStyle style);

// ---- Dst layouts (Dst.md, Bits32.lua Dst16_* and Dst32_*) ----
// Dst16 BF16: sign 15, mantissa 14:8, exponent 7:0. Dst16 FP16 (and INT8, overlaid): sign 15,
// mantissa 14:5, exponent 4:0. Dst16 INT16: sign 15, magnitude 14:0.
// Dst32 FP32: sign 31, mantissa high 7 bits 30:24, exponent 23:16, mantissa low 16 bits 15:0 — the
// high half is exactly a Dst16 BF16. Dst32 INT32: sign-magnitude, sign 31, magnitude bits 22:16 in
// 30:24, magnitude bits 30:23 in 23:16, magnitude bits 15:0 in 15:0 (the FP32 shuffle applied to
// the sign-magnitude word).
namespace dst_layout {
constexpr uint32_t sign16(uint32_t v) { return bits<15, 15>(v); }
constexpr uint32_t bf16_mantissa(uint32_t v) { return bits<14, 8>(v); }
constexpr uint32_t bf16_exponent(uint32_t v) { return bits<7, 0>(v); }
constexpr uint32_t fp16_mantissa(uint32_t v) { return bits<14, 5>(v); }  // also INT8 magnitude
constexpr uint32_t fp16_exponent(uint32_t v) { return bits<4, 0>(v); }   // also INT8 marker
constexpr uint32_t high_half(uint32_t v32) { return bits<31, 16>(v32); }
constexpr uint32_t low_half(uint32_t v32) { return bits<15, 0>(v32); }
constexpr uint32_t fp32_low_mantissa3(uint32_t v32) { return bits<15, 13>(v32); }  // TF32's last 3 bits
}  // namespace dst_layout

// Dst16b: physical 16-bit layouts <-> the ordinary IEEE-order patterns (sign|exp|mantissa).
uint16_t dst16_from_bf16(uint16_t bf16_ieee);   // IEEE-order BF16 -> DstBits layout
uint16_t dst16_to_bf16(uint16_t dst_bits);
uint16_t dst16_from_fp16(uint16_t fp16_ieee);
uint16_t dst16_to_fp16(uint16_t dst_bits);
// Dst32b: physical 32-bit layout <-> IEEE-order FP32; INT32 is sign-magnitude in the same layout.
uint32_t dst32_from_fp32(uint32_t fp32_ieee);
uint32_t dst32_to_fp32(uint32_t dst_bits);
// Two's complement in, sign-magnitude layout out. -2^31 has no sign-magnitude form; it is written as
// -(2^31 - 1), the value the Matrix Unit's saturating INT32 accumulation produces at that end.
uint32_t dst32_from_int32(int32_t value);
int32_t dst32_to_int32(uint32_t dst_bits);      // -0 reads as 0
// Row of DstBits holding the high half of Dst32b[row]; the low half is that row + 8 (Dst.md).
constexpr uint32_t adj32_row(uint32_t row) { return ((row & 0x1F8u) << 1) | (row & 0x207u); }
inline constexpr uint32_t kDst32LowHalfRowOffset = 8;

// ---- Display and parsing only (host floating point allowed here) ----
// Typed values as written in programs and vector files: "bf16:1.5", "fp16:-0.25", "tf32:3",
// "fp32:0x1.8p-3", "int8:-7", "int32:100000", or raw "0x1234" (also "raw:0x1234"). Numbers are
// decimal ("1.5", "-2.5e-3") or C99 hex-float ("0x1.8p0", "-0x3p-2"); integers may also be hex
// ("int32:0x7fffffff"). Parsing fails (nullopt + reason) for malformed text and for any value not
// exactly representable in the format: nothing is rounded. So "fp32:1e-3" is rejected (0.001 is not
// a binary fraction) and the reason names the two nearest fp32 values.
// Representable means, per FloatBitPatterns.md's Matrix Unit column: ±0, or a normal number — there
// are no denormals, and the all-ones exponent is an ordinary exponent (BF16/TF32/FP32 reach
// (2-ulp)*2^128, FP16 reaches 131008). int8 is the Src/Dst "integer 8" type: magnitude <= 1023.
// int32 is sign-magnitude: magnitude <= 2^31-1. "inf"/"-inf" (float formats only) name the pattern
// the Matrix Unit outputs on overflow: all-ones exponent with zero mantissa for bf16/tf32/fp32,
// exponent 31 with mantissa 1023 for fp16. "nan" is rejected: the Matrix Unit has no NaN.
struct TypedValue {
  std::string format;  // "bf16", "fp16", "tf32", "fp32", "int8", "int32", "raw"
  double value = 0;    // numeric value (for "raw", the bits); ±infinity for "inf"
};
std::optional<TypedValue> parse_typed_value(std::string_view text, std::string* reason);
// Encodes a typed value (re-checking representability) as:
//  - a 19-bit Src datum: bf16/tf32/fp16 in their Src layouts; int8 as sign-magnitude with the
//    exponent marker the unpackers write (16, or 0 when the magnitude is 0); raw bits as given
//    (must fit 19 bits). fp32 and int32 are refused (Src holds at most TF32 / integer "8").
//  - a Dst16 value: bf16 in the Dst16 BF16 layout, fp16 in the Dst16 FP16 layout, int8 in the
//    Dst16 INT8 layout (marker as above); raw must fit 16 bits. tf32/fp32/int32 are refused (they
//    need Dst32b).
//  - a Dst32 value: every float format (bf16, fp16, tf32, fp32) as the FP32 value in the Dst32 FP32
//    layout (the value is exact in FP32); int8 and int32 as INT32 sign-magnitude; raw as given.
std::optional<uint32_t> typed_to_src_datum(const TypedValue& v, std::string* reason);
std::optional<uint16_t> typed_to_dst16(const TypedValue& v, std::string* reason);
std::optional<uint32_t> typed_to_dst32(const TypedValue& v, std::string* reason);
// Decoded value for messages; exact for every pattern (double holds all of these exactly). Values
// are what the Matrix Unit means (FloatBitPatterns.md): denormal patterns read as ±0, all-ones
// exponents as ordinary finite numbers, ignored bits (BF16 mantissa 10:8, FP16 exponent 7:5, the
// INT8 marker) ignored. INT8 style gives the signed magnitude.
double src_datum_value(uint32_t datum19, SrcStyle style);
double dst16_value(uint16_t dst_bits, SrcStyle style);   // BF16/TF32 style -> BF16, FP16/INT8 as such
double dst32_value(uint32_t dst_bits, bool is_int32);
// Text for messages: the raw bits, the style and value, then any caveat, e.g. "0x0007f (BF16 1)",
// "0x000ff (BF16 3.402823669209385e+38; IEEE +inf: the FPU's overflow pattern)",
// "0x3ff1f (FP16 131008; FPU +inf (overflow pattern), IEEE NaN)".
std::string describe_src_datum(uint32_t datum19, SrcStyle style);
std::string describe_dst16(uint16_t dst_bits, SrcStyle style);   // "0x407f (BF16 1.5)"
std::string describe_dst32(uint32_t dst_bits, bool is_int32);    // "0x007f2000 (FP32 1.0009765625)"
// Shortest decimal text that reads back as exactly this double ("1.5", "-0", "1e+06").
std::string format_exact_value(double v);

}  // namespace tmu::tensix
