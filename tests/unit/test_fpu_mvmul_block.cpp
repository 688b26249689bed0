// The MVMUL block kernel (fpu/mvmul_block.h) against the reference stages (fpu/datapath.h): the
// kernel must give exactly what mvmul_element gives, element for element, in every configuration
// mvmul_element covers. Checked piece by piece (operand decoding exhaustively, the product rounding
// identity exhaustively, the accumulator stage on chosen terms) and then whole blocks of random and
// adversarial operands, on every instruction set the kernel is built for that this host runs.
//
// The random cases come from one seed, printed by each test; set TMU_MVMUL_BLOCK_SEED (decimal or
// 0x-hex) to rerun with another.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "exec_harness.h"
#include "test_fpu_support.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/tensix/fpu/mvmul_block.h"
#include "tmu/rng.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;
using namespace tmu::tensix::fpu::block_detail;

uint64_t test_seed() {
  static const uint64_t seed = [] {
    const char* text = std::getenv("TMU_MVMUL_BLOCK_SEED");
    return text ? std::strtoull(text, nullptr, 0) : uint64_t{0x6D766D756C};
  }();
  return seed;
}

std::vector<BlockKernelIsa> available_isas() {
  std::vector<BlockKernelIsa> isas;
  for (BlockKernelIsa isa : {BlockKernelIsa::Portable, BlockKernelIsa::X86_64_Avx2, BlockKernelIsa::X86_64_Avx512})
    if (block_kernel_isa_available(isa)) isas.push_back(isa);
  return isas;
}

constexpr SrcStyle kFloatStyles[] = {SrcStyle::BF16, SrcStyle::TF32, SrcStyle::FP16};

// ---------------------------------------------------------------------------------------------
// Pieces
// ---------------------------------------------------------------------------------------------

TEST(FpuMvmulBlock, OperandReadersMatchReadFpOperandForEveryDatum) {
  for (SrcStyle style : kFloatStyles) {
    for (uint32_t phase = 0; phase < 4; ++phase) {
      const OperandReader ra = srca_reader(style, phase), rb = srcb_reader(style, phase);
      for (uint32_t d = 0; d < (uint32_t{1} << 19); ++d) {
        const FpOperand op = read_fp_operand(d, style);
        const SlicedOperand want_a{op.sign, op.exponent, srca_fidelity_slice(op.significand, phase), op.flushed_zero};
        const SlicedOperand want_b{op.sign, op.exponent, srcb_fidelity_slice(op.significand, phase), op.flushed_zero};
        ASSERT_EQ(slice_operand(d, ra), want_a) << src_style_name(style) << " phase " << phase << " datum " << d;
        ASSERT_EQ(slice_operand(d, rb), want_b) << src_style_name(style) << " phase " << phase << " datum " << d;
      }
    }
  }
}

TEST(FpuMvmulBlock, SignedProductRoundingIsTiesAwayOnTheMagnitude) {
  // Every magnitude a 5x7 multiplier can produce (and the rest of 12 bits), both signs, every shift.
  for (uint32_t m = 0; m < 4096; ++m) {
    for (uint32_t shift = 0; shift < 40; ++shift) {
      const auto want = static_cast<int32_t>(shift_right_round_half_away(m, shift));
      const int32_t clamped = static_cast<int32_t>(std::min<uint32_t>(shift, kProductShiftLimit));
      const auto doubled = static_cast<int32_t>(2 * m);
      ASSERT_EQ(round_signed_product_shift(doubled, clamped), want) << m << " >> " << shift;
      ASSERT_EQ(round_signed_product_shift(-doubled, clamped), -want) << "-" << m << " >> " << shift;
    }
  }
}

// A group term as align_group_sum can make it: exponent 0 for a group that underflowed, else the
// group's largest exponent with the aligned sum (below 8 * 2^12 before the shift to 23 fraction bits).
AccTerm random_term(Rng& r, int32_t exponent_lo, int32_t exponent_hi) {
  if (r.chance(1, 10)) return AccTerm{};
  AccTerm t;
  t.exponent = r.between(std::max(exponent_lo, 1), exponent_hi);
  uint32_t sum = 0;
  switch (r.below(4)) {
    case 0: sum = r.below(8 * 3937 + 1); break;             // anything
    case 1: sum = uint32_t{1} << r.below(15); break;        // one bit: ties when aligned
    case 2: sum = (uint32_t{3} << r.below(13)) >> 1; break; // a half-LSB pattern
    default: sum = r.below(4); break;                       // tiny: +-1 LSB results
  }
  t.mantissa = sum << (kAccFractionBits - kProductFractionBits);
  t.sign = sum ? r.below(2) : 0;
  return t;
}

