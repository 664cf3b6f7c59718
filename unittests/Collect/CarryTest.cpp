//===- CarryTest.cpp - coverage an incremental collect carries over -------===//

#include "tia/Collect/Collect.h"
#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

/// The id of the snapshot of \p Commit; 0 when none is kept.
int64_t snapshotOf(Store &S, llvm::StringRef Commit) {
  auto Snaps = S.coverageSnapshots();
  EXPECT_TRUE(bool(Snaps));
  for (const CoverageSnapshot &C : *Snaps)
    if (C.Commit == Commit)
      return C.Id;
  return 0;
}

TEST(CarryTest, TheOldestKeptSnapshotCarriesAllItsCoverage) {
  auto S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  // The selection read the oldest snapshot still kept; the first coverage
  // recorded at the new commit drops it.
  for (unsigned I = 0; I < Store::KeptSnapshots; ++I) {
    std::string Commit = "c" + std::to_string(I);
    ASSERT_OK(S->putCoverage("ctest:a", Commit, {"cpp:f" + std::to_string(I)}));
    ASSERT_OK(S->putCoverage("ctest:b", Commit, {"cpp:g"}));
  }
  int64_t Oldest = snapshotOf(*S, "c0");
  ASSERT_NE(Oldest, 0);
  collect::CarryOver C{{"ctest:a", "ctest:b"}, Oldest, true};
  ASSERT_VALUE(Carried, collect::carryCoverage(*S, C, "new"));
  EXPECT_EQ(*Carried, 2u);
  EXPECT_EQ(snapshotOf(*S, "c0"), 0); // dropped, as expected
  ASSERT_VALUE(A, S->coverageOf("ctest:a"));
  EXPECT_EQ(*A, std::vector<std::string>{"cpp:f0"});
  ASSERT_VALUE(B, S->coverageOf("ctest:b"));
  EXPECT_EQ(*B, std::vector<std::string>{"cpp:g"});
}

TEST(CarryTest, AShardCarriesNothing) {
  auto S = tia::testing::openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("ctest:a", "c0", {"cpp:f"}));
  collect::CarryOver C{{"ctest:a"}, snapshotOf(*S, "c0"), false};
  ASSERT_VALUE(Carried, collect::carryCoverage(*S, C, "new"));
  EXPECT_EQ(*Carried, 0u);
  EXPECT_EQ(snapshotOf(*S, "new"), 0);
}

} // namespace
