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
                     litTest("lit:tia::old/gone.test", "test/old/gone.test"),
                     litTest("gtest:t:A.B", "unittests/a.cpp"),
                     litTest("lit:other::x.test", "")},
                    {"lit:tia::old/gone.test"});
}

TEST(LitFolders, KnowsEachTestByItsFile) {
  LitFolders L = known();
  ASSERT_NE(L.testOf("test/collect/a.test"), nullptr);
  EXPECT_EQ(*L.testOf("test/collect/a.test"), "lit:tia::collect/a.test");
  EXPECT_EQ(L.testOf("unittests/a.cpp"), nullptr);
  // A retired test is no known test.
  EXPECT_EQ(L.testOf("test/old/gone.test"), nullptr);
}

TEST(LitFolders, NamesANewFileBesideKnownTestsWithItsSuffix) {
  LitFolders L = known();
  EXPECT_EQ(L.newTestAt("test/collect/new.test"),
            std::optional<std::string>("lit:tia::collect/new.test"));
  EXPECT_EQ(L.newTestAt("test/collect/new.cpp"),
            std::optional<std::string>("lit:tia::collect/new.cpp"));
  EXPECT_EQ(L.newTestAt("test/new.test"),
            std::optional<std::string>("lit:tia::new.test"));
}

TEST(LitFolders, NoTestForAnotherSuffixOrFolder) {
  LitFolders L = known();
  EXPECT_EQ(L.newTestAt("test/collect/notes.txt"), std::nullopt);
  EXPECT_EQ(L.newTestAt("test/collect/Inputs/x.test"), std::nullopt);
  EXPECT_EQ(L.newTestAt("test/collect/Makefile"), std::nullopt);
  EXPECT_EQ(L.newTestAt("test/old/again.test"), std::nullopt);
  // lit's own files, with a suffix its tests may have.
  LitFolders Py({litTest("lit:s::t.py", "suite/t.py")}, {});
  EXPECT_EQ(Py.newTestAt("suite/lit.local.cfg.py"), std::nullopt);
  EXPECT_EQ(Py.newTestAt("suite/lit.cfg.py"), std::nullopt);
  EXPECT_EQ(Py.newTestAt("suite/.hidden.py"), std::nullopt);
  EXPECT_EQ(Py.newTestAt("suite/u.py"),
            std::optional<std::string>("lit:s::u.py"));
  EXPECT_TRUE(LitFolders({}, {}).empty());
}

} // namespace
