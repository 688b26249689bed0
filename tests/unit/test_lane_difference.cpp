// tmu::float_difference and DifferenceTally (tmu/lane_difference.h), worked by hand from the
// binary32 and binary16 encodings: 1.0f is 0x3f800000, the next float up 0x3f800001.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(LaneDifference, OtherLanesInOneClause) {
  EXPECT_EQ(other_lanes_text("z row 3", "operand", {}, "lane"), "; no other lane of z row 3 mismatches");
  EXPECT_EQ(other_lanes_text("z row 3", "operand", {"7"}, "lane"),
            "; 1 other lane of z row 3 mismatches after this operand: lane 7");
  EXPECT_EQ(other_lanes_text("c", "operation", {"(0, 1)", "(1, 2)"}, ""),
            "; 2 other lanes of c mismatch after this operation: (0, 1), (1, 2)");
  // Sixteen named, then an ellipsis: 17 others.
  std::vector<std::string> many;
  for (int i = 0; i < 17; ++i) many.push_back(std::to_string(i));
  EXPECT_EQ(other_lanes_text("z row 0", "operand", many, "lane"),
            "; 17 other lanes of z row 0 mismatch after this operand: lanes 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, "
            "14, 15, ...");
}

}  // namespace
}  // namespace tmu