// A Dst word near a term, so that the sum cancels or nearly cancels.
uint32_t word_near(Rng& r, const AccTerm& t, bool fp16_exponent) {
  const uint32_t top = t.mantissa ? 31 - static_cast<uint32_t>(std::countl_zero(t.mantissa)) : 0;
  const int32_t exponent = std::clamp(t.exponent + static_cast<int32_t>(top) - 23 + r.between(-1, 1), 0,
                                      fp16_exponent ? 31 : 255);
  const uint32_t mantissa = top >= 23 ? (t.mantissa >> (top - 23)) & 0x7FFFFF : (t.mantissa << (23 - top)) & 0x7FFFFF;
  return tmu_test::acc_word(t.sign ^ (r.chance(3, 4) ? 1u : 0u), static_cast<uint32_t>(exponent),
                            mantissa + static_cast<uint32_t>(r.between(-2, 2)));
}

TEST(FpuMvmulBlock, AccumulatorStageMatchesAccumNormalize) {
  std::cout << "seed " << test_seed() << " (TMU_MVMUL_BLOCK_SEED)\n";
  constexpr size_t kCases = 40000;
  size_t compared = 0;
  for (Arch arch : {Arch::Wormhole, Arch::Blackhole})
    for (bool dst32 : {true, false})
      for (bool exponent_8b : {true, false}) {
        const AccumConfig config{dst32, exponent_8b, arch};
        // Exponent ranges: everything, the bottom (underflow), the top (overflow) and FP16's range.
        for (auto [lo, hi] : {std::pair{0, 420}, std::pair{0, 40}, std::pair{200, 420}, std::pair{0, 36}}) {
          Rng r(derive_seed(test_seed(), fmt::format("accumulator {} dst32 {} exp8 {} exponents {}-{}", arch_name(arch),
                                                     dst32, exponent_8b, lo, hi)));
          std::vector<AccTerm> g0(kCases), g1(kCases);
          std::vector<uint32_t> dst(kCases), want(kCases), got(kCases);
          for (size_t n = 0; n < kCases; ++n) {
            g0[n] = random_term(r, lo, hi);
            g1[n] = r.chance(1, 8) ? AccTerm{g0[n].sign ^ 1, g0[n].exponent, g0[n].mantissa} : random_term(r, lo, hi);
            const uint32_t kind = r.below(6);
            const auto near_range = static_cast<uint32_t>(r.between(std::max(lo - 30, 0), std::min(hi + 3, 255)));
            dst[n] = kind == 0   ? r.bits(32)
                     : kind == 1 ? 0u
                     : kind == 2 ? word_near(r, g0[n], !exponent_8b)
                                 : tmu_test::acc_word(r.below(2), near_range, r.bits(32));
            want[n] = accum_normalize(g0[n], g1[n], dst[n], config);
          }
          for (BlockKernelIsa isa : available_isas()) {
            accumulate_block_terms(g0, g1, dst, config, got, isa);
            for (size_t n = 0; n < kCases; ++n) {
              ASSERT_EQ(got[n], want[n]) << fmt::format(
                  "{} {} {} {}: g0 {{{}, {}, 0x{:x}}} g1 {{{}, {}, 0x{:x}}} dst 0x{:08x}", block_kernel_isa_name(isa),
                  arch_name(arch), dst32 ? "dst32" : "dst16", exponent_8b ? "exp8" : "exp5", g0[n].sign,
                  g0[n].exponent, g0[n].mantissa, g1[n].sign, g1[n].exponent, g1[n].mantissa, dst[n]);
            }
            compared += kCases;
          }
        }
      }
  std::cout << compared << " accumulator cases compared\n";
}

// ---------------------------------------------------------------------------------------------
// Whole blocks
// ---------------------------------------------------------------------------------------------

enum class Scenario { Uniform, Clustered, Specials, Cancellation, SparseTies, Overflow, Underflow, Feedback, Count };
const char* scenario_name(Scenario s) {
  constexpr const char* kNames[] = {"uniform", "clustered", "specials", "cancellation", "sparse/ties",
                                    "overflow", "underflow", "dst=-result+-1ulp"};
  return kNames[static_cast<unsigned>(s)];
}

struct BlockCase {
  FpuMode mode;
  Scenario scenario;
};

