// Tensix ELWADD in the precision audit's cross-engine table: the LLK ELWADD sequence on the model,
// measured against the exact sum. Expected values are worked by hand from ELWADD's adder (the
// smaller operand is rounded to the larger one's exponent, half away from zero, with no guard bits:
// docs/spec-deltas.md A7), not taken from the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "test_audit_support.h"
#include "tmu/tensix/audit/elwadd.h"
#include "tmu/tensix/audit/rows.h"
#include "tmu/pto/audit/pto.h"

namespace tmu::audit {
using namespace tmu::tensix::llk;
namespace {

EltwiseCase tile_of(SrcFormat f, double a_even, double b_even, double a_odd, double b_odd) {
  EltwiseCase c;
  c.format = f;
  for (unsigned i = 0; i < kTile * kTile; ++i) {
    const bool even = i % 2 == 0;
    c.a.push_back(round_to_src(Real(even ? a_even : a_odd), f));
    c.b.push_back(round_to_src(Real(even ? b_even : b_odd), f));
    EXPECT_EQ(double_of(c.a.back(), f), even ? a_even : a_odd);  // the operands are numbers of f
    EXPECT_EQ(double_of(c.b.back(), f), even ? b_even : b_odd);
  }
  c.dst_init.assign(kTile * kTile, 0.0);
  return c;
}

ErrorStats stats_of(const EltwiseCase& c, const SequenceTrace& t, const OutFormat& f) {
  const std::vector<Real> exact = exact_eltwise_sum(c);
  std::vector<ErrorSample> e;
  for (size_t i = 0; i < exact.size(); ++i) e.push_back(measure(exact[i], t.result[i], f));
  return summarize(e);
}

// TF32, FP32 Dst. Even lanes 1 + -(1 - 2^-11): exact 2^-11, but 2^-11 is half a unit of 1's
// significand and the aligned operand rounds to 1, so the sum is 0 (relative error 1; the FP32 ulp at
// 2^-11 is 2^-34, so 2^23 ulp). Odd lanes 1 + 2^-11: the half unit rounds away, 1 + 2^-10, error 2^-11
// = 2^12 FP32 ulps at 1. The nearest-rank median is the 512th smallest relative error, an odd lane's.
TEST(AuditElwadd, Tf32SumsHaveNoGuardBitAtEveryFidelity) {
  use_exact_precision();
  const double e11 = std::ldexp(1, -11);
  const EltwiseCase c = tile_of(SrcFormat::TF32, 1, -(1 - e11), 1, e11);
  for (unsigned phases = 1; phases <= 4; ++phases) {
    const SequenceTrace t = run_eltwise_add_sequence(c, RunConfig{SrcFormat::TF32, phases, true, {}, Arch::Blackhole});
    ASSERT_EQ(t.steps.size(), 4u);
    for (unsigned i = 0; i < kTile * kTile; ++i) ASSERT_EQ(t.result[i], i % 2 == 0 ? 0.0 : 1 + 2 * e11) << i;
    for (const StepTrace& s : t.steps) EXPECT_EQ(s.phase_counter, std::vector<unsigned>{0});
    const ErrorStats s = stats_of(c, t, kFp32);
    EXPECT_EQ(s.count, 1024u);
    EXPECT_EQ(s.max_abs, e11);
    EXPECT_EQ(s.max_rel, 1.0);
    EXPECT_EQ(s.max_ulp, std::ldexp(1, 23));
    EXPECT_EQ(s.mean_ulp, (std::ldexp(1, 23) + std::ldexp(1, 12)) / 2);
    EXPECT_DOUBLE_EQ(s.bits, 11 + std::log2(1 + e11));
    EXPECT_EQ(s.bits_p99, 0.0);
  }
}

// BF16. The adder works on 11-bit significands whatever the format, so a BF16 operand has three
// spare bits below its mantissa. Even lanes (1 + 2^-7) + (2^-8 - 2^-11): the aligned 2^-9 + 2^-10 +
// 2^-11 has its last bit half a unit below the 10 fraction bits and rounds away, to 2^-8; the sum
// 1 + 2^-7 + 2^-8 is exact in an FP32 Dst (error 2^-11 = 2^12 FP32 ulps at 1) and a tie in a BF16
// Dst, which the Dst rounds to 1 + 2^-6. The exact sum lies below that tie, so correct rounding
// gives 1 + 2^-7: the two roundings err by 2^-8 + 2^-11 = 9/16 of a BF16 ulp. Odd lanes
// 1.5 + 0.25 = 1.75, exact in both.
TEST(AuditElwadd, Bf16SumsAreRoundedTwiceIntoA16BitDst) {
  use_exact_precision();
  const double e7 = std::ldexp(1, -7), e8 = std::ldexp(1, -8), e11 = std::ldexp(1, -11);
  const EltwiseCase c = tile_of(SrcFormat::BF16, 1 + e7, e8 - e11, 1.5, 0.25);
  for (bool dst32 : {false, true}) {
    const SequenceTrace t = run_eltwise_add_sequence(c, RunConfig{SrcFormat::BF16, 2, dst32, {}, Arch::Blackhole});
    const double even = dst32 ? 1 + e7 + e8 : 1 + 2 * e7;
    for (unsigned i = 0; i < kTile * kTile; ++i)
      ASSERT_EQ(t.result[i], i % 2 == 0 ? even : 1.75) << i << " dst32=" << dst32;
    const ErrorStats s = stats_of(c, t, dst32 ? kFp32 : kBf16);
    EXPECT_EQ(s.max_abs, dst32 ? e11 : e8 + e11);
    EXPECT_EQ(s.max_ulp, dst32 ? 4096 : 0.5625);
    EXPECT_EQ(s.p50_abs, 0.0);  // half the lanes are exact
  }
}

// The exact sum against an independent path: the operands' doubles added in double, which is exact
// when their exponents lie at most 53 - 11 = 42 apart (11 significant bits each); the test checks
// that they do on these streams before relying on it.
TEST(AuditElwadd, ExactSumMatchesDoubleSumOnTheStreams) {
  use_exact_precision();
  for (SrcFormat f : {SrcFormat::BF16, SrcFormat::FP16, SrcFormat::TF32})
    for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::LogUniform}) {
      const EltwiseCase c = make_eltwise_case(f, d, 7);
      const std::vector<Real> exact = exact_eltwise_sum(c);
      for (size_t i = 0; i < exact.size(); ++i) {
        if (!c.a[i].is_zero() && !c.b[i].is_zero()) {
          ASSERT_LE(std::abs(c.a[i].exponent - c.b[i].exponent), 42);
        }
        ASSERT_EQ(exact[i], Real(double_of(c.a[i], f) + double_of(c.b[i], f))) << info(f).name << " " << i;
      }
    }
}

