//===- ReportTest.cpp - the output formats --------------------------------===//

#include "tia/Report/Report.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::report;

namespace {

TEST(ReportTest, SummaryOfAFallbackToEveryTest) {
  select::Plan All;
  All.Changes.Fallbacks.push_back(
      {select::FallbackKind::Requested, "", "--all"});
  for (const char *Id : {"ctest:a", "gtest:bin:S.N"}) {
    select::PlannedTest T;
    T.Id = Id;
    All.Selected.push_back(T);
  }
  EXPECT_EQ(summaryLine(All),
            "selected all 2 tests because every test was asked for");
}

TEST(ReportTest, FormatNamesMatchTheConfiguration) {
  for (const std::string &Name : config::outputFormatNames())
    EXPECT_TRUE(parseFormat(Name).has_value()) << Name;
  EXPECT_FALSE(parseFormat("xml").has_value());
}

TEST(ReportTest, FindingLevelsComeFromTheConfigurationOrTheirDefaults) {
  config::ReportConfig C;
  C.Untested = "error";
  C.Covered = "warning";
  FindingLevels L = findingLevels(C);
  EXPECT_EQ(L.Untested, FindingLevel::Error);
  EXPECT_EQ(L.SelectsAll, FindingLevel::Note);
  EXPECT_EQ(L.Covered, FindingLevel::Warning);
  // A level the configuration does not name keeps its default.
  C.Untested = "";
  EXPECT_EQ(findingLevels(C).Untested, FindingLevel::Warning);
}

} // namespace
