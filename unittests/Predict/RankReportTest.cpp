//===- RankReportTest.cpp - what tia rank keeps and says of a cut ---------===//

#include "tia/Predict/RankReport.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace tia::predict;

namespace {

/// A heuristic ranking of tests a, b, c, d with these durations.
Ranking ranked(std::vector<double> Seconds) {
  Ranking R;
  R.Why = "no model";
  for (size_t I = 0; I != Seconds.size(); ++I) {
    RankedTest T;
    T.Id = std::string("gtest:t:S.") + char('a' + I);
    T.Probability = NAN;
    T.Seconds = Seconds[I];
    R.Tests.push_back(T);
  }
  return R;
}

TEST(RankReportTest, KeepsEveryTestWithoutACut) {
  Ranking R = ranked({1, 2, 3, 4});
  EXPECT_EQ(keptTests(R, TopCut(), 0), 4u);
  EXPECT_EQ(cutWarning(R, 4), "");
}

TEST(RankReportTest, TheTimeBudgetKeepsTheTestsThatFitInOrder) {
  Ranking R = ranked({1, 2, 3, 4});
  EXPECT_EQ(keptTests(R, TopCut(), 3.5), 2u);
  EXPECT_EQ(keptTests(R, TopCut(), 0.5), 0u);
  // The smaller of the two cuts wins.
  EXPECT_EQ(keptTests(R, *parseTopCut("1"), 100), 1u);
}

TEST(RankReportTest, ATestWithoutDurationCountsAsTheMeanOfTheOthers) {
  // The mean of 2 and 4 is 3: 2 + 3 fits 5.5, 2 + 3 + 4 does not.
  Ranking R = ranked({2, 0, 4});
  EXPECT_EQ(keptTests(R, TopCut(), 5.5), 2u);
  EXPECT_EQ(keptTests(R, TopCut(), 4.5), 1u);
}

TEST(RankReportTest, ACutIsMarkedPartialAndUnsafe) {
  Ranking R = ranked({1, 1, 1, 1});
  EXPECT_EQ(cutWarning(R, 1),
            "partial, unsafe: the 1 most likely of 4 tests (25%); a test "
            "left out can still fail; no confidence curve (no model, or no "
            "failures in its validation window)");
  R.How = Method::Model;
  R.Model.emplace();
  R.Model->Curve.assign(101, 0.0);
  R.Model->Curve[25] = 0.8;
  EXPECT_EQ(cutWarning(R, 1),
            "partial, unsafe: the 1 most likely of 4 tests (25%); a test "
            "left out can still fail; in validation such a cut caught 80% of "
            "the failures");
}

TEST(RankReportTest, TheSummaryCountsFilesFlakyTestsAndTheCut) {
  Ranking R = ranked({1, 1, 1});
  R.Tests[2].Flaky = true;
  R.CauseFiles = {"a.cpp"};
  R.IgnoredFiles = {{"README.md", "documentation"}};
  EXPECT_EQ(rankSummary(R, 3), "rank: 3 tests by the heuristic order for 2 "
                               "changed files (1 not failure causes); 1 flaky");
  EXPECT_EQ(rankSummary(R, 2),
            "rank: 3 tests by the heuristic order for 2 changed files (1 not "
            "failure causes); kept 2 (partial, unsafe); 1 flaky");
}

TEST(RankReportTest, IdsAreTheKeptTestsInOrder) {
  Ranking R = ranked({1, 1, 1});
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeRankingIds(R, 2, OS);
  EXPECT_EQ(OS.str(), "gtest:t:S.a\ngtest:t:S.b\n");
}

} // namespace