TEST(AuditElwadd, CrossRowsCoverEveryFidelityAndReportTheirDifferences) {
  const SrcFormat formats[] = {SrcFormat::BF16, SrcFormat::FP16};
  const Distribution dists[] = {Distribution::Normal, Distribution::Cancellation};
  const unsigned fidelities[] = {1, 3};
  const std::vector<bool> dst32{false, true};
  const auto rows = run_elwadd_cross(5, formats, dists, fidelities, dst32, 2, Arch::Blackhole);
  ASSERT_EQ(rows.size(), 2u * 1u * 2u * 2u);  // cancellation left out
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].format, formats[i / 4]);
    EXPECT_EQ(rows[i].dist, Distribution::Normal);
    EXPECT_EQ(rows[i].dst32, dst32[(i / 2) % 2]);
    EXPECT_EQ(rows[i].phases, fidelities[i % 2]);
    EXPECT_EQ(rows[i].stats.count, 2u * 1024u);
    EXPECT_EQ(rows[i].lanes_unlike_first, 0u) << i;
  }
}

TEST(AuditElwadd, TablesCarryTheElwaddRows) {
  AuditOptions o = test::small_audit_options(3, 2);
  o.engines.erase(kAmxRowsName);
  o.engines[kPtoRowsName] = PtoAuditConfig{{pto::ElemType::BF16}, 1};
  const AuditResults r = run_audit(o);
  ASSERT_NE(tensix_results(r), nullptr);
  ASSERT_EQ(tensix_results(r)->elwadd_cross.size(), 8u);
  const std::string csv = cross_engines_csv(r);
  for (const char* src : {"BF16", "FP16"})
    for (const char* method : {"LoFi", "HiFi4"})
      for (const char* result : {"FP32 Dst", src == std::string("BF16") ? "BF16 Dst" : "FP16 Dst"})
        EXPECT_NE(csv.find(fmt::format("Tensix,ELWADD,{},{},{},normal,1024,", method, result, src)),
                  std::string::npos)
            << src << " " << method << " " << result;
  EXPECT_EQ(csv.find("ELWADD,LoFi,FP32 Dst,BF16,cancel"), std::string::npos);
  const std::string md = cross_engines_markdown(r);
  EXPECT_NE(md.find("0 of 4096 lane results differ from those at LoFi"), std::string::npos) << md;
  EXPECT_NE(md.find("| Tensix | ELWADD | LoFi to HiFi4, same results | FP32 Dst |"), std::string::npos) << md;
  // Tensix rows first (ELWMUL, then ELWADD), then PTO.
  EXPECT_LT(md.find("| Tensix | ELWMUL | HiFi4 | FP32 Dst |"), md.find("| Tensix | ELWADD |"));
  EXPECT_LT(md.find("| Tensix | ELWADD |"), md.find("| PTO | TADD |"));
}

}  // namespace
}  // namespace tmu::audit
