// The Matrix Unit (FPU) arithmetic datapath as silicon computes it, one pure function per hardware
// stage. A stage has the name of the RTL module that implements it (accum_normalize:
// rtl/tmu_accum_normalize.sv), so that the model, the RTL and the tests speak of a stage by one name:
//
//   fidelity_slice   SrcA/SrcB datum -> 5-bit and 7-bit mantissa slices -> 5x7 product + exponent
//   align_group_sum  8 products -> each aligned to their largest exponent (align_product) -> one sum
//   accum_normalize  two group sums + the Dst value -> common exponent -> add -> normalise -> round
//   elw_adder        ELWADD/ELWSUB: SrcA and SrcB -> the one term accum_normalize adds to Dst
//
// The bit-level behaviour follows Tenstorrent's ttsim (src/tensix.cpp: mvmul, elwmul, elwadd,
// fpu_accum_normalize_encode), which is validated against silicon. The ISA documentation's float
// model is only "a rough guide" and is followed only where ttsim refuses a case; every such place is
// marked "ISA-defined" below. Everything operates on integers: no host floating point.
//
// Inputs are architectural values: Src datums in the ISA's 19-bit layout (SrcASrcB.md; sign 18,
// mantissa 17:8, exponent 7:0) and Dst values exactly as stored (the physical DstBits 16-bit layout or
// the physical Dst32b 32-bit layout of Dst.md, converted with formats.h). Outputs are the new stored
// Dst value.
//
// Undefined Dst rows: the caller (the instruction files) substitutes the identity before calling:
//   MVMUL / DOTPV / GAPOOL / ELWMUL / ELWADD / ELWSUB (float or INT8): pass 0 (either width), which
//     every Dst layout reads as +0;
//   GMPOOL: pass all ones (kGmpoolUndefinedDst16 / kGmpoolUndefinedDst32, see gmpool_compare.h), which
//     reads as the most negative value.
// (Dst.md / ZEROACC.md; ttsim read_dst16b / read_dst32b.)
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tmu/bits.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/isa.h"

