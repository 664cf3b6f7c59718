//===- BoundaryStoreTest.cpp - the build objects tests crossed into -------===//

#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

using Strings = std::vector<std::string>;

using tia::testing::openMemory;

Boundary module(llvm::StringRef Object, bool Covered) {
  return {Object.str(), /*Program=*/false, Covered,
          Covered ? "" : "not built for coverage"};
}

Strings testsBehind(Store &S, llvm::StringRef Path) {
  Strings Out;
  auto Readers = S.testsBehindBoundary(Path);
  EXPECT_TRUE(bool(Readers));
  if (Readers)
    for (const BoundaryReader &R : *Readers)
      Out.push_back(R.TestId + " " + R.Object);
  else
    llvm::consumeError(Readers.takeError()); // Reported by EXPECT_TRUE.
  return Out;
}

TEST(BoundaryStoreTest, OnlyUncoveredObjectsSelectBySource) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putBoundaries(
      {"pytest:a", {module("b/_m.so", false), module("b/_c.so", true)}}));
  ASSERT_OK(S->putBoundaries({"pytest:b", {module("b/_c.so", true)}}));
  ASSERT_OK(S->putBoundarySources("b/_m.so", {"m.cpp", "geom.cpp"}));
  ASSERT_OK(S->putBoundarySources("b/_c.so", {"c.c"}));
  EXPECT_EQ(testsBehind(*S, "geom.cpp"), Strings{"pytest:a b/_m.so"});
  // Covered: the coverage map decides, not the boundary.
  EXPECT_EQ(testsBehind(*S, "c.c"), Strings{});
  EXPECT_EQ(testsBehind(*S, "other.cpp"), Strings{});
}

TEST(BoundaryStoreTest, UnknownSourcesMeanEveryFile) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putBoundaries({"pytest:a", {module("b/tool", false)}}));
  ASSERT_OK(S->putBoundarySources("b/tool", {"*"}));
  EXPECT_EQ(testsBehind(*S, "any.cpp"), Strings{"pytest:a b/tool"});
}

TEST(BoundaryStoreTest, RecordsAreReplacedAndSorted) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putBoundaries({"pytest:b", {module("x.so", false)}}));
  ASSERT_OK(S->putBoundaries({"pytest:a", {module("z.so", true)}}));
  ASSERT_OK(S->putBoundaries({"pytest:b", {module("y.so", true)}}));
  ASSERT_VALUE(All, S->boundaries());
  ASSERT_EQ(All->size(), 2u);
  EXPECT_EQ((*All)[0].TestId, "pytest:a");
  EXPECT_EQ((*All)[1].TestId, "pytest:b");
  ASSERT_EQ((*All)[1].Objects.size(), 1u);
  EXPECT_EQ((*All)[1].Objects[0].Object, "y.so");
  EXPECT_TRUE((*All)[1].Objects[0].Covered);
  ASSERT_OK(S->putBoundarySources("x.so", {"b.cpp", "a.cpp"}));
  ASSERT_OK(S->putBoundarySources("x.so", {"c.cpp"}));
  ASSERT_VALUE(Sources, S->boundarySources("x.so"));
  EXPECT_EQ(*Sources, Strings{"c.cpp"});
}

} // namespace
