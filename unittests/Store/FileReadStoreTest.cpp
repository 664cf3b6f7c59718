//===- FileReadStoreTest.cpp - the files each test read -------------------===//

#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

using Strings = std::vector<std::string>;

using tia::testing::openMemory;

FileReads reads(llvm::StringRef Test, llvm::StringRef Commit, Strings Files,
                Strings Dirs = {}, bool Complete = true) {
  FileReads R;
  R.TestId = Test.str();
  R.Commit = Commit.str();
  R.Complete = Complete;
  R.Files = std::move(Files);
  R.Directories = std::move(Dirs);
  return R;
}

TEST(FileReadStoreTest, ReadsRoundTripSortedAndReplaced) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putFileReads(reads("pytest:b", "c1", {"z.txt", "a.txt"})));
  ASSERT_OK(S->putFileReads(reads("pytest:a", "c1", {}, {"data"}, false)));
  ASSERT_OK(S->putFileReads(reads("pytest:b", "c2", {"a.txt", "m.json"})));
  ASSERT_VALUE(All, S->fileReads());
  ASSERT_EQ(All->size(), 2u);
  EXPECT_EQ((*All)[0].TestId, "pytest:a");
  EXPECT_FALSE((*All)[0].Complete);
  EXPECT_EQ((*All)[0].Files, Strings{});
  EXPECT_EQ((*All)[0].Directories, Strings{"data"});
  EXPECT_EQ((*All)[1].TestId, "pytest:b");
  EXPECT_EQ((*All)[1].Commit, "c2");
  EXPECT_TRUE((*All)[1].Complete);
  EXPECT_EQ((*All)[1].Files, (Strings{"a.txt", "m.json"}));
}

TEST(FileReadStoreTest, RunnerListingsAreKeptApart) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("lit:s::a.test", "c1", {"cpp:f"}));
  FileReads R = reads("lit:s::a.test", "c1", {"s/a.test"}, {"s/in"});
  R.RunnerDirectories = {"s", "s/sub"};
  ASSERT_OK(S->putFileReads(R));
  ASSERT_VALUE(All, S->fileReads());
  ASSERT_EQ(All->size(), 1u);
  EXPECT_EQ((*All)[0].Directories, Strings{"s/in"});
  EXPECT_EQ((*All)[0].RunnerDirectories, (Strings{"s", "s/sub"}));
  ASSERT_VALUE(Finding, S->testsFindingTestsIn("s"));
  EXPECT_EQ(*Finding, Strings{"lit:s::a.test"});
  ASSERT_VALUE(Listing, S->testsReading("s", /*Listed=*/true));
  EXPECT_EQ(*Listing, Strings{});
}

TEST(FileReadStoreTest, OnlyCompleteRecordsAtTheCoverageCommitAreTrusted) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  for (const char *T : {"ctest:same", "ctest:old", "ctest:crashed"})
    ASSERT_OK(S->putCoverage(T, "c2", {"cpp:f"}));
  ASSERT_OK(S->putCoverage("ctest:never", "c2", {"cpp:f"}));
  ASSERT_OK(S->putFileReads(reads("ctest:same", "c2", {"a.txt"}, {"d"})));
  ASSERT_OK(S->putFileReads(reads("ctest:old", "c1", {"a.txt"})));
  ASSERT_OK(
      S->putFileReads(reads("ctest:crashed", "c2", {"a.txt"}, {}, false)));
  ASSERT_VALUE(Readers, S->testsReading("a.txt", /*Listed=*/false));
  EXPECT_EQ(*Readers, Strings{"ctest:same"});
  ASSERT_VALUE(NotAsDir, S->testsReading("a.txt", /*Listed=*/true));
  EXPECT_EQ(*NotAsDir, Strings{});
  ASSERT_VALUE(Listers, S->testsReading("d", /*Listed=*/true));
  EXPECT_EQ(*Listers, Strings{"ctest:same"});
  ASSERT_VALUE(Untrusted, S->testsWithoutTrustedReads());
  EXPECT_EQ(*Untrusted, (Strings{"ctest:crashed", "ctest:never", "ctest:old"}));
  ASSERT_VALUE(Any, S->hasTrustedReads());
  EXPECT_TRUE(*Any);
  // Coverage collected again without tracing makes the reads stale.
  ASSERT_OK(S->putCoverage("ctest:same", "c3", {"cpp:f"}));
  ASSERT_VALUE(None, S->hasTrustedReads());
  EXPECT_FALSE(*None);
}

TEST(FileReadStoreTest, ReadsGoWithTheirTest) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putFileReads(reads("pytest:a", "c1", {"a.txt"})));
  ASSERT_OK(S->removeTest("pytest:a"));
  ASSERT_VALUE(All, S->fileReads());
  EXPECT_TRUE(All->empty());
}

} // namespace
