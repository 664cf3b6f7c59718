//===- LitTest.cpp - lit suites: recognising, listing, selecting ----------===//

#include "tia/Results/Runners.h"
#include "tia/Select/Policy.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using namespace tia::results;

namespace {

using Strings = std::vector<std::string>;

PlannedTest selected(llvm::StringRef Id) {
  PlannedTest T;
  T.Id = Id.str();
  T.Reasons.push_back({ReasonKind::NewTest, NoIndex, NoIndex, "x", ""});
  return T;
}

TEST(LitTest, RecognisesLitHoweverItStarts) {
  EXPECT_TRUE(runsLit(
      {"/usr/bin/python3", "/llvm/utils/lit/lit.py", "-sv", "build/test"}));
  EXPECT_TRUE(runsLit({"python3", "-u", "lit.py", "test"}));
  EXPECT_TRUE(runsLit({"/build/bin/llvm-lit", "test"}));
  EXPECT_TRUE(runsLit({"lit", "test"}));
  EXPECT_FALSE(runsLit({"python3", "-m", "pytest", "lit.py"}));
  EXPECT_FALSE(runsLit({"python3", "run.py", "lit.py"}));
  EXPECT_FALSE(runsLit({"/build/literal_test"}));
  EXPECT_FALSE(runsLit({}));
}

TEST(LitTest, ParsesTheListOfTests) {
  llvm::StringRef Text = "lit.py: note: a note first\n"
                         "-- Available Tests --\n"
                         "  tia :: collect/a.test\n"
                         "  tia :: select/sub dir/b.test\r\n"
                         "\n"
                         "Total Discovered Tests: 2\n";
  EXPECT_EQ(parseLitTestList(Text),
            (Strings{"tia :: collect/a.test", "tia :: select/sub dir/b.test"}));
  EXPECT_EQ(parseLitTestList("  tia :: a.test\n"), Strings());
}

TEST(LitTest, IdsAndFullNamesRoundTrip) {
  EXPECT_EQ(litTestId("tia :: collect/a.test"), "lit:tia::collect/a.test");
  EXPECT_EQ(litFullName("lit:tia::collect/a.test"), "tia :: collect/a.test");
  EXPECT_EQ(litFullName("ctest:lit-collect"), std::nullopt);
  EXPECT_EQ(litFullName("lit:nosuite"), std::nullopt);
}

TEST(LitTest, FiltersEscapeRegexCharacters) {
  EXPECT_EQ(litFilter({"s :: a+b(1).test", "s :: [x]^$|y.test"}),
            "^(s\\x20::\\x20a\\+b\\(1\\)\\.test|"
            "s\\x20::\\x20\\[x\\]\\^\\$\\|y\\.test)$");
  // No space, so that `lit $(tia select --format lit) DIR` keeps it whole.
  EXPECT_EQ(litFilter({"s :: sub dir/a-b_c.test"}),
            "^(s\\x20::\\x20sub\\x20dir/a-b_c\\.test)$");
}

TEST(LitTest, ArgumentsInBothForms) {
  Plan P;
  P.Selected = {selected("lit:s::a.test"), selected("ctest:other")};
  P.NotSelected = {"lit:s::b.test", "pytest:t.py::x"};
  RunnerArguments In = litArguments(P, false);
  EXPECT_EQ(In.Arguments, (Strings{"--filter", "^(s\\x20::\\x20a\\.test)$"}));
  EXPECT_EQ(In.Unnamed, 1u);
  RunnerArguments Out = litArguments(P, true);
  EXPECT_EQ(Out.Arguments,
            (Strings{"--filter-out", "^(s\\x20::\\x20b\\.test)$"}));
  EXPECT_EQ(Out.Unnamed, 1u);
}

TEST(LitTest, CtestRunsEverythingForASelectedLitTest) {
  // Its suite's ctest test is unknown: -R naming the others would skip it.
  Plan P;
  P.Selected = {selected("lit:s::a.test"), selected("ctest:unit")};
  P.NotSelected = {"ctest:other"};
  EXPECT_TRUE(ctestArguments(P, false).Arguments.empty());
  Plan NoLit;
  NoLit.Selected = {selected("ctest:unit")};
  EXPECT_EQ(ctestArguments(NoLit, false).Arguments,
            (Strings{"-R", "^(unit)$"}));
}

TEST(LitTest, NothingSelectedRunsNothing) {
  Plan P;
  P.NotSelected = {"lit:s::a.test"};
  EXPECT_EQ(litArguments(P, false).Arguments,
            (Strings{"--filter", "^$", "--allow-empty-runs"}));
  // Nothing skipped: no filter.
  Plan All;
  All.Selected = {selected("lit:s::a.test")};
  EXPECT_TRUE(litArguments(All, true).Arguments.empty());
}

} // namespace
