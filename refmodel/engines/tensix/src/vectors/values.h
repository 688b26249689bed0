// The operand and accumulator values vectors are made of: the level-1 special-value classes of each
// data format (TestFloat's idea, for the Matrix Unit's number formats) and the level-2 random
// distributions. Values are built from fields with formats.h, never from host floats.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tmu/tensix/formats.h"
#include "tmu/rng.h"
#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors::detail {

enum class Fmt : uint8_t { BF16, FP16, TF32, INT8 };
const char* fmt_name(Fmt f);  // "bf16" ...
bool parse_fmt(std::string_view name, Fmt* out);
SrcStyle style_of(Fmt f);
DataFormat data_format_of(Fmt f);
View src_view_of(Fmt f);
// The view of Dst after a math instruction: BF16 (for BF16 and TF32 sources) or FP16 in Dst16b,
// FP32 in Dst32b, INT32 for INT8 math.
View math_dst_view(Fmt f, bool dst32);

struct Named {
  const char* name;
  uint32_t bits;
};

// ---- Src datums ----
// Exponent bias and largest exponent field of a float style (the all-ones exponent is an ordinary
// exponent in the Matrix Unit).
int exponent_bias(Fmt f);
uint32_t max_exponent(Fmt f);
uint32_t all_ones_mantissa(Fmt f);  // 10-bit mantissa field; BF16 uses its top seven bits
uint32_t src_float(Fmt f, uint32_t sign, uint32_t biased_exponent, uint32_t mantissa10);
uint32_t src_int8(uint32_t sign, uint32_t magnitude, bool zero_marker = false);
uint32_t negate_src(uint32_t datum);

enum class Role : uint8_t { SrcA, SrcB };
inline constexpr unsigned kNumSrcClasses = 16;
// The sixteen level-1 classes of one operand: ±0, ±denormal (exponent field 0), ±smallest and
// ±largest normal, ±1, mantissas with only the bits one fidelity slice consumes set (SrcA: the
// phase-even 4-bit and phase-odd 5-bit slices and the bit no phase consumes; SrcB: the 6-bit and
// 4-bit slices), and ±"tie" values whose slices are powers of two, with exponent tie_exponent
// (unbiased), so that crossed with the other operand's tie value and a Dst of 1 they land exactly
// half an ulp away. INT8 has the analogous magnitudes.
std::array<Named, kNumSrcClasses> src_classes(Fmt f, Role role, int tie_exponent);
// Split of a tie product 2^target into the two operands' exponents for a fidelity phase: the
// slices a phase multiplies weigh 2^-5 (SrcA's low slice) and 2^-7 (SrcB's low slice).
std::pair<int, int> tie_exponents(int target_exponent, unsigned phase);
// log2 of half an ulp of 1.0 in the Dst format a math instruction writes.
int half_ulp_exponent(Fmt f, bool dst32);

// ---- Dst values ----
struct DstClass {
  const char* name;
  bool valid;
  uint32_t value;  // DstBits value (16-bit Dst) or Dst32b value
};
// Ten classes: an invalid row (holding non-zero bits, which must not be read), ±0, a denormal, ±1,
// 1 + ulp (odd last bit, for tie direction), the smallest normal, ±the largest normal; INT32 has
// 0, sign-magnitude -0, ±1, ±(2^31 - 1) and near-saturation values.
std::vector<DstClass> dst_classes(Fmt f, bool dst32);

// ---- Random values (level 2) ----
// A Src datum: with probability 1/8 one of the classes, otherwise a random sign and mantissa with
// the exponent within `spread` of 2^center (sometimes anywhere), so that sums cancel and round.
uint32_t random_src(Rng& rng, Fmt f, const std::array<Named, kNumSrcClasses>& classes, int center, int spread);
// A Dst value in the math layout (validity is chosen by the caller).
uint32_t random_dst(Rng& rng, Fmt f, bool dst32, int center, int spread);
// Any 19-bit pattern of the format's canonical layout (for data movement: every bit must move).
uint32_t random_src_pattern(Rng& rng, Fmt f);

}  // namespace tmu::tensix::vectors::detail
