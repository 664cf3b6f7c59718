//===- LitFoldersTest.cpp - lit tests known by their files ----------------===//

#include "LitFolders.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

TestInfo litTest(std::string Id, std::string File) {
  TestInfo T;
  T.Id = std::move(Id);
  T.File = std::move(File);
  return T;
}

LitFolders known() {
  return LitFolders({litTest("lit:tia::collect/a.test", "test/collect/a.test"),
                     litTest("lit:tia::collect/b.cpp", "test/collect/b.cpp"),
                     litTest("lit:tia::top.test", "test/top.test"),
                     litTest("gtest:t:A.B", "unittests/a.cpp"),
                     litTest("lit:other::x.test", "")});
}

using Ids = std::vector<std::string>;

TEST(LitFolders, KnowsEachTestByItsFile) {
  LitFolders L = known();
  EXPECT_EQ(L.testsOf("test/collect/a.test"), Ids{"lit:tia::collect/a.test"});
  EXPECT_TRUE(L.testsOf("unittests/a.cpp").empty());
}

TEST(LitFolders, NamesANewFileBesideKnownTestsWithItsSuffix) {
  LitFolders L = known();
  EXPECT_EQ(L.newTestsAt("test/collect/new.test"),
            Ids{"lit:tia::collect/new.test"});
  EXPECT_EQ(L.newTestsAt("test/collect/new.cpp"),
            Ids{"lit:tia::collect/new.cpp"});
  EXPECT_EQ(L.newTestsAt("test/new.test"), Ids{"lit:tia::new.test"});
}

TEST(LitFolders, SuitesSharingTheirSourcesEachHaveTheTest) {
  // One source tree, two configurations (compiler-rt's per-target suites).
  LitFolders L({litTest("lit:asan-x86_64::a.cpp", "test/asan/a.cpp"),
                litTest("lit:asan-i386::a.cpp", "test/asan/a.cpp")});
  EXPECT_EQ(L.testsOf("test/asan/a.cpp"),
            (Ids{"lit:asan-x86_64::a.cpp", "lit:asan-i386::a.cpp"}));
  EXPECT_EQ(L.newTestsAt("test/asan/b.cpp"),
            (Ids{"lit:asan-i386::b.cpp", "lit:asan-x86_64::b.cpp"}));
}

TEST(LitFolders, NamesAFileAddedInANewFolderOfASuite) {
  LitFolders L = known();
  using git::ChangeStatus;
  // The nearest folder above with known tests gives the suffixes.
  EXPECT_EQ(L.newTestsAt("test/fresh/x.test", ChangeStatus::Added),
            Ids{"lit:tia::fresh/x.test"});
  EXPECT_EQ(L.newTestsAt("test/collect/sub/y.cpp", ChangeStatus::Renamed),
            Ids{"lit:tia::collect/sub/y.cpp"});
  EXPECT_TRUE(L.newTestsAt("test/fresh/x.cpp", ChangeStatus::Added).empty());
  // A file that was there before is a test only beside known tests.
  EXPECT_TRUE(
      L.newTestsAt("test/fresh/x.test", ChangeStatus::Modified).empty());
  // In a folder of known tests, those decide.
  EXPECT_TRUE(
      L.newTestsAt("test/collect/notes.txt", ChangeStatus::Added).empty());
  // lit does not walk into these; outside every suite's root, no suite.
  for (const char *File :
       {"test/collect/Inputs/x.test", "test/fresh/Inputs/deep/x.test",
        "test/Output/x.test", "test/.cache/x.test", "docs/x.test",
        "test/fresh/lit.local.cfg"})
    EXPECT_TRUE(L.newTestsAt(File, ChangeStatus::Added).empty()) << File;
  // No folder above has known tests: the suite's suffixes.
  LitFolders Deep({litTest("lit:s::a/t.test", "suite/a/t.test")});
  EXPECT_EQ(Deep.newTestsAt("suite/b/u.test", ChangeStatus::Added),
            Ids{"lit:s::b/u.test"});
  EXPECT_TRUE(Deep.newTestsAt("suite/b/u.txt", ChangeStatus::Added).empty());
}

TEST(LitFolders, NoTestForAnotherSuffixOrFolder) {
  LitFolders L = known();
  EXPECT_TRUE(L.newTestsAt("test/collect/notes.txt").empty());
  EXPECT_TRUE(L.newTestsAt("test/collect/Inputs/x.test").empty());
  EXPECT_TRUE(L.newTestsAt("test/collect/Makefile").empty());
  EXPECT_TRUE(L.newTestsAt("test/old/again.test").empty());
  // lit's own files, with a suffix its tests may have.
  LitFolders Py({litTest("lit:s::t.py", "suite/t.py")});
  EXPECT_TRUE(Py.newTestsAt("suite/lit.local.cfg.py").empty());
  EXPECT_TRUE(Py.newTestsAt("suite/lit.cfg.py").empty());
  EXPECT_TRUE(Py.newTestsAt("suite/.hidden.py").empty());
  EXPECT_EQ(Py.newTestsAt("suite/u.py"), Ids{"lit:s::u.py"});
  // Files LLVM's suites exclude beside tests of their suffix.
  LitFolders Txt({litTest("lit:s::t.txt", "suite/t.txt")});
  for (const char *File :
       {"suite/README.txt", "suite/CMakeLists.txt", "suite/LICENSE.txt"})
    EXPECT_TRUE(Txt.newTestsAt(File).empty()) << File;
  EXPECT_EQ(Txt.newTestsAt("suite/u.txt"), Ids{"lit:s::u.txt"});
  EXPECT_TRUE(LitFolders({}).empty());
}

} // namespace
