// The precision audit's arithmetic: the ISA slice tables against the spec's fidelity guidance, IEEE
// rounding, the error statistics on a hand-worked matmul, and replay by seed. Expected values are
// worked out by hand in the comments.
#include <cmath>

#include <gtest/gtest.h>

#include "tmu/audit/audit.h"
#include "tmu/tensix/llk/slices.h"
#include "tmu/tensix/llk/phase_check.h"
#include "tmu/tensix/llk/sequence.h"
#include "tmu/tensix/llk/src_datum.h"
#include "test_audit_support.h"

namespace tmu::audit {
using namespace tmu::tensix::llk;
namespace {

Real sliced_product_sum(const SrcNumber& a, const SrcNumber& b, SrcFormat f) {
  Real sum(0);
  for (unsigned p = 0; p < 4; ++p)
    sum += value_of(slice_of(a, f, Operand::SrcA, p), f) * value_of(slice_of(b, f, Operand::SrcB, p), f);
  return sum;
}

// SrcASrcB.md: BF16 needs all four phases for the full product; TF32/FP16 SrcA's last mantissa bit
// is consumed by no phase. Checked exhaustively over every mantissa pair (exponent 0, signs mixed).
TEST(AuditSlices, Bf16FourPhasesGiveTheFullProduct) {
  use_exact_precision();
  for (uint32_t ma = 0; ma < 128; ++ma)
    for (uint32_t mb = 0; mb < 128; ++mb) {
      const SrcNumber a = src_from_fields(ma & 1, 0, ma, SrcFormat::BF16);
      const SrcNumber b = src_from_fields(0, 3, mb, SrcFormat::BF16);
      ASSERT_EQ(sliced_product_sum(a, b, SrcFormat::BF16),
                value_of(a, SrcFormat::BF16) * value_of(b, SrcFormat::BF16)) << ma << " " << mb;
    }
  EXPECT_EQ(srca_unconsumed_bits(SrcFormat::BF16), 0);
}

TEST(AuditSlices, Tf32AndFp16LoseExactlySrcAsLastMantissaBit) {
  use_exact_precision();
  for (SrcFormat f : {SrcFormat::TF32, SrcFormat::FP16}) {
    EXPECT_EQ(srca_unconsumed_bits(f), 1);
    for (uint32_t ma = 0; ma < 1024; ma += 3)
      for (uint32_t mb = 0; mb < 1024; mb += 7) {
        const SrcNumber a = src_from_fields(0, 1, ma, f), b = src_from_fields(1, -2, mb, f);
        // a loses (ma & 1) * 2^(1 - 10); the product loses that times b.
        const Real lost = Real(ma & 1) * std::ldexp(1.0, 1 - 10) * value_of(b, f);
        ASSERT_EQ(value_of(a, f) * value_of(b, f) - sliced_product_sum(a, b, f), lost) << ma << " " << mb;
      }
  }
}

// The tables cell by cell (SrcASrcB.md): BF16 SrcA 1+m6..m3 | m2..m0, SrcB 1+m6..m1 | m0.
TEST(AuditSlices, Bf16TableCells) {
  const SrcNumber x = src_from_fields(0, 0, 0b1011011, SrcFormat::BF16);  // 1 + 91/128
  auto sig = [&](Operand o, unsigned p) { return slice_of(x, SrcFormat::BF16, o, p).significand; };
  EXPECT_EQ(sig(Operand::SrcA, 0), 0b11011000u);  // implicit 1, 1011
  EXPECT_EQ(sig(Operand::SrcA, 1), 0b00000011u);  // 011
  EXPECT_EQ(sig(Operand::SrcA, 2), 0b11011000u);
  EXPECT_EQ(sig(Operand::SrcB, 0), 0b11011010u);  // implicit 1, 101101
  EXPECT_EQ(sig(Operand::SrcB, 1), 0b11011010u);
  EXPECT_EQ(sig(Operand::SrcB, 2), 0b00000001u);  // 1
  EXPECT_EQ(sig(Operand::SrcB, 3), 0b00000001u);
}

TEST(AuditRounding, NearestEvenWithGradualUnderflowAndOverflow) {
  use_exact_precision();
  auto r = [](double x, const OutFormat& f) { return exact_double(round_to_format(Real(x), f)); };
  EXPECT_EQ(r(1 + std::ldexp(1, -8), kBf16), 1.0);                              // tie -> even
  EXPECT_EQ(r(1 + 3 * std::ldexp(1, -8), kBf16), 1 + std::ldexp(1, -6));       // tie -> even (up)
  EXPECT_EQ(r(1 + std::ldexp(1, -8) + std::ldexp(1, -30), kBf16), 1 + std::ldexp(1, -7));
  EXPECT_EQ(r(1.5 * std::ldexp(1, -24), kFp16), std::ldexp(1, -23));           // subnormal tie -> even
  EXPECT_EQ(r(std::ldexp(1, -25), kFp16), 0.0);                                 // half the smallest: to 0
  EXPECT_EQ(r(std::ldexp(1, -14) - std::ldexp(1, -26), kFp16), std::ldexp(1, -14));
  EXPECT_TRUE(std::isinf(r(65520, kFp16)));                                     // past 65504 + ulp/2
  EXPECT_EQ(r(65519, kFp16), 65504.0);
  EXPECT_EQ(ulp_in_format(Real(3.0), kFp32), std::ldexp(1, -22));
  EXPECT_EQ(ulp_in_format(Real(0.0), kFp16), std::ldexp(1, -24));
}

TEST(AuditInputs, RoundingIntoSourceFormatsFlushesBelowTheNormalRange) {
  use_exact_precision();
  const SrcNumber x = round_to_src(Real(1 + std::ldexp(1, -11)), SrcFormat::TF32);  // tie -> even: 1
  EXPECT_EQ(x, src_from_fields(0, 0, 0, SrcFormat::TF32));
  EXPECT_EQ(round_to_src(Real(-std::ldexp(1, -15)), SrcFormat::FP16).is_zero(), true);
  const SrcNumber y = round_to_src(Real(-0.3), SrcFormat::BF16);  // -0.3 = -1.2 * 2^-2 -> 1.2 * 128 = 153.6 -> 154
  EXPECT_EQ(y, (SrcNumber{1, -2, 154}));
  EXPECT_EQ(src_datum(y, SrcFormat::BF16), pack_src(SrcFields{1, 125, (154u - 128u) << 3}, SrcStyle::BF16));
}

// A hand-worked tile: every in0 and in1 element is 1 + 2^-7 (BF16 mantissa 0000001, exponent 0).
// Slices: SrcA 1 | 2^-7 (bits 2..0 = 001), SrcB 1 | 2^-7 (bit 0). Phase products 1, 2^-7, 2^-7,
// 2^-14; equal exponents, so nothing is rounded in FP32 and each output is 32 * (sum of the phases
// run). Exact: 32 * (1 + 2^-7)^2 = 32.501953125, whose FP32 ulp is 2^(5-23).
TEST(AuditStatistics, HandWorkedTileAtEveryFidelity) {
  use_exact_precision();
  MatmulCase c;
  c.format = SrcFormat::BF16;
  c.tiles = 1;
  c.in0.assign(32 * 32, src_from_fields(0, 0, 1, SrcFormat::BF16));
  c.in1 = c.in0;
  const MatmulExact exact = exact_matmul(c);
  const double exact_value = 32.501953125;
  ASSERT_EQ(exact.prefix[0][0], Real(exact_value));
  const double expected_error[] = {0.501953125, 0.251953125, std::ldexp(1, -9), 0};  // 2^-1+2^-9, 2^-2+2^-9, 2^-9, 0
  for (unsigned phases = 1; phases <= 4; ++phases) {
    const SequenceTrace t = run_matmul_sequence(c, RunConfig{SrcFormat::BF16, phases, true, {}, Arch::Blackhole});
    std::vector<ErrorSample> e;
    for (unsigned i = 0; i < 1024; ++i) e.push_back(measure(exact.prefix[0][i], t.result[i], kFp32));
    const ErrorStats s = summarize(e);
    const double abs = expected_error[phases - 1], rel = abs / exact_value, ulp = abs / std::ldexp(1, -18);
    EXPECT_EQ(s.count, 1024u);
    EXPECT_EQ(s.max_abs, abs);
    EXPECT_EQ(s.mean_abs, abs);
    EXPECT_EQ(s.p99_abs, abs);
    EXPECT_DOUBLE_EQ(s.max_rel, rel);
    EXPECT_DOUBLE_EQ(s.p50_rel, rel);
    EXPECT_EQ(s.max_ulp, ulp);  // LoFi 131584, HiFi2 66048, HiFi3 512, HiFi4 0
    EXPECT_EQ(s.bits, phases == 4 ? kBitsCap : -std::log2(rel));
  }
  // Both IEEE references are exact here: 32.501953125 = 16641 * 2^-9 fits FP32.
  const auto seq = ieee_sequential_matmul(c, kFp32);
  EXPECT_EQ(seq[0][5], exact_value);
  EXPECT_EQ(ieee_rounded_once(exact.prefix[0], kBf16)[0], 32.5);  // 16641 * 2^-9 -> 8 bits: 32.5
}

// Percentiles are nearest-rank and relative errors skip exact zeros.
TEST(AuditStatistics, SummaryOfHandMadeSamples) {
  std::vector<ErrorSample> s;
  for (int i = 1; i <= 100; ++i) s.push_back(ErrorSample{double(i), double(i) / 1000, double(i) / 10, false});
  s.push_back(ErrorSample{5, 0, 50, true});
  const ErrorStats st = summarize(s);
  EXPECT_EQ(st.count, 101u);
  EXPECT_EQ(st.exact_zero, 1u);
  EXPECT_EQ(st.max_abs, 100);
  EXPECT_EQ(st.p99_abs, 99);   // rank ceil(0.99 * 101) = 100 of 1, 2, ..., 5, 5, ..., 99, 100
  EXPECT_EQ(st.p50_abs, 50);   // rank 51: 1..5, 5, 6..50 -> 50
  EXPECT_EQ(st.p99_rel, 0.099);
  EXPECT_DOUBLE_EQ(st.mean_rel, 0.0505);
  EXPECT_DOUBLE_EQ(st.bits_mean, -std::log2(0.0505));
  EXPECT_EQ(st.max_ulp, 50);
  const ErrorSample e = measure(Real(1.0), 1 + std::ldexp(1, -10), kBf16);
  EXPECT_EQ(e.abs, std::ldexp(1, -10));
  EXPECT_EQ(e.ulp, std::ldexp(1, -3));  // BF16 ulp at 1 is 2^-7
}

AuditOptions small_options(uint64_t seed, unsigned threads) { return test::small_audit_options(seed, threads); }

TEST(AuditDeterminism, SameSeedReplaysBitIdenticallyOnAnyThreadCount) {
  const AuditResults a = run_audit(small_options(9, 1));
  const AuditResults b = run_audit(small_options(9, 2));
  const AuditResults c = run_audit(small_options(10, 2));
  EXPECT_EQ(summary_csv(a), summary_csv(b));
  EXPECT_EQ(phases_csv(a), phases_csv(b));
  EXPECT_NE(summary_csv(a), summary_csv(c));
  EXPECT_TRUE(a.all_phase_checks_passed());
  // The inputs themselves replay: same seed, same numbers; another seed, other numbers.
  EXPECT_EQ(make_matmul_case(SrcFormat::TF32, Distribution::LogUniform, 1, 3).in1,
            make_matmul_case(SrcFormat::TF32, Distribution::LogUniform, 1, 3).in1);
  EXPECT_NE(make_matmul_case(SrcFormat::TF32, Distribution::LogUniform, 1, 3).in1,
            make_matmul_case(SrcFormat::TF32, Distribution::LogUniform, 1, 4).in1);
}

TEST(AuditDeterminism, PerturbedRunReportsFailedPhaseChecks) {
  AuditOptions o = small_options(9, 2);
  matrix_unit_settings(o).perturb = Perturbation{Perturbation::Kind::SkipPhase, 2};
  matrix_unit_settings(o).fidelities = {4};
  EXPECT_FALSE(run_audit(o).all_phase_checks_passed());
}

}  // namespace
}  // namespace tmu::audit

