// tmu::float_difference and DifferenceTally (tmu/lane_difference.h), worked by hand from the
// binary32 and binary16 encodings: 1.0f is 0x3f800000, the next float up 0x3f800001.
#include <gtest/gtest.h>

#include "tmu/lane_difference.h"

namespace tmu {
namespace {

TEST(LaneDifference, NamesHowTheDesignDiffers) {
  using ieee::kBinary16;
  using ieee::kBinary32;
  EXPECT_EQ(float_difference(kBinary32, 0x3F800001, 0x3F800000), "1 ulp farther from zero than the model");
  EXPECT_EQ(float_difference(kBinary32, 0xBF800000, 0xBF800001), "1 ulp nearer zero than the model");
  EXPECT_EQ(float_difference(kBinary32, 0x3F800002, 0x3F800000), "2 ulps farther from zero than the model");
  EXPECT_EQ(float_difference(kBinary32, 0x80000000, 0x00000000), "the other zero than the model");
  EXPECT_EQ(float_difference(kBinary32, 0xBF800000, 0x3F800000), "of the other sign than the model");
  EXPECT_EQ(float_difference(kBinary16, 0x7E00, 0x3C00), "a NaN where the model has a number");
  EXPECT_EQ(float_difference(kBinary16, 0x3C00, 0x7E00), "a number where the model has a NaN");
  EXPECT_EQ(float_difference(kBinary16, 0x7E01, 0x7E00), "a NaN of another payload than the model's");
}

TEST(LaneDifference, TheTallyNamesOnlyACauseEveryMismatchShares) {
  DifferenceTally tally;
  EXPECT_EQ(tally.summary("x"), "");
  tally.add("1 ulp nearer zero than the model");
  tally.add("1 ulp nearer zero than the model");
  EXPECT_EQ(tally.summary("TADD"), "all 2 mismatching lanes are 1 ulp nearer zero than the model: the design rounds toward "
                                   "zero (truncates) where TADD rounds to nearest even");
  tally.add_without_difference();  // an integer lane: no longer all alike
  EXPECT_EQ(tally.summary("TADD"), "");
  DifferenceTally signs;
  signs.add("of the other sign than the model");
  EXPECT_EQ(signs.summary("matfp"), "all 1 mismatching lane is of the other sign than the model");
}

}  // namespace
}  // namespace tmu
