// The AMX rows of the precision audit: the matfp sequence against results worked out by hand (small
// integers, hand-rounded sums) or computed independently in MPFR, the inputs against the MVMUL
// runs' streams, and the rows in the audit's files.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "tmu/audit/audit.h"
#include "tmu/audit/reference.h"
#include "test_audit_support.h"

namespace tmu::audit {
namespace {

constexpr unsigned kN = 32;

AmxCase zero_case(AmxMode m, unsigned tiles) {
  AmxCase c;
  c.mode = m;
  c.tiles = tiles;
  c.in0.assign(kN * kN * tiles, 0.0);
  c.in1.assign(kN * tiles * kN, 0.0);
  return c;
}

// Small integers, different in i, j and k, so a transposed, mirrored or shifted mapping onto Z
// changes the result: |in0| <= 5, |in1| <= 4, so every partial sum is an integer below 2^11, exact in
// every source format and in f32.
int left_int(unsigned i, unsigned k) { return static_cast<int>((i * 7 + k * 3) % 11) - 5; }
int right_int(unsigned k, unsigned j) { return static_cast<int>((k * 5 + j * 2 + k * j) % 9) - 4; }

AmxCase integer_case(AmxMode m, unsigned tiles) {
  AmxCase c = zero_case(m, tiles);
  for (unsigned i = 0; i < kN; ++i)
    for (unsigned k = 0; k < c.depth(); ++k) c.in0[i * c.depth() + k] = left_int(i, k);
  for (unsigned k = 0; k < c.depth(); ++k)
    for (unsigned j = 0; j < kN; ++j) c.in1[k * kN + j] = right_int(k, j);
  return c;
}

// The integer C after t + 1 tiles.
int64_t integer_prefix(unsigned t, unsigned i, unsigned j) {
  int64_t sum = 0;
  for (unsigned k = 0; k < kN * (t + 1); ++k) sum += int64_t{left_int(i, k)} * right_int(k, j);
  return sum;
}

TEST(AuditAmx, ModeNamesAndStreams) {
  EXPECT_EQ(std::string(amx_method_name(AmxMode::F16F32)), "AMX f16->f32");
  EXPECT_EQ(std::string(amx_method_name(AmxMode::F32)), "AMX f32");
  EXPECT_EQ(std::string(amx_method_name(AmxMode::Bf16F32)), "AMX bf16->f32");
  EXPECT_EQ(parse_amx_mode("F16F32"), AmxMode::F16F32);
  EXPECT_EQ(parse_amx_mode("tf32"), std::nullopt);
  for (AmxMode m : kAmxModes) EXPECT_EQ(amx_mode_of_stream(amx_stream(m)), m);
  EXPECT_EQ(amx_stream(AmxMode::F32), SrcFormat::TF32);
}

// Three tiles, read after each: every element of every K equals the integer sum.
TEST(AuditAmx, SmallIntegerMatmulIsExactInEveryModeAfterEveryTile) {
  use_exact_precision();
  for (AmxMode m : kAmxModes) {
    const AmxCase c = integer_case(m, 3);
    const auto got = run_amx_matmul(c);
    const auto exact = exact_amx_prefixes(c);
    const auto seq = ieee_sequential_amx(c, kFp32);
    ASSERT_EQ(got.size(), 3u);
    for (unsigned t = 0; t < 3; ++t)
      for (unsigned i = 0; i < kN; ++i)
        for (unsigned j = 0; j < kN; ++j) {
          const auto expected = static_cast<double>(integer_prefix(t, i, j));
          ASSERT_EQ(got[t][i * kN + j], expected) << amx_mode_name(m) << " K=" << t + 1 << " C[" << i << "][" << j << "]";
          ASSERT_EQ(exact[t][i * kN + j], Real(expected));
          ASSERT_EQ(seq[t][i * kN + j], expected);
        }
  }
}

// f32 operands: a = 1 + 2^-12 gives a * a = 1 + 2^-11 + 2^-24, halfway between the f32 numbers
// 1 + 2^-11 (even) and 1 + 2^-11 + 2^-23. k = 0 adds a * a to 0: 1 + 2^-11. k = 1 adds (-a) * a:
// fused, (1 + 2^-11) - (1 + 2^-11 + 2^-24) = -2^-24 exactly; a rounded product would have given 0.
// Placed at C[0][0], C[0][20], C[17][0], C[17][20]: all four quadrants, each in its own matfp.
TEST(AuditAmx, F32RankOneUpdatesAreFusedWithOneRounding) {
  use_exact_precision();
  AmxCase c = zero_case(AmxMode::F32, 1);
  const double a = 1 + std::ldexp(1, -12);
  for (unsigned i : {0u, 17u}) {
    c.in0[i * kN + 0] = a;
    c.in0[i * kN + 1] = -a;
  }
  for (unsigned j : {0u, 20u}) c.in1[0 * kN + j] = c.in1[1 * kN + j] = a;
  const std::vector<double> got = run_amx_matmul(c)[0];
  for (unsigned i = 0; i < kN; ++i)
    for (unsigned j = 0; j < kN; ++j) {
      const bool placed = (i == 0 || i == 17) && (j == 0 || j == 20);
      EXPECT_EQ(got[i * kN + j], placed ? -std::ldexp(1, -24) : 0.0) << i << " " << j;
    }
  // The exact result is 0; the IEEE matmul that rounds the product first gets it.
  EXPECT_EQ(exact_amx_prefixes(c)[0][0], Real(0));
  EXPECT_EQ(ieee_sequential_amx(c, kFp32)[0][0], 0.0);
}

// f16 -> f32 (and bf16 -> f32): products are exact, every sum rounds. 1 * 1, then twice 2^-12 * 2^-12 = 2^-24, half
// an f32 ulp of 1: each addition is a tie and rounds back to the even 1, so C = 1 where the exact
// value is 1 + 2^-23. And a subnormal f16 operand is read as itself: 2^-24 * 0.5 = 2^-25 (the
// Matrix Unit would have flushed the 2^-24; for bf16 the smallest subnormal is 2^-133).
TEST(AuditAmx, F16F32RoundsEverySumAndKeepsSubnormalOperands) {
  use_exact_precision();
  for (AmxMode m : {AmxMode::F16F32, AmxMode::Bf16F32}) {
    AmxCase c = zero_case(m, 1);
    c.in0[3 * kN + 0] = 1, c.in1[0 * kN + 5] = 1;
    c.in0[3 * kN + 1] = std::ldexp(1, -12), c.in1[1 * kN + 5] = std::ldexp(1, -12);
    c.in0[3 * kN + 2] = std::ldexp(1, -12), c.in1[2 * kN + 5] = std::ldexp(1, -12);
    const double tiny = m == AmxMode::F16F32 ? std::ldexp(1, -24) : std::ldexp(1, -133);  // subnormal in each
    c.in0[30 * kN + 7] = tiny, c.in1[7 * kN + 31] = 0.5;
    const std::vector<double> got = run_amx_matmul(c)[0];
    EXPECT_EQ(got[3 * kN + 5], 1.0) << amx_mode_name(m);
    EXPECT_EQ(exact_amx_prefixes(c)[0][3 * kN + 5], Real(1 + std::ldexp(1, -23)));
    EXPECT_EQ(got[30 * kN + 31], tiny / 2) << amx_mode_name(m);
  }
}

// The inputs are the MVMUL runs' draws. BF16 stream -> IEEE bf16: the same numbers (nothing is
// drawn below bf16's normal range). FP16 -> binary16: the same where the Matrix Unit's number is
// nonzero; where it flushed, a subnormal. TF32 -> binary32: within one TF32 ulp (the f32 number is
// the same draw with 13 more bits).
TEST(AuditAmx, InputsAreTheMvmulStreamsRoundedToTheAmxFormat) {
  use_exact_precision();
  const Distribution all[] = {Distribution::Uniform, Distribution::Normal, Distribution::LogUniform,
                              Distribution::Cancellation};
  for (Distribution d : all) {
    const uint64_t seed = derive_seed(5, distribution_name(d));
    for (AmxMode m : kAmxModes) {
      const SrcFormat f = amx_stream(m);
      const MatmulCase t = make_matmul_case(f, d, 2, seed);
      const AmxCase a = make_amx_case(m, d, 2, seed);
      ASSERT_EQ(a.in0.size(), t.in0.size());
      ASSERT_EQ(a.in1.size(), t.in1.size());
      size_t differ = 0;
      auto check = [&](double amx, const SrcNumber& tensix) {
        const double v = double_of(tensix, f);
        if (m == AmxMode::Bf16F32) {
          ASSERT_EQ(amx, v);
        } else if (m == AmxMode::F16F32) {
          if (tensix.is_zero()) {
            ASSERT_LT(std::fabs(amx), std::ldexp(1, -14));
          } else {
            ASSERT_EQ(amx, v);
          }
        } else {
          ASSERT_LE(std::fabs(amx - v), std::ldexp(1, std::ilogb(v) - 10)) << amx << " " << v;
        }
        differ += amx != v;
      };
      for (size_t e = 0; e < a.in0.size(); ++e) check(a.in0[e], t.in0[e]);
      for (size_t e = 0; e < a.in1.size(); ++e) check(a.in1[e], t.in1[e]);
      if (m == AmxMode::F32) {
        EXPECT_GT(differ, a.in0.size()) << distribution_name(d);  // most draws keep bits TF32 drops
      }
    }
  }
}

// Random inputs against MPFR. f16/bf16 -> f32: every product is exact in f32, so the fused update
// is the IEEE FP32 matmul that rounds each sum (the audit's IEEE-seq), bit for bit. f32: each
// update is the exact z + x*y rounded once to FP32, computed here in MPFR.
TEST(AuditAmx, RandomInputsAgreeWithMpfrBitForBit) {
  use_exact_precision();
  for (Distribution d : {Distribution::Uniform, Distribution::LogUniform, Distribution::Cancellation}) {
    for (AmxMode m : kAmxModes) {
      const AmxCase c = make_amx_case(m, d, 2, derive_seed(11, distribution_name(d)));
      const auto got = run_amx_matmul(c);
      std::vector<std::vector<double>> expected;
      if (m != AmxMode::F32) {
        expected = ieee_sequential_amx(c, kFp32);
      } else {
        std::vector<Real> acc(kN * kN, Real(0));
        for (unsigned t = 0; t < c.tiles; ++t) {
          for (unsigned i = 0; i < kN; ++i)
            for (unsigned j = 0; j < kN; ++j)
              for (unsigned k = t * kN; k < (t + 1) * kN; ++k) {
                ExactScope exact("fused update");
                const Real sum = acc[i * kN + j] + Real(c.left(i, k)) * Real(c.right(k, j));
                exact.verify();
                acc[i * kN + j] = round_to_format(sum, kFp32);
              }
          std::vector<double> snapshot;
          for (const Real& v : acc) snapshot.push_back(exact_double(v));
          expected.push_back(snapshot);
        }
      }
      ASSERT_EQ(got.size(), expected.size());
      for (unsigned t = 0; t < got.size(); ++t)
        for (unsigned e = 0; e < kN * kN; ++e)
          ASSERT_EQ(got[t][e], expected[t][e]) << amx_mode_name(m) << " " << distribution_name(d) << " K=" << t + 1
                                               << " element " << e;
    }
  }
}

AuditOptions small_options() { return test::small_audit_options(21, 2); }

// The AMX rows come after every Matrix Unit row and leave those rows as they were.
TEST(AuditAmx, RowsFollowTheTensixRowsAndLeaveThemUnchanged) {
  AuditOptions tensix_only = small_options();
  tensix_only.engines.erase(kAmxRowsName);
  const AuditOptions both = small_options();
  AuditOptions amx_only = small_options();
  matrix_unit_settings(amx_only).ops.clear();
  amx_only.engines[kAmxRowsName] = AmxAuditConfig{{AmxMode::F32}};
  const std::string t = summary_csv(run_audit(tensix_only));
  const std::string b = summary_csv(run_audit(both));
  const AuditResults a = run_audit(amx_only);
  ASSERT_EQ(b.substr(0, t.size()), t);
  const std::string amx_rows = b.substr(t.size());
  // 3 modes x 2 distributions x 2 table K values.
  EXPECT_EQ(std::count(amx_rows.begin(), amx_rows.end(), '\n'), 12);
  EXPECT_EQ(amx_rows.rfind("MATFP,1,BF16,dst32,FP32,AMX bf16->f32,normal,1024,", 0), 0u) << amx_rows;
  EXPECT_NE(amx_rows.find("\nMATFP,2,FP32,dst32,FP32,AMX f32,cancel,1024,"), std::string::npos);
  // An AMX-only run has its rows and no phase checks; every K is in bits_vs_k.
  EXPECT_TRUE(a.checks.empty());
  const std::string only = summary_csv(a);
  EXPECT_EQ(std::count(only.begin(), only.end(), '\n'), 1 + 4);
  for (unsigned k : {1u, 2u})
    EXPECT_EQ(a.bits_vs_k.count(SeriesKey{kMatfp, k, SrcFormat::TF32, Distribution::Normal, true, kAmxMethod}), 1u);
}

}  // namespace
}  // namespace tmu::audit
