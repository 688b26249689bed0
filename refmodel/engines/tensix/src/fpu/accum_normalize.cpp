// Stage 3 of the datapath: the two group sums and the Dst value are brought to their common (largest)
// exponent, added, renormalised so the leading one sits at bit 23, rounded to the Dst width, and
// checked for underflow and overflow. This is the one place in the model that rounds and packs a
// floating-point result.
#include <algorithm>
#include <bit>

#include "tmu/tensix/fpu/datapath.h"

namespace tmu::tensix::fpu {
namespace {

constexpr uint32_t kAccImplicitOne = uint32_t{1} << kAccFractionBits;     // bit 23
constexpr uint32_t kAccCarryOut = uint32_t{1} << (kAccFractionBits + 1);  // bit 24
// With a 16-bit Dst every term is first rounded at this bit, whatever the 16-bit format (the
// adder's narrow mode); the final rounding then drops further bits for BF16.
constexpr uint32_t kNarrowPresumDropBits = 13;
// Low mantissa bits the final rounding drops for each 16-bit Dst format (24 - 8 and 24 - 11).
constexpr uint32_t kBf16DropBits = 16;
constexpr uint32_t kFp16DropBits = 13;
constexpr int32_t kMaxExponent8 = 255;
constexpr int32_t kMaxExponentFp16 = 31;
constexpr uint32_t kFp16MaxMantissa = 0x3FFu << kFp16DropBits;  // all ten FP16 mantissa bits set

struct DstTerm {
  uint32_t sign;
  int32_t exponent;
  uint32_t mantissa;  // implicit one at bit 23; zero for a zero or denormal Dst
};

// Dst denormals read as zero, but their exponent (0) still joins the choice of the common exponent.
DstTerm read_dst_term(uint32_t dst_word) {
  const uint32_t exponent = acc_exponent(dst_word);
  return DstTerm{acc_sign(dst_word), static_cast<int32_t>(exponent),
                 exponent ? (kAccImplicitOne | acc_mantissa(dst_word)) : 0u};
}

// Alignment by 31 or more places leaves nothing (the aligner's reach).
constexpr uint32_t kAlignShiftLimit = 31;

uint32_t align_group_term(const AccTerm& t, int32_t common_exponent, ShiftRounding rounding) {
  const auto shift = static_cast<uint32_t>(common_exponent - t.exponent);
  return shift < kAlignShiftLimit ? shift_right_round_half_up_signed(t.mantissa, t.sign, shift, rounding) : 0;
}

uint32_t align_dst_term(const DstTerm& t, int32_t common_exponent, ShiftRounding rounding) {
  const auto shift = static_cast<uint32_t>(common_exponent - t.exponent);
  return shift < kAlignShiftLimit ? shift_right_round_half_away(t.mantissa, shift, rounding) : 0;
}

// Adds (or subtracts, when its sign differs from Dst's) a term in the 32-bit two's-complement adder.
uint32_t add_relative_to_dst(uint32_t acc, uint32_t magnitude, uint32_t sign, uint32_t dst_sign) {
  return sign == dst_sign ? acc + magnitude : acc - magnitude;
}

// 16-bit Dst: round a term to a multiple of 2^13 (ties toward +infinity for the signed group sums).
uint32_t round_away_presum_bits(uint32_t magnitude, uint32_t negative, ShiftRounding rounding) {
  return shift_right_round_half_up_signed(magnitude, negative, kNarrowPresumDropBits, rounding)
         << kNarrowPresumDropBits;
}

uint32_t final_drop_bits(const AccumConfig& config) {
  if (config.dst32) return 0;
  return config.exponent_8b ? kBf16DropBits : kFp16DropBits;
}

uint32_t finish(AccumTrace* trace, AccumOutcome outcome, uint32_t word) {
  if (trace) {
    trace->outcome = outcome;
    trace->result_word = word;
  }
  return word;
}

}  // namespace

const char* accum_outcome_name(AccumOutcome o) {
  switch (o) {
    case AccumOutcome::Normal: return "normal";
    case AccumOutcome::EarlyUnderflow: return "early-underflow";
    case AccumOutcome::Cancelled: return "cancelled";
    case AccumOutcome::LateUnderflow: return "late-underflow";
    case AccumOutcome::Overflow: return "overflow";
    case AccumOutcome::Fp16Saturated: return "fp16-saturated";
  }
  return "?";
}

AccumConfig accum_config(const FpuMode& mode) {
  return AccumConfig{mode.dst32, has_8bit_exponent(mode), mode.arch, ShiftRounding::Nearest};
}

uint32_t accum_normalize(const AccTerm& group0, const AccTerm& group1, uint32_t dst_word,
                         const AccumConfig& config, AccumTrace* trace) {
  AccumTrace local;
  AccumTrace& t = trace ? *trace : local;
  t = AccumTrace{};
  const DstTerm dst = read_dst_term(dst_word);

  // Align to the common exponent. The group sums round their shifted-out bits with ties toward
  // +infinity; the Dst magnitude rounds with ties away from zero whatever its sign.
  int32_t exponent = std::max({group0.exponent, group1.exponent, dst.exponent});
  t.common_exponent = exponent;
  if (exponent <= 0) return finish(trace, AccumOutcome::EarlyUnderflow, 0);
  uint32_t g0 = align_group_term(group0, exponent, config.rounding);
  uint32_t g1 = align_group_term(group1, exponent, config.rounding);
  uint32_t d = align_dst_term(dst, exponent, config.rounding);
  t.aligned = {g0, g1, d};
  if (!config.dst32) {
    g0 = round_away_presum_bits(g0, group0.sign, config.rounding);
    g1 = round_away_presum_bits(g1, group1.sign, config.rounding);
    d = round_away_presum_bits(d, 0, config.rounding);
  }
  t.presum = {g0, g1, d};

  // Add with Dst's sign as the reference; a negative total flips the sign. Legal terms are below
  // 2^29, so the 32-bit adder only wraps on an already-wrapped ELWADD operand, as ttsim's does.
  const uint32_t raw_sum =
      add_relative_to_dst(add_relative_to_dst(d, g0, group0.sign, dst.sign), g1, group1.sign, dst.sign);
  const auto sum = std::bit_cast<int32_t>(raw_sum);
  t.signed_sum = sum;
  uint32_t sign = dst.sign;
  uint32_t magnitude = raw_sum;
  if (sum < 0) {
    magnitude = 0u - raw_sum;
    sign ^= 1u;
  }
  t.sign = sign;
  t.magnitude = magnitude;
  if (magnitude == 0) return finish(trace, AccumOutcome::Cancelled, 0);

  // Renormalise: shift the leading one to bit 23 (a negative shift is a right shift).
  int32_t shift = std::countl_zero(magnitude) - static_cast<int32_t>(31 - kAccFractionBits);
  if (has_minus_one_lsb_renormalisation_bug(config.arch) && sign && magnitude == 1) {
    shift -= kWormholeMinusOneShiftError;
  }
  t.normalise_shift = shift;
  exponent -= shift;

  // Round once, to the Dst width: a 16-bit Dst keeps only the top 8 (BF16) or 11 (FP16) bits.
  const uint32_t drop = final_drop_bits(config);
  const int32_t narrow_shift = shift - static_cast<int32_t>(drop);
  if (narrow_shift < 0) {
    magnitude = shift_right_round_half_away(magnitude, static_cast<uint32_t>(-narrow_shift), config.rounding);
  } else {
    magnitude <<= narrow_shift;
  }
  magnitude <<= drop;
  // Rounding can carry into bit 24 only as exactly 2^24, whose mantissa bits are then all zero.
  if (magnitude & kAccCarryOut) ++exponent;
  const uint32_t mantissa = acc_mantissa(magnitude);
  t.exponent = exponent;
  t.mantissa = mantissa;

  if (exponent <= 0) return finish(trace, AccumOutcome::LateUnderflow, 0);
  if (config.dst32 || config.exponent_8b) {
    if (exponent >= kMaxExponent8) {
      return finish(trace, AccumOutcome::Overflow, make_acc_word(sign, kMaxExponent8, 0));
    }
  } else if (exponent > kMaxExponentFp16) {
    return finish(trace, AccumOutcome::Fp16Saturated,
                  make_acc_word(sign, kMaxExponentFp16, kFp16MaxMantissa));
  }
  return finish(trace, AccumOutcome::Normal, make_acc_word(sign, static_cast<uint32_t>(exponent), mantissa));
}

}  // namespace tmu::tensix::fpu
