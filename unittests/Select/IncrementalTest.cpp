//===- IncrementalTest.cpp - a map updated by what a change affects -------===//

#include "tia/Select/Incremental.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

PlannedTest planned(llvm::StringRef Id, ReasonKind Why) {
  PlannedTest T;
  T.Id = Id.str();
  TestReason R;
  R.Kind = Why;
  T.Reasons.push_back(R);
  return T;
}

/// A selection from a snapshot diffed from commit "c1": one covering test
/// and one new one selected, two carried.
Plan selection() {
  Plan P;
  P.Snapshot.emplace();
  P.Snapshot->DiffFrom = "c1";
  P.Snapshot->Snapshot.Id = 7;
  P.Selected = {planned("gtest:t:A.Covers", ReasonKind::Covers),
                planned("gtest:t:A.New", ReasonKind::NewTest)};
  P.NotSelected = {"gtest:t:B.One", "gtest:t:B.Two"};
  return P;
}

TEST(IncrementalTest, RunsTheSelectionAndCarriesTheRest) {
  IncrementalCollect C = incrementalCollect(selection());
  EXPECT_FALSE(C.full());
  EXPECT_EQ(C.Selected, 2u);
  EXPECT_EQ(C.NeverCovered, 1u);
  EXPECT_EQ(C.Carry, (std::set<std::string>{"gtest:t:B.One", "gtest:t:B.Two"}));
  EXPECT_EQ(C.CheckedSince, "c1");
  EXPECT_EQ(C.Snapshot, 7);
}

TEST(IncrementalTest, TheInstancesOfASelectedFunctionRun) {
  Plan P = selection();
  P.Selected.push_back(planned("pytest:t.py::test_x", ReasonKind::Covers));
  P.NotSelected.push_back("pytest:t.py::test_x[1]");
  P.NotSelected.push_back("pytest:t.py::test_x[2]");
  P.NotSelected.push_back("pytest:t.py::test_xy");
  IncrementalCollect C = incrementalCollect(P);
  EXPECT_FALSE(C.Carry.count("pytest:t.py::test_x[1]"));
  EXPECT_FALSE(C.Carry.count("pytest:t.py::test_x[2]"));
  EXPECT_TRUE(C.Carry.count("pytest:t.py::test_xy"));
}

TEST(IncrementalTest, AFallbackToAllRunsEverything) {
  Plan P = selection();
  P.Changes.Fallbacks.push_back(
      {FallbackKind::NonSourceFile, "CMakeLists.txt", "a build file changed"});
  IncrementalCollect C = incrementalCollect(P);
  EXPECT_TRUE(C.full());
  EXPECT_TRUE(C.Carry.empty());
  EXPECT_NE(C.FullBecause.find("a build file changed"), std::string::npos)
      << C.FullBecause;
}

TEST(IncrementalTest, ACutSelectionCarriesNothing) {
  // A test the budget left out is affected: its coverage must not carry.
  Plan P = selection();
  P.Cut.push_back(planned("gtest:t:A.Cut", ReasonKind::Covers));
  EXPECT_TRUE(incrementalCollect(P).full());
}

TEST(IncrementalTest, NoSnapshotRunsEverything) {
  Plan P = selection();
  P.Snapshot.reset();
  EXPECT_EQ(incrementalCollect(P).FullBecause,
            "no coverage snapshot to update");
}

TEST(IncrementalTest, TheSummarySaysWhatWasCarriedAndHowOld) {
  IncrementalCollect C = incrementalCollect(selection());
  C.OldestRun = "0123456789abcdef0123456789abcdef01234567";
  C.CommitsBehind = 3;
  EXPECT_EQ(incrementalSummary(C, 2, 2, false),
            "; 2 carried over (the oldest last ran at 0123456789ab, 3 "
            "commits back), 1 never covered");
  // A shard carries nothing over: the merge keeps what the map held.
  EXPECT_EQ(incrementalSummary(C, 0, 2, true),
            "; 2 not run, their coverage kept as it was for the merge (the "
            "oldest last ran at 0123456789ab, 3 commits back), 1 never "
            "covered");
  // Every test ran: no age to tell.
  EXPECT_EQ(incrementalSummary(C, 0, 0, false),
            "; 0 carried over, 1 never covered");
}

TEST(IncrementalTest, AStaleSnapshotSaysWhy) {
  Plan P = selection();
  P.Snapshot.reset();
  P.Changes.Fallbacks.push_back({FallbackKind::StaleCoverage, "",
                                 "no coverage snapshot is an ancestor of "
                                 "the base"});
  EXPECT_EQ(incrementalCollect(P).FullBecause,
            "stale-coverage: no coverage snapshot is an ancestor of the "
            "base");
}

TEST(IncrementalTest, AScopedFallbackCarriesTheTestsOutsideItsScope) {
  // A data file's readers are selected; the others are not affected.
  Plan P = selection();
  Fallback F{FallbackKind::DataFile, "data/x.txt", "read by 1 test"};
  F.Scope = FallbackScope::Readers;
  P.Changes.Fallbacks.push_back(F);
  EXPECT_FALSE(incrementalCollect(P).full());
}

} // namespace
