// tmu::ieee add, sub and mul over every pair of a binary16 subset, and convert over every binary16 and
// bfloat16 pattern, against MPFR (test_ieee_reference.h). All 2^32 binary16 pairs would take minutes;
// the subset keeps every exponent field and both signs:
//   2 signs x 32 exponent fields x 32 fractions = 2048 values, the fractions being 16 fixed edges
//   (0, 1, 2, 3, 0x0FF, 0x100, 0x155, 0x1FF, 0x200, 0x201, 0x2AA, 0x300, 0x3C0, 0x3FD, 0x3FE, 0x3FF)
//   and 16 seeded random ones. Exponent field 0 gives +-0 and subnormals (smallest and largest),
//   field 31 gives +-inf, quiet NaNs (fraction >= 0x200) and signalling NaNs (1 .. 0x1FF).
// Each test also checks, through Seen, that its reference results include every kind of result.
#include <set>

#include "test_ieee_support.h"

namespace tmu::ieee::test {
namespace {

std::vector<uint64_t> binary16_subset() {
  static constexpr uint64_t kEdges[] = {0x000, 0x001, 0x002, 0x003, 0x0FF, 0x100, 0x155, 0x1FF,
                                        0x200, 0x201, 0x2AA, 0x300, 0x3C0, 0x3FD, 0x3FE, 0x3FF};
  Rng rng(derive_seed(kSeed, "binary16 subset"));
  const Enc h(kBinary16);
  std::vector<uint64_t> values;
  for (bool sign : {false, true})
    for (uint64_t e = 0; e < 32; ++e) {
      std::set<uint64_t> fractions(std::begin(kEdges), std::end(kEdges));
      while (fractions.size() < 32) fractions.insert(rng.bits(10));
      for (uint64_t f : fractions) values.push_back(h.make(sign, e, f));
    }
  return values;
}

// The smaller subset the other option sets run on: per sign and exponent field, fractions 0, 1, 0x3FF
// and one random: 256 values.
std::vector<uint64_t> binary16_small_subset() {
  Rng rng(derive_seed(kSeed, "binary16 small subset"));
  const Enc h(kBinary16);
  std::vector<uint64_t> values;
  for (bool sign : {false, true})
    for (uint64_t e = 0; e < 32; ++e)
      for (uint64_t f : {uint64_t{0}, uint64_t{1}, uint64_t{0x3FF}, uint64_t{2} + rng.below(0x3FD)})
        values.push_back(h.make(sign, e, f));
  return values;
}

TEST(IeeeExhaustive, Binary16SubsetIsWhatTheCommentSays) {
  const auto values = binary16_subset();
  ASSERT_EQ(values.size(), 2048u);
  EXPECT_EQ(std::set<uint64_t>(values.begin(), values.end()).size(), 2048u);
  const Enc h(kBinary16);
  int nans = 0, snans = 0, subnormals = 0;
  for (uint64_t v : values) nans += h.nan(v), snans += h.snan(v), subnormals += h.subnormal(v);
  EXPECT_EQ(nans, 62);  // every nonzero fraction of field 31, both signs
  EXPECT_GE(snans, 14);  // the seven edges below 0x200, per sign
  EXPECT_EQ(subnormals, 62);
}

// One binary16 pair through the three two-operand operations, the unit every test below counts in.
void check_add_sub_mul(Checker& check, uint64_t a, uint64_t b, const Options& o) {
  for (Op op : {Op::Add, Op::Sub, Op::Mul}) check.check(op, kBinary16, kBinary16, a, b, 0, o);
}

// 2048^2 = 4,194,304 pairs, each through add, sub and mul: 12,582,912 cases in RNE.
TEST(IeeeExhaustive, Binary16AddSubMulAllSubsetPairs) {
  const auto values = binary16_subset();
  Checker check;
  const Options rne;
  for (uint64_t a : values)
    for (uint64_t b : values) check_add_sub_mul(check, a, b, rne);
  EXPECT_EQ(check.cases(), 12'582'912u);
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500);
}

// The 250,108 subset pairs with a NaN operand, add, sub and mul, with DN = 1: 750,324 cases.
TEST(IeeeExhaustive, Binary16NaNPairsDefaultNaN) {
  const auto values = binary16_subset();
  const Enc h(kBinary16);
  Checker check;
  Options dn;
  dn.default_nan = true;
  for (uint64_t a : values)
    for (uint64_t b : values)
      if (h.nan(a) || h.nan(b)) check_add_sub_mul(check, a, b, dn);
  EXPECT_EQ(check.cases(), 750'324u);
  EXPECT_EQ(check.seen().nan, 750'324u);
  EXPECT_EQ(check.failures(), 0u);
}

std::vector<Options> other_option_sets() {
  std::vector<Options> sets;
  for (Rounding r : {Rounding::TowardPositive, Rounding::TowardNegative, Rounding::TowardZero}) {
    Options o;
    o.rounding = r;
    sets.push_back(o);
  }
  for (bool fz : {false, true})
    for (Tininess t : {Tininess::BeforeRounding, Tininess::AfterRounding}) {
      if (!fz && t == Tininess::BeforeRounding) continue;  // the default, run above
      Options o;
      o.flush_to_zero = fz;
      o.tininess = t;
      sets.push_back(o);
    }
  Options rtz_fz;
  rtz_fz.rounding = Rounding::TowardZero;
  rtz_fz.flush_to_zero = true;
  sets.push_back(rtz_fz);
  return sets;
}

// 256^2 = 65,536 pairs x add, sub, mul x 7 option sets (RUP, RDN, RTZ, tiny-after, FZ,
// FZ tiny-after, RTZ FZ): 1,376,256 cases.
TEST(IeeeExhaustive, Binary16AddSubMulSmallSubsetOtherOptions) {
  const auto values = binary16_small_subset();
  ASSERT_EQ(values.size(), 256u);
  Checker check;
  for (const Options& o : other_option_sets())
    for (uint64_t a : values)
      for (uint64_t b : values) check_add_sub_mul(check, a, b, o);
  EXPECT_EQ(check.cases(), 1'376'256u);
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500);
}

// Every binary16 and bfloat16 pattern converted to each of the other three formats (6 directions),
// in RNE and then with each option set above: 65,536 x 6 x 8 = 3,145,728 cases.
TEST(IeeeExhaustive, ConvertEvery16BitPattern) {
  Checker check;
  std::vector<Options> sets = other_option_sets();
  sets.insert(sets.begin(), Options{});
  for (const Options& o : sets)
    for (Format from : {kBinary16, kBfloat16})
      for (Format to : {kBinary16, kBfloat16, kBinary32, kBinary64}) {
        if (from == to) continue;
        for (uint64_t x = 0; x < 0x10000; ++x) check.check(Op::Convert, from, to, x, 0, 0, o);
      }
  EXPECT_EQ(check.cases(), 65'536u * 6 * 8);
  EXPECT_EQ(check.failures(), 0u);
  check.seen().expect_at_least(500);
}

}  // namespace
}  // namespace tmu::ieee::test
