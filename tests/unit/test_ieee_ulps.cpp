// tmu::ieee::ulps_between, worked by hand from the encodings: binary32 1.0 is 0x3f800000 and the
// next float up 0x3f800001; the largest finite float is 0x7f7fffff, infinity 0x7f800000; the
// smallest subnormal 0x00000001; both zeros are one value.
#include <gtest/gtest.h>

#include "tmu/ieee.h"

namespace tmu::ieee {
namespace {

TEST(IeeeUlps, CountsRepresentableStepsWithTheirDirection) {
  EXPECT_EQ(ulps_between(kBinary32, 0x3F800000, 0x3F800001), 1);
  EXPECT_EQ(ulps_between(kBinary32, 0x3F800001, 0x3F800000), -1);
  EXPECT_EQ(ulps_between(kBinary32, 0x3F800000, 0x3F800000), 0);
  // 1.0 down to the float below it crosses the exponent boundary in one step: 0x3f7fffff.
  EXPECT_EQ(ulps_between(kBinary32, 0x3F800000, 0x3F7FFFFF), -1);
  EXPECT_EQ(ulps_between(kBinary32, 0x7F7FFFFF, 0x7F800000), 1);  // max finite to infinity
}

TEST(IeeeUlps, CrossesZeroCountingBothZerosOnce) {
  EXPECT_EQ(ulps_between(kBinary32, 0x80000000, 0x00000000), 0);
  EXPECT_EQ(ulps_between(kBinary32, 0x80000001, 0x00000001), 2);  // -min subnormal, 0, +min subnormal
  EXPECT_EQ(ulps_between(kBfloat16, 0xBF80, 0x3F80), 2 * 0x3F80);  // -1 to 1: 0x3f80 steps each side
}

TEST(IeeeUlps, NaNsHaveNoDistance) {
  EXPECT_EQ(ulps_between(kBinary16, 0x7E00, 0x3C00), std::nullopt);
  EXPECT_EQ(ulps_between(kBinary64, 0x3FF0000000000000, 0x7FF0000000000001), std::nullopt);
}

}  // namespace
}  // namespace tmu::ieee
