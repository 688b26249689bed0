// tmu::ieee fma, add, sub, mul and convert on seeded random operands against MPFR
// (test_ieee_reference.h). Each test also checks, through Seen, that its reference results include
// every kind: NaN, infinity, zero, subnormal, exact, invalid, inexact, underflow and overflow.
// Counts per fma format (binary16, binary32, binary64, binary16 x binary16 + binary32):
//   1,000,000 general triples in RNE (test_ieee_support.h's Gen::general: mostly normals, a third of
//     them anywhere in the range, the addend often within a few binades of the product, plus raw
//     patterns, specials and subnormals),
//   100,000 cancellation triples and 100,000 tie triples in RNE (Gen::cancellation, Gen::ties),
//   7 other option sets (RUP; RDN; RTZ; tiny-after; FZ; FZ tiny-after; FZ RDN)
//     x (20,000 general + 10,000 cancellation + 10,000 ties) = 280,000,
//   50,000 general triples with DN = 1;
// bfloat16 and bfloat16 x bfloat16 + binary32 run a quarter of the general count.
#include <algorithm>
#include <bit>

#include "test_ieee_support.h"

namespace tmu::ieee::test {
namespace {

std::vector<Options> other_option_sets() {
  std::vector<Options> sets(7);
  sets[0].rounding = Rounding::TowardPositive;
  sets[1].rounding = Rounding::TowardNegative;
  sets[2].rounding = Rounding::TowardZero;
  sets[3].tininess = Tininess::AfterRounding;
  sets[4].flush_to_zero = true;
  sets[5].flush_to_zero = true;
  sets[5].tininess = Tininess::AfterRounding;
  sets[6].flush_to_zero = true;
  sets[6].rounding = Rounding::TowardNegative;
  return sets;
}

enum class Kind { General, Cancellation, Ties };

void run_fma(Checker& check, Gen& gen, Format pf, Format sf, Kind kind, uint64_t count, const Options& o) {
  const Enc ep(pf), es(sf);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t a, b, c;
    switch (kind) {
      case Kind::General: gen.general(ep, es, a, b, c); break;
      case Kind::Cancellation: gen.cancellation(ep, es, a, b, c); break;
      case Kind::Ties: gen.ties(ep, es, a, b, c); break;
    }
    check.check(Op::Fma, pf, sf, a, b, c, o);
  }
}

void fma_suite(const char* name, Format pf, Format sf, uint64_t general, bool extremes = true) {
  Checker check;
  Gen gen(derive_seed(kSeed, name));
  run_fma(check, gen, pf, sf, Kind::General, general, {});
  run_fma(check, gen, pf, sf, Kind::Cancellation, 100'000, {});
  run_fma(check, gen, pf, sf, Kind::Ties, 100'000, {});
  for (const Options& o : other_option_sets()) {
    run_fma(check, gen, pf, sf, Kind::General, 20'000, o);
    run_fma(check, gen, pf, sf, Kind::Cancellation, 10'000, o);
    run_fma(check, gen, pf, sf, Kind::Ties, 10'000, o);
  }
  Options dn;
  dn.default_nan = true;
  run_fma(check, gen, pf, sf, Kind::General, 50'000, dn);
  EXPECT_EQ(check.cases(), general + 530'000);
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500, extremes);
}

TEST(IeeeRandomFma, Binary16) { fma_suite("fma binary16", kBinary16, kBinary16, 1'000'000); }
TEST(IeeeRandomFma, Binary32) { fma_suite("fma binary32", kBinary32, kBinary32, 1'000'000); }
TEST(IeeeRandomFma, Binary64) { fma_suite("fma binary64", kBinary64, kBinary64, 1'000'000); }
TEST(IeeeRandomFma, Binary16ProductsBinary32Sum) {
  fma_suite("fma binary16 binary32", kBinary16, kBinary32, 1'000'000, false);
}
TEST(IeeeRandomFma, Bfloat16) { fma_suite("fma bfloat16", kBfloat16, kBfloat16, 250'000); }
TEST(IeeeRandomFma, Bfloat16ProductsBinary32Sum) {
  fma_suite("fma bfloat16 binary32", kBfloat16, kBinary32, 250'000);
}

// Per format (binary32, binary64, bfloat16): 200,000 sums and 200,000 differences (half of them of
// operands within p + 3 binades of each other, so that they cancel), 200,000 products, then 7 option
// sets x 20,000 of each.
TEST(IeeeRandomAddSubMul, WideFormats) {
  Checker check;
  for (Format f : {kBinary32, kBinary64, kBfloat16}) {
    const Enc e(f);
    Gen gen(derive_seed(kSeed, fmt::format("add mul e{}m{}", f.exp_bits, f.frac_bits)));
    auto run = [&](uint64_t count, const Options& o) {
      for (uint64_t i = 0; i < count; ++i) {
        const uint64_t a = gen.operand(e);
        uint64_t b = gen.operand(e);
        if (gen.coin() && !e.nan(a) && !e.inf(a) && !e.zero(a)) {
          const int near = ilog2(e, a) + gen.rng().between(-e.p() - 3, 2);
          b = gen.normal(e, near, near);
        }
        check.check(Op::Add, f, f, a, b, 0, o);
        check.check(Op::Sub, f, f, a, b ^ e.sign_bit(), 0, o);
        check.check(Op::Mul, f, f, gen.operand(e), gen.operand(e), 0, o);
      }
    };
    run(200'000, {});
    for (const Options& o : other_option_sets()) run(20'000, o);
  }
  EXPECT_EQ(check.cases(), 3u * 3 * (200'000 + 7 * 20'000));
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500);
}

// Per format (binary16, binary32, binary64, bfloat16): 200,000 quotients in RNE, a quarter of them
// with the divisor near the dividend's magnitude and a quarter of the divisors exact powers of two
// (exact quotients, and subnormal ones), then 7 option sets x 20,000.
TEST(IeeeRandomDiv, AllFormats) {
  Checker check;
  for (Format f : {kBinary16, kBinary32, kBinary64, kBfloat16}) {
    const Enc e(f);
    Gen gen(derive_seed(kSeed, fmt::format("div e{}m{}", f.exp_bits, f.frac_bits)));
    auto run = [&](uint64_t count, const Options& o) {
      for (uint64_t i = 0; i < count; ++i) {
        const uint64_t a = gen.operand(e);
        uint64_t b = gen.operand(e);
        const unsigned pick = gen.rng().below(4);
        if (pick == 0 && !e.nan(a) && !e.inf(a) && !e.zero(a)) {
          const int near = std::clamp(ilog2(e, a) + gen.rng().between(-2, 2), e.emin(), e.emax());
          b = gen.normal(e, near, near);
        } else if (pick == 1) {
          b = e.make(gen.coin(), static_cast<uint64_t>(gen.rng().between(1, 2 * e.bias())), 0);
        }
        check.check(Op::Div, f, f, a, b, 0, o);
      }
    };
    run(200'000, {});
    for (const Options& o : other_option_sets()) run(20'000, o);
  }
  EXPECT_EQ(check.cases(), 4u * (200'000 + 7 * 20'000));
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500);
}

// Per format (binary16, binary32, binary64, bfloat16): 200,000 square roots in RNE (a quarter of
// them of exact squares of 8-bit values scaled by even powers of two, which have exact roots) and
// 7 option sets x 20,000; 200,000 fmods in RNE, half of them with the divisor within 40 binades of
// the dividend so that the remainder loop runs, and 20,000 per other option set. fmod is exact, so
// its results are inexact only where flush-to-zero drops a subnormal remainder, and it never
// overflows: the kinds it must reach are the others.
TEST(IeeeRandomSqrtFmod, AllFormats) {
  Checker roots, remainders;
  for (Format f : {kBinary16, kBinary32, kBinary64, kBfloat16}) {
    const Enc e(f);
    Gen gen(derive_seed(kSeed, fmt::format("sqrt fmod e{}m{}", f.exp_bits, f.frac_bits)));
    auto run = [&](uint64_t count, const Options& o) {
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t a = gen.operand(e);
        if (gen.rng().chance(1, 4)) {  // k^2 * 4^j, k < 256: exact in every format with 8 bits or more
          const uint64_t k = 1 + gen.rng().below(255);
          const int j = gen.rng().between(e.emin() / 2, e.emax() / 2 - 8);
          const uint64_t sq = k * k;  // < 2^16
          const int top = 63 - std::countl_zero(sq);
          if (top <= e.f)
            a = e.make(false, static_cast<uint64_t>(top + 2 * j + e.bias()), (sq << (e.f - top)) & e.frac_ones());
        }
        roots.check(Op::Sqrt, f, f, a, 0, 0, o);
        const uint64_t x = gen.operand(e);
        uint64_t y = gen.operand(e);
        if (gen.coin() && !e.nan(x) && !e.inf(x) && !e.zero(x)) {
          const int near = std::clamp(ilog2(e, x) - gen.rng().between(0, 40), e.emin(), e.emax());
          y = gen.normal(e, near, near);
        }
        remainders.check(Op::Fmod, f, f, x, y, 0, o);
      }
    };
    run(200'000, {});
    for (const Options& o : other_option_sets()) run(20'000, o);
  }
  EXPECT_EQ(roots.cases(), 4u * (200'000 + 7 * 20'000));
  EXPECT_EQ(roots.failures(), 0u);
  EXPECT_EQ(remainders.failures(), 0u);
  const Seen& r = roots.seen();
  EXPECT_GE(r.nan, 500u);
  EXPECT_GE(r.infinity, 500u);
  EXPECT_GE(r.zero, 500u);
  EXPECT_GE(r.exact, 500u);
  EXPECT_GE(r.inexact, 500u);
  EXPECT_GE(r.invalid, 500u);
  const Seen& m = remainders.seen();
  EXPECT_GE(m.nan, 500u);
  EXPECT_GE(m.zero, 500u);
  EXPECT_GE(m.subnormal, 500u);
  EXPECT_GE(m.exact, 500u);
  EXPECT_GE(m.invalid, 500u);
}

// Narrowing conversions binary64 -> binary32, binary16, bfloat16 and binary32 -> binary16, bfloat16:
// 100,000 values each in RNE and 20,000 per other option set, a quarter of them exact ties of the
// target precision; the values mostly span the target's range, subnormals included. Plus 100,000
// widening binary32 -> binary64.
TEST(IeeeRandomConvert, NarrowingAndWidening) {
  Checker check;
  const std::pair<Format, Format> directions[] = {{kBinary64, kBinary32}, {kBinary64, kBinary16},
                                                   {kBinary64, kBfloat16}, {kBinary32, kBinary16},
                                                   {kBinary32, kBfloat16}};
  for (const auto& direction : directions) {
    const Format from = direction.first, to = direction.second;  // lambdas may not capture bindings (Clang < 16)
    const Enc ef(from), et(to);
    Gen gen(derive_seed(kSeed, fmt::format("convert e{}m{} e{}m{}", from.exp_bits, from.frac_bits, to.exp_bits,
                                           to.frac_bits)));
    auto run = [&](uint64_t count, const Options& o) {
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t x = gen.rng().chance(1, 4) ? gen.operand(ef) : gen.normal(ef, et.emin() - et.p() - 3, et.emax() + 2);
        if (gen.rng().chance(1, 4)) {  // the bits below the target's last place become exactly one half
          const uint64_t below = (uint64_t{1} << (ef.f - et.f)) - 1;
          x = (x & ~below) | ((below + 1) >> 1);
        }
        check.check(Op::Convert, from, to, x, 0, 0, o);
      }
    };
    run(100'000, {});
    for (const Options& o : other_option_sets()) run(20'000, o);
  }
  Gen gen(derive_seed(kSeed, "convert widening"));
  for (int i = 0; i < 100'000; ++i) check.check(Op::Convert, kBinary32, kBinary64, gen.operand(Enc(kBinary32)), 0, 0, {});
  EXPECT_EQ(check.cases(), 5u * (100'000 + 7 * 20'000) + 100'000);
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500);
}

}  // namespace
}  // namespace tmu::ieee::test
