//===- RunnerRunTest.cpp - a runner's run and its report ------------------===//

#include "tia/Results/RunnerRun.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::results;

namespace {

TEST(RunnerRunTest, AskedRunnerIsKept) {
  RunnerCommand R =
      runnerOf({"build/tests/calc_test", "--flag"}, Runner::Catch2, "/");
  EXPECT_EQ(R.Kind, Runner::Catch2);
  EXPECT_EQ(R.Binary, "calc_test");
}

TEST(RunnerRunTest, AutoIsRecognised) {
  RunnerCommand R = runnerOf({"/no/such/dir/pytest", "-q"}, Runner::Auto, "/");
  EXPECT_EQ(R.Kind, Runner::Pytest);
  EXPECT_EQ(R.Binary, "pytest");
}

TEST(RunnerRunTest, UnnamedNoteNamesTheFormAndTheRunner) {
  EXPECT_EQ(unnamedNote(1, /*Exclusion=*/true, Runner::Ctest),
            "note: 1 test to skip is not for ctest");
  EXPECT_EQ(unnamedNote(1, /*Exclusion=*/false, Runner::Pytest),
            "note: 1 test to run is not for pytest");
  EXPECT_EQ(unnamedNote(3, /*Exclusion=*/true, Runner::Lit),
            "note: 3 tests to skip are not for lit");
}

TEST(RunnerRunTest, MissingReportIsAWarning) {
  config::Workspace W;
  std::string Err;
  llvm::raw_string_ostream ES(Err);
  ASSERT_VALUE(Done, importRunReport(W, "", {Runner::Gtest, "calc_test"},
                                     {"/no/such/report.xml"}, false, ES));
  EXPECT_FALSE(Done->DB);
  EXPECT_EQ(Done->Results, 0u);
  EXPECT_EQ(Err, "tia: warning: calc_test wrote no JUnit report, so no "
                 "results were imported\n");
}

} // namespace
