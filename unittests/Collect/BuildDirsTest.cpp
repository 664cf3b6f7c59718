//===- BuildDirsTest.cpp - where collect runs the tests, what it says -----===//

#include "tia/Collect/BuildDirs.h"
#include "tia/Collect/Pytest.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::collect;
using tia::testing::errorText;

namespace {

/// A repository root with a build directory holding CTestTestfile.cmake.
class BuildDirsTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-builddirs", Dir));
    Root = std::string(Dir);
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/build"));
    std::error_code EC;
    llvm::raw_fd_ostream(Root + "/build/CTestTestfile.cmake", EC) << "\n";
    ASSERT_FALSE(EC);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  std::string Root;
};

TEST_F(BuildDirsTest, TheTestsBuildIsFoundBelowTheRoot) {
  ASSERT_VALUE(Dir, findTestBuildDir("", Root + "/src", Root));
  EXPECT_EQ(*Dir, Root + "/build");
  // A given one is taken as it is, made absolute.
  ASSERT_VALUE(Given, findTestBuildDir("out", Root, Root));
  EXPECT_EQ(*Given, Root + "/out");
}

TEST_F(BuildDirsTest, NoTestsBuildSaysToPassIt) {
  EXPECT_EQ(errorText(findTestBuildDir("", Root + "/build/x", Root + "/src")),
            "no CTestTestfile.cmake in ./build or .: pass the build "
            "directory of the tests with -p BUILD_DIR");
}

TEST_F(BuildDirsTest, APytestBuildMustBeADirectory) {
  std::unique_ptr<Store> S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(Dir, pytestBuildDir(*S, "build", Root));
  EXPECT_EQ(*Dir, Root + "/build");
  EXPECT_EQ(errorText(pytestBuildDir(*S, "nowhere", Root)),
            "no build directory at " + Root +
                "/nowhere: pass the folder your extension modules and "
                "programs are built in");
  // Without one, and none recorded by an index: none.
  ASSERT_VALUE(None, pytestBuildDir(*S, "", Root));
  EXPECT_EQ(*None, "");
}

TEST(PytestSummaryTest, CountsOutcomesLinksAndProcesses) {
  PytestSummary Sum;
  Sum.Python = "/usr/bin/python3";
  Sum.Passed = 2;
  Sum.Failed = 1;
  Sum.Seconds = 1.5;
  Sum.Coverage.Links = 9;
  Sum.Coverage.ImportTimeLinks = 2;
  Sum.TestFiles = 1;
  Sum.Isolated = true;
  Sum.Probed = 4;
  EXPECT_EQ(pytestSummaryLine(Sum),
            "collected 3 pytest tests in 1.5s with /usr/bin/python3: 2 "
            "passed, 1 failed, 0 errors, 0 skipped; 9 test-element links (2 "
            "through imports); 1 test file each in its own process, 4 "
            "functions probed, 0 runtime accesses");
  Sum.TimedOut = 1;
  Sum.Broken = 1;
  Sum.Isolated = false;
  EXPECT_EQ(pytestSummaryLine(Sum),
            "collected 4 pytest tests in 1.5s with /usr/bin/python3: 2 "
            "passed, 1 failed, 0 errors, 1 timed out, 0 skipped; 9 "
            "test-element links (2 through imports); 1 test file in one "
            "process, 4 functions probed, 0 runtime accesses; 1 broken by "
            "collection, not recorded");
}

} // namespace