int max_exponent(SrcStyle s) { return s == SrcStyle::FP16 ? 31 : 255; }
int bias(SrcStyle s) { return s == SrcStyle::FP16 ? 15 : 127; }

// A datum of the style with the given fields, plus (sometimes) junk in the bits the style ignores.
uint32_t make_datum(Rng& r, SrcStyle style, uint32_t sign, int exponent, uint32_t mantissa10) {
  exponent = std::clamp(exponent, 0, max_exponent(style));
  uint32_t d = tmu_test::src_datum(sign, static_cast<uint32_t>(exponent), mantissa10);
  if (r.chance(1, 4)) {
    if (style == SrcStyle::BF16) d |= r.below(8) << 8;  // mantissa bits 2:0
    if (style == SrcStyle::FP16) d |= r.below(8) << 5;  // exponent bits 7:5
  }
  return d;
}

uint32_t random_mantissa(Rng& r, bool sparse) {
  if (!sparse) return r.below(1024);
  uint32_t m = 0;
  for (uint32_t n = r.below(3); n > 0; --n) m |= 1u << r.below(10);
  return m;
}

uint32_t special_datum(Rng& r, SrcStyle style) {
  const int mx = max_exponent(style);
  switch (r.below(9)) {
    case 0: return make_datum(r, style, 0, 0, 0);
    case 1: return make_datum(r, style, 1, 0, 0);
    case 2: return make_datum(r, style, r.below(2), 0, r.below(1024) | 0x200);  // denormal pattern
    case 3: return make_datum(r, style, r.below(2), 1, r.below(1024));
    case 4: return make_datum(r, style, r.below(2), mx, r.below(1024));
    case 5: return make_datum(r, style, r.below(2), mx, 0x3FF);
    case 6: return make_datum(r, style, r.below(2), mx - 1, 0x3FF);
    case 7: return make_datum(r, style, r.below(2), bias(style), 0);
    default: return make_datum(r, style, r.below(2), r.between(1, mx), 0x3FF);
  }
}

// A stored Dst value: random bits, zeros, special patterns, or a value near the expected size.
uint32_t make_dst(Rng& r, const FpuMode& mode, int near_exponent) {
  const DstFormat f = dst_format(mode);
  const int mx = f == DstFormat::FP16 ? 31 : 255;
  uint32_t exponent = 0, mantissa = r.bits(32) & 0x7FFFFF, sign = r.below(2);
  switch (r.below(8)) {
    case 0: return f == DstFormat::FP32 ? r.bits(32) : (r.bits(32) & 0xFFFF);
    case 1: return 0;
    case 2: exponent = 0; break;                                       // -0 or a denormal pattern
    case 3: exponent = static_cast<uint32_t>(mx); mantissa = r.chance(1, 2) ? 0 : mantissa; break;
    default: exponent = static_cast<uint32_t>(std::clamp(near_exponent + r.between(-35, 12), 0, mx));
  }
  return acc_to_dst(tmu_test::acc_word(sign, exponent, mantissa), mode);
}

// The stored value of -value, moved by `step` units in the last place of its format.
uint32_t negated_and_nudged(uint32_t stored, const FpuMode& mode, int step) {
  const uint32_t word = dst_to_acc(stored, mode) ^ 0x80000000u;
  const DstFormat f = dst_format(mode);
  const uint32_t ulp = f == DstFormat::FP32 ? 1u : f == DstFormat::BF16 ? 1u << 16 : 1u << 13;
  return acc_to_dst(word + static_cast<uint32_t>(step) * ulp, mode);
}

