//===- PathsTest.cpp - absolute paths and containment ---------------------===//

#include "tia/Support/Paths.h"
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

} // namespace
