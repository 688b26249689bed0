// matfp's lane loop, which computes finite lanes with the host's fma (tmu/ieee_host.h), against
// tmu::ieee's integer fma_mixed lane by lane: random X, Y and Z of every lane width drawn from every
// class (zeros, subnormals, extremes, infinities, NaNs) and from values of few significant bits, whose
// products and sums land on ties; z += x*y and z -= x*y; in the default floating-point environment
// and in one where the host rounds upward, which must change nothing.
#include <cfenv>
#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_amx_support.h"
#include "tmu/amx/matfp.h"
#include "tmu/ieee.h"
#include "tmu/ieee_host.h"
#include "tmu/rng.h"

namespace tmu::amx::test {
namespace {

// matfp's FPCR (corsix/amx test.c): nearest-even, no flush, default NaN.
constexpr ieee::Options kFpcr{ieee::Rounding::NearestEven, false, true, ieee::Tininess::BeforeRounding};

struct Width {
  const char* name;
  unsigned code;
  Version version;
  ieee::Format xy, z;
};
const Width kWidths[] = {{"f16", kLwF16, Version::M1, ieee::kBinary16, ieee::kBinary16},
                         {"bf16", kLwBf16, Version::M2, ieee::kBfloat16, ieee::kBfloat16},
                         {"f16f32", kLwF16F32, Version::M1, ieee::kBinary16, ieee::kBinary32},
                         {"bf16f32", kLwBf16F32, Version::M2, ieee::kBfloat16, ieee::kBinary32},
                         {"f32", kLwF32, Version::M1, ieee::kBinary32, ieee::kBinary32},
                         {"f64", kLwF64, Version::M1, ieee::kBinary64, ieee::kBinary64}};

uint64_t draw(Rng& rng, ieee::Format f) {
  const bool sign = rng.chance(1, 2);
  const uint64_t frac = rng.next() & f.frac_mask();
  const auto normal = [&](int exponent, uint64_t fraction) {
    return f.zero(sign) | static_cast<uint64_t>(exponent + f.bias()) << f.frac_bits | fraction;
  };
  switch (rng.below(16)) {
    case 0: return f.zero(sign);
    case 1:
    case 2: return f.zero(sign) | std::max<uint64_t>(frac >> rng.below(f.frac_bits), 1);  // subnormals, large and small
    case 3: return f.infinity(sign);
    case 4: return f.infinity(sign) | std::max<uint64_t>(frac, 1);  // quiet and signalling NaNs
    case 5: return rng.chance(1, 2) ? f.max_finite(sign) : normal(f.emin(), rng.chance(1, 2) ? 0 : frac);
    case 6:
    case 7: return normal(rng.between(f.emin(), f.emax()), frac);
    case 8: return normal(rng.between(f.emax() - 3, f.emax()), frac);  // products overflow
    case 9: return normal(rng.between(f.emin(), f.emin() + 3), frac);  // results in the subnormals
    default: {
      // The top two and the last fraction bit at most, near 1: (1 + 2^-1 + 2^-p)(1 + 2^-p) and the
      // like have a bit just below the last place, so their sums with such values are often ties.
      const uint64_t sparse = frac & ((uint64_t{3} << (f.frac_bits - 2)) | 1);
      return normal(rng.between(-4, 4), sparse);
    }
  }
}

// Lane `lane` of `bytes` bytes at byte `base` of a pool, wrapping at 512 (RegisterFile.md).
uint64_t peek_pool(const Pool& p, unsigned base, unsigned bytes, unsigned lane) {
  uint64_t v = 0;
  for (unsigned b = 0; b < bytes; ++b) v |= uint64_t{p[(base + lane * bytes + b) % kPoolBytes]} << (8 * b);
  return v;
}

bool is_finite(ieee::Format f, uint64_t bits) {
  return ((bits >> f.frac_bits) & f.exp_field_max()) != f.exp_field_max();
}

struct Tally {
  uint64_t lanes = 0, mismatches = 0, midpoints = 0;
};

// One random matfp z +-= x*y with every lane enabled, checked lane by lane against fma_mixed.
void check_one(Rng& rng, const Width& w, Tally& t) {
  const unsigned eb = w.xy.width() / 8, zb = w.z.width() / 8, lanes = kRowBytes / eb;
  State before;
  for (unsigned k = 0; k < kPoolBytes / eb; ++k) {
    poke(before.x, 0, eb, k, draw(rng, w.xy));
    poke(before.y, 0, eb, k, draw(rng, w.xy));
  }
  for (Row& row : before.z)
    for (unsigned k = 0; k < kRowBytes / zb; ++k) poke_row(row, zb, k, draw(rng, w.z));
  const unsigned x_offset = rng.below(kPoolBytes), y_offset = rng.below(kPoolBytes), z_row = rng.below(8);
  const bool sub = rng.chance(1, 2);

  State want = before;
  for (unsigned j = 0; j < lanes; ++j) {
    for (unsigned i = 0; i < lanes; ++i) {
      const bool widening = zb != eb;
      Row& row = want.z[widening ? 2 * j + (i & 1) : j * eb + z_row % eb];
      const unsigned lane = widening ? i / 2 : i;
      const uint64_t x = peek_pool(before.x, x_offset, eb, i) ^ (sub ? w.xy.sign_bit() : 0);
      const uint64_t y = peek_pool(before.y, y_offset, eb, j), z = peek(row, zb, lane);
      poke_row(row, zb, lane, ieee::fma_mixed(w.xy, w.z, x, y, z, kFpcr).bits);
      // Coverage only: lanes whose binary64 fma is a midpoint of the 16-bit Z format, which matfp
      // must hand to tmu::ieee.
      if (w.z.width() == 16 && is_finite(w.xy, x) && is_finite(w.xy, y) && is_finite(w.z, z)) {
        const double s =
            std::fma(ieee::host::to_double(w.xy, x), ieee::host::to_double(w.xy, y), ieee::host::to_double(w.z, z));
        t.midpoints += !ieee::host::round_nearest_even(w.z, s).has_value();
      }
    }
  }

  State got = before;
  execute_matfp(got, MatfpBits{}.lw(w.code).xoff(x_offset).yoff(y_offset).zrow(z_row).alu(sub ? 1 : 0).v, w.version);
  t.lanes += lanes * lanes;
  EXPECT_EQ(got.x, before.x);
  EXPECT_EQ(got.y, before.y);
  for (unsigned r = 0; r < kZRows; ++r) {
    for (unsigned k = 0; k < kRowBytes / zb; ++k) {
      const uint64_t g = peek(got.z[r], zb, k), e = peek(want.z[r], zb, k);
      if (g == e || ++t.mismatches > 10) continue;
      ADD_FAILURE() << fmt::format("{} {} x_offset={} y_offset={} z_row={}: Z row {} lane {} was {:#x}, got {:#x}, "
                                   "want {:#x}",
                                   w.name, sub ? "z-=x*y" : "z+=x*y", x_offset, y_offset, z_row, r, k,
                                   peek(before.z[r], zb, k), g, e);
    }
  }
}

// Random instructions of one width, about `lane_budget` lanes of them.
Tally check_width(const Width& w, uint64_t seed, unsigned lane_budget) {
  Rng rng(seed);
  const unsigned lanes = kRowBytes / (w.xy.width() / 8);
  Tally t;
  for (unsigned n = 0; n < lane_budget / (lanes * lanes); ++n) check_one(rng, w, t);
  return t;
}

TEST(AmxMatfpHost, EveryLaneWidthAgreesWithTheIntegerFma) {
  for (const Width& w : kWidths) {
    const Tally t = check_width(w, derive_seed(0xA3F, w.name), 1u << 19);
    EXPECT_EQ(t.mismatches, 0u) << w.name << " over " << t.lanes << " lanes";
    if (w.z.width() == 16) {
      EXPECT_GT(t.midpoints, 1000u) << w.name;
    }
  }
}

TEST(AmxMatfpHost, AHostRoundingUpwardChangesNothing) {
  ASSERT_EQ(std::fesetround(FE_UPWARD), 0);
  for (const Width& w : kWidths) {
    const Tally t = check_width(w, derive_seed(0xA3E, w.name), 1u << 15);
    EXPECT_EQ(t.mismatches, 0u) << w.name << " over " << t.lanes << " lanes";
  }
  std::fesetround(FE_TONEAREST);
}

}  // namespace
}  // namespace tmu::amx::test
