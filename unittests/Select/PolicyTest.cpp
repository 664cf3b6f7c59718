//===- PolicyTest.cpp - order, budgets and names of the policy ------------===//

#include "tia/Select/Policy.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

PlannedTest test(llvm::StringRef Id, bool Failing, unsigned Elements,
                 double Rate, double Seconds) {
  PlannedTest T;
  T.Id = Id.str();
  T.PreviouslyFailing = Failing;
  T.ChangedElementsCovered = Elements;
  T.FailureRate = Rate;
  T.Seconds = Seconds;
  return T;
}

std::vector<std::string> ids(const std::vector<PlannedTest> &Tests) {
  std::vector<std::string> Out;
  for (const PlannedTest &T : Tests)
    Out.push_back(T.Id);
  return Out;
}

TEST(PolicyTest, DurationsWithinAStepTie) {
  std::vector<PlannedTest> Tests = {
      test("b", false, 1, 0, 0.04), test("a", false, 1, 0, 0.09),
      test("d", false, 1, 0, 0.5), test("c", false, 1, 0, 0.7),
      test("e", false, 1, 0, 0.3)};
  orderTests(Tests);
  EXPECT_EQ(ids(Tests), (std::vector<std::string>{"a", "b", "e", "c", "d"}));
}

TEST(PolicyTest, OrderKeys) {
  std::vector<PlannedTest> Tests = {
      test("e", false, 1, 0, 1),   test("d", false, 1, 0, 0.5),
      test("c", false, 1, 0.5, 9), test("b", false, 3, 0, 9),
      test("a", true, 0, 0, 9),    test("f", false, 1, 0, 0.5)};
  orderTests(Tests);
  EXPECT_EQ(ids(Tests),
            (std::vector<std::string>{"a", "b", "c", "d", "f", "e"}));
}

Plan planOf(std::vector<PlannedTest> Tests, Budget B) {
  Plan P;
  P.Selected = std::move(Tests);
  P.Limits = B;
  return P;
}

TEST(PolicyTest, MaxTestsCutsTheTail) {
  Plan P = planOf(
      {test("a", 0, 0, 0, 1), test("b", 0, 0, 0, 1), test("c", 0, 0, 0, 1)},
      {2, 0});
  applyBudget(P);
  EXPECT_EQ(ids(P.Selected), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ids(P.Cut), (std::vector<std::string>{"c"}));
  EXPECT_TRUE(P.partial());
}

TEST(PolicyTest, TimeBudgetKeepsAPrefixAndAtLeastOneTest) {
  Plan P = planOf({test("a", 0, 0, 0, 5), test("b", 0, 0, 0, 1)}, {0, 2});
  applyBudget(P);
  EXPECT_EQ(ids(P.Selected), (std::vector<std::string>{"a"}));
  Plan Q = planOf(
      {test("a", 0, 0, 0, 1), test("b", 0, 0, 0, 1), test("c", 0, 0, 0, 0.1)},
      {0, 2});
  applyBudget(Q);
  EXPECT_EQ(ids(Q.Selected), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ids(Q.Cut), (std::vector<std::string>{"c"}));
}

TEST(PolicyTest, AFallbackBeatsTheBudget) {
  Plan P = planOf({test("a", 0, 0, 0, 1), test("b", 0, 0, 0, 1)}, {1, 0});
  P.Changes.Fallbacks.push_back(
      {FallbackKind::TriggerPath, "CMakeLists.txt", "a build file"});
  applyBudget(P);
  EXPECT_EQ(P.Selected.size(), 2u);
  EXPECT_FALSE(P.partial());
  EXPECT_TRUE(P.BudgetIgnored);
}

TEST(PolicyTest, GoogleTestNamesMatchTheirDefinition) {
  EXPECT_TRUE(gtestNameMatches("Suite.Name", "Suite.Name"));
  EXPECT_TRUE(gtestNameMatches("Inst/Suite.Name/3", "Suite.Name"));
  EXPECT_TRUE(gtestNameMatches("Typed/0.Name", "Typed.Name"));
  EXPECT_TRUE(gtestNameMatches("My/TP/1.Works", "TP.Works"));
  EXPECT_FALSE(gtestNameMatches("Suite.Name2", "Suite.Name"));
  EXPECT_FALSE(gtestNameMatches("Other.Name", "Suite.Name"));
}

TEST(PolicyTest, CommandDifference) {
  CompileCommand Old{"/r/a.cpp", "/r", {"clang++", "-O2", "-c", "a.cpp"}};
  CompileCommand New = Old;
  New.Arguments = {"clang++", "-DFAST", "-c", "a.cpp"};
  EXPECT_EQ(commandDifference(Old, New), "added -DFAST; removed -O2");
  New.Arguments = {"clang++", "-c", "-O2", "a.cpp"};
  EXPECT_EQ(commandDifference(Old, New), "its arguments were reordered");
  New.Directory = "/s";
  EXPECT_EQ(commandDifference(Old, New), "its directory changed from /r to /s");
}

} // namespace
