//===- ReportTest.cpp - runner arguments and summaries from a Plan --------===//

#include "tia/Report/Report.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using namespace tia::report;

namespace {

using Strings = std::vector<std::string>;

PlannedTest selected(llvm::StringRef Id, bool FromDefinition = false) {
  PlannedTest T;
  T.Id = Id.str();
  T.FromDefinition = FromDefinition;
  T.Reasons.push_back({ReasonKind::NewTest, NoIndex, NoIndex, "x", ""});
  return T;
}

TEST(ReportTest, CtestRegexEscapesNames) {
  Plan P;
  P.Selected = {selected("ctest:a.b(1)"), selected("gtest:bin:S.N")};
  P.NotSelected = {"ctest:c+d", "pytest:t.py::x"};
  RunnerArguments In = ctestArguments(P, false);
  EXPECT_EQ(In.Arguments, (Strings{"-R", "^(S\\.N|a\\.b\\(1\\))$"}));
  EXPECT_EQ(In.Unnamed, 0u);
  RunnerArguments Out = ctestArguments(P, true);
  EXPECT_EQ(Out.Arguments, (Strings{"-E", "^(c\\+d)$"}));
  EXPECT_EQ(Out.Unnamed, 1u);
}

TEST(ReportTest, DefinitionsArePatterns) {
  Plan P;
  P.Selected = {selected("gtest:*:S.N", true)};
  P.NotSelected = {"gtest:bin:S.Other"};
  EXPECT_EQ(gtestFilter(P, "bin", false),
            "*/S.N:*/S.N/*:*/S/*.N:S.N:S.N/*:S/*.N");
  EXPECT_EQ(gtestFilter(P, "bin", true), "-S.Other");
  // A binary tia never saw runs everything.
  EXPECT_EQ(gtestFilter(P, "new_test", false), "*");
  EXPECT_EQ(ctestArguments(P, false).Arguments,
            (Strings{"-R", "^(([^.]*/)?S(/[^.]*)?\\.N(/.*)?)$"}));
  // Names files hold names, not patterns.
  EXPECT_EQ(ctestNames(P, false).Arguments, Strings{});
  EXPECT_EQ(ctestNames(P, false).Unnamed, 1u);
}

TEST(ReportTest, NothingAndEverything) {
  Plan None;
  None.NotSelected = {"ctest:a", "gtest:bin:S.N", "pytest:t.py::x"};
  EXPECT_EQ(ctestArguments(None, false).Arguments, (Strings{"-R", "^$"}));
  EXPECT_EQ(gtestFilter(None, "bin", false), "-*");
  EXPECT_TRUE(pytestArguments(None, false, false).Arguments.empty());
  EXPECT_EQ(pytestArguments(None, true, false).Arguments,
            Strings{"--deselect=t.py::x"});
  EXPECT_EQ(pytestArguments(None, true, true).Arguments,
            Strings{"--ignore=t.py"});

  Plan All;
  All.Changes.Fallbacks.push_back({FallbackKind::Requested, "", "--all"});
  All.Selected = {selected("ctest:a"), selected("gtest:bin:S.N")};
  EXPECT_TRUE(ctestArguments(All, false).Arguments.empty());
  EXPECT_TRUE(ctestArguments(All, true).Arguments.empty());
  EXPECT_EQ(gtestFilter(All, "bin", false), "*");
  EXPECT_EQ(summaryLine(All),
            "selected all 2 tests because every test was asked for");
}

TEST(ReportTest, CtestVersions) {
  EXPECT_TRUE(ctestReadsNameFiles("ctest version 3.29.2\n\nCMake suite"));
  EXPECT_TRUE(ctestReadsNameFiles("ctest version 4.0.0\n"));
  EXPECT_FALSE(ctestReadsNameFiles("ctest version 3.25.1\n"));
  EXPECT_FALSE(ctestReadsNameFiles("ctest version 3.28.0-rc1\n"));
  EXPECT_FALSE(ctestReadsNameFiles("something else"));
  EXPECT_FALSE(ctestReadsNameFiles(""));
}

TEST(ReportTest, FormatNamesMatchTheConfiguration) {
  for (const std::string &Name : config::outputFormatNames())
    EXPECT_TRUE(parseFormat(Name).has_value()) << Name;
  EXPECT_FALSE(parseFormat("xml").has_value());
}

} // namespace