MvmulBlock make_block(Rng& r, const FpuMode& mode, Scenario sc) {
  const SrcStyle sa = mode.srca_style, sb = effective_srcb_style(mode);
  const int mx = max_exponent(sa), b = bias(sa);
  MvmulBlock block;
  block.rows = r.chance(1, 8) ? 1 + r.below(kBlockMaxRows) : kBlockMaxRows;
  if (sc == Scenario::Uniform) {
    for (auto& row : block.srca) for (uint32_t& d : row) d = r.bits(32) & low_mask(19);
    for (auto& row : block.srcb) for (uint32_t& d : row) d = r.bits(32) & low_mask(19);
    for (auto& row : block.dst) for (uint32_t& d : row) d = make_dst(r, mode, r.between(0, 255));
    return block;
  }
  // Base exponents per SrcA column and SrcB row; each datum sits up to `spread` below its base, so a
  // group's product exponents spread over 0..spread.
  const int spread = r.between(0, 31);
  int lo = mx == 31 ? 6 : 40, hi = mx == 31 ? 31 : 215;
  if (sc == Scenario::Overflow) lo = mx - 8, hi = mx;
  if (sc == Scenario::Underflow) lo = 1, hi = b / 2 + 4;
  std::array<int, kBlockColumns> base_a;
  std::array<int, kBlockMaxRows> base_b;
  for (int& e : base_a) e = r.between(lo, hi);
  for (int& e : base_b) e = r.between(lo, hi);
  const bool sparse = sc == Scenario::SparseTies;
  for (unsigned k = 0; k < kDotLength; ++k)
    for (unsigned j = 0; j < kBlockColumns; ++j)
      block.srca[k][j] =
          make_datum(r, sa, r.below(2), base_a[j] - r.between(0, spread / 2), random_mantissa(r, sparse));
  for (unsigned i = 0; i < kBlockMaxRows; ++i)
    for (unsigned k = 0; k < kDotLength; ++k)
      block.srcb[i][k] =
          make_datum(r, sb, r.below(2), base_b[i] - r.between(0, spread - spread / 2), random_mantissa(r, sparse));
  if (sc == Scenario::Specials) {
    for (auto& row : block.srca) for (uint32_t& d : row) if (r.chance(1, 3)) d = special_datum(r, sa);
    for (auto& row : block.srcb) for (uint32_t& d : row) if (r.chance(1, 3)) d = special_datum(r, sb);
  }
  if (sc == Scenario::Cancellation) {
    // Products 8..15 are the negated products of a permutation of 0..7 (group sums cancel), then
    // some pairs trade places so that cancellation also happens inside a group.
    std::array<unsigned, kProductsPerGroup> perm{0, 1, 2, 3, 4, 5, 6, 7};
    for (unsigned n = kProductsPerGroup - 1; n > 0; --n) std::swap(perm[n], perm[r.below(n + 1)]);
    for (unsigned t = 0; t < kProductsPerGroup; ++t) {
      for (unsigned j = 0; j < kBlockColumns; ++j) block.srca[8 + t][j] = block.srca[perm[t]][j] ^ (1u << 18);
      for (unsigned i = 0; i < kBlockMaxRows; ++i) block.srcb[i][8 + t] = block.srcb[i][perm[t]];
    }
    for (unsigned t = 0; t < kProductsPerGroup; ++t) {
      if (!r.chance(1, 4)) continue;
      std::swap(block.srca[t], block.srca[8 + t]);
      for (auto& row : block.srcb) std::swap(row[t], row[8 + t]);
    }
  }
  const int32_t adjust = product_exponent_adjust(has_8bit_exponent(mode), mode.dst32, mode.fidelity_phase);
  for (unsigned i = 0; i < kBlockMaxRows; ++i)
    for (unsigned j = 0; j < kBlockColumns; ++j)
      block.dst[i][j] =
          sc == Scenario::Cancellation && r.chance(1, 2) ? 0 : make_dst(r, mode, base_a[j] + base_b[i] + adjust);
  return block;
}

std::array<uint32_t, kDotLength> column_of(const MvmulBlock& block, unsigned j) {
  std::array<uint32_t, kDotLength> c;
  for (unsigned k = 0; k < kDotLength; ++k) c[k] = block.srca[k][j];
  return c;
}

// mvmul_element on every element of the block's rows.
MvmulBlock reference_block(const MvmulBlock& in, const FpuMode& mode) {
  MvmulBlock out = in;
  for (unsigned j = 0; j < kBlockColumns; ++j) {
    const auto column = column_of(in, j);
    for (unsigned i = 0; i < in.rows; ++i) out.dst[i][j] = mvmul_element(column, in.srcb[i], in.dst[i][j], mode);
  }
  return out;
}

std::string describe(const FpuMode& m) {
  return fmt::format("{} A={} B={} {} phase={}", arch_name(m.arch), src_style_name(m.srca_style),
                     src_style_name(m.srcb_style), m.dst32 ? "Dst32" : "Dst16", m.fidelity_phase);
}

