// The block kernel of MVMUL / DOTPV / GAPOOL (see mvmul_block.h for what it is and why it is fast).
//
// Layout: one instruction decodes its SrcA block into "planes" — per dot-product index k, the
// sixteen columns as two vectors of eight lanes — and each SrcB row into plain arrays. Each output
// row then runs the adder tree and the accumulator stage on eight columns at a time.
//
// The lanes use the GCC/Clang vector extension. The same source is compiled three times: for the
// baseline instruction set (the compiler splits the lanes into whatever the target has), for AVX2
// and for AVX-512, the best the CPU has chosen at run time. All are integer-exact (the one float
// conversion, in count_leading_zeros, is exact), so they agree bit for bit.
#include "tmu/tensix/fpu/mvmul_block.h"

#include <cstring>

// The lane helpers below take and return vectors by value; GCC and Clang note that such functions
// would pass them differently with and without AVX. They are all inlined into one function per
// instruction set, so no vector ever crosses a call.
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace tmu::tensix::fpu {
namespace {

using namespace block_detail;

// Eight output columns side by side (half a block: one AVX2 register, two SSE registers).
constexpr unsigned kLanes = 8;
constexpr unsigned kHalves = kBlockColumns / kLanes;
using Lanes = int32_t __attribute__((vector_size(kLanes * sizeof(int32_t))));       // arithmetic
using WordLanes = uint32_t __attribute__((vector_size(kLanes * sizeof(uint32_t))));  // bit fields

#define TMU_LANE_INLINE [[gnu::always_inline]] inline

TMU_LANE_INLINE Lanes splat(int32_t v) { return Lanes{} + v; }
TMU_LANE_INLINE Lanes max_lanes(Lanes a, Lanes b) { return a > b ? a : b; }
TMU_LANE_INLINE Lanes min_lanes(Lanes a, Lanes b) { return a < b ? a : b; }
TMU_LANE_INLINE Lanes as_signed(WordLanes w) { return __builtin_convertvector(w, Lanes); }
TMU_LANE_INLINE WordLanes as_words(Lanes v) { return __builtin_convertvector(v, WordLanes); }
// tmu::bits<Hi, Lo> on every lane.
template <unsigned Hi, unsigned Lo>
TMU_LANE_INLINE WordLanes lane_bits(WordLanes x) {
  return (x >> Lo) & static_cast<uint32_t>((uint64_t{1} << (Hi - Lo + 1)) - 1);
}

TMU_LANE_INLINE WordLanes load_lanes(const uint32_t* p) {
  WordLanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
TMU_LANE_INLINE void store_lanes(uint32_t* p, WordLanes v) { std::memcpy(p, &v, sizeof v); }

constexpr unsigned kGroups = kDotLength / kProductsPerGroup;

// Stands for the exponent of a flushed operand: so negative that a sum with it never wins the
// group's maximum, and so small in magnitude that no sum of two overflows.
constexpr int32_t kFlushedExponent = -(1 << 20);
// The group maximum's starting value when no product of the group is a zero product.
constexpr int32_t kNoZeroProductFloor = -(1 << 30);

// ---------------------------------------------------------------------------------------------
// Stage 1: operands, decoded once per instruction
// ---------------------------------------------------------------------------------------------

struct BlockSetup {
  OperandReader srca, srcb;
  int32_t exponent_adjust;     // product_exponent_adjust for the mode
  int32_t zero_product_floor;  // the exponent of a zero product (zero_product_exponent)
  AccumConfig accum;
  DstFormat dst_format;
};

BlockSetup block_setup(const FpuMode& mode) {
  BlockSetup b;
  b.srca = srca_reader(mode.srca_style, mode.fidelity_phase);
  b.srcb = srcb_reader(effective_srcb_style(mode), mode.fidelity_phase);
  b.exponent_adjust = product_exponent_adjust(has_8bit_exponent(mode), mode.dst32, mode.fidelity_phase);
  b.zero_product_floor = zero_product_exponent(b.exponent_adjust);
  b.accum = accum_config(mode);
  b.dst_format = dst_format(mode);
  return b;
}

// SrcA decoded for one instruction, [k][half]: lane l of half h is column 8h + l. The exponent plane
// already includes the product's exponent adjustment, so a product's exponent is one addition.
struct SrcAPlanes {
  Lanes exponent[kDotLength][kHalves];  // exponent + adjust; kFlushedExponent where flushed
  Lanes slice[kDotLength][kHalves];     // the slice with the datum's sign; 0 where flushed
  Lanes group_floor[kGroups][kHalves];  // the zero-product exponent where the column's group has a
                                        // flushed datum, else kNoZeroProductFloor
};

// One SrcB row decoded for one instruction.
struct SrcBRow {
  int32_t exponent[kDotLength];       // exponent; kFlushedExponent where flushed
  int32_t doubled_slice[kDotLength];  // 2 * slice with the datum's sign (round_signed_product_shift)
  bool group_has_flushed[kGroups];
};

// slice_operand on eight consecutive datums of a row. flushed is -1 in a flushed lane, else 0.
struct DecodedLanes {
  Lanes exponent, signed_slice, flushed;
};
TMU_LANE_INLINE DecodedLanes decode_lanes(const uint32_t* datums, const OperandReader& reader) {
  WordLanes sign, exponent, slice;
  read_datum(load_lanes(datums), reader, sign, exponent, slice);
  DecodedLanes d;
  d.exponent = as_signed(exponent);
  d.flushed = d.exponent == 0;
  const Lanes magnitude = as_signed(slice);
  d.signed_slice = d.flushed ? Lanes{} : (sign != 0 ? -magnitude : magnitude);
  return d;
}

TMU_LANE_INLINE void decode_srca(const MvmulBlock& block, const BlockSetup& setup, SrcAPlanes& planes) {
  for (unsigned h = 0; h < kHalves; ++h) {
    Lanes group_has_flushed[kGroups] = {};
    for (unsigned k = 0; k < kDotLength; ++k) {
      const DecodedLanes a = decode_lanes(&block.srca[k][h * kLanes], setup.srca);
      planes.exponent[k][h] = a.flushed ? splat(kFlushedExponent) : a.exponent + setup.exponent_adjust;
      planes.slice[k][h] = a.signed_slice;
      group_has_flushed[k / kProductsPerGroup] |= a.flushed;
    }
    for (unsigned g = 0; g < kGroups; ++g)
      planes.group_floor[g][h] = group_has_flushed[g] ? splat(setup.zero_product_floor) : splat(kNoZeroProductFloor);
  }
}

TMU_LANE_INLINE void decode_srcb_row(const std::array<uint32_t, kDotLength>& datums, const BlockSetup& setup,
                                     SrcBRow& row) {
  for (unsigned h = 0; h < kHalves; ++h) {
    const DecodedLanes b = decode_lanes(&datums[h * kLanes], setup.srcb);
    const Lanes exponent = b.flushed ? splat(kFlushedExponent) : b.exponent;
    const Lanes doubled_slice = 2 * b.signed_slice;
    std::memcpy(&row.exponent[h * kLanes], &exponent, sizeof exponent);
    std::memcpy(&row.doubled_slice[h * kLanes], &doubled_slice, sizeof doubled_slice);
  }
  for (unsigned g = 0; g < kGroups; ++g) {
    bool any = false;
    for (unsigned t = 0; t < kProductsPerGroup; ++t)
      any |= row.exponent[g * kProductsPerGroup + t] == kFlushedExponent;
    row.group_has_flushed[g] = any;
  }
}

// ---------------------------------------------------------------------------------------------
// Stage 2: align_group_sum, eight columns at once
// ---------------------------------------------------------------------------------------------

// A group term per lane, as align_group_sum returns it (sign 0 or 1).
struct TermLanes {
  Lanes sign, exponent, mantissa;
};

// The largest product exponent of the group (a zero product counts with the zero-product
// exponent), the products aligned to it and summed; then the term, which is all zero when the
// largest exponent is <= 0.
TMU_LANE_INLINE TermLanes group_adder_tree(const SrcAPlanes& a, const SrcBRow& b, unsigned group, unsigned half,
                                           int32_t zero_product_floor) {
  const unsigned first = group * kProductsPerGroup;
  Lanes exponent[kProductsPerGroup];
  Lanes largest = b.group_has_flushed[group] ? splat(zero_product_floor) : a.group_floor[group][half];
#pragma GCC unroll 8
  for (unsigned t = 0; t < kProductsPerGroup; ++t) {
    exponent[t] = a.exponent[first + t][half] + b.exponent[first + t];
    largest = max_lanes(largest, exponent[t]);
  }
  Lanes sum{};
#pragma GCC unroll 8
  for (unsigned t = 0; t < kProductsPerGroup; ++t) {
    const Lanes shift = min_lanes(largest - exponent[t], splat(kProductShiftLimit));
    const Lanes product = a.slice[first + t][half] * b.doubled_slice[first + t];
    const Lanes x = product + (product >> 31);  // -2m becomes -2m - 1 (round_signed_product_shift)
    sum += ((x >> shift) + 1) >> 1;
  }
  const Lanes live = largest > 0;
  TermLanes term;
  term.sign = live & (sum < 0) & 1;
  term.exponent = live & largest;
  term.mantissa = live & ((sum < 0 ? -sum : sum) << (kAccFractionBits - kProductFractionBits));
  return term;
}

// ---------------------------------------------------------------------------------------------
// Stage 3: accum_normalize, eight elements at once
// ---------------------------------------------------------------------------------------------

// magnitude / 2^shift rounded with ties away from zero, for magnitude < 2^29 and shift 0..30 (where
// 30 already leaves nothing): floor((2 * magnitude + 2^shift) / 2^(shift + 1)). A magnitude of -1
// (a zero negative term after the ties adjustment below, only ever with a shift >= 1) gives 0.
TMU_LANE_INLINE Lanes round_half_away_lanes(Lanes magnitude, Lanes shift) {
  return ((magnitude << 1) + (1 << shift)) >> (shift + 1);
}

// std::countl_zero on every lane, for x below 2^31 (a zero lane gives 31, which does not matter:
// it is cancelled). Through the lanes' conversion to float, which is exact here: x & ~(x >> 1) keeps
// x's top set bit 2^k and clears the one below it, and the | 1 touches bit 0 only (and makes zero
// count as 1), so the value lies in [2^k, 1.5 * 2^k]: no rounding to float's 24 bits, in any
// rounding mode, reaches 2^(k+1), and the float's exponent field is 127 + k. Five operations where
// the binary search took twenty.
using FloatLanes = float __attribute__((vector_size(kLanes * sizeof(float))));
TMU_LANE_INLINE Lanes count_leading_zeros(WordLanes x) {
  const Lanes top = as_signed((x & ~(x >> 1)) | 1u);
  const FloatLanes f = __builtin_convertvector(top, FloatLanes);
  Lanes bits;
  std::memcpy(&bits, &f, sizeof bits);
  return (127 + 31) - (bits >> 23);
}

// Alignment by 31 or more places leaves nothing, and for the terms here so does 30.
constexpr int32_t kAlignShiftLimit = 30;

// A group term aligned to the common exponent: ties toward +infinity for a negative sum, i.e. one
// less before rounding, unless it is not shifted at all.
TMU_LANE_INLINE Lanes align_group_term(const TermLanes& t, Lanes common_exponent) {
  const Lanes shift = min_lanes(common_exponent - t.exponent, splat(kAlignShiftLimit));
  return round_half_away_lanes(t.mantissa - (t.sign & (shift != 0)), shift);
}

// 16-bit Dst: a term rounded to a multiple of 2^13, ties toward +infinity for a negative term.
TMU_LANE_INLINE Lanes round_presum_bits(Lanes magnitude, Lanes negative) {
  constexpr int32_t kDropBits = 13;
  return ((magnitude - negative + (1 << (kDropBits - 1))) >> kDropBits) << kDropBits;
}

// The steps of accum_normalize, in its order, each done on every lane; the outcomes that end
// the stage early (early underflow, cancellation) are applied by the final selects instead.
TMU_LANE_INLINE WordLanes accumulate_lanes(const TermLanes& group0, const TermLanes& group1, WordLanes dst_word,
                                           const AccumConfig& config) {
  const Lanes dst_sign = as_signed(lane_bits<31, 31>(dst_word));
  const Lanes dst_exponent = as_signed(lane_bits<30, 23>(dst_word));
  const Lanes dst_mantissa =
      (dst_exponent != 0) & as_signed(lane_bits<22, 0>(dst_word) | (uint32_t{1} << kAccFractionBits));

  const Lanes common_exponent = max_lanes(max_lanes(group0.exponent, group1.exponent), dst_exponent);
  Lanes exponent = common_exponent;
  Lanes g0 = align_group_term(group0, common_exponent);
  Lanes g1 = align_group_term(group1, common_exponent);
  Lanes d = round_half_away_lanes(dst_mantissa, min_lanes(common_exponent - dst_exponent, splat(kAlignShiftLimit)));
  if (!config.dst32) {
    g0 = round_presum_bits(g0, group0.sign);
    g1 = round_presum_bits(g1, group1.sign);
    d = round_presum_bits(d, Lanes{});
  }

  const Lanes sum = d + (group0.sign == dst_sign ? g0 : -g0) + (group1.sign == dst_sign ? g1 : -g1);
  const Lanes negative = sum < 0;
  const Lanes sign = dst_sign ^ (negative & 1);
  Lanes magnitude = negative ? -sum : sum;

  Lanes shift = count_leading_zeros(as_words(magnitude)) - static_cast<int32_t>(31 - kAccFractionBits);
  if (has_minus_one_lsb_renormalisation_bug(config.arch))
    shift -= (sign != 0) & (magnitude == 1) & kWormholeMinusOneShiftError;
  exponent -= shift;
  const int32_t drop = config.dst32 ? 0 : (config.exponent_8b ? 16 : 13);
  const Lanes narrow_shift = shift - drop;
  const Lanes right = max_lanes(-narrow_shift, Lanes{});
  magnitude = ((magnitude + ((1 << right) >> 1)) >> right) << max_lanes(narrow_shift, Lanes{});
  magnitude <<= drop;
  exponent += as_signed(lane_bits<24, 24>(as_words(magnitude)));
  const WordLanes mantissa = lane_bits<22, 0>(as_words(magnitude));

  const WordLanes sign_bit = as_words(sign) << 31;
  WordLanes result = sign_bit | (as_words(exponent) << kAccFractionBits) | mantissa;
  if (config.dst32 || config.exponent_8b) {
    result = exponent >= 255 ? sign_bit | (uint32_t{255} << kAccFractionBits) : result;
  } else {
    result = exponent > 31 ? sign_bit | (uint32_t{31} << kAccFractionBits) | (uint32_t{0x3FF} << 13) : result;
  }
  const Lanes zero = (common_exponent <= 0) | (sum == 0) | (exponent <= 0);
  return zero ? WordLanes{} : result;
}

// ---------------------------------------------------------------------------------------------
// Dst values <-> accumulator words (fpu_mode.cpp dst_to_acc / acc_to_dst, formats.cpp layouts),
// eight at a time
// ---------------------------------------------------------------------------------------------

TMU_LANE_INLINE WordLanes words_from_dst(WordLanes v, DstFormat format) {
  switch (format) {
    case DstFormat::FP32:  // Dst32b: sign 31, mantissa 22:16 at 30:24, exponent at 23:16, 15:0 in place
      return (lane_bits<31, 31>(v) << 31) | (lane_bits<23, 16>(v) << 23) | (lane_bits<30, 24>(v) << 16) |
             lane_bits<15, 0>(v);
    case DstFormat::BF16:  // Dst16 BF16: sign 15, mantissa 14:8, exponent 7:0
      return (lane_bits<15, 15>(v) << 31) | (lane_bits<7, 0>(v) << 23) | (lane_bits<14, 8>(v) << 16);
    case DstFormat::FP16:  // Dst16 FP16: sign 15, mantissa 14:5, exponent 4:0
      return (lane_bits<15, 15>(v) << 31) | (lane_bits<4, 0>(v) << 23) | (lane_bits<14, 5>(v) << 13);
    case DstFormat::INT32: break;
  }
  return WordLanes{};
}

TMU_LANE_INLINE WordLanes dst_from_words(WordLanes w, DstFormat format) {
  switch (format) {
    case DstFormat::FP32:
      return (lane_bits<31, 31>(w) << 31) | (lane_bits<22, 16>(w) << 24) | (lane_bits<30, 23>(w) << 16) |
             lane_bits<15, 0>(w);
    case DstFormat::BF16:
      return (lane_bits<31, 31>(w) << 15) | (lane_bits<22, 16>(w) << 8) | lane_bits<30, 23>(w);
    case DstFormat::FP16:
      return (lane_bits<31, 31>(w) << 15) | (lane_bits<22, 13>(w) << 5) | lane_bits<27, 23>(w);
    case DstFormat::INT32: break;
  }
  return WordLanes{};
}

// ---------------------------------------------------------------------------------------------
// The block, compiled once per instruction set
// ---------------------------------------------------------------------------------------------

TMU_LANE_INLINE void run_block(MvmulBlock& block, const FpuMode& mode) {
  const BlockSetup setup = block_setup(mode);
  SrcAPlanes a;
  decode_srca(block, setup, a);
  for (unsigned i = 0; i < block.rows && i < kBlockMaxRows; ++i) {
    SrcBRow b;
    decode_srcb_row(block.srcb[i], setup, b);
    for (unsigned h = 0; h < kHalves; ++h) {
      const TermLanes g0 = group_adder_tree(a, b, 0, h, setup.zero_product_floor);
      const TermLanes g1 = group_adder_tree(a, b, 1, h, setup.zero_product_floor);
      uint32_t* dst = &block.dst[i][h * kLanes];
      const WordLanes word = accumulate_lanes(g0, g1, words_from_dst(load_lanes(dst), setup.dst_format), setup.accum);
      store_lanes(dst, dst_from_words(word, setup.dst_format));
    }
  }
}

TMU_LANE_INLINE void run_accumulate(std::span<const AccTerm> group0, std::span<const AccTerm> group1,
                                    std::span<const uint32_t> dst_words, const AccumConfig& config,
                                    std::span<uint32_t> results) {
  for (size_t first = 0; first < results.size(); first += kLanes) {
    TermLanes t[2]{};
    uint32_t words[kLanes] = {};
    for (size_t l = 0; l < kLanes && first + l < results.size(); ++l) {
      for (unsigned g = 0; g < 2; ++g) {
        const AccTerm& term = (g ? group1 : group0)[first + l];
        t[g].sign[l] = static_cast<int32_t>(term.sign);
        t[g].exponent[l] = term.exponent;
        t[g].mantissa[l] = static_cast<int32_t>(term.mantissa);
      }
      words[l] = dst_words[first + l];
    }
    const WordLanes out = accumulate_lanes(t[0], t[1], load_lanes(words), config);
    for (size_t l = 0; l < kLanes && first + l < results.size(); ++l) results[first + l] = out[l];
  }
}

void run_block_portable(MvmulBlock& block, const FpuMode& mode) { run_block(block, mode); }
void run_accumulate_portable(std::span<const AccTerm> g0, std::span<const AccTerm> g1, std::span<const uint32_t> d,
                             const AccumConfig& c, std::span<uint32_t> r) {
  run_accumulate(g0, g1, d, c, r);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define TMU_BLOCK_KERNEL_AVX2 1
#define TMU_AVX2 [[gnu::target("avx2,bmi,bmi2")]]
TMU_AVX2 void run_block_avx2(MvmulBlock& block, const FpuMode& mode) { run_block(block, mode); }
TMU_AVX2 void run_accumulate_avx2(std::span<const AccTerm> g0, std::span<const AccTerm> g1,
                                  std::span<const uint32_t> d, const AccumConfig& c, std::span<uint32_t> r) {
  run_accumulate(g0, g1, d, c, r);
}
#define TMU_AVX512 [[gnu::target("avx2,bmi,bmi2,avx512f,avx512vl,avx512bw,avx512dq,avx512cd")]]
TMU_AVX512 void run_block_avx512(MvmulBlock& block, const FpuMode& mode) { run_block(block, mode); }
TMU_AVX512 void run_accumulate_avx512(std::span<const AccTerm> g0, std::span<const AccTerm> g1,
                                      std::span<const uint32_t> d, const AccumConfig& c, std::span<uint32_t> r) {
  run_accumulate(g0, g1, d, c, r);
}
#endif

// INT8 math keeps its per-element path.
void run_block_int8(MvmulBlock& block, const FpuMode& mode) {
  std::array<uint32_t, kDotLength> column;
  for (unsigned j = 0; j < kBlockColumns; ++j) {
    for (unsigned k = 0; k < kDotLength; ++k) column[k] = block.srca[k][j];
    for (unsigned i = 0; i < block.rows && i < kBlockMaxRows; ++i)
      block.dst[i][j] = int8_mvmul_element(column, block.srcb[i], block.dst[i][j], mode.fidelity_phase);
  }
}

}  // namespace

const char* block_kernel_isa_name(BlockKernelIsa isa) {
  switch (isa) {
    case BlockKernelIsa::Portable: return "portable";
    case BlockKernelIsa::X86_64_Avx2: return "x86-64 AVX2";
    case BlockKernelIsa::X86_64_Avx512: return "x86-64 AVX-512";
  }
  return "?";
}

bool block_kernel_isa_available(BlockKernelIsa isa) {
  switch (isa) {
    case BlockKernelIsa::Portable: return true;
    case BlockKernelIsa::X86_64_Avx2:
#ifdef TMU_BLOCK_KERNEL_AVX2
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#else
      return false;
#endif
    case BlockKernelIsa::X86_64_Avx512:
#ifdef TMU_BLOCK_KERNEL_AVX2
      return block_kernel_isa_available(BlockKernelIsa::X86_64_Avx2) && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd");
#else
      return false;
#endif
  }
  return false;
}

BlockKernelIsa best_block_kernel_isa() {
  static const BlockKernelIsa best = [] {
    for (BlockKernelIsa isa : {BlockKernelIsa::X86_64_Avx512, BlockKernelIsa::X86_64_Avx2})
      if (block_kernel_isa_available(isa)) return isa;
    return BlockKernelIsa::Portable;
  }();
  return best;
}

void mvmul_block(MvmulBlock& block, const FpuMode& mode) { mvmul_block(block, mode, best_block_kernel_isa()); }

void mvmul_block(MvmulBlock& block, const FpuMode& mode, BlockKernelIsa isa) {
  if (is_int8_math(mode)) return run_block_int8(block, mode);
#ifdef TMU_BLOCK_KERNEL_AVX2
  if (isa == BlockKernelIsa::X86_64_Avx512) return run_block_avx512(block, mode);
  if (isa == BlockKernelIsa::X86_64_Avx2) return run_block_avx2(block, mode);
#endif
  (void)isa;
  run_block_portable(block, mode);
}

namespace block_detail {

void accumulate_block_terms(std::span<const AccTerm> group0, std::span<const AccTerm> group1,
                            std::span<const uint32_t> dst_words, const AccumConfig& config,
                            std::span<uint32_t> results, BlockKernelIsa isa) {
#ifdef TMU_BLOCK_KERNEL_AVX2
  if (isa == BlockKernelIsa::X86_64_Avx512) return run_accumulate_avx512(group0, group1, dst_words, config, results);
  if (isa == BlockKernelIsa::X86_64_Avx2) return run_accumulate_avx2(group0, group1, dst_words, config, results);
#endif
  (void)isa;
  run_accumulate_portable(group0, group1, dst_words, config, results);
}

}  // namespace block_detail
}  // namespace tmu::tensix::fpu
