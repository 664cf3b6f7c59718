//===- TestStoreTest.cpp - tests, runs and results in the store -----------===//

#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

using tia::testing::openMemory;

TestResult result(llvm::StringRef Id, Outcome O, double Seconds = 0.5,
                  unsigned Attempt = 0, llvm::StringRef Message = "") {
  TestResult R;
  R.TestId = Id.str();
  R.Result = O;
  R.Seconds = Seconds;
  R.Attempt = Attempt;
  R.Message = Message.str();
  return R;
}

std::vector<std::string> describe(const std::vector<TestResult> &Results) {
  std::vector<std::string> Out;
  for (const TestResult &R : Results)
    Out.push_back(R.TestId + " " + outcomeName(R.Result).str() + " #" +
                  std::to_string(R.Attempt) +
                  (R.Message.empty() ? "" : " " + R.Message));
  return Out;
}

using Strings = std::vector<std::string>;

TEST(TestStoreTest, TestInfoRoundTripKeepsCoverage) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("gtest:calc_test:Vector.Length", "c1", {"cpp:k"}));

  TestInfo T;
  T.Id = "gtest:calc_test:Vector.Length";
  T.File = "tests/geometry_test.cpp";
  T.Line = 12;
  T.Command = TestCommand{"/b/tests/calc_test",
                          "/b/tests",
                          {"--gtest_filter=Vector.Length"},
                          {"A=1", "B=two words"},
                          30};
  ASSERT_OK(S->putTestInfo(T));

  ASSERT_VALUE(Got, S->testInfo(T.Id));
  ASSERT_TRUE(Got->has_value());
  EXPECT_EQ((*Got)->File, "tests/geometry_test.cpp");
  EXPECT_EQ((*Got)->Line, 12u);
  ASSERT_TRUE((*Got)->Command.has_value());
  EXPECT_EQ((*Got)->Command->Executable, "/b/tests/calc_test");
  EXPECT_EQ((*Got)->Command->WorkingDir, "/b/tests");
  EXPECT_EQ((*Got)->Command->Arguments,
            Strings{"--gtest_filter=Vector.Length"});
  EXPECT_EQ((*Got)->Command->Environment, (Strings{"A=1", "B=two words"}));
  EXPECT_EQ((*Got)->Command->TimeoutSeconds, 30);
  ASSERT_VALUE(Covered, S->coverageOf(T.Id));
  EXPECT_EQ(*Covered, Strings{"cpp:k"});

  // Known only from coverage: no file, no command.
  ASSERT_OK(S->addTest("ctest:bare"));
  ASSERT_VALUE(Bare, S->testInfo("ctest:bare"));
  ASSERT_TRUE(Bare->has_value());
  EXPECT_EQ((*Bare)->File, "");
  EXPECT_FALSE((*Bare)->Command.has_value());

  ASSERT_VALUE(Unknown, S->testInfo("ctest:nope"));
  EXPECT_FALSE(Unknown->has_value());

  ASSERT_VALUE(All, S->testInfos());
  ASSERT_EQ(All->size(), 2u);
  EXPECT_EQ((*All)[0].Id, "ctest:bare");
  EXPECT_EQ((*All)[1].Id, T.Id);
}

TEST(TestStoreTest, LitTestKeepsTheCtestTestItRunsIn) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  TestInfo Lit;
  Lit.Id = "lit:s::a.test";
  Lit.Command = TestCommand{"/usr/bin/lit",   "/b", {"/b/test"}, {}, 0, "lit-s",
                            {"test/sub", "."}};
  ASSERT_OK(S->putTestInfo(Lit));
  TestInfo Unit;
  Unit.Id = "gtest:unit:S.N";
  Unit.Command = TestCommand{"/b/unit", "/b", {}, {}, 0};
  ASSERT_OK(S->putTestInfo(Unit));
  ASSERT_VALUE(GotLit, S->testInfo(Lit.Id));
  ASSERT_TRUE(GotLit->has_value() && (*GotLit)->Command.has_value());
  EXPECT_EQ((*GotLit)->Command->EnclosingCTest, "lit-s");
  EXPECT_EQ((*GotLit)->Command->EnclosingCTestFolders,
            (std::vector<std::string>{"test/sub", "."}));
  ASSERT_VALUE(GotUnit, S->testInfo(Unit.Id));
  ASSERT_TRUE(GotUnit->has_value() && (*GotUnit)->Command.has_value());
  EXPECT_EQ((*GotUnit)->Command->EnclosingCTest, "");
  EXPECT_TRUE((*GotUnit)->Command->EnclosingCTestFolders.empty());
}

/// The test list is read once and kept until the database changes: a new
/// test shows at once, and one a rolled-back transaction added (and read)
/// is gone afterwards.
TEST(TestStoreTest, CachedTestListFollowsWritesAndRollbacks) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t1", "c1", {"a"}));
  ASSERT_VALUE(One, S->tests());
  EXPECT_EQ(One->size(), 1u);
  ASSERT_OK(S->putCoverage("t2", "c1", {"a"}));
  ASSERT_VALUE(Two, S->sharedTests());
  EXPECT_EQ((*Two)->size(), 2u);
  llvm::Error E = S->transaction([&]() -> llvm::Error {
    if (llvm::Error E = S->putCoverage("t3", "c1", {"a"}))
      return E;
    auto Three = S->tests();
    if (!Three)
      return Three.takeError();
    EXPECT_EQ(Three->size(), 3u);
    return llvm::make_error<llvm::StringError>("stop",
                                               llvm::inconvertibleErrorCode());
  });
  EXPECT_EQ(llvm::toString(std::move(E)), "stop");
  ASSERT_VALUE(After, S->tests());
  EXPECT_EQ(After->size(), 2u);
  // The list an earlier caller holds stays as it was read.
  EXPECT_EQ((*Two)->size(), 2u);
}