TEST(FpuMvmulBlock, BlocksMatchMvmulElementInEveryFloatConfiguration) {
  std::cout << "seed " << test_seed() << " (TMU_MVMUL_BLOCK_SEED)\n";
  constexpr unsigned kBlocksPerScenario = 12;
  const std::pair<SrcStyle, SrcStyle> styles[] = {
      {SrcStyle::BF16, SrcStyle::BF16}, {SrcStyle::TF32, SrcStyle::TF32}, {SrcStyle::FP16, SrcStyle::FP16},
      {SrcStyle::BF16, SrcStyle::TF32}, {SrcStyle::TF32, SrcStyle::BF16},
      // SrcB from the other exponent family is read with SrcA's style (effective_srcb_style).
      {SrcStyle::BF16, SrcStyle::FP16}, {SrcStyle::FP16, SrcStyle::BF16}, {SrcStyle::TF32, SrcStyle::FP16},
      {SrcStyle::FP16, SrcStyle::TF32}};
  const std::vector<BlockKernelIsa> isas = available_isas();
  uint64_t elements = 0, configurations = 0;
  for (Arch arch : {Arch::Wormhole, Arch::Blackhole})
    for (auto [sa, sb] : styles)
      for (bool dst32 : {true, false})
        for (uint32_t phase = 0; phase < 4; ++phase) {
          FpuMode mode;
          mode.srca_style = sa;
          mode.srcb_style = sb;
          mode.dst32 = dst32;
          mode.fidelity_phase = phase;
          mode.arch = arch;
          Rng r(derive_seed(test_seed(), fmt::format("configuration {}", ++configurations)));
          for (unsigned s = 0; s < static_cast<unsigned>(Scenario::Count); ++s)
            for (unsigned n = 0; n < kBlocksPerScenario; ++n) {
              const auto sc = static_cast<Scenario>(s);
              MvmulBlock in = make_block(r, mode, sc == Scenario::Feedback ? Scenario::Clustered : sc);
              if (sc == Scenario::Feedback) {
                // Dst = -(the block's own result) +- 1 ulp: cancellations and +-1 LSB sums.
                const MvmulBlock first = reference_block(in, mode);
                for (unsigned i = 0; i < in.rows; ++i)
                  for (unsigned j = 0; j < kBlockColumns; ++j)
                    in.dst[i][j] = negated_and_nudged(first.dst[i][j], mode, r.between(-1, 1));
              }
              const MvmulBlock want = reference_block(in, mode);
              for (BlockKernelIsa isa : isas) {
                MvmulBlock got = in;
                mvmul_block(got, mode, isa);
                for (unsigned i = 0; i < kBlockMaxRows; ++i)
                  for (unsigned j = 0; j < kBlockColumns; ++j) {
                    if (got.dst[i][j] == want.dst[i][j]) continue;
                    std::string operands;
                    for (unsigned k = 0; k < kDotLength; ++k)
                      operands += fmt::format(" (0x{:05x}, 0x{:05x})", in.srca[k][j], in.srcb[i][k]);
                    FAIL() << fmt::format("{} {} {} block {} element ({}, {}) of {} rows: dst in 0x{:08x}, "
                                          "kernel 0x{:08x}, mvmul_element 0x{:08x}; (SrcA, SrcB) pairs:{}",
                                          block_kernel_isa_name(isa), describe(mode), scenario_name(sc), n, i, j,
                                          in.rows, in.dst[i][j], got.dst[i][j], want.dst[i][j], operands);
                  }
                elements += in.rows * kBlockColumns;
              }
            }
        }
  std::cout << configurations << " configurations, " << elements << " elements compared\n";
}

