//===- RetireTest.cpp - the tests a collect finds gone --------------------===//

#include "CollectInternal.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::collect;

namespace {

using Strings = std::vector<std::string>;
using Listing = std::vector<std::pair<std::string, std::string>>;

TestInfo cppTest(const std::string &Id, const std::string &Executable,
                 const std::string &Dir) {
  TestInfo T;
  T.Id = Id;
  T.Command = TestCommand{Executable, Dir, {}, {}, 0};
  return T;
}

TEST(RetireTest, ACaseTheBuildNoLongerListsIsGone) {
  std::vector<TestInfo> Known = {
      cppTest("gtest:t:A.Kept", "/b/t", "/b"),
      cppTest("gtest:t:A.Renamed", "/b/t", "/b"),
      cppTest("ctest:script", "/usr/bin/sh", "/b/sub"),
  };
  EXPECT_EQ(goneCppTests(Known, {"gtest:t:A.Kept", "gtest:t:A.New"}, "/b"),
            (Strings{"gtest:t:A.Renamed", "ctest:script"}));
}

TEST(RetireTest, TestsOfAnotherBuildOrWithoutACommandStay) {
  TestInfo FromCoverage;
  FromCoverage.Id = "gtest:t:A.Imported"; // known from an import alone
  std::vector<TestInfo> Known = {
      cppTest("gtest:t:A.Other", "/b2/t", "/b2"),
      cppTest("gtest:t:A.Prefix", "/build-2/t", "/build-2"),
      cppTest("pytest:t.py::test_a", "/usr/bin/python3", "/b"),
      FromCoverage,
  };
  EXPECT_EQ(goneCppTests(Known, {}, "/b"), Strings());
  EXPECT_EQ(goneCppTests(Known, {}, "/build"), Strings());
}

TEST(RetireTest, ATestItsListedFileNoLongerHasIsGone) {
  Strings Known = {"pytest:t.py::test_kept", "pytest:t.py::test_renamed",
                   "pytest:t.py::test_p", "pytest:t.py::test_q[1]",
                   "gtest:t:A.B"};
  Listing Listed = {{"t.py::test_kept", "t.py"},
                    {"t.py::test_p[1]", "t.py"},
                    {"t.py::test_q[2]", "t.py"}};
  auto Exists = [](llvm::StringRef) { return true; };
  EXPECT_EQ(gonePytestTests(Known, Listed, Exists),
            (Strings{"pytest:t.py::test_renamed", "pytest:t.py::test_q[1]"}));
}

TEST(RetireTest, AnUnlistedFileCountsOnlyWhenItIsDeleted) {
  Strings Known = {"pytest:deleted.py::test_a", "pytest:ignored.py::test_b"};
  Listing Listed = {{"t.py::test_kept", "t.py"}};
  auto Exists = [](llvm::StringRef F) { return F == "ignored.py"; };
  EXPECT_EQ(gonePytestTests(Known, Listed, Exists),
            (Strings{"pytest:deleted.py::test_a"}));
}

TEST(RetireTest, NodeIdsOfAnotherRootJudgeNoFile) {
  // pytest's rootdir is tests/, tia's root the repository: "a.py" is no
  // path below tia's root.
  Strings Known = {"pytest:b.py::test_b"};
  Listing Listed = {{"a.py::test_a", "tests/a.py"}};
  auto Exists = [](llvm::StringRef) { return false; };
  EXPECT_EQ(gonePytestTests(Known, Listed, Exists), Strings());
  EXPECT_EQ(gonePytestTests(Known, {}, Exists), Strings());
}

} // namespace