namespace tmu::audit {
namespace {

// run_matmul_sequence from pre-converted Src datums (what tmu.tensix.matmul passes) gives the bits
// of the SrcNumber route, snapshots included, and dropping the pass snapshots leaves the result as
// it was: every source format, fidelity, Dst width and architecture, and the swap perturbation
// (which reads the operands transposed). Seeded cases (make_matmul_case, seed printed on failure).
TEST(AuditSequence, PreconvertedDatumsAndSkippedSnapshotsGiveTheSameBits) {
  constexpr uint64_t kSeed = 39;
  for (const SrcFormat f : {SrcFormat::BF16, SrcFormat::FP16, SrcFormat::TF32})
    for (unsigned phases = 1; phases <= 4; ++phases)
      for (const bool dst32 : {true, false})
        for (const Arch arch : {Arch::Blackhole, Arch::Wormhole})
          for (const bool swap : {false, true}) {
            MatmulCase c = make_matmul_case(f, Distribution::Normal, 2, kSeed + phases);
            RunConfig cfg{f, phases, dst32, {}, arch};
            if (swap) cfg.perturb = Perturbation{Perturbation::Kind::SwapOperands, 0};
            const SequenceTrace want = run_matmul_sequence(c, cfg);
            MatmulCase d = c;
            for (const SrcNumber& x : c.in0) d.in0_datums.push_back(src_datum(x, f));
            for (const SrcNumber& x : c.in1) d.in1_datums.push_back(src_datum(x, f));
            d.in0.clear();
            d.in1.clear();
            const SequenceTrace got = run_matmul_sequence(d, cfg);
            const std::string what = std::string(fidelity_name(phases)) + " seed " + std::to_string(kSeed + phases) +
                                     (dst32 ? " Dst32" : " Dst16") + (swap ? " swap" : "") + " " + arch_name(arch);
            ASSERT_EQ(got.result, want.result) << what;
            ASSERT_EQ(got.steps.size(), want.steps.size()) << what;
            for (size_t s = 0; s < want.steps.size(); ++s) ASSERT_EQ(got.steps[s].snapshots, want.steps[s].snapshots) << what;
            cfg.pass_snapshots = false;
            const SequenceTrace lean = run_matmul_sequence(d, cfg);
            ASSERT_EQ(lean.result, want.result) << what;
            for (const StepTrace& s : lean.steps) ASSERT_TRUE(s.snapshots.empty()) << what;
          }
}

}  // namespace
}  // namespace tmu::audit
