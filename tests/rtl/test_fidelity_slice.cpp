// tmu_fidelity_slice against the refmodel's stage-1 functions (refmodel/engines/tensix/include/tmu/tensix/fpu/datapath.h,
// int8_math.h), through the 16 slices of tmu_blocks_tb's datapath chain.
#include <array>
#include <cinttypes>

#include "datapath_gen.h"

namespace tmu_rtl {
namespace {

using namespace dp;

// ---------------------------------------------------------------------------------------------
// fidelity_slice
// ---------------------------------------------------------------------------------------------

// The refmodel's product for one pair. MVMUL's fidelity_slice_product always applies the zero
// flag; with the flag disabled (ELWMUL) the product is formed from the same refmodel pieces the
// element-wise path uses.
Product expected_float_product(uint32_t a, uint32_t b, const ChainMode& m) {
  if (!m.zero_flag_disabled) {
    const fpu::SliceProduct p = fpu::fidelity_slice_product(a, b, m.fpu);
    return Product{p.sign, p.exponent, p.mantissa};
  }
  const fpu::FpOperand oa = fpu::read_fp_operand(a, m.fpu.srca_style);
  const fpu::FpOperand ob = fpu::read_fp_operand(b, fpu::effective_srcb_style(m.fpu), true);
  const int32_t adjust =
      fpu::product_exponent_adjust(fpu::has_8bit_exponent(m.fpu), m.fpu.dst32, m.fpu.fidelity_phase);
  if (oa.flushed_zero || ob.flushed_zero) return Product{0, fpu::zero_product_exponent(adjust), 0};
  return Product{oa.sign ^ ob.sign, static_cast<int32_t>(oa.exponent + ob.exponent) + adjust,
                 fpu::slice_multiply(fpu::srca_fidelity_slice(oa.significand, m.fpu.fidelity_phase),
                                     fpu::srcb_fidelity_slice(ob.significand, m.fpu.fidelity_phase))};
}

void check_products(Checker& chk, const Model& top, const std::array<uint32_t, kDot>& a,
                    const std::array<uint32_t, kDot>& b, const ChainMode& m) {
  const unsigned phase = m.fpu.fidelity_phase;
  for (unsigned k = 0; k < kDot; ++k) {
    const Product got = rtl_product(top, k);
    if (m.fpu.srca_style == SrcStyle::INT8) {
      // The integer path: value = mantissa << exponent (slice position), signed.
      const int64_t want = int64_t{fpu::int8_srca_slice(a[k], phase)} *
                           fpu::int8_srcb_slice(b[k], phase, m.zero_flag_disabled);
      const bool position_ok = got.exponent >= 0 && got.exponent <= 9;
      const int64_t magnitude = position_ok ? int64_t{got.mantissa} << got.exponent : -1;
      const int64_t value = got.sign ? -magnitude : magnitude;
      if (position_ok && value == want) chk.pass();
      else
        chk.fail("INT8 a=%05x b=%05x phase=%u zf=%d: rtl sign=%u pos=%d mant=%u, ref %" PRId64, a[k], b[k],
                 phase, m.zero_flag_disabled, got.sign, got.exponent, got.mantissa, want);
      continue;
    }
    const Product want = expected_float_product(a[k], b[k], m);
    if (got.sign == want.sign && got.exponent == want.exponent && got.mantissa == want.mantissa) {
      chk.pass();
    } else {
      chk.fail("a=%05x b=%05x styles=%d/%d dst32=%d phase=%u zf=%d: rtl {%u,%d,%u} ref {%u,%d,%u}", a[k], b[k],
               static_cast<int>(m.fpu.srca_style), static_cast<int>(m.fpu.srcb_style), m.fpu.dst32, phase,
               m.zero_flag_disabled, got.sign, got.exponent, got.mantissa, want.sign, want.exponent,
               want.mantissa);
    }
  }
}

}  // namespace

int test_fidelity_slice(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "fidelity_slice");
  std::array<uint32_t, kDot> a{}, b{};

  // Exhaustive 1: every (SrcA exponent field, SrcB exponent field) pair in every mode - 4x4 styles,
  // Dst32 or not, four phases, zero flag on or off - with random signs and mantissas.
  for (unsigned style_a = 0; style_a < 4; ++style_a)
    for (unsigned style_b = 0; style_b < 4; ++style_b)
      for (unsigned mode_bits = 0; mode_bits < 16; ++mode_bits) {
        ChainMode m;
        m.fpu.srca_style = static_cast<SrcStyle>(style_a);
        m.fpu.srcb_style = static_cast<SrcStyle>(style_b);
        m.fpu.dst32 = mode_bits & 1;
        m.fpu.fidelity_phase = (mode_bits >> 1) & 3;
        m.zero_flag_disabled = (mode_bits >> 3) & 1;
        drive_chain_mode(top, m);
        for (unsigned pair = 0; pair < 256 * 256; pair += kDot) {
          for (unsigned k = 0; k < kDot; ++k) {
            const unsigned ea = (pair + k) >> 8, eb = (pair + k) & 0xFF;
            a[k] = static_cast<uint32_t>((rng.bits(11) << 8) | ea);
            b[k] = static_cast<uint32_t>((rng.bits(11) << 8) | eb);
          }
          drive_pairs(top, a, b);
          sim.eval();
          check_products(chk, top, a, b, m);
        }
      }

  // Exhaustive 2: every (SrcA mantissa, SrcB mantissa) pair of 10-bit mantissas in every phase,
  // TF32 x TF32 (all mantissa bits count) and FP16 x FP16, with random signs and exponents.
  for (SrcStyle style : {SrcStyle::TF32, SrcStyle::FP16}) {
    for (unsigned phase = 0; phase < 4; ++phase) {
      ChainMode m;
      m.fpu.srca_style = m.fpu.srcb_style = style;
      m.fpu.fidelity_phase = phase;
      m.fpu.dst32 = rng.bits(1);
      drive_chain_mode(top, m);
      for (unsigned pair = 0; pair < 1024 * 1024; pair += kDot) {
        for (unsigned k = 0; k < kDot; ++k) {
          const unsigned ma = (pair + k) >> 10, mb = (pair + k) & 0x3FF;
          a[k] = static_cast<uint32_t>((rng.bits(1) << 18) | (ma << 8) | rng.between(1, 31));
          b[k] = static_cast<uint32_t>((rng.bits(1) << 18) | (mb << 8) | rng.between(1, 31));
        }
        drive_pairs(top, a, b);
        sim.eval();
        check_products(chk, top, a, b, m);
      }
    }
  }

  // Random: any mode, clustered and edge-case datums.
  const uint64_t evals = opt.random_cases(100000);
  for (uint64_t i = 0; i < evals; ++i) {
    const ChainMode m = random_chain_mode(rng, true, true);
    const bool fp16 = m.fpu.srca_style == SrcStyle::FP16;
    const int base = static_cast<int>(rng.between(1, fp16 ? 30 : 254));
    for (unsigned k = 0; k < kDot; ++k) {
      a[k] = random_datum(rng, base, fp16);
      b[k] = random_datum(rng, base, fp16);
    }
    drive_chain_mode(top, m);
    drive_pairs(top, a, b);
    sim.eval();
    check_products(chk, top, a, b, m);
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl
