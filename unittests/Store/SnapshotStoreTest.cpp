//===- SnapshotStoreTest.cpp - coverage snapshots and statistics ----------===//

#include "Database.h"
#include "Schema.h"
#include "tia/Store/Store.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace tia;

namespace {

using Strings = std::vector<std::string>;

using tia::testing::openMemory;

/// "commit:tests:coverage commits" per snapshot, newest first.
Strings describe(Store &S) {
  auto Snaps = S.coverageSnapshots();
  if (!Snaps) {
    ADD_FAILURE() << llvm::toString(Snaps.takeError());
    return {};
  }
  Strings Out;
  for (const CoverageSnapshot &C : *Snaps)
    Out.push_back(C.Commit + ":" + std::to_string(C.Tests) + ":" +
                  llvm::join(C.CoverageCommits, ","));
  return Out;
}

TEST(SnapshotStoreTest, EachCommitStartsASnapshotThatInheritsTheLast) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t1", "c1", {"k1"}));
  ASSERT_OK(S->putCoverage("t2", "c1", {"k2"}));
  EXPECT_EQ(describe(*S), (Strings{"c1:2:c1"}));

  // A partial update at c2: t1 again, t2 inherited from c1.
  ASSERT_OK(S->putCoverage("t1", "c2", {"k2"}));
  EXPECT_EQ(describe(*S), (Strings{"c2:2:c1,c2", "c1:2:c1"}));

  ASSERT_VALUE(Snaps, S->coverageSnapshots());
  int64_t C2 = (*Snaps)[0].Id, C1 = (*Snaps)[1].Id;
  ASSERT_VALUE(AtC2, S->testsCovering("k2", C2));
  EXPECT_EQ(*AtC2, (Strings{"t1", "t2"}));
  ASSERT_VALUE(K1AtC2, S->testsCovering("k1", C2));
  EXPECT_TRUE(K1AtC2->empty());
  // The older snapshot still sees t1 as it was at c1.
  ASSERT_VALUE(AtC1, S->testsCovering("k1", C1));
  EXPECT_EQ(*AtC1, (Strings{"t1"}));
  ASSERT_VALUE(K2AtC1, S->testsCovering("k2", C1));
  EXPECT_EQ(*K2AtC1, (Strings{"t2"}));
  ASSERT_VALUE(T1AtC1, S->coverageOf("t1", C1));
  EXPECT_EQ(*T1AtC1, (Strings{"k1"}));
  ASSERT_VALUE(T1AtC2, S->coverageOf("t1", C2));
  EXPECT_EQ(*T1AtC2, (Strings{"k2"}));

  ASSERT_VALUE(Members, S->snapshotTests(C2));
  ASSERT_EQ(Members->size(), 2u);
  EXPECT_EQ((*Members)[0].Id, "t1");
  EXPECT_EQ((*Members)[0].CoverageCommit, "c2");
  EXPECT_EQ((*Members)[1].CoverageCommit, "c1");
  EXPECT_EQ((*Members)[1].CoveredElements, 1u);

  // The latest coverage of each test is unchanged for the other callers.
  ASSERT_VALUE(Latest, S->testsCovering("k2"));
  EXPECT_EQ(*Latest, (Strings{"t1", "t2"}));
}

TEST(SnapshotStoreTest, ReimportAtTheSameCommitReplaces) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t1", "c1", {"k1"}));
  ASSERT_OK(S->putCoverage("t1", "c1", {"k2"}));
  ASSERT_VALUE(Snaps, S->coverageSnapshots());
  ASSERT_EQ(Snaps->size(), 1u);
  ASSERT_VALUE(Keys, S->coverageOf("t1", (*Snaps)[0].Id));
  EXPECT_EQ(*Keys, (Strings{"k2"}));
}

TEST(SnapshotStoreTest, OldSnapshotsAndTheirHistoryAreDropped) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  for (unsigned I = 0; I < Store::KeptSnapshots + 2; ++I)
    ASSERT_OK(S->putCoverage("t", "c" + std::to_string(I),
                             {"k" + std::to_string(I)}));
  ASSERT_VALUE(Snaps, S->coverageSnapshots());
  ASSERT_EQ(Snaps->size(), Store::KeptSnapshots);
  EXPECT_EQ(Snaps->back().Commit, "c2");
  ASSERT_VALUE(Oldest, S->coverageOf("t", Snaps->back().Id));
  EXPECT_EQ(*Oldest, (Strings{"k2"}));
  ASSERT_VALUE(Gone, S->testsCovering("k0", Snaps->back().Id));
  EXPECT_TRUE(Gone->empty());
}

TEST(SnapshotStoreTest, RemovedTestsLeaveTheSnapshots) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t1", "c1", {"k"}));
  ASSERT_OK(S->putCoverage("t2", "c1", {"k"}));
  ASSERT_OK(S->removeTest("t2"));
  EXPECT_EQ(describe(*S), (Strings{"c1:1:c1"}));
}

