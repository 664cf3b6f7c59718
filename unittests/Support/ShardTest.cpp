//===- ShardTest.cpp - deterministic shares of work -----------------------===//

#include "tia/Support/Shard.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <map>
#include <random>

using namespace tia;
using namespace tia::shard;

namespace {

std::vector<WorkUnit> someUnits(unsigned Count) {
  std::vector<WorkUnit> Units;
  for (unsigned I = 0; I < Count; ++I)
    Units.push_back({"unit" + std::to_string(I), double((I * 37) % 11 + 1)});
  return Units;
}

TEST(ShardTest, ParsesKOfN) {
  ASSERT_VALUE(S, parseShard("2/4"));
  EXPECT_EQ(S->K, 2u);
  EXPECT_EQ(S->N, 4u);
  ASSERT_VALUE(One, parseShard("1/1"));
  EXPECT_EQ(One->N, 1u);
}

TEST(ShardTest, RefusesSharesThatDoNotExist) {
  for (const char *Bad : {"0/4", "5/4", "1/0", "2", "a/b", "2/4/1", ""}) {
    auto S = parseShard(Bad);
    ASSERT_FALSE(static_cast<bool>(S)) << Bad;
    EXPECT_NE(llvm::toString(S.takeError())
                  .find(std::string("bad --shard '") + Bad + "'"),
              std::string::npos);
  }
  auto S = parseShard("5/4");
  ASSERT_FALSE(static_cast<bool>(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "bad --shard '5/4': share 5 of 4 does not exist; give K/N with "
            "1 <= K <= N, such as --shard 2/4");
}

TEST(ShardTest, SameUnitsInAnyOrderGiveTheSamePlan) {
  std::vector<WorkUnit> Units = someUnits(50);
  ShardPlan First = partition(Units, 4);
  std::mt19937 Random(7);
  for (int Round = 0; Round < 5; ++Round) {
    std::shuffle(Units.begin(), Units.end(), Random);
    ShardPlan Again = partition(Units, 4);
    EXPECT_EQ(Again.Units, First.Units);
    EXPECT_EQ(Again.Hash, First.Hash);
  }
}

TEST(ShardTest, EveryUnitIsInExactlyOneShare) {
  ShardPlan P = partition(someUnits(23), 5);
  std::map<std::string, unsigned> Seen;
  for (unsigned K = 1; K <= 5; ++K)
    for (const std::string &Name : P.unitsOf(K))
      ++Seen[Name];
  ASSERT_EQ(Seen.size(), 23u);
  for (const auto &[Name, Times] : Seen)
    EXPECT_EQ(Times, 1u) << Name;
}

TEST(ShardTest, SharesAreBalancedByCost) {
  ShardPlan P = partition(someUnits(200), 8);
  double Total = 0, Most = 0;
  for (double C : P.Costs) {
    Total += C;
    Most = std::max(Most, C);
  }
  // Within one unit's cost (at most 11) of the mean.
  EXPECT_LE(Most, Total / 8 + 11);
  EXPECT_LE(Most / (Total / 8), 1.2);
}

TEST(ShardTest, OneCostlyUnitGetsAShareToItself) {
  std::vector<WorkUnit> Units = {{"big", 10}, {"a", 1}, {"b", 1}, {"c", 1}};
  ShardPlan P = partition(Units, 2);
  EXPECT_EQ(P.unitsOf(1), std::vector<std::string>{"big"});
  EXPECT_EQ(P.unitsOf(2), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(P.Costs, (std::vector<double>{10, 3}));
}

TEST(ShardTest, MoreSharesThanUnitsLeavesSomeEmpty) {
  ShardPlan P = partition({{"a", 1}, {"b", 1}}, 3);
  EXPECT_EQ(P.unitsOf(1).size() + P.unitsOf(2).size() + P.unitsOf(3).size(),
            2u);
  EXPECT_TRUE(P.unitsOf(3).empty());
}

TEST(ShardTest, UnitsThatCostNothingStillSpreadOut) {
  ShardPlan P = partition({{"a", 0}, {"b", 0}, {"c", 0}, {"d", 0}}, 2);
  EXPECT_EQ(P.unitsOf(1).size(), 2u);
  EXPECT_EQ(P.unitsOf(2).size(), 2u);
}

TEST(ShardTest, AnotherPlanHasAnotherHash) {
  std::vector<WorkUnit> Units = someUnits(10);
  EXPECT_NE(partition(Units, 2).Hash, partition(Units, 3).Hash);
  Units.push_back({"extra", 1});
  EXPECT_NE(partition(Units, 2).Hash, partition(someUnits(10), 2).Hash);
}

TEST(ShardTest, DuplicateNamesCountOnce) {
  ShardPlan P = partition({{"a", 1}, {"a", 5}, {"b", 1}}, 2);
  EXPECT_EQ(P.Units.size(), 2u);
}

TEST(ShardTest, UnknownCostsAreTheMeanOfTheKnown) {
  EXPECT_EQ(estimateUnknownCosts({2.0, std::nullopt, 4.0}),
            (std::vector<double>{2, 3, 4}));
  EXPECT_EQ(estimateUnknownCosts({std::nullopt, std::nullopt}),
            (std::vector<double>{1, 1}));
}

TEST(ShardTest, DescribesAShareAndItsCost) {
  ShardPlan P = partition({{"big", 10}, {"a", 1}, {"b", 2}}, 2);
  EXPECT_EQ(describeShare(P, 2, "translation units", "s of parse time"),
            "shard 2/2: 2 of 3 translation units, expected cost 3.0 of 13.0 "
            "s of parse time, plan " +
                P.Hash.substr(0, 12));
}

TEST(ShardTest, PlanTextRoundTrips) {
  ShardPlan P = partition(someUnits(12), 3);
  ASSERT_VALUE(Back, parsePlanText(planText(P), 3));
  EXPECT_EQ(Back->Units, P.Units);
  EXPECT_EQ(Back->Hash, P.Hash);
  auto Bad = parsePlanText("4\tx\n", 3);
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()), "bad shard plan line '4\tx'");
}

} // namespace
