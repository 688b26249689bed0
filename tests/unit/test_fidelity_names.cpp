// The one spelling of fidelity levels (tmu/tensix/fidelity.h) that the command line, the audit and
// Python share: the level names of the Tensix math fidelity pages (LoFi = one phase .. HiFi4 = four)
// in any case, or the digit of the level's last phase.
#include <gtest/gtest.h>

#include "tmu/tensix/fidelity.h"

namespace tmu::tensix {
namespace {

TEST(FidelityNames, LevelNamesInAnyCaseGiveTheirPhaseCount) {
  EXPECT_EQ(fidelity_phases("LoFi"), 1u);
  EXPECT_EQ(fidelity_phases("lofi"), 1u);
  EXPECT_EQ(fidelity_phases("HiFi2"), 2u);
  EXPECT_EQ(fidelity_phases("HIFI3"), 3u);
  EXPECT_EQ(fidelity_phases("hiFI4"), 4u);
}

TEST(FidelityNames, TheLastPhaseDigitNamesTheLevelEndingThere) {
  EXPECT_EQ(fidelity_phases("0"), 1u);
  EXPECT_EQ(fidelity_phases("1"), 2u);
  EXPECT_EQ(fidelity_phases("2"), 3u);
  EXPECT_EQ(fidelity_phases("3"), 4u);
}

TEST(FidelityNames, AnythingElseIsNotALevel) {
  for (const char* text : {"", "4", "-1", "00", " lofi", "lofi ", "hifi", "hifi1", "hifi5", "hifi22", "LoFi4", "l0fi"})
    EXPECT_EQ(fidelity_phases(text), std::nullopt) << "'" << text << "'";
}

}  // namespace
}  // namespace tmu::tensix