TEST(SnapshotStoreTest, ARetiredTestHoldsNoCommitAndCoversNothing) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("old", "c1", {"k"}));
  ASSERT_OK(S->putCoverage("kept", "c1", {"k"}));
  ASSERT_OK(S->putCoverage("kept", "c2", {"k"}));
  EXPECT_EQ(describe(*S), (Strings{"c2:2:c1,c2", "c1:2:c1"}));

  // "old" is gone at c2: c2's snapshot no longer diffs from c1.
  ASSERT_OK(S->retireTests("c2", {"old", "never-seen"}));
  EXPECT_EQ(describe(*S), (Strings{"c2:1:c2", "c1:2:c1"}));
  ASSERT_VALUE(Snaps, S->coverageSnapshots());
  int64_t C2 = (*Snaps)[0].Id, C1 = (*Snaps)[1].Id;
  ASSERT_VALUE(Retired, S->retiredTests(C2));
  EXPECT_EQ(*Retired, (Strings{"old"}));
  ASSERT_VALUE(Covering, S->testsCovering("k", C2));
  EXPECT_EQ(*Covering, (Strings{"kept"}));
  ASSERT_VALUE(Members, S->snapshotTests(C2));
  ASSERT_EQ(Members->size(), 1u);
  EXPECT_EQ((*Members)[0].Id, "kept");
  ASSERT_VALUE(OldKeys, S->coverageOf("old", C2));
  EXPECT_TRUE(OldKeys->empty());
  // The older snapshot still holds it as it was.
  ASSERT_VALUE(AtC1, S->testsCovering("k", C1));
  EXPECT_EQ(*AtC1, (Strings{"kept", "old"}));
  ASSERT_VALUE(NoneRetired, S->retiredTests(C1));
  EXPECT_TRUE(NoneRetired->empty());
}

TEST(SnapshotStoreTest, LaterSnapshotsKeepARetirementUntilCoverageReturns) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t", "c1", {"k"}));
  ASSERT_OK(S->putCoverage("u", "c1", {"k"}));
  ASSERT_OK(S->retireTests("c2", {"t"}));
  ASSERT_OK(S->putCoverage("u", "c3", {"k"}));
  EXPECT_EQ(describe(*S), (Strings{"c3:1:c3", "c2:1:c1", "c1:2:c1"}));
  ASSERT_VALUE(Snaps, S->coverageSnapshots());
  ASSERT_VALUE(AtC3, S->retiredTests((*Snaps)[0].Id));
  EXPECT_EQ(*AtC3, (Strings{"t"}));

  // The test is back (a revert): its coverage ends the retirement.
  ASSERT_OK(S->putCoverage("t", "c4", {"k"}));
  EXPECT_EQ(describe(*S).front(), "c4:2:c3,c4");
  ASSERT_VALUE(Now, S->coverageSnapshots());
  ASSERT_VALUE(AtC4, S->retiredTests((*Now)[0].Id));
  EXPECT_TRUE(AtC4->empty());
}

TEST(SnapshotStoreTest, RetiringWithoutACommitDoesNothing) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_OK(S->putCoverage("t", "c1", {"k"}));
  ASSERT_OK(S->retireTests("", {"t"}));
  EXPECT_EQ(describe(*S), (Strings{"c1:1:c1"}));
}

TEST(SnapshotStoreTest, Version2CoverageBecomesSnapshots) {
  auto Raw = Database::open(":memory:", Database::OpenMode::ReadWrite);
  ASSERT_TRUE(static_cast<bool>(Raw)) << llvm::toString(Raw.takeError());
  Database &DB = **Raw;
  ASSERT_OK(schema::migrate(DB, schema::migrations().take_front(2)));
  ASSERT_OK(DB.exec("INSERT INTO element_keys(id, key) VALUES(1, 'k');"
                    "INSERT INTO tests(id, name, coverage_commit) VALUES"
                    "(1, 'a', 'c1'), (2, 'b', 'c2'), (3, 'results-only', '');"
                    "INSERT INTO coverage(test_id, key_id) VALUES(1, 1);"));
  ASSERT_OK(schema::migrate(DB, schema::migrations()));
  auto Count = [&](llvm::StringRef SQL) -> int64_t {
    auto St = DB.statement(SQL);
    if (!St) {
      ADD_FAILURE() << llvm::toString(St.takeError());
      return -1;
    }
    auto Row = St->step();
    if (!Row || !*Row) {
      if (!Row)
        ADD_FAILURE() << llvm::toString(Row.takeError());
      return -1;
    }
    return St->columnInt64(0);
  };
  EXPECT_EQ(Count("SELECT count(*) FROM coverage_snapshots"), 2);
  // Each snapshot holds both covered tests, each at its own commit.
  EXPECT_EQ(Count("SELECT count(*) FROM snapshot_tests"), 4);
  EXPECT_EQ(Count("SELECT count(*) FROM snapshot_tests st JOIN tests t ON "
                  "t.id = st.test_id WHERE st.coverage_commit = "
                  "t.coverage_commit"),
            4);
}

TEST(SnapshotStoreTest, Statistics) {
  auto S = openMemory();
  ASSERT_TRUE(S);
  ASSERT_VALUE(R1, S->addRun("c1", "junit", 100));
  ASSERT_OK(S->putResults(*R1, {{"a", Outcome::Failed, 2, 0, "boom"},
                                {"a", Outcome::Passed, 4, 1, ""},
                                {"b", Outcome::Skipped, 0, 0, ""}}));
  ASSERT_VALUE(R2, S->addRun("c2", "junit", 200));
  ASSERT_OK(S->putResults(*R2, {{"a", Outcome::TimedOut, 6, 0, ""}}));
  ASSERT_VALUE(Stats, S->testStatistics());
  ASSERT_EQ(Stats->size(), 2u);
  const TestStatistics &A = (*Stats)[0];
  EXPECT_EQ(A.Id, "a");
  EXPECT_EQ(A.Results, 3u);
  EXPECT_EQ(A.Failures, 2u);
  EXPECT_EQ(A.Last, Outcome::TimedOut);
  EXPECT_EQ(A.LastRun, *R2);
  EXPECT_EQ(A.LastCommit, "c2");
  EXPECT_DOUBLE_EQ(A.MeanSeconds, 4);
  const TestStatistics &B = (*Stats)[1];
  EXPECT_EQ(B.Last, Outcome::Skipped);
  EXPECT_EQ(B.TimedResults, 0u);
  EXPECT_DOUBLE_EQ(B.MeanSeconds, 0);
}

} // namespace
