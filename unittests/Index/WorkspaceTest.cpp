//===- WorkspaceTest.cpp - what `tia index` indexes -----------------------===//

#include "tia/Index/Workspace.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/TempRepo.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::index;

namespace {

using Strings = std::vector<std::string>;

class PythonFilesTest : public tia::testing::TempRepo {};

TEST_F(PythonFilesTest, TrackedPythonFilesAsTheConfigurationAllows) {
  init();
  write(".tia.yaml", "paths:\n  exclude: [vendor]\n");
  write("a.py", "");
  write("notes.txt", "");
  write("pkg/b.py", "");
  write("vendor/c.py", "");
  commit("files");
  write("untracked.py", "");
  ASSERT_VALUE(W, config::findWorkspace(Dir, "", /*NeedGit=*/true));
  ASSERT_VALUE(All, listPythonFiles(*W, {}));
  EXPECT_EQ(*All, (Strings{"a.py", "pkg/b.py"}));
  ASSERT_VALUE(Below, listPythonFiles(*W, {W->Root + "/pkg"}));
  EXPECT_EQ(*Below, (Strings{"pkg/b.py"}));
}

TEST_F(PythonFilesTest, NoneOutsideGit) {
  write("a.py", "");
  ASSERT_VALUE(W, config::findWorkspace(Dir, "", /*NeedGit=*/false));
  ASSERT_VALUE(All, listPythonFiles(*W, {}));
  EXPECT_TRUE(All->empty());
}

} // namespace
