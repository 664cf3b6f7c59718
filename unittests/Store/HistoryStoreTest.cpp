//===- HistoryStoreTest.cpp - all results, flaky tests, models ------------===//

#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;
using tia::testing::errorText;

namespace {

using tia::testing::openMemory;

TestResult outcome(llvm::StringRef Id, Outcome O, unsigned Attempt = 0) {
  TestResult R;
  R.TestId = Id.str();
  R.Result = O;
  R.Attempt = Attempt;
  return R;
}

/// Adds a run at \p Commit started at \p Time with \p Results.
int64_t run(Store &S, llvm::StringRef Commit, int64_t Time,
            const std::vector<TestResult> &Results) {
  auto Id = S.addRun(Commit, "junit", Time);
  EXPECT_TRUE(bool(Id)) << (Id ? "" : errorText(Id.takeError()));
  if (!Id)
    return 0;
  EXPECT_FALSE(bool(S.putResults(*Id, Results)));
  return *Id;
}

std::vector<std::string> describe(const std::vector<FlakyTest> &Flaky) {
  std::vector<std::string> Out;
  for (const FlakyTest &F : Flaky)
    Out.push_back(F.TestId + " " + std::to_string(F.Flips) + "/" +
                  std::to_string(F.Pairs));
  return Out;
}

using Strings = std::vector<std::string>;

TEST(HistoryStoreTest, FailedThenPassedOnRetryIsFlaky) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  int64_t R = run(
      *S, "c1", 100,
      {outcome("t:A", Outcome::Failed, 0), outcome("t:A", Outcome::Passed, 1),
       outcome("t:B", Outcome::Failed, 0), outcome("t:B", Outcome::Failed, 1)});
  ASSERT_VALUE(Flaky, S->flakyTests());
  EXPECT_EQ(describe(*Flaky), Strings({"t:A 1/1"}));
  EXPECT_DOUBLE_EQ((*Flaky)[0].FlipRate, 1.0);
  EXPECT_EQ((*Flaky)[0].LastFlipRun, R);
}

TEST(HistoryStoreTest, OutcomeChangingBetweenRunsOfOneCommitIsFlaky) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  run(*S, "c1", 100, {outcome("t:A", Outcome::Passed)});
  run(*S, "c1", 200, {outcome("t:A", Outcome::TimedOut)});
  run(*S, "c1", 300, {outcome("t:A", Outcome::TimedOut)});
  ASSERT_VALUE(Flaky, S->flakyTests());
  EXPECT_EQ(describe(*Flaky), Strings({"t:A 1/2"}));
  EXPECT_DOUBLE_EQ((*Flaky)[0].FlipRate, 0.5);
}

TEST(HistoryStoreTest, OutcomeChangingWithTheCommitIsNotFlaky) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  run(*S, "c1", 100, {outcome("t:A", Outcome::Passed)});
  run(*S, "c2", 200, {outcome("t:A", Outcome::Failed)});
  run(*S, "c3", 300, {outcome("t:A", Outcome::Passed)});
  // Runs without a commit pair only within themselves.
  run(*S, "", 400, {outcome("t:A", Outcome::Failed)});
  run(*S, "", 500, {outcome("t:A", Outcome::Passed)});
  // A skipped attempt is no outcome.
  run(*S, "c4", 600,
      {outcome("t:A", Outcome::Skipped, 0),
       outcome("t:A", Outcome::Failed, 1)});
  ASSERT_VALUE(Flaky, S->flakyTests());
  EXPECT_EQ(describe(*Flaky), Strings());
}

TEST(HistoryStoreTest, FlakyTestsSinceLeavesOlderFlipsOut) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  run(*S, "c1", 100,
      {outcome("t:Old", Outcome::Failed, 0),
       outcome("t:Old", Outcome::Passed, 1)});
  run(*S, "c2", 200,
      {outcome("t:New", Outcome::Crashed, 0),
       outcome("t:New", Outcome::Passed, 1)});
  ASSERT_VALUE(All, S->flakyTests());
  EXPECT_EQ(describe(*All), Strings({"t:New 1/1", "t:Old 1/1"}));
  ASSERT_VALUE(Recent, S->flakyTests(150));
  EXPECT_EQ(describe(*Recent), Strings({"t:New 1/1"}));
}

TEST(HistoryStoreTest, NewestRunTimeIsTheLatestStart) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(None, S->newestRunTime());
  EXPECT_EQ(*None, 0);
  run(*S, "c2", 300, {outcome("t:A", Outcome::Passed)});
  run(*S, "c1", 200, {outcome("t:A", Outcome::Passed)});
  ASSERT_VALUE(Newest, S->newestRunTime());
  EXPECT_EQ(*Newest, 300);
}

TEST(HistoryStoreTest, AllResultsAreSortedByRunTestAndAttempt) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  int64_t R1 =
      run(*S, "c1", 100,
          {outcome("t:B", Outcome::Passed), outcome("t:A", Outcome::Failed, 1),
           outcome("t:A", Outcome::Failed, 0)});
  int64_t R2 = run(*S, "c2", 200, {outcome("t:A", Outcome::Passed)});
  ASSERT_VALUE(All, S->allResults());
  std::vector<std::string> Got;
  for (const RunResult &R : *All)
    Got.push_back(std::to_string(R.RunId) + " " + R.Result.TestId + " " +
                  std::to_string(R.Result.Attempt));
  std::string A = std::to_string(R1), B = std::to_string(R2);
  EXPECT_EQ(Got,
            Strings({A + " t:A 0", A + " t:A 1", A + " t:B 0", B + " t:A 0"}));
  ASSERT_VALUE(Since, S->allResults(150));
  EXPECT_EQ(Since->size(), 1u);
}

TEST(HistoryStoreTest, ModelsRoundTripNewestFirstAndPrune) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(None, S->latestModel());
  EXPECT_FALSE(None->has_value());
  for (int I = 1; I <= 3; ++I) {
    StoredModel M;
    M.FormatVersion = I;
    M.CreatedAt = 1000 + I;
    M.Metadata = "{\"n\": " + std::to_string(I) + "}";
    M.Booster = "booster " + std::to_string(I);
    ASSERT_VALUE(Id, S->putModel(M));
    EXPECT_GT(*Id, 0);
  }
  ASSERT_VALUE(Latest, S->latestModel());
  ASSERT_TRUE(Latest->has_value());
  EXPECT_EQ((*Latest)->FormatVersion, 3);
  EXPECT_EQ((*Latest)->CreatedAt, 1003);
  EXPECT_EQ((*Latest)->Metadata, "{\"n\": 3}");
  EXPECT_EQ((*Latest)->Booster, "booster 3");
  ASSERT_OK(S->pruneModels(1));
  ASSERT_OK(S->pruneModels(1));
  ASSERT_VALUE(Still, S->latestModel());
  ASSERT_TRUE(Still->has_value());
  EXPECT_EQ((*Still)->Booster, "booster 3");
}

} // namespace
