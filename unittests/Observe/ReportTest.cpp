//===- ReportTest.cpp - classing the failures of observed runs ------------===//

#include "tia/Observe/Report.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::observe;

namespace {

RunResult result(int64_t Run, llvm::StringRef Id, Outcome O,
                 unsigned Attempt = 0) {
  RunResult R;
  R.RunId = Run;
  R.Result.TestId = Id.str();
  R.Result.Result = O;
  R.Result.Attempt = Attempt;
  return R;
}

/// A run of 4 tests in mode combined with a budget of 1 test; \p Failures
/// with their combined fate.
StoredObservation
observation(int64_t Run, std::vector<std::pair<std::string, Fate>> Failures,
            bool Exclusion = true) {
  Record R;
  R.Mode = "combined";
  R.Runner = "ctest";
  R.Exclusion = Exclusion;
  R.Tests = 4;
  R.Seconds = 8;
  ModeRecord M;
  M.Mode = "combined";
  M.MaxTests = 1;
  M.WouldRun = 1;
  M.WouldRunSeconds = 2;
  M.CutRun = 1;
  M.CutSeconds = 2;
  R.Modes = {M, ModeRecord{"static", "no graph"}};
  for (auto &[Id, F] : Failures)
    R.Failures.push_back({Id, {{"combined", F}}, {Id + " is not selected"}});
  return {Run, RecordVersion, recordJson(R)};
}

ReportInput input() {
  ReportInput In;
  In.Runs = {
      {1, "c1", 100, "run"}, {2, "c1", 200, "run"}, {3, "c2", 300, "run"}};
  return In;
}

TEST(MakeReport, ClassesEachFailure) {
  ReportInput In = input();
  In.Observations = {observation(1, {{"ctest:selected", Fate::Selected},
                                     {"ctest:skipped", Fate::NotSelected},
                                     {"ctest:cut", Fate::Cut},
                                     {"ctest:new", Fate::Unknown},
                                     {"ctest:retried", Fate::NotSelected},
                                     {"ctest:rerun", Fate::NotSelected},
                                     {"ctest:flaky", Fate::NotSelected}})};
  In.Results = {result(1, "ctest:retried", Outcome::Failed),
                result(1, "ctest:retried", Outcome::Passed, 1),
                result(2, "ctest:rerun", Outcome::Passed),
                result(3, "ctest:skipped", Outcome::Passed)};
  FlakyTest F;
  F.TestId = "ctest:flaky";
  F.Pairs = 4;
  F.Flips = 2;
  In.Flaky = {F};
  Report R = makeReport(In);
  ASSERT_EQ(R.Runs.size(), 1u);
  std::map<std::string, std::pair<Class, std::string>> Got;
  for (const ClassifiedFailure &C : R.Runs[0].Failures)
    Got[C.Id] = {C.Kind, C.Why};
  EXPECT_EQ(Got["ctest:selected"].first, Class::Caught);
  EXPECT_EQ(Got["ctest:new"].first, Class::Caught); // the exclusion form
  EXPECT_EQ(Got["ctest:skipped"],
            std::make_pair(Class::Escaped,
                           std::string("not selected: in the combined "
                                       "selection no changed element "
                                       "reaches it")));
  EXPECT_EQ(Got["ctest:cut"],
            std::make_pair(Class::Escaped,
                           std::string("selected, then cut by the budget "
                                       "(--max-tests 1)")));
  EXPECT_EQ(Got["ctest:retried"],
            std::make_pair(Class::Unstable,
                           std::string("passed on a retry in the same run")));
  EXPECT_EQ(Got["ctest:rerun"],
            std::make_pair(Class::Unstable,
                           std::string("passed in run 2 at the same commit")));
  EXPECT_EQ(Got["ctest:flaky"].first, Class::Unstable);
  EXPECT_EQ(R.Caught, 2u);
  EXPECT_EQ(R.Escaped, 2u);
  EXPECT_EQ(R.Unstable, 3u);
  EXPECT_DOUBLE_EQ(escapeRate(R.Caught, R.Escaped), 0.5);
  EXPECT_EQ(R.BudgetRuns, 1u);
  EXPECT_EQ(R.BudgetCutFailures, 1u);
  // A mode whose selection failed counts in no total.
  EXPECT_EQ(R.Modes[0].Runs, 1u);
  EXPECT_EQ(R.Modes[2].Mode, "static");
  EXPECT_EQ(R.Modes[2].Runs, 0u);
}

TEST(MakeReport, UnknownTestsEscapeTheInclusionForm) {
  ReportInput In = input();
  In.Observations = {
      observation(3, {{"ctest:new", Fate::Unknown}}, /*Exclusion=*/false)};
  Report R = makeReport(In);
  ASSERT_EQ(R.Runs.size(), 1u);
  EXPECT_EQ(R.Runs[0].Failures[0].Kind, Class::Escaped);
  EXPECT_EQ(R.Runs[0].Failures[0].Why,
            "unknown to tia, and --inclusion runs only the tests it knows");
  EXPECT_EQ(R.Runs[0].Failures[0].Explanation,
            std::vector<std::string>{"ctest:new is not selected"});
}

TEST(MakeReport, SkipsRecordsItCannotRead) {
  ReportInput In = input();
  In.Observations = {{1, RecordVersion + 1, "{}"}, observation(2, {})};
  Report R = makeReport(In);
  EXPECT_EQ(R.Runs.size(), 1u);
  ASSERT_EQ(R.Skipped.size(), 1u);
  EXPECT_EQ(R.Skipped[0], "run 1: its record has version 2, this tia reads "
                          "version 1: use the tia that observed it");
  EXPECT_EQ(summaryLine(R), "observed 1 run: 0 failures, 0 caught, 0 escaped, "
                            "0 unstable (escape rate 0.0%); the selection "
                            "would have run 25.0% of the tests");
}

} // namespace
