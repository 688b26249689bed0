// The matmul LLK's tile route (tmu/tensix/llk/matmul_tiles.h) against its reference, the LLK's
// instructions issued on the model (run_matmul_sequence): the same bits for every Src format the
// goldens take, every fidelity, both Dst widths and both architectures, on the audit's seeded
// inputs (cancelling and wide-range ones included) over one and three K tiles. The fuzz harness
// diff_matmul_tiles explores further.
#include <gtest/gtest.h>

#include <cstring>

#include "tmu/tensix/llk/matmul_tiles.h"

namespace tmu::tensix::llk {
namespace {

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

size_t differing_elements(const std::vector<double>& a, const std::vector<double>& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += bits_of(a[i]) != bits_of(b[i]);
  return n + (a.size() != b.size());
}

TEST(LlkMatmulTiles, SameBitsAsTheInstructions) {
  for (audit::SrcFormat f : {audit::SrcFormat::BF16, audit::SrcFormat::FP16, audit::SrcFormat::TF32})
    for (audit::Distribution d : {audit::Distribution::Normal, audit::Distribution::LogUniform, audit::Distribution::Cancellation}) {
      const unsigned tiles = d == audit::Distribution::Normal ? 3 : 1;
      const audit::MatmulCase c = audit::make_matmul_case(f, d, tiles, 7);
      for (Arch arch : {Arch::Blackhole, Arch::Wormhole})
        for (bool dst32 : {false, true})
          for (unsigned phases = 1; phases <= 4; ++phases) {
            RunConfig cfg;
            cfg.format = f;
            cfg.arch = arch;
            cfg.dst32 = dst32;
            cfg.phases = phases;
            cfg.pass_snapshots = false;
            const std::vector<double> reference = run_matmul_sequence(c, cfg).result;
            EXPECT_EQ(differing_elements(matmul_tile_result(c, cfg), reference), 0u)
                << audit::info(f).name << " " << audit::distribution_name(d) << " " << arch_name(arch)
                << (dst32 ? " Dst32 " : " Dst16 ") << audit::fidelity_name(phases);
          }
    }
}

// The result must depend on every K tile and every pass: a route that dropped the last tile or the
// last pass would still agree on a case where they add nothing, so this case is one where they do.
TEST(LlkMatmulTiles, EveryTileAndPassCounts) {
  const audit::MatmulCase c = audit::make_matmul_case(audit::SrcFormat::FP16, audit::Distribution::Normal, 2, 3);
  RunConfig cfg;
  cfg.format = audit::SrcFormat::FP16;
  cfg.pass_snapshots = false;
  const std::vector<double> hifi4 = matmul_tile_result(c, cfg);
  cfg.phases = 3;
  EXPECT_GT(differing_elements(matmul_tile_result(c, cfg), hifi4), 0u);
  audit::MatmulCase one = audit::make_matmul_case(audit::SrcFormat::FP16, audit::Distribution::Normal, 1, 3);
  cfg.phases = 4;
  EXPECT_GT(differing_elements(matmul_tile_result(one, cfg), hifi4), 0u);
}

TEST(LlkMatmulTiles, RouteChoice) {
  const audit::MatmulCase c = audit::make_matmul_case(audit::SrcFormat::BF16, audit::Distribution::Uniform, 1, 1);
  RunConfig cfg;
  EXPECT_FALSE(tile_route_applies(cfg));  // pass snapshots asked for
  EXPECT_THROW(matmul_tile_result(c, cfg), std::invalid_argument);
  cfg.pass_snapshots = false;
  EXPECT_TRUE(tile_route_applies(cfg));
  cfg.perturb = audit::Perturbation{audit::Perturbation::Kind::NegatePhase, 1};
  EXPECT_FALSE(tile_route_applies(cfg));
  // Auto falls back to the instructions, which honour the perturbation.
  EXPECT_EQ(differing_elements(matmul_result(c, cfg, Route::Auto), run_matmul_sequence(c, cfg).result), 0u);
  EXPECT_THROW(matmul_result(c, cfg, Route::Tiles), std::invalid_argument);
  audit::MatmulCase bad = c;
  bad.in0_datums.assign(5, 0);
  cfg.perturb = {};
  EXPECT_THROW(matmul_tile_result(bad, cfg), std::invalid_argument);
}

}  // namespace
}  // namespace tmu::tensix::llk