namespace tmu::tensix::fpu {

// ---------------------------------------------------------------------------------------------
// Mode
// ---------------------------------------------------------------------------------------------

// The configuration one Matrix Unit operation runs under. The instruction files derive it from
// ALU_FORMAT_SPEC / ALU_ACC_CTRL / FIDELITY_BASE_Phase + the fidelity RWC.
struct FpuMode {
  // SrcA's style decides the exponent width (FP16: 5 bits, else 8), the 16-bit Dst format (FP16
  // for FP16 style, else BF16) and INT8 math (INT8 style).
  SrcStyle srca_style = SrcStyle::BF16;
  // SrcB is masked with its own style (ttsim; the ISA model reads it with SrcA's style). A SrcB style
  // from the other exponent family than SrcA's is not a supported combination; it is then read with
  // SrcA's style, as the ISA model does.
  SrcStyle srcb_style = SrcStyle::BF16;
  bool dst32 = false;           // Dst accessed as Dst32b (ALU_ACC_CTRL_Fp32_enabled; implied by INT8)
  uint32_t fidelity_phase = 0;  // only the low two bits count
  Arch arch = Arch::Blackhole;
  // ALU_ACC_CTRL_Zero_Flag_disabled_src: SrcB datums with a zero exponent are then not flushed to
  // zero. ttsim honours it for ELWADD/ELWSUB/ELWMUL only (and refuses it for MVMUL); the matrix
  // operations here always flush, as the ISA says ("Denormals will be flushed to zero").
  bool srcb_zero_flag_disabled = false;
};

enum class DstFormat : uint8_t { FP32, BF16, FP16, INT32 };
const char* dst_format_name(DstFormat f);

bool is_int8_math(const FpuMode& mode);
bool has_8bit_exponent(const FpuMode& mode);  // "fp_exponent_8b": SrcA is BF16 or TF32 style
SrcStyle effective_srcb_style(const FpuMode& mode);
DstFormat dst_format(const FpuMode& mode);

// ---------------------------------------------------------------------------------------------
// The accumulator word: the datapath's internal 32-bit float, in FP32 bit order (sign 31, exponent
// 30:23, 23-bit mantissa 22:0). In FP16 mode the exponent field holds the FP16 exponent (bias 15,
// 0..31) and the FP16 mantissa sits in the top ten mantissa bits (22:13).
// ---------------------------------------------------------------------------------------------

constexpr uint32_t acc_sign(uint32_t word) { return bits<31, 31>(word); }
constexpr uint32_t acc_exponent(uint32_t word) { return bits<30, 23>(word); }
constexpr uint32_t acc_mantissa(uint32_t word) { return bits<22, 0>(word); }
constexpr uint32_t make_acc_word(uint32_t sign, uint32_t exponent, uint32_t mantissa23) {
  return with_bits<31, 31>(with_bits<30, 23>(with_bits<22, 0>(0, mantissa23), exponent), sign);
}

uint32_t dst_to_acc(uint32_t dst_stored, const FpuMode& mode);  // twin of rtl/tmu_dst_to_acc.sv
uint32_t acc_to_dst(uint32_t word, const FpuMode& mode);        // twin of rtl/tmu_acc_to_dst.sv

// ---------------------------------------------------------------------------------------------
// Rounding primitives shared by the stages (all on magnitudes; the callers own the signs), in
// refmodel/engines/tensix/src/fpu/shift_round.cpp: rtl/tmu_shift_round.sv does both, told apart by its negative_i.
// ---------------------------------------------------------------------------------------------

// Nearest is the hardware's (add half an output LSB, truncate). Truncate is the same adder without
// that half-LSB - rtl/tmu_shift_round.sv with its rounding bit lost, a fault the scoreboard's
// diagnosis recomputes the datapath with (docs/scoreboard.md); nothing else asks for it.
enum class ShiftRounding : uint8_t { Nearest, Truncate };

// magnitude / 2^amount, rounded to nearest with ties away from zero (add half, truncate).
uint32_t shift_right_round_half_away(uint32_t magnitude, uint32_t amount,
                                     ShiftRounding rounding = ShiftRounding::Nearest);
// A sign-magnitude value / 2^amount rounded to nearest with ties toward +infinity: the hardware adds
// half minus the sign bit before truncating the magnitude. amount == 0 leaves the value unchanged.
uint32_t shift_right_round_half_up_signed(uint32_t magnitude, uint32_t negative, uint32_t amount,
                                          ShiftRounding rounding = ShiftRounding::Nearest);

// ---------------------------------------------------------------------------------------------
// Stage 1: fidelity_slice (refmodel/engines/tensix/src/fpu/fidelity_slice.cpp)
// ---------------------------------------------------------------------------------------------

inline constexpr unsigned kSrcASliceBits = 5;
inline constexpr unsigned kSrcBSliceBits = 7;
inline constexpr unsigned kSignificandBits = 11;      // implicit one + 10 mantissa bits
inline constexpr unsigned kProductFractionBits = 10;  // a 5x7 product of 1.xxxx and 1.xxxxxx

// A floating-point Src operand as the multiplier and adder see it.
struct FpOperand {
  uint32_t sign = 0;
  uint32_t exponent = 0;      // 8-bit (bias 127) or, for FP16, 5-bit (bias 15)
  uint32_t mantissa = 0;      // 10 bits after the style's mask (BF16 keeps the top seven)
  uint32_t significand = 0;   // implicit one at bit 10 + mantissa
  bool flushed_zero = false;  // zero exponent: read as zero (unless the zero flag is disabled)
};
FpOperand read_fp_operand(uint32_t datum19, SrcStyle style, bool zero_flag_disabled = false);

// The mantissa bits each phase feeds to the multiplier (SrcASrcB.md "Fidelity phases"):
//   SrcA, phase bit 0 clear: implicit 1 + top four mantissa bits;  set: the next five bits.
//   SrcB, phase bit 1 clear: implicit 1 + top six mantissa bits;   set: the remaining four bits,
//   placed at the top of the 7-bit port so their weight stays in the exponent adjustment.
uint32_t srca_fidelity_slice(uint32_t significand11, uint32_t phase);
uint32_t srcb_fidelity_slice(uint32_t significand11, uint32_t phase);
// The 5x7 multiplier.
uint32_t slice_multiply(uint32_t srca_slice5, uint32_t srcb_slice7);
// Added to exponent(A) + exponent(B) to rebias the product to the accumulator's format and to account
// for the weight of the slices a phase consumes (-5 for SrcA's low slice, -7 for SrcB's).
int32_t product_exponent_adjust(bool exponent_8b, bool dst32, uint32_t phase);
// Exponent the hardware gives a zero product: the adjustment clamped at zero. It still takes part in
// the choice of the common exponent, which matters for FP16 sources with FP32 Dst (clamp 97 - ...).
int32_t zero_product_exponent(int32_t exponent_adjust);

// One 5x7 product: mantissa holds up to 12 bits with kProductFractionBits fraction bits, the value is
// (-1)^sign * mantissa / 2^10 * 2^(exponent - accumulator bias).
struct SliceProduct {
  uint32_t sign = 0;
  int32_t exponent = 0;
  uint32_t mantissa = 0;
};
SliceProduct fidelity_slice_product(uint32_t srca_datum, uint32_t srcb_datum, const FpuMode& mode);

// ---------------------------------------------------------------------------------------------
// Stage 2: align_group_sum (refmodel/engines/tensix/src/fpu/align_group_sum.cpp)
// ---------------------------------------------------------------------------------------------

inline constexpr unsigned kProductsPerGroup = 8;
inline constexpr unsigned kAccFractionBits = 23;  // accumulator terms keep the implicit one at bit 23

// A sign-magnitude term entering the accumulator: value = (-1)^sign * mantissa / 2^23 * 2^(exponent -
// bias). mantissa may exceed 24 bits (an unnormalised sum).
struct AccTerm {
  uint32_t sign = 0;
  int32_t exponent = 0;
  uint32_t mantissa = 0;
  friend bool operator==(const AccTerm&, const AccTerm&) = default;
};
// Products below the group's largest exponent are shifted right with ties-away rounding, then the
// signed products are summed. A group whose largest exponent is <= 0 contributes nothing.
AccTerm align_group_sum(std::span<const SliceProduct, kProductsPerGroup> products,
                        ShiftRounding rounding = ShiftRounding::Nearest);

// A product at its group's exponent; the sign rides along so that the rounding sees only magnitudes.
struct AlignedProduct {
  uint32_t sign = 0;
  uint32_t aligned = 0;  // the mantissa shifted to the group exponent: still kProductFractionBits
  friend bool operator==(const AlignedProduct&, const AlignedProduct&) = default;
};
// Twin of rtl/tmu_align_product.sv: one product of align_group_sum's group, rounded ties away.
AlignedProduct align_product(const SliceProduct& product, int32_t group_exponent,
                             ShiftRounding rounding = ShiftRounding::Nearest);

// ---------------------------------------------------------------------------------------------
// Stage 3: accum_normalize (refmodel/engines/tensix/src/fpu/accum_normalize.cpp)
// ---------------------------------------------------------------------------------------------

struct AccumConfig {
  bool dst32 = false;       // FP32 Dst: no 13-bit pre-rounding, 24-bit result
  bool exponent_8b = true;  // BF16/TF32 (8-bit exponent) or FP16 (5-bit exponent)
  Arch arch = Arch::Blackhole;
  ShiftRounding rounding = ShiftRounding::Nearest;  // of every alignment and rounding in the stage
};
AccumConfig accum_config(const FpuMode& mode);

// Wormhole B0 silicon mis-normalises a sum whose magnitude is exactly one LSB and whose sign is
// negative: its leading-sign count sees all bits set and shifts by 27 too few (ttsim
// fpu_accum_normalize_encode, TT_ARCH_VERSION == 0). Blackhole normalises it correctly.
constexpr bool has_minus_one_lsb_renormalisation_bug(Arch arch) { return arch == Arch::Wormhole; }
inline constexpr int32_t kWormholeMinusOneShiftError = 27;

enum class AccumOutcome : uint8_t {
  Normal,
  EarlyUnderflow,  // every input exponent <= 0: +0 before any arithmetic
  Cancelled,       // the signed sum is exactly zero: +0
  LateUnderflow,   // exponent <= 0 after normalisation and rounding: +0
  Overflow,        // FP32/BF16: exponent >= 255 -> sign | 0xFF exponent | zero mantissa
  Fp16Saturated,   // FP16 Dst: exponent >= 32 -> sign | 31 | all-ones mantissa
};
const char* accum_outcome_name(AccumOutcome o);

// Every intermediate value of the stage, for a testbench to show where an RTL value first departs.
struct AccumTrace {
  int32_t common_exponent = 0;
  std::array<uint32_t, 3> aligned{};  // group 0, group 1, Dst magnitudes at the common exponent
  std::array<uint32_t, 3> presum{};   // the same after the 13-bit rounding (16-bit Dst only)
  int32_t signed_sum = 0;             // relative to the Dst sign, before taking the magnitude
  uint32_t sign = 0;
  uint32_t magnitude = 0;
  int32_t normalise_shift = 0;  // left shift putting the leading one at bit 23 (incl. quirk)
  int32_t exponent = 0;         // final exponent (after a rounding carry)
  uint32_t mantissa = 0;        // final 23-bit mantissa
  AccumOutcome outcome = AccumOutcome::Normal;
  uint32_t result_word = 0;
};
uint32_t accum_normalize(const AccTerm& group0, const AccTerm& group1, uint32_t dst_word,
                         const AccumConfig& config, AccumTrace* trace = nullptr);

// ---------------------------------------------------------------------------------------------
// Whole-element operations (refmodel/engines/tensix/src/fpu/elementwise.cpp). Each returns the new stored Dst value
// (16 significant bits when !dst32). With SrcA style INT8 they use the INT8 path (int8_math.h).
// ---------------------------------------------------------------------------------------------

inline constexpr unsigned kDotLength = 16;

struct MvmulTrace {
  std::array<SliceProduct, kDotLength> products{};
  std::array<AccTerm, 2> group_sums{};
  uint32_t dst_word = 0;  // Dst input as an accumulator word
  AccumTrace accum;
  uint32_t result_word = 0;
};
// Dst[i][j] += sum over k of SrcB[i][k] * SrcA[k][j] for one element: srca_column[k] = SrcA[k][j],
// srcb_row[k] = SrcB[i][k]. Products k = 0..7 form group 0, k = 8..15 group 1. Also DOTPV and GAPOOL.
uint32_t mvmul_element(std::span<const uint32_t, kDotLength> srca_column,
                       std::span<const uint32_t, kDotLength> srcb_row, uint32_t dst_stored,
                       const FpuMode& mode, MvmulTrace* trace = nullptr,
                       ShiftRounding rounding = ShiftRounding::Nearest);

struct ElwTrace {
  FpOperand a, b;          // operands as read (ELWADD/ELWSUB: after the magnitude swap)
  SliceProduct product;    // ELWMUL only
  uint32_t b_aligned = 0;  // ELWADD/ELWSUB only: SrcB significand aligned to SrcA's exponent
  AccTerm term;            // the single term entering the accumulator
  uint32_t dst_word = 0;
  AccumTrace accum;
  uint32_t result_word = 0;
};
// Twin of rtl/tmu_elw_adder.sv (refmodel/engines/tensix/src/fpu/elw_adder.cpp): the float ELWADD/ELWSUB operand
// adder, whose one term accum_normalize adds to Dst. ELWSUB hands it SrcB with the sign bit inverted.
// Fills trace's a, b, b_aligned and term. Unlike the RTL it has no Dst output: the one wrapped
// difference (elw_adder.cpp), which the RTL's 28-bit accumulator cannot hold, goes to accum_normalize
// as it is, whose 32-bit arithmetic wraps as ttsim's does.
AccTerm elw_adder(uint32_t srca, uint32_t srcb, const FpuMode& mode, ElwTrace* trace = nullptr,
                  ShiftRounding rounding = ShiftRounding::Nearest);
// Dst += SrcA * SrcB for one fidelity phase. ELWMUL always accumulates onto Dst, whatever
// dest_accum_en says (ttsim: "ELWMUL forces accumulation").
// `rounding` of the whole-element functions reaches every stage (Truncate: the diagnosis's fault).
uint32_t elwmul_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, const FpuMode& mode,
                        ElwTrace* trace = nullptr, ShiftRounding rounding = ShiftRounding::Nearest);
