//===- CTestFoldersTest.cpp - the ctest test a new lit test runs in -------===//

#include "CTestFolders.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

TestInfo litTest(std::string Id, std::string CTest,
                 std::vector<std::string> Folders, std::string File = "") {
  TestInfo T;
  T.Id = std::move(Id);
  T.File = std::move(File);
  TestCommand C;
  C.EnclosingCTest = std::move(CTest);
  C.EnclosingCTestFolders = std::move(Folders);
  T.Command = std::move(C);
  return T;
}

/// The folders of \p Infos, every test of them live.
CTestFolders folders(const std::vector<TestInfo> &Infos) {
  std::set<std::string> Live;
  for (const TestInfo &T : Infos)
    Live.insert(T.Id);
  return CTestFolders(Infos, Live);
}

TEST(CTestFolders, TheCTestTestThatRunsTheFolderAbove) {
  CTestFolders F =
      folders({litTest("lit:tia::select/a.test", "lit-select", {"test/select"}),
               litTest("lit:tia::eval/b.test", "lit-eval", {"test/eval"})});
  EXPECT_EQ(F.ctestRunning("lit:tia::select/new.test", "test/select/new.test"),
            "lit-select");
  EXPECT_EQ(F.ctestRunning("lit:tia::select/deep/new.test",
                           "test/select/deep/new.test"),
            "lit-select");
  EXPECT_EQ(F.ctestRunning("lit:tia::eval/new.test", "test/eval/new.test"),
            "lit-eval");
}

TEST(CTestFolders, NoneWhenNoneOrSeveralRunIt) {
  CTestFolders F =
      folders({litTest("lit:s::a.test", "lit-files", {}),
               litTest("lit:s::cli/b.test", "lit-cli", {"suite/cli"}),
               litTest("lit:s::cli/c.test", "lit-cli-again", {"suite/cli"}),
               litTest("lit:t::x.test", "lit-all", {"."}),
               litTest("lit:t::sub/y.test", "lit-sub", {"other/sub"})});
  // A ctest test that names files runs no new file; lit-all runs the
  // root in suite t.
  EXPECT_EQ(F.ctestRunning("lit:s::new.test", "suite/new.test"), std::nullopt);
  EXPECT_EQ(F.ctestRunning("lit:t::suite/new.test", "suite/new.test"),
            "lit-all");
  // Two ctest tests run the folder: ctest could run the test in either.
  EXPECT_EQ(F.ctestRunning("lit:s::cli/new.test", "suite/cli/new.test"),
            std::nullopt);
  // The root and a folder inside it.
  EXPECT_EQ(F.ctestRunning("lit:t::sub/new.test", "other/sub/new.test"),
            std::nullopt);
  // A folder's name is no prefix of another's.
  EXPECT_EQ(F.ctestRunning("lit:t::subway/new.test", "other/subway/new.test"),
            "lit-all");
  CTestFolders Files = folders({litTest("lit:s::a.test", "lit-files", {})});
  EXPECT_EQ(Files.ctestRunning("lit:s::new.test", "suite/new.test"),
            std::nullopt);
}

TEST(CTestFolders, EachSuiteByItsOwnCTestTests) {
  // One source tree, two configurations: lit-cli runs demo's tests there;
  // the asan configuration's ctest test names no folder (it filters).
  CTestFolders F =
      folders({litTest("lit:demo::cli/a.test", "lit-cli", {"suite/cli"}),
               litTest("lit:demo-asan::cli/a.test", "lit-cli-asan", {})});
  EXPECT_EQ(F.ctestRunning("lit:demo::cli/new.test", "suite/cli/new.test"),
            "lit-cli");
  EXPECT_EQ(F.ctestRunning("lit:demo-asan::cli/new.test", "suite/cli/new.test"),
            std::nullopt);
}

TEST(CTestFolders, NoneWhereAKnownTestHasNoOneCTest) {
  // Two ctest tests run cli's tests (collect cleared their ctest test):
  // the other one runs a new test there too.
  CTestFolders F =
      folders({litTest("lit:s::a.test", "lit-all", {"suite"}, "suite/a.test"),
               litTest("lit:s::cli/b.test", "", {}, "suite/cli/b.test")});
  EXPECT_EQ(F.ctestRunning("lit:s::cli/new.test", "suite/cli/new.test"),
            std::nullopt);
  EXPECT_EQ(F.ctestRunning("lit:s::new.test", "suite/new.test"), std::nullopt);
  CTestFolders Apart = folders(
      {litTest("lit:s::a/x.test", "lit-a", {"suite/a"}, "suite/a/x.test"),
       litTest("lit:s::b/y.test", "", {}, "suite/b/y.test")});
  EXPECT_EQ(Apart.ctestRunning("lit:s::a/new.test", "suite/a/new.test"),
            "lit-a");
}

TEST(CTestFolders, ARetiredTestsRecordDoesNotCount) {
  // Every test of suite/cli was deleted, and lit-cli with them.
  CTestFolders F({litTest("lit:s::cli/gone.test", "lit-cli", {"suite/cli"})},
                 {});
  EXPECT_EQ(F.ctestRunning("lit:s::cli/new.test", "suite/cli/new.test"),
            std::nullopt);
}

} // namespace
