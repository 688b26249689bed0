// The precision audit's per-phase contribution check: it passes on the real LLK sequences for every
// format, Dst mode and input distribution, and it flags each mistake public fidelity goldens have
// made (tt-llk #837: a phase skipped, a phase run twice, signs lost; tt-metal #47239: the slicing
// applied to the swapped operand). The mistakes are made in the instruction sequence; the check is
// never told about them.
#include <gtest/gtest.h>

#include "tmu/tensix/llk/phase_check.h"
#include "tmu/rng.h"

namespace tmu::audit {
using namespace tmu::tensix;
using namespace tmu::tensix::llk;
namespace {

using Kind = Perturbation::Kind;

struct MatmulRun {
  MatmulCase c;
  MatmulExact exact;
  std::vector<PhaseProducts> phases;
};

MatmulRun matmul_inputs(SrcFormat f, Distribution d, unsigned tiles, uint64_t seed) {
  use_exact_precision();
  MatmulRun r{make_matmul_case(f, d, tiles, seed), {}, {}};
  r.exact = exact_matmul(r.c);
  r.phases = exact_phase_products(r.c);
  return r;
}

PhaseCheck matmul_check(const MatmulRun& r, unsigned phases, bool dst32, Perturbation p = {}) {
  const SequenceTrace trace = run_matmul_sequence(r.c, RunConfig{r.c.format, phases, dst32, p, Arch::Blackhole});
  return check_matmul_phases(r.c, r.exact, r.phases, trace, CheckConfig{r.c.format, phases, dst32});
}

PhaseCheck eltwise_check(const EltwiseCase& c, const PhaseProducts& exact, unsigned phases, bool dst32,
                         Perturbation p = {}) {
  const SequenceTrace trace = run_eltwise_sequence(c, RunConfig{c.format, phases, dst32, p, Arch::Blackhole});
  return check_eltwise_phases(c, exact, trace, CheckConfig{c.format, phases, dst32});
}

std::string describe(const PhaseCheck& c) {
  std::string s = "wrong pass counts " + std::to_string(c.steps_with_wrong_pass_count) + "; failures by pass:";
  for (const PassCheck& p : c.passes) s += " " + std::to_string(p.failures) + "/" + std::to_string(p.elements);
  return s;
}

const SrcFormat kFormats[] = {SrcFormat::BF16, SrcFormat::FP16, SrcFormat::TF32};
const Distribution kDists[] = {Distribution::Uniform, Distribution::Normal, Distribution::LogUniform,
                               Distribution::Cancellation};

TEST(AuditPhaseCheck, RealMatmulSequencePassesEveryFormatDstModeDistributionAndFidelity) {
  for (SrcFormat f : kFormats)
    for (Distribution d : kDists) {
      const MatmulRun r = matmul_inputs(f, d, 2, 100 + static_cast<unsigned>(f) * 10 + static_cast<unsigned>(d));
      for (bool dst32 : {false, true})
        for (unsigned phases = 1; phases <= 4; ++phases) {
          const PhaseCheck c = matmul_check(r, phases, dst32);
          EXPECT_TRUE(c.passed()) << info(f).name << " " << distribution_name(d) << " dst32=" << dst32
                                  << " phases=" << phases << ": " << describe(c);
          ASSERT_EQ(c.passes.size(), phases);
          // Two tiles of 32x32 elements were compared in every pass.
          for (const PassCheck& p : c.passes) EXPECT_EQ(p.elements, 2u * 1024u);
        }
    }
}

TEST(AuditPhaseCheck, RealEltwiseSequencePassesEveryFormatDstModeDistributionAndFidelity) {
  use_exact_precision();
  for (SrcFormat f : kFormats)
    for (Distribution d : kDists) {
      const EltwiseCase c = make_eltwise_case(f, d, 200 + static_cast<unsigned>(f) * 10 + static_cast<unsigned>(d));
      const PhaseProducts exact = exact_phase_products(c);
      for (bool dst32 : {false, true})
        for (unsigned phases = 1; phases <= 4; ++phases) {
          const PhaseCheck check = eltwise_check(c, exact, phases, dst32);
          EXPECT_TRUE(check.passed()) << info(f).name << " " << distribution_name(d) << " dst32=" << dst32
                                      << " phases=" << phases << ": " << describe(check);
        }
    }
}

// Wormhole reaches ADDR_MOD slots 4..7 through ADDR_MOD_SET_Base; the sequence and the check work
// the same way there.
TEST(AuditPhaseCheck, RealMatmulSequencePassesOnWormhole) {
  const MatmulRun r = matmul_inputs(SrcFormat::BF16, Distribution::Normal, 2, 17);
  for (bool dst32 : {false, true}) {
    const SequenceTrace trace = run_matmul_sequence(r.c, RunConfig{SrcFormat::BF16, 4, dst32, {}, Arch::Wormhole});
    const PhaseCheck c = check_matmul_phases(r.c, r.exact, r.phases, trace, CheckConfig{SrcFormat::BF16, 4, dst32});
    EXPECT_TRUE(c.passed()) << "dst32=" << dst32 << ": " << describe(c);
    const SequenceTrace skipped = run_matmul_sequence(
        r.c, RunConfig{SrcFormat::BF16, 4, dst32, {Kind::SkipPhase, 2}, Arch::Wormhole});
    EXPECT_FALSE(check_matmul_phases(r.c, r.exact, r.phases, skipped, CheckConfig{SrcFormat::BF16, 4, dst32}).passed());
  }
}

// With an FP32 Dst every pass of HiFi4 is resolvable: its contribution exceeds the rounding budget
// for most elements, so a mistake in any of them cannot hide.
TEST(AuditPhaseCheck, EveryHiFi4PassIsSensitiveWithFp32Dst) {
  for (SrcFormat f : kFormats) {
    const PhaseCheck c = matmul_check(matmul_inputs(f, Distribution::Uniform, 1, 7), 4, true);
    for (unsigned p = 0; p < 4; ++p)
      EXPECT_GT(c.passes[p].sensitive, c.passes[p].elements / 2) << info(f).name << " pass " << p;
  }
}

struct Mistake {
  Perturbation p;
  unsigned first_failing_pass;
  bool wrong_count;
};

// tt-llk #837 and tt-metal #47239, simulated: every one fails the check, at the pass it corrupts.
const Mistake kMistakes[] = {
    {{Kind::SkipPhase, 2}, 2, true},     // a phase commented out: passes 0 1 3
    {{Kind::RepeatPhase, 1}, 2, false},  // wrong iteration count: passes 0 1 1 2
    {{Kind::NegatePhase, 0}, 0, false},  // signs lost
    {{Kind::NegatePhase, 1}, 1, false},
    {{Kind::NegatePhase, 2}, 2, false},
    {{Kind::NegatePhase, 3}, 3, false},
    {{Kind::SwapOperands, 0}, 0, false},  // masks applied to the swapped source register
};

void expect_flagged(const PhaseCheck& c, const Mistake& m, const std::string& where) {
  EXPECT_FALSE(c.passed()) << where << ": " << describe(c);
  EXPECT_EQ(c.steps_with_wrong_pass_count > 0, m.wrong_count) << where;
  for (unsigned p = 0; p < m.first_failing_pass; ++p) EXPECT_EQ(c.passes[p].failures, 0u) << where << " pass " << p;
  EXPECT_GT(c.passes[m.first_failing_pass].failures, 0u) << where << ": " << describe(c);
}

TEST(AuditPhaseCheck, EachGoldenMistakeInTheMatmulSequenceIsFlagged) {
  for (SrcFormat f : kFormats) {
    const MatmulRun r = matmul_inputs(f, Distribution::Uniform, 2, 31);
    for (const Mistake& m : kMistakes)
      expect_flagged(matmul_check(r, 4, true, m.p), m,
                     std::string("MVMUL ") + info(f).name + " " + perturbation_name(m.p));
  }
}

TEST(AuditPhaseCheck, EachGoldenMistakeInTheEltwiseSequenceIsFlagged) {
  use_exact_precision();
  for (SrcFormat f : kFormats) {
    const EltwiseCase c = make_eltwise_case(f, Distribution::Uniform, 32);
    const PhaseProducts exact = exact_phase_products(c);
    for (const Mistake& m : kMistakes)
      expect_flagged(eltwise_check(c, exact, 4, true, m.p), m,
                     std::string("ELWMUL ") + info(f).name + " " + perturbation_name(m.p));
  }
}

// With a 16-bit Dst the last phases disappear below BF16's rounding, but the large mistakes still
// show.
TEST(AuditPhaseCheck, LargeMistakesAreFlaggedWith16BitDstToo) {
  const MatmulRun r = matmul_inputs(SrcFormat::BF16, Distribution::Normal, 1, 41);
  for (const Mistake& m : {kMistakes[0], kMistakes[1], kMistakes[2], kMistakes[3], kMistakes[6]})
    expect_flagged(matmul_check(r, 4, false, m.p), m, "MVMUL BF16 dst16 " + perturbation_name(m.p));
}

// tt-metal #47239's lesson: with BF16 HiFi4 the swapped slicing still multiplies every bit of both
// operands, so when no alignment rounding intervenes (equal exponents) the final result is
// bit-identical to the correct sequence's - no tolerance on the output can catch it. The per-phase
// check does.
TEST(AuditPhaseCheck, SwappedSlicingIsInvisibleInTheResultButFailsThePhaseCheck) {
  use_exact_precision();
  MatmulRun r;
  r.c.format = SrcFormat::BF16;
  r.c.tiles = 1;
  Rng rng(5);
  for (auto* v : {&r.c.in0, &r.c.in1}) {
    v->resize(32 * 32);
    for (SrcNumber& x : *v) x = src_from_fields(rng.bits(1), 0, rng.bits(7), SrcFormat::BF16);
  }
  r.exact = exact_matmul(r.c);
  r.phases = exact_phase_products(r.c);
  const RunConfig good{SrcFormat::BF16, 4, true, {}, Arch::Blackhole};
  RunConfig swapped = good;
  swapped.perturb = Perturbation{Kind::SwapOperands, 0};
  const SequenceTrace a = run_matmul_sequence(r.c, good), b = run_matmul_sequence(r.c, swapped);
  EXPECT_EQ(a.result, b.result);
  for (unsigned e = 0; e < 1024; ++e) ASSERT_EQ(Real(a.result[e]), r.exact.prefix[0][e]) << e;  // and exact
  EXPECT_TRUE(check_matmul_phases(r.c, r.exact, r.phases, a, CheckConfig{SrcFormat::BF16, 4, true}).passed());
  EXPECT_FALSE(check_matmul_phases(r.c, r.exact, r.phases, b, CheckConfig{SrcFormat::BF16, 4, true}).passed());
}

TEST(AuditPhaseCheck, PerturbationNamesRoundTrip) {
  for (const Mistake& m : kMistakes) {
    const auto back = parse_perturbation(perturbation_name(m.p));
    ASSERT_TRUE(back.has_value()) << perturbation_name(m.p);
    EXPECT_EQ(back->kind, m.p.kind);
    if (m.p.kind != Kind::SwapOperands) {
      EXPECT_EQ(back->phase, m.p.phase);
    }
  }
  EXPECT_FALSE(parse_perturbation("skip4").has_value());
  EXPECT_FALSE(parse_perturbation("skip0").has_value());  // the counter starts at phase 0: nothing to jump over
  EXPECT_TRUE(parse_perturbation("repeat0").has_value());
  EXPECT_TRUE(parse_perturbation("negate0").has_value());
  EXPECT_FALSE(parse_perturbation("negate").has_value());
}

}  // namespace
}  // namespace tmu::audit