// ELWMUL from its product on (elwmul_element's second half): a product whose exponent underflows
// (<= 0) becomes the zero product, and the product enters accum_normalize as the one term added to
// Dst. Fills trace's product, term, dst_word, accum and result_word. The diagnosis hands it a
// perturbed product.
uint32_t elwmul_product_to_dst(SliceProduct product, uint32_t dst_stored, const FpuMode& mode,
                               ElwTrace* trace = nullptr, ShiftRounding rounding = ShiftRounding::Nearest);
// Dst = (Dst if add_dst) + SrcA +/- SrcB. SrcA and SrcB are added at the larger one's exponent: the
// smaller is shifted and rounded (ties away) with no guard bits. With a non-zero fidelity phase the
// sum is divided by 32 (phase bit 0) and 128 (phase bit 1) before Dst is added - ISA-defined
// (ELWADD.md; ttsim refuses such a phase). tmu applies the division as a decrement of the sum term's
// exponent, the same -5/-7 a multiply phase applies, so a quotient below the smallest normal
// underflows to +0 like any other result. The INT8 path neither masks nor scales.
uint32_t elwadd_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, bool add_dst, const FpuMode& mode,
                        ElwTrace* trace = nullptr, ShiftRounding rounding = ShiftRounding::Nearest);
uint32_t elwsub_element(uint32_t srca, uint32_t srcb, uint32_t dst_stored, bool add_dst, const FpuMode& mode,
                        ElwTrace* trace = nullptr, ShiftRounding rounding = ShiftRounding::Nearest);
// ELWADD.md's divisor exponents for a fidelity phase (0, 5, 7 or 12).
int32_t elwadd_phase_scale_exponent(uint32_t phase);

}  // namespace tmu::tensix::fpu

#include "tmu/tensix/fpu/gmpool_compare.h"
#include "tmu/tensix/fpu/int8_math.h"
