//===- PathsTest.cpp - absolute paths and containment ---------------------===//

#include "tia/Support/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

TEST(PathsTest, AbsolutePathJoinsRemovesDotsAndTheTrailingSlash) {
  EXPECT_EQ(absolutePath("build", "/src/repo"), "/src/repo/build");
  EXPECT_EQ(absolutePath("../other/./x/", "/src/repo"), "/src/other/x");
  EXPECT_EQ(absolutePath("/abs/dir/", "/src/repo"), "/abs/dir");
  EXPECT_EQ(absolutePath(".", "/"), "/");
}

TEST(PathsTest, AtOrBelowNeedsAWholeDirectoryName) {
  EXPECT_TRUE(isAtOrBelow("/a/b", "/a/b"));
  EXPECT_TRUE(isAtOrBelow("/a/b/c.cpp", "/a/b"));
  EXPECT_FALSE(isAtOrBelow("/a/bc/d.cpp", "/a/b"));
  EXPECT_FALSE(isAtOrBelow("/a", "/a/b"));
}

TEST(PathsTest, FolderPathsGivesPathsInsideTheFolder) {
  FolderPaths Repo("/no-such-repo/");
  EXPECT_EQ(Repo.relative("/no-such-repo"), ".");
  EXPECT_EQ(Repo.relative("/no-such-repo/a/../b.txt"), "b.txt");
  EXPECT_EQ(Repo.relative("/no-such-repository/b.txt"), "");
  EXPECT_EQ(Repo.relative("/no-such-repo/dir/"), "dir");
  EXPECT_EQ(FolderPaths("/").relative("/a/b"), "a/b");
  EXPECT_EQ(FolderPaths("/").relative("/"), ".");
}

TEST(PathsTest, FolderPathsFollowsSymbolicLinksEitherWay) {
  llvm::SmallString<128> Tmp;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-paths", Tmp));
  std::string Real = (Tmp + "/repo").str(), Link = (Tmp + "/link").str();
  ASSERT_FALSE(llvm::sys::fs::create_directories(Real + "/src"));
  ASSERT_FALSE(llvm::sys::fs::create_link(Real, Link));
  // A path through a link to the folder, and a folder given through one.
  EXPECT_EQ(FolderPaths(Real).relative(Link + "/src"), "src");
  EXPECT_EQ(FolderPaths(Link).relative(Real + "/src"), "src");
  EXPECT_EQ(FolderPaths(Link).relative(Real), ".");
  llvm::sys::fs::remove_directories(Tmp);
}

} // namespace
