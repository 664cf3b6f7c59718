//===- LitFoldersTest.cpp - lit tests known by their files ----------------===//

#include "LitFolders.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using git::ChangeStatus;

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
                     litTest("lit:tia::deep/c.ll", "test/deep/c.ll"),
                     litTest("gtest:t:A.B", "unittests/a.cpp"),
                     litTest("lit:other::x.test", "")});
}

using Ids = std::vector<std::string>;

/// The ids of newTestsAt(File, S), a guessed one ending in " (guessed)".
Ids newTests(const LitFolders &L, llvm::StringRef File,
             ChangeStatus S = ChangeStatus::Added) {
  Ids Out;
  for (const NewLitTest &T : L.newTestsAt(File, S))
    Out.push_back(T.Id + (T.Guessed ? " (guessed)" : ""));
  return Out;
}

TEST(LitFolders, KnowsEachTestByItsFile) {
  LitFolders L = known();
  EXPECT_EQ(L.testsOf("test/collect/a.test"), Ids{"lit:tia::collect/a.test"});
  EXPECT_TRUE(L.testsOf("unittests/a.cpp").empty());
}

TEST(LitFolders, NamesANewFileBesideKnownTestsWithItsSuffix) {
  LitFolders L = known();
  EXPECT_EQ(newTests(L, "test/collect/new.test"),
            Ids{"lit:tia::collect/new.test"});
  EXPECT_EQ(newTests(L, "test/collect/new.cpp", ChangeStatus::Modified),
            Ids{"lit:tia::collect/new.cpp"});
  EXPECT_EQ(newTests(L, "test/new.test"), Ids{"lit:tia::new.test"});
}

TEST(LitFolders, SuitesSharingTheirSourcesEachHaveTheTest) {
  // One source tree, two configurations (compiler-rt's per-target suites).
  LitFolders L({litTest("lit:asan-x86_64::a.cpp", "test/asan/a.cpp"),
                litTest("lit:asan-i386::a.cpp", "test/asan/a.cpp")});
  EXPECT_EQ(L.testsOf("test/asan/a.cpp"),
            (Ids{"lit:asan-x86_64::a.cpp", "lit:asan-i386::a.cpp"}));
  EXPECT_EQ(newTests(L, "test/asan/b.cpp"),
            (Ids{"lit:asan-i386::b.cpp", "lit:asan-x86_64::b.cpp"}));
}

TEST(LitFolders, AFileAddedInANewFolderTakesTheSuffixesAbove) {
  LitFolders L = known();
  EXPECT_EQ(newTests(L, "test/fresh/x.test"), Ids{"lit:tia::fresh/x.test"});
  EXPECT_EQ(newTests(L, "test/collect/sub/y.cpp", ChangeStatus::Renamed),
            Ids{"lit:tia::collect/sub/y.cpp"});
  // A suffix of the suite's, not of the tests above: lit may run it.
  EXPECT_EQ(newTests(L, "test/fresh/x.ll", ChangeStatus::Copied),
            Ids{"lit:tia::fresh/x.ll (guessed)"});
  EXPECT_EQ(newTests(L, "test/collect/x.ll"),
            Ids{"lit:tia::collect/x.ll (guessed)"});
  EXPECT_TRUE(newTests(L, "test/fresh/x.py").empty());
  // A file that was there before is a test only beside known tests with
  // its suffix: a test elsewhere would be known.
  EXPECT_TRUE(newTests(L, "test/fresh/x.test", ChangeStatus::Modified).empty());
  EXPECT_TRUE(newTests(L, "test/collect/x.ll", ChangeStatus::Modified).empty());
}

TEST(LitFolders, NoFolderAboveWithTestsLeavesAGuess) {
  LitFolders L({litTest("lit:s::a/t.test", "suite/a/t.test")});
  EXPECT_EQ(newTests(L, "suite/b/u.test"), Ids{"lit:s::b/u.test (guessed)"});
  EXPECT_TRUE(newTests(L, "suite/b/u.txt").empty());
  EXPECT_TRUE(newTests(L, "docs/u.test").empty());
  // A suite rooted at the repository: its root's tests decide.
  LitFolders Root({litTest("lit:r::t.test", "t.test")});
  EXPECT_EQ(newTests(Root, "new/u.test"), Ids{"lit:r::new/u.test"});
}

TEST(LitFolders, ANestedSuiteRunsTheFilesBelowItsRoot) {
  // Suite inner's root is a folder of suite outer's: lit runs a file
  // there in inner alone.
  LitFolders L({litTest("lit:outer::a.test", "test/a.test"),
                litTest("lit:inner::b.test", "test/sub/b.test")});
  EXPECT_EQ(newTests(L, "test/sub/fresh/c.test"),
            Ids{"lit:inner::fresh/c.test"});
  EXPECT_EQ(newTests(L, "test/fresh/c.test"), Ids{"lit:outer::fresh/c.test"});
  // The inner suite's tests lie deeper than a new folder in it.
  LitFolders Deeper({litTest("lit:outer::a.test", "test/a.test"),
                     litTest("lit:inner::x/b.test", "test/b/x/b.test")});
  EXPECT_EQ(newTests(Deeper, "test/b/fresh/c.test"),
            Ids{"lit:inner::fresh/c.test (guessed)"});
}

TEST(LitFolders, AFolderOfKnownTestsIsWalkedWhateverItsName) {
  LitFolders L({litTest("lit:s::Inputs/t.test", "suite/Inputs/t.test")});
  EXPECT_EQ(newTests(L, "suite/Inputs/u.test"), Ids{"lit:s::Inputs/u.test"});
  EXPECT_TRUE(newTests(L, "suite/Inputs/more/u.test").empty());
}

TEST(LitFolders, NoTestForAnotherSuffixOrFolder) {
  LitFolders L = known();
  EXPECT_TRUE(newTests(L, "test/collect/notes.txt").empty());
  EXPECT_TRUE(newTests(L, "test/collect/Makefile").empty());
  // lit does not walk into these.
  for (const char *File :
       {"test/collect/Inputs/x.test", "test/fresh/Inputs/deep/x.test",
        "test/Output/x.test", "test/.cache/x.test"})
    EXPECT_TRUE(newTests(L, File).empty()) << File;
  // lit's own files, with a suffix its tests may have.
  LitFolders Py({litTest("lit:s::t.py", "suite/t.py")});
  EXPECT_TRUE(newTests(Py, "suite/lit.local.cfg.py").empty());
  EXPECT_TRUE(newTests(Py, "suite/lit.cfg.py").empty());
  EXPECT_TRUE(newTests(Py, "suite/.hidden.py").empty());
  EXPECT_EQ(newTests(Py, "suite/u.py"), Ids{"lit:s::u.py"});
  // Files LLVM's suites exclude beside tests of their suffix.
  LitFolders Txt({litTest("lit:s::t.txt", "suite/t.txt")});
  for (const char *File :
       {"suite/README.txt", "suite/CMakeLists.txt", "suite/LICENSE.txt"})
    EXPECT_TRUE(newTests(Txt, File).empty()) << File;
  EXPECT_EQ(newTests(Txt, "suite/u.txt"), Ids{"lit:s::u.txt"});
  EXPECT_TRUE(LitFolders({}).empty());
}

} // namespace
