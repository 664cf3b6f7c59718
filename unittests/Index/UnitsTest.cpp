//===- UnitsTest.cpp - which translation units tia index indexes ----------===//

#include "tia/Index/Units.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::index;

namespace {

std::vector<CompileCommand> unitsOf(std::vector<std::string> Files) {
  std::vector<CompileCommand> Out;
  for (std::string &F : Files) {
    CompileCommand C;
    C.File = std::move(F);
    Out.push_back(C);
  }
  return Out;
}

std::vector<std::string> filesOf(const ProjectUnits &P) {
  std::vector<std::string> Out;
  for (const CompileCommand &C : P.Units)
    Out.push_back(C.File);
  return Out;
}

TEST(UnitsTest, OnlyTheProjectOutsideTheBuildDirectoryCounts) {
  std::vector<bool> Used;
  ProjectUnits P =
      projectUnits(unitsOf({"/repo/src/a.cpp", "/repo/build/gen.cpp",
                            "/usr/src/x.cpp", "/repository/b.cpp"}),
                   "/repo", {"/repo/build"}, config::Config(), {}, Used);
  EXPECT_EQ(filesOf(P), std::vector<std::string>{"/repo/src/a.cpp"});
  EXPECT_FALSE(P.ConfigLeftOut);
}

TEST(UnitsTest, PathsNarrowTheUnitsAndSayWhichMatched) {
  std::vector<std::string> Paths = {"/repo/src/net", "/repo/typo"};
  std::vector<bool> Used(Paths.size(), false);
  ProjectUnits P =
      projectUnits(unitsOf({"/repo/src/net/a.cpp", "/repo/src/db/b.cpp"}),
                   "/repo", {}, config::Config(), Paths, Used);
  EXPECT_EQ(filesOf(P), std::vector<std::string>{"/repo/src/net/a.cpp"});
  EXPECT_EQ(Used, (std::vector<bool>{true, false}));
}

TEST(UnitsTest, AUnitTheConfigurationExcludesIsLeftOutAndSaid) {
  ASSERT_VALUE(
      C, config::parseConfig("paths:\n  exclude: [vendor]\n", ".tia.yaml"));
  std::vector<bool> Used;
  ProjectUnits P =
      projectUnits(unitsOf({"/repo/src/a.cpp", "/repo/vendor/z.cpp"}), "/repo",
                   {}, *C, {}, Used);
  EXPECT_EQ(filesOf(P), std::vector<std::string>{"/repo/src/a.cpp"});
  EXPECT_TRUE(P.ConfigLeftOut);
}

TEST(UnitsTest, AGivenBuildDirectoryIsTakenAsItIsOrFromItsDatabaseFile) {
  ASSERT_VALUE(Dir, findBuildDir("out", "/repo/sub", "/repo"));
  EXPECT_EQ(*Dir, "/repo/sub/out");
  ASSERT_VALUE(File,
               findBuildDir("/nowhere/compile_commands.json", "/", "/repo"));
  EXPECT_EQ(*File, "/nowhere");
}

} // namespace
