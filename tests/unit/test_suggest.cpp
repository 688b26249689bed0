// "Did you mean" (tmu/suggest.h): edit distances worked by hand.
#include <string_view>

#include <gtest/gtest.h>

#include "tmu/suggest.h"

namespace tmu {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("MVMUL", "MVMUL"), 0u);
  EXPECT_EQ(edit_distance("MVMULL", "MVMUL"), 1u);   // one deletion
  EXPECT_EQ(edit_distance("mvmul", "MVMUL"), 0u);    // case is ignored
  EXPECT_EQ(edit_distance("ELWADD", "ELWSUB"), 3u);  // A->S, D->U, D->B
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
}

TEST(Suggest, NamesTheNearestCandidateWhenNearEnough) {
  constexpr std::string_view kOps[] = {"TADD", "TSUB", "TMUL", "TMAX"};
  EXPECT_EQ(did_you_mean("TADDD", kOps), " (did you mean 'TADD'?)");
  EXPECT_EQ(did_you_mean("tmul", kOps), " (did you mean 'TMUL'?)");
  // Three characters allow one edit; "TXYZ" is two or more from every candidate.
  EXPECT_EQ(did_you_mean("TXYZ", kOps), "");
  // "TMAD" is one edit from TMAX (D->X) and two from TADD and TMUL.
  EXPECT_EQ(did_you_mean("TMAD", kOps), " (did you mean 'TMAX'?)");
  // "TMUX" is one edit from both TMUL and TMAX: the earlier candidate wins.
  EXPECT_EQ(did_you_mean("TMUX", kOps), " (did you mean 'TMUL'?)");
  EXPECT_EQ(did_you_mean("x", kOps), "");
}

}  // namespace
}  // namespace tmu