TEST(FpuMvmulBlock, Int8BlocksUseTheIntegerPath) {
  Rng r(derive_seed(test_seed(), "int8 blocks"));
  for (uint32_t phase = 0; phase < 4; ++phase) {
    const FpuMode mode{SrcStyle::INT8, SrcStyle::INT8, true, phase};
    for (unsigned n = 0; n < 16; ++n) {
      MvmulBlock in;
      for (auto& row : in.srca) for (uint32_t& d : row) d = tmu_test::int8_datum(r.between(-1023, 1023));
      for (auto& row : in.srcb) for (uint32_t& d : row) d = tmu_test::int8_datum(r.between(-1023, 1023));
      for (auto& row : in.dst) for (uint32_t& d : row) d = r.bits(32);
      const MvmulBlock want = reference_block(in, mode);
      for (BlockKernelIsa isa : available_isas()) {
        MvmulBlock got = in;
        mvmul_block(got, mode, isa);
        ASSERT_EQ(got.dst, want.dst) << "phase " << phase << " block " << n;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The instructions: the same Dst, validity and WriteSet as MVMUL.md's element loop over mvmul_element
// ---------------------------------------------------------------------------------------------

struct MatmulInsn {
  const char* text;
  unsigned num_rows, row_step;
  bool broadcast;
};

void check_matmul_instruction(const MatmulInsn& insn, bool dst32, bool int8) {
  const std::string what = fmt::format("{} {}{}", insn.text, dst32 ? "Dst32" : "Dst16", int8 ? " INT8" : "");
  SCOPED_TRACE(what);
  Rng r(derive_seed(test_seed(), what));
  TensixState s = tmu::test::fresh(Arch::Blackhole);
  tmu::test::give_banks_to_matrix_unit(s);
  for (auto* banks : {&s.SrcA, &s.SrcB})
    for (SrcBank& bank : *banks) {
      bank.Format = DataFormat::BF16;
      for (auto& row : bank.Rows)
        for (uint32_t& d : row)
          d = int8 ? tmu_test::int8_datum(r.between(-1023, 1023))
                   : (r.chance(1, 16) ? 0u : tmu_test::bf16_datum(r.below(2), 120 + r.below(16), r.below(128)));
    }
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = dst32;
  s.Config[0].ALU_ACC_CTRL_INT8_math_enabled = int8;
  for (auto& row : s.Dst.DstBits) for (uint16_t& v : row) v = static_cast<uint16_t>(r.bits(32));
  for (unsigned row = 0; row < kDstRows; ++row) s.Dst.RowValid[row] = r.chance(2, 3);
  s.RWCs[0].SrcA = 16 + 3;                    // the block starts at SrcA row 16 (low bits ignored)
  s.RWCs[0].SrcB = insn.broadcast ? 21 : 8;   // a broadcast reads exactly this row
  s.RWCs[0].FidelityPhase = 2;

  // MVMUL.md's loop, element by element, on a copy.
  TensixState want = s;
  const uint32_t dst_row = 32, srca_row = 16, srcb_row = insn.broadcast ? 21 : 8;
  FpuMode mode;
  mode.srca_style = mode.srcb_style = int8 ? SrcStyle::INT8 : SrcStyle::BF16;
  mode.dst32 = dst32 || int8;
  mode.fidelity_phase = 2;
  mode.arch = Arch::Blackhole;
  std::vector<uint16_t> want_rows;
  for (unsigned i = 0; i < insn.num_rows; i += insn.row_step) {
    const uint32_t row = dst_row + i;
    std::array<uint32_t, kDotLength> b;
    for (unsigned k = 0; k < kDotLength; ++k) b[k] = s.SrcB[0].Rows[srcb_row + (insn.broadcast ? 0 : i)][k];
    for (unsigned j = 0; j < kBlockColumns; ++j) {
      std::array<uint32_t, kDotLength> a;
      for (unsigned k = 0; k < kDotLength; ++k) a[k] = s.SrcA[0].Rows[srca_row + k][j];
      const uint32_t in = mode.dst32 ? s.Dst.read32(row, j, 0) : s.Dst.read16(row, j, 0);
      const uint32_t out = mvmul_element(a, b, in, mode);
      if (mode.dst32) {
        want.Dst.write32_bits(row, j, out);
      } else {
        want.Dst.write16_bits(row, j, static_cast<uint16_t>(out));
      }
    }
    if (mode.dst32) {
      want_rows.push_back(static_cast<uint16_t>(DstRegs::hi_row(row)));
      want_rows.push_back(static_cast<uint16_t>(DstRegs::lo_row(row)));
      want.Dst.RowValid[DstRegs::hi_row(row)] = true;
    } else {
      want_rows.push_back(static_cast<uint16_t>(row));
      want.Dst.RowValid[row] = true;
    }
  }

  const ExecResult result = tmu::test::run(s, fmt::format("{} DstRow={} AddrMod=0", insn.text, dst_row));
  EXPECT_EQ(s.Dst.DstBits, want.Dst.DstBits);
  EXPECT_EQ(s.Dst.RowValid, want.Dst.RowValid);
  EXPECT_EQ(result.writes.dst_rows, want_rows);
}

TEST(FpuMvmulBlock, InstructionsWriteWhatTheElementLoopWrites) {
  const MatmulInsn insns[] = {{"MVMUL", 8, 1, false},
                              {"MVMUL BroadcastSrcBRow=1", 7, 2, true},
                              {"DOTPV", 8, 1, false},
                              {"GAPOOL Dim16x16=1", 4, 1, false}};
  for (const MatmulInsn& insn : insns) {
    for (bool dst32 : {true, false}) check_matmul_instruction(insn, dst32, false);
    check_matmul_instruction(insn, true, true);
  }
}

}  // namespace
