// tmu_align_group_sum and tmu_accum_normalize against the refmodel's stages 2 and 3, free-standing
// on arbitrary inputs, and the whole chain (16 slices, two groups, the Dst conversions, the
// accumulator) against fpu::mvmul_element, stage by stage.
#include <array>
#include <cinttypes>

#include "datapath_gen.h"

namespace tmu_rtl {
namespace {

using namespace dp;

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

// A product near base: the slice products the multiplier makes, arbitrary 12-bit mantissas (the
// stage accepts them), zero products, and exponents far off.
Product random_product(Rng& rng, int base) {
  Product p{};
  p.sign = static_cast<uint32_t>(rng.bits(1));
  switch (rng.between(0, 9)) {
    case 0: p.mantissa = 0; break;
    case 1: p.mantissa = static_cast<uint32_t>(rng.bits(kProductMantW)); break;
    case 2: p.mantissa = (1u << kProductMantW) - 1; break;
    default: p.mantissa = static_cast<uint32_t>(rng.between(16, 31) * rng.between(0, 127)); break;
  }
  if (rng.chance(5, 100)) p.exponent = static_cast<int32_t>(rng.between(-300, 450));
  else p.exponent = base - static_cast<int32_t>(rng.between(0, 15));
  return p;
}

// An accumulator term near base: group sums (a 15-bit magnitude shifted up 13 places), arbitrary
// 28-bit mantissas, the all-zero term of an empty group, exponents far off.
Term random_term(Rng& rng, int base) {
  Term t{};
  if (rng.chance(8, 100)) return t;
  t.sign = static_cast<uint32_t>(rng.bits(1));
  t.mantissa = rng.chance(70, 100) ? static_cast<uint32_t>(rng.bits(15)) << 13 : static_cast<uint32_t>(rng.bits(kTermMantW));
  t.exponent = rng.chance(5, 100) ? static_cast<int32_t>(rng.between(-512, 511))
                             : std::clamp(base + static_cast<int32_t>(rng.between(-30, 6)), -512, 511);
  return t;
}

// An accumulator word (the Dst value as the datapath reads it) near base.
uint32_t random_acc_word(Rng& rng, int base, bool exponent_8b, bool dst32) {
  const int max_exp = (exponent_8b || dst32) ? 255 : 31;
  int e = rng.chance(10, 100) ? static_cast<int>(rng.between(0, 255)) : std::clamp(base + static_cast<int>(rng.between(-8, 8)), 0, max_exp);
  if (rng.chance(5, 100)) e = 0;
  uint32_t mantissa = static_cast<uint32_t>(rng.bits(23));
  if (!dst32) mantissa &= exponent_8b ? 0x7F0000u : 0x7FE000u;  // what a 16-bit Dst can hold
  return fpu::make_acc_word(static_cast<uint32_t>(rng.bits(1)), static_cast<uint32_t>(e), mantissa);
}

fpu::AccTerm to_ref(const Term& t) { return fpu::AccTerm{t.sign, t.exponent, t.mantissa}; }

bool same(const Term& a, const fpu::AccTerm& b) {
  return a.sign == b.sign && a.exponent == b.exponent && a.mantissa == b.mantissa;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// align_group_sum
// ---------------------------------------------------------------------------------------------

int test_align_group_sum(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "align_group_sum");
  const uint64_t cases = opt.random_cases(1000000);
  std::array<fpu::SliceProduct, fpu::kProductsPerGroup> ref{};
  for (uint64_t i = 0; i < cases; ++i) {
    // Groups near exponent 0 exercise the "largest exponent <= 0" rule.
    const int base = rng.chance(10, 100) ? static_cast<int>(rng.between(-16, 16)) : static_cast<int>(rng.between(-140, 390));
    for (unsigned k = 0; k < fpu::kProductsPerGroup; ++k) {
      Product p = random_product(rng, base);
      // Exact cancellation: repeat an earlier product with the other sign.
      if (k > 0 && rng.chance(10, 100)) {
        p = Product{ref[k - 1].sign ^ 1u, ref[k - 1].exponent, ref[k - 1].mantissa};
      }
      ref[k] = fpu::SliceProduct{p.sign, p.exponent, p.mantissa};
      put_bits(top.al_products_i, k * kSliceProductW, kSliceProductW, pack_product(p));
    }
    sim.eval();
    const fpu::AccTerm want = fpu::align_group_sum(ref);
    const Term got = unpack_term(top.al_term_o);
    if (same(got, want)) {
      chk.pass();
    } else {
      chk.fail("case %" PRIu64 ": rtl {%u,%d,%07x} ref {%u,%d,%07x}", i, got.sign, got.exponent, got.mantissa,
               want.sign, want.exponent, want.mantissa);
      if (opt.verbose)
        for (const auto& p : ref) std::printf("  product {%u,%d,%u}\n", p.sign, p.exponent, p.mantissa);
    }
  }
  return chk.report(opt.seed);
}

// ---------------------------------------------------------------------------------------------
// accum_normalize
// ---------------------------------------------------------------------------------------------

int test_accum_normalize(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "accum_normalize");
  const uint64_t cases = opt.random_cases(2000000);
  for (uint64_t i = 0; i < cases; ++i) {
    fpu::AccumConfig cfg;
    cfg.dst32 = rng.bits(1);
    cfg.exponent_8b = rng.bits(1);
    cfg.arch = rng.bits(1) ? Arch::Wormhole : Arch::Blackhole;
    const int base = rng.chance(10, 100) ? static_cast<int>(rng.between(-20, 24)) : static_cast<int>(rng.between(1, 300));
    Term g0 = random_term(rng, base), g1 = random_term(rng, base);
    uint32_t dst = random_acc_word(rng, std::clamp(base, 0, 255), cfg.exponent_8b, cfg.dst32);
    if (rng.chance(15, 100)) {
      // Near-cancellation against Dst: the group sum is Dst's magnitude plus a few LSBs with the
      // other sign - sums of +-1 LSB (the Wormhole quirk), exact zeros, and carries out of the
      // leading bit. With a 16-bit Dst the LSB moves to the pre-rounding's bit 13.
      const uint32_t exponent = fpu::acc_exponent(dst) ? fpu::acc_exponent(dst) : 1;
      const uint32_t significand = (1u << 23) | fpu::acc_mantissa(dst);
      const int32_t lsb = cfg.dst32 ? 1 : (1 << 13);
      const int64_t m = int64_t{significand} + rng.between(-3, 3) * lsb;
      dst = fpu::make_acc_word(fpu::acc_sign(dst), exponent, fpu::acc_mantissa(dst));
      g0 = Term{fpu::acc_sign(dst) ^ 1u, static_cast<int32_t>(exponent), static_cast<uint32_t>(m)};
      if (rng.chance(50, 100)) g1 = Term{};
    }
    top.ac_group0_i = pack_term(g0);
    top.ac_group1_i = pack_term(g1);
    top.ac_dst_i = dst;
    top.ac_dst32_i = cfg.dst32;
    top.ac_exponent_8b_i = cfg.exponent_8b;
    top.ac_quirk_i = fpu::has_minus_one_lsb_renormalisation_bug(cfg.arch);
    sim.eval();
    fpu::AccumTrace trace;
    const uint32_t want = fpu::accum_normalize(to_ref(g0), to_ref(g1), dst, cfg, &trace);
    const auto outcome = static_cast<unsigned>(trace.outcome);
    if (top.ac_result_o == want && top.ac_outcome_o == outcome) {
      chk.pass();
    } else {
      chk.fail("case %" PRIu64 " g0={%u,%d,%07x} g1={%u,%d,%07x} dst=%08x dst32=%d exp8=%d %s: rtl %08x/%u ref %08x/%u",
               i, g0.sign, g0.exponent, g0.mantissa, g1.sign, g1.exponent, g1.mantissa, dst, cfg.dst32,
               cfg.exponent_8b, tmu::tensix::arch_name(cfg.arch), top.ac_result_o, top.ac_outcome_o, want, outcome);
    }
  }
  return chk.report(opt.seed);
}

// ---------------------------------------------------------------------------------------------
// The whole element: MVMUL / DOTPV / GAPOOL's Dst[i][j] += sum_k SrcB[i][k] * SrcA[k][j]
// ---------------------------------------------------------------------------------------------

namespace {

// A stored Dst value in the mode's format: a 32-bit Dst32b word, or a 16-bit value.
uint32_t random_dst_stored(Rng& rng, const fpu::FpuMode& mode, int base) {
  const bool exponent_8b = fpu::has_8bit_exponent(mode);
  const uint32_t word = random_acc_word(rng, base, exponent_8b, mode.dst32);
  if (rng.chance(3, 100)) return static_cast<uint32_t>(rng.bits(mode.dst32 ? 32 : 16));  // any bits at all
  return fpu::acc_to_dst(word, mode);
}

}  // namespace

int test_mvmul_element(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "mvmul_element");
  const uint64_t cases = opt.random_cases(300000);
  std::array<uint32_t, kDot> a{}, b{};
  for (uint64_t i = 0; i < cases; ++i) {
    const ChainMode m = random_chain_mode(rng, false, false);  // the float path; MVMUL always flushes
    const bool fp16 = m.fpu.srca_style == SrcStyle::FP16;
    // Operands around base_a/base_b: their products land near the Dst value's exponent so that
    // the accumulation aligns, cancels and rounds rather than one side swamping the other.
    const int max_exp = fp16 ? 30 : 254;
    const int base_a = static_cast<int>(rng.between(1, max_exp)), base_b = static_cast<int>(rng.between(1, max_exp));
    for (unsigned k = 0; k < kDot; ++k) {
      a[k] = random_datum(rng, base_a, fp16);
      b[k] = random_datum(rng, base_b, fp16);
    }
    const int product_exp = fp16 ? (m.fpu.dst32 ? base_a + base_b + 97 : base_a + base_b - 15)
                                 : base_a + base_b - 127;
    const uint32_t dst_stored =
        random_dst_stored(rng, m.fpu, std::clamp(product_exp + static_cast<int>(rng.between(-10, 10)), 0, 255));
    drive_chain_mode(top, m);
    drive_pairs(top, a, b);
    top.dp_dst_stored_i = dst_stored;
    sim.eval();

    fpu::MvmulTrace trace;
    const uint32_t want = fpu::mvmul_element(a, b, dst_stored, m.fpu, &trace);
    bool ok = top.dp_result_o == want && top.dp_acc_word_o == trace.result_word &&
              top.dp_dst_word_o == trace.dst_word && top.dp_outcome_o == static_cast<unsigned>(trace.accum.outcome);
    for (unsigned k = 0; k < kDot && ok; ++k) {
      const Product p = rtl_product(top, k);
      ok = p.sign == trace.products[k].sign && p.exponent == trace.products[k].exponent &&
           p.mantissa == trace.products[k].mantissa;
    }
    for (unsigned g = 0; g < 2 && ok; ++g) {
      ok = same(unpack_term(get_bits(top.dp_groups_o, g * kAccTermW, kAccTermW)), trace.group_sums[g]);
    }
    if (ok) {
      chk.pass();
    } else {
      chk.fail("case %" PRIu64 " styles=%d/%d dst32=%d phase=%u %s dst=%08x: rtl %08x (word %08x, dst word %08x, "
               "outcome %u) ref %08x (word %08x, dst word %08x, outcome %u)",
               i, static_cast<int>(m.fpu.srca_style), static_cast<int>(m.fpu.srcb_style), m.fpu.dst32,
               m.fpu.fidelity_phase, tmu::tensix::arch_name(m.fpu.arch), dst_stored, top.dp_result_o, top.dp_acc_word_o,
               top.dp_dst_word_o, top.dp_outcome_o, want, trace.result_word, trace.dst_word,
               static_cast<unsigned>(trace.accum.outcome));
    }
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