TEST(TestStoreTest, RemoveTestDropsCoverageAndResults) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("ctest:gone", "c1", {"cpp:k"}));
  ASSERT_VALUE(Run, S->addRun("c1", "junit", 100));
  ASSERT_OK(S->putResults(*Run, {result("ctest:gone", Outcome::Failed)}));
  ASSERT_OK(S->removeTest("ctest:gone"));
  ASSERT_VALUE(Covering, S->testsCovering("cpp:k"));
  EXPECT_TRUE(Covering->empty());
  ASSERT_VALUE(Results, S->resultsOfRun(*Run));
  EXPECT_TRUE(Results->empty());
}

TEST(TestStoreTest, LatestResultIsTheNewestRunsLastAttempt) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(R1, S->addRun("c1", "junit", 100));
  ASSERT_OK(S->putResults(*R1, {result("ctest:a", Outcome::Failed, 1, 0, "x"),
                                result("ctest:b", Outcome::Passed)}));
  ASSERT_VALUE(R2, S->addRun("c2", "collect", 200));
  ASSERT_OK(S->putResults(*R2, {result("ctest:a", Outcome::Failed, 1, 0),
                                result("ctest:a", Outcome::Passed, 1, 1),
                                result("ctest:c", Outcome::TimedOut)}));
  EXPECT_GT(*R2, *R1);

  ASSERT_VALUE(Latest, S->latestResults());
  EXPECT_EQ(describe(*Latest),
            (Strings{"ctest:a passed #1", "ctest:b passed #0",
                     "ctest:c timed-out #0"}));

  ASSERT_VALUE(History, S->resultHistory("ctest:a"));
  ASSERT_EQ(History->size(), 3u);
  EXPECT_EQ((*History)[0].first, *R1);
  EXPECT_EQ((*History)[0].second.Message, "x");
  EXPECT_EQ((*History)[2].first, *R2);
  EXPECT_EQ((*History)[2].second.Attempt, 1u);

  ASSERT_VALUE(Runs, S->runs());
  ASSERT_EQ(Runs->size(), 2u);
  EXPECT_EQ((*Runs)[0].Commit, "c1");
  EXPECT_EQ((*Runs)[0].Source, "junit");
  EXPECT_EQ((*Runs)[0].StartedAt, 100);
  EXPECT_EQ((*Runs)[1].Source, "collect");
}

TEST(TestStoreTest, ResultsOfTheSameAttemptAreReplaced) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(Run, S->addRun("c1", "run"));
  ASSERT_OK(S->putResults(*Run, {result("ctest:a", Outcome::Crashed, 2)}));
  ASSERT_OK(S->putResults(*Run, {result("ctest:a", Outcome::Passed, 3)}));
  ASSERT_VALUE(Results, S->resultsOfRun(*Run));
  EXPECT_EQ(describe(*Results), Strings{"ctest:a passed #0"});
  EXPECT_DOUBLE_EQ((*Results)[0].Seconds, 3);
}

TEST(TestStoreTest, TestDefinitionsFollowTheirFileVersion) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  FileIndex F;
  F.Path = "tests/a_test.cpp";
  F.ContentHash = "h1";
  F.Tests = {{"gtest", "Vec.Len", 12, 15}, {"gtest", "Vec.Add", 3, 8}};
  normalize(F);
  ASSERT_OK(S->putFileIndex(F));
  FileIndex Other = F;
  Other.Path = "tests/b_test.cpp";
  Other.ContentHash = "h2";
  Other.Tests = {{"gtest", "Old.One", 1, 2}};
  ASSERT_OK(S->putFileIndex(Other));

  ASSERT_VALUE(Got, S->getFileIndex("tests/a_test.cpp", "h1"));
  ASSERT_TRUE(Got->has_value());
  ASSERT_EQ((*Got)->Tests.size(), 2u);
  EXPECT_EQ((*Got)->Tests[0].Name, "Vec.Add");
  EXPECT_EQ((*Got)->Tests[1].BeginLine, 12u);
  EXPECT_EQ((*Got)->Tests[1].EndLine, 15u);

  // Only the latest revision's files count.
  ASSERT_VALUE(Rev, S->addRevision("c1", false, {{"tests/a_test.cpp", "h1"}}));
  ASSERT_VALUE(Current, S->currentTestDefinitions());
  ASSERT_EQ(Current->size(), 2u);
  EXPECT_EQ((*Current)[0].first, "tests/a_test.cpp");
  EXPECT_EQ((*Current)[0].second.Name, "Vec.Add");
  EXPECT_EQ((*Current)[1].second.Name, "Vec.Len");
}

TEST(TestStoreTest, OutcomeNamesRoundTrip) {
  for (Outcome O : {Outcome::Passed, Outcome::Failed, Outcome::Error,
                    Outcome::TimedOut, Outcome::Crashed, Outcome::Skipped})
    EXPECT_EQ(parseOutcome(outcomeName(O)), O);
  EXPECT_FALSE(parseOutcome("ok").has_value());
  EXPECT_TRUE(isFailure(Outcome::Crashed));
  EXPECT_FALSE(isFailure(Outcome::Skipped));
  EXPECT_EQ(testFramework("gtest:bin:S.N"), "gtest");
  EXPECT_EQ(testFramework("plain"), "");
}

} // namespace
