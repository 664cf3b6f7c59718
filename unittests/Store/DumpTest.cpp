//===- DumpTest.cpp - the stable text of tia dump -------------------------===//

#include "tia/Store/Dump.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;
using tia::testing::errorText;

namespace {

TEST(DumpTest, ResultsAreOneLinePerResultWithItsRun) {
  std::unique_ptr<Store> S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(Run, S->addRun("", "junit", 1767225600));
  TestResult Failed;
  Failed.TestId = "ctest:b";
  Failed.Result = Outcome::Failed;
  Failed.Seconds = 0.25;
  Failed.Message = "expected 2";
  TestResult Passed;
  Passed.TestId = "ctest:a";
  Passed.Result = Outcome::Passed;
  ASSERT_OK(S->putResults(*Run, {Failed, Passed}));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  ASSERT_OK(dump::writeResults(*S, OS));
  EXPECT_EQ(OS.str(), "run=1 junit - ctest:a passed attempt=0 0.000s\n"
                      "run=1 junit - ctest:b failed attempt=0 0.250s "
                      "expected 2\n");
}

TEST(DumpTest, AFileNotInTheIndexIsAnError) {
  std::unique_ptr<Store> S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  EXPECT_EQ(errorText(dump::writeElements(*S, "src/a.cpp", false, OS)),
            "src/a.cpp is not in the index: check the path (relative to the "
            "repository root) or run 'tia index'");
  // Without a file, an empty index is empty text.
  ASSERT_OK(dump::writeElements(*S, "", false, OS));
  EXPECT_EQ(OS.str(), "");
}

TEST(DumpTest, FlakyTestsShowTheirFlipRateAndCounts) {
  FlakyTest F;
  F.TestId = "pytest:t.py::test_x";
  F.Pairs = 4;
  F.Flips = 1;
  F.FlipRate = 0.25;
  F.LastFlipRun = 7;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  dump::writeFlaky({F}, OS);
  EXPECT_EQ(OS.str(), "pytest:t.py::test_x flip-rate=0.25 flips=1 reruns=4 "
                      "last-run=7\n");
}

} // namespace
