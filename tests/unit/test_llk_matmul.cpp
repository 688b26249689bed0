// The real matmul LLK sequence: tt-llk's ADDR_MOD set-up and the 16-MVMUL replay buffer of
// matmul_peak, run as the MOP runs it (one replay per fidelity phase), for a 32x32 x 32x32 tile.
// Expected values come from Eigen on exact doubles, never from the model.
#include <cmath>

#include "llk_harness.h"

namespace tmu::tensix {
namespace {

using test::Bf16;
using test::Mat;
using test::Tile;

// The slices each fidelity phase feeds the 5x7 multiplier, for BF16 (SrcASrcB.md): SrcA phase bit 0
// selects implicit one + mantissa bits 6:3 or bits 2:0; SrcB phase bit 1 selects implicit one +
// mantissa bits 6:1 or bit 0. The value keeps its weight, so hi + lo is the whole number.
double srca_slice(const Bf16& x, unsigned phase) {
  const double scale = (x.sign ? -1.0 : 1.0) * std::ldexp(1.0, int(x.exp) - 127);
  return scale * ((phase & 1) ? (x.mant7 & 7) / 128.0 : 1.0 + (x.mant7 >> 3) / 16.0);
}
double srcb_slice(const Bf16& x, unsigned phase) {
  const double scale = (x.sign ? -1.0 : 1.0) * std::ldexp(1.0, int(x.exp) - 127);
  return scale * ((phase & 2) ? (x.mant7 & 1) / 128.0 : 1.0 + (x.mant7 >> 1) / 64.0);
}

Mat sliced(const Tile& t, unsigned phase, bool srca) {
  Mat m(32, 32);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) m(r, c) = srca ? srca_slice(t.v[r][c], phase) : srcb_slice(t.v[r][c], phase);
  return m;
}

// Dst = in0 @ in1 with in0 in SrcB and in1 in SrcA (llk_math_matmul.h), `phases` fidelity phases.
TensixState run_matmul_tile(const Tile& in0, const Tile& in1, unsigned phases, Arch arch = Arch::Blackhole) {
  TensixState s = test::fresh(arch);
  test::place_tile(s.SrcB[0], in0);
  test::place_tile(s.SrcA[0], in1);
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
  test::configure_matmul_addrmods(s, phases > 1);
  test::run(s, "ZEROACC Mode=3 AddrMod=1");
  execute_word(s, 0x3700000f, 0);  // SETRWC reset of SrcA, SrcB, Dst, FidelityPhase
  for (unsigned p = 0; p < phases; ++p)
    for (uint32_t am : test::kMatmulReplayAddrMods) test::run(s, "MVMUL AddrMod=" + std::to_string(am));
  return s;
}

class MatmulFidelity : public ::testing::TestWithParam<unsigned> {};

// With every exponent equal, no product is shifted during alignment and every sum fits FP32, so the
// hardware result must equal, bit for bit, the exact sum of the slice products of the phases run.
TEST_P(MatmulFidelity, EqualExponentTileIsExactSumOfPhaseSliceProducts) {
  const unsigned phases = GetParam();
  Rng rng(1000 + phases);
  const Tile in0 = test::random_tile(rng, 127, 127);
  const Tile in1 = test::random_tile(rng, 127, 127);
  Mat expected = Mat::Zero(32, 32);
  for (unsigned p = 0; p < phases; ++p) expected += sliced(in0, p, false) * sliced(in1, p, true);
  const TensixState s = run_matmul_tile(in0, in1, phases);
  const Mat got = test::read_dst32_tile(s);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) ASSERT_EQ(got(r, c), expected(r, c)) << "phases=" << phases << " r=" << r << " c=" << c;
  if (phases == 4) {
    // HiFi4 is the full BF16 x BF16 product: the plain Eigen matmul of the values.
    EXPECT_TRUE(got == in0.values() * in1.values());
  } else {
    // Lower fidelity really differs from the full product on random mantissas.
    EXPECT_FALSE(got == in0.values() * in1.values());
  }
}

INSTANTIATE_TEST_SUITE_P(LoFiToHiFi4, MatmulFidelity, ::testing::Values(1u, 2u, 3u, 4u));

TEST(MatmulReplay, RwcsEndWhereTheyStartedAndEachHiFiPassAdvancesThePhase) {
  Rng rng(7);
  const Tile t = test::random_tile(rng, 127, 127);
  const TensixState s = run_matmul_tile(t, t, 3);
  const Rwc& r = s.RWCs[0];
  EXPECT_EQ(r.SrcA, 0);
  EXPECT_EQ(r.SrcB, 0);
  EXPECT_EQ(r.Dst, 0);
  EXPECT_EQ(r.FidelityPhase, 3);  // three ADDR_MOD_5 with FidelityIncr = 1
}

// Random exponents: products are aligned within groups of eight with rounding, so HiFi4 is close to
// but not always equal to the exact product. Bound per output element: each of the four groups of
// eight (2 MVMULs x 2 groups) per phase rounds each product by at most half a unit of 2^-10 of the
// group's largest product (< 2^-11 |largest product| each, so < 2^-8 per group), and the FP32 Dst
// rounds each of the 16 accumulations by at most 2^-24 of the running value.
TEST(MatmulReplay, RandomExponentHiFi4StaysWithinTheAlignmentErrorBound) {
  Rng rng(42);
  const Tile in0 = test::random_tile(rng, 118, 136);
  const Tile in1 = test::random_tile(rng, 118, 136);
  const Mat a = in1.values(), b = in0.values();
  const Mat exact = b * a;
  const Mat got = test::read_dst32_tile(run_matmul_tile(in0, in1, 4));
  int inexact = 0;
  for (int i = 0; i < 32; ++i) {
    for (int j = 0; j < 32; ++j) {
      double bound = 0;
      for (int g = 0; g < 4; ++g) {
        double group_max = 0;
        for (int k = g * 8; k < g * 8 + 8; ++k) group_max = std::max(group_max, std::abs(b(i, k) * a(k, j)));
        bound += 4 * 8 * std::ldexp(group_max, -10);  // generous: 4 phases x 8 products x 2^-10
      }
      double sum_abs = 0;
      for (int k = 0; k < 32; ++k) sum_abs += std::abs(b(i, k) * a(k, j));
      bound += 16 * std::ldexp(sum_abs, -23);
      EXPECT_LE(std::abs(got(i, j) - exact(i, j)), bound) << i << "," << j;
      inexact += got(i, j) != exact(i, j);
    }
  }
  EXPECT_GT(inexact, 0) << "random exponents should exercise the alignment rounding";
}

}  // namespace
}  // namespace tmu::tensix
