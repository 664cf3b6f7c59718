//===- CommandStepsTest.cpp - the runs a collection recorded --------------===//

#include "tia/Eval/CommandSteps.h"
#include "tia/Testing/Assertions.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::eval;

namespace {

/// A database file in a fresh temporary directory, removed at the end.
class RunsTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-eval-runs", Dir));
    this->Dir = std::string(Dir);
    Db = this->Dir + "/tia.db";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Records a run of \p Tests, all passed.
  void addRun(std::vector<std::string> Tests) {
    auto S = Store::open(Db, Store::Mode::ReadWrite);
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    ASSERT_VALUE(Run, (*S)->addRun("", "collect"));
    std::vector<TestResult> Results;
    for (const std::string &T : Tests) {
      TestResult R;
      R.TestId = T;
      Results.push_back(R);
    }
    ASSERT_OK((*S)->putResults(*Run, Results));
  }

  std::string Dir, Db;
};

TEST_F(RunsTest, ADatabaseNotYetMadeHasNoRun) {
  ASSERT_VALUE(Newest, newestRun(Db));
  EXPECT_EQ(*Newest, 0);
  EXPECT_FALSE(llvm::sys::fs::exists(Db));
}

TEST_F(RunsTest, OnlyTheRunsAfterTheGivenOneCount) {
  addRun({"ctest:old"});
  ASSERT_VALUE(Before, newestRun(Db));
  addRun({"ctest:b", "ctest:a"});
  addRun({"ctest:c"});
  ASSERT_VALUE(After, resultsAfterRun(Db, *Before));
  std::vector<std::string> Ids;
  for (const TestResult &R : *After)
    Ids.push_back(R.TestId);
  EXPECT_EQ(Ids, (std::vector<std::string>{"ctest:a", "ctest:b", "ctest:c"}));
}

} // namespace
