//===- WorkspaceTest.cpp - where a command runs ---------------------------===//

#include "tia/Config/Workspace.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/TempRepo.h"
#include "gtest/gtest.h"
#include <cstdlib>

using namespace tia;
using namespace tia::config;
using tia::testing::errorText;

namespace {

class WorkspaceTest : public tia::testing::TempRepo {
protected:
  // The database's default is what these tests check: the caller's
  // TIA_DB must not choose it for them.
  void SetUp() override {
    TempRepo::SetUp();
    ::unsetenv("TIA_DB");
  }
};

TEST_F(WorkspaceTest, OutsideGitTheRootIsTheWorkingDirectory) {
  ASSERT_VALUE(W, findWorkspace(Dir, "", /*NeedGit=*/false));
  EXPECT_FALSE(W->Repo);
  EXPECT_EQ(W->Root, Dir);
  EXPECT_EQ(W->WorkingDir, Dir);
  EXPECT_EQ(W->DbPath, Dir + "/.tia/tia.db");
  EXPECT_TRUE(W->Config.File.empty());
}

TEST_F(WorkspaceTest, NeedGitFailsOutsideGit) {
  EXPECT_NE(errorText(findWorkspace(Dir, "", /*NeedGit=*/true)), "(no error)");
}

TEST_F(WorkspaceTest, FindsTheRootAboveTheWorkingDirectory) {
  init();
  write("sub/a.txt", "a\n");
  ASSERT_VALUE(W, findWorkspace(Dir + "/sub", "my.db", /*NeedGit=*/true));
  ASSERT_TRUE(W->Repo);
  EXPECT_EQ(llvm::StringRef(W->Root).rtrim('/'), Dir);
  // --db is relative to where the command runs, not to the root.
  EXPECT_EQ(W->DbPath, Dir + "/sub/my.db");
}

TEST_F(WorkspaceTest, ReadsTheConfiguration) {
  write(".tia.yaml", "select:\n  base: origin/main\n");
  ASSERT_VALUE(W, findWorkspace(Dir, "", /*NeedGit=*/false));
  EXPECT_EQ(W->Config.Select.Base, "origin/main");
}

TEST_F(WorkspaceTest, ABadConfigurationFails) {
  write(".tia.yaml", "no-such-key: 1\n");
  EXPECT_NE(errorText(findWorkspace(Dir, "", /*NeedGit=*/false)), "(no error)");
}

TEST_F(WorkspaceTest, RecordedCommitOutsideGit) {
  ASSERT_VALUE(W, findWorkspace(Dir, "", /*NeedGit=*/false));
  ASSERT_VALUE(Head, recordedCommit(*W, ""));
  EXPECT_EQ(*Head, "");
  EXPECT_EQ(errorText(recordedCommit(*W, "HEAD")),
            "--commit needs a git repository: run tia inside the work tree");
}

TEST_F(WorkspaceTest, RecordedCommitIsHead) {
  init();
  write("a.txt", "a\n");
  std::string One = commit("one");
  ASSERT_VALUE(W, findWorkspace(Dir, "", /*NeedGit=*/true));
  ASSERT_VALUE(Head, recordedCommit(*W, ""));
  EXPECT_EQ(*Head, One);
}

TEST_F(WorkspaceTest, OpenForUpdateCreatesNothing) {
  ASSERT_VALUE(W, findWorkspace(Dir, "", /*NeedGit=*/false));
  EXPECT_NE(errorText(openForUpdate(*W)), "(no error)");
  EXPECT_FALSE(llvm::sys::fs::exists(W->DbPath));
}

} // namespace
