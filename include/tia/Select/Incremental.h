//===- tia/Select/Incremental.h - a map updated by what a change affects --===//
//
// `tia collect --incremental` on the main branch: the tests the change
// since the newest coverage snapshot can affect are run with coverage, with
// the new and never-covered ones; every other test's coverage is carried
// over as it is. The selection decides, so the update is as safe as a
// selection from that snapshot: a carried-over test's coverage keeps the
// commit it was collected at, and a later selection diffs from the merge
// base of those commits (docs/Safety.md), so whatever changed since any
// test last ran counts as changed for it.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_INCREMENTAL_H
#define TIA_SELECT_INCREMENTAL_H

#include "tia/Select/Policy.h"
#include <set>
#include <string>

namespace tia {
namespace select {

/// What an incremental collect runs and what it carries over.
struct IncrementalCollect {
  /// Non-empty: every test runs, and this says why (a fallback, no usable
  /// snapshot, a selection cut by a budget).
  std::string FullBecause;
  /// Known tests whose coverage is carried over, not run.
  std::set<std::string> Carry;
  /// Tests the change since the snapshot selects, and of those the ones no
  /// coverage was recorded for (new or never covered).
  unsigned Selected = 0;
  unsigned NeverCovered = 0;
  /// The commit the selection diffed from: no carried-over test is
  /// affected by what changed since.
  std::string CheckedSince;
  /// The commit the longest-carried test last ran at (its newest result),
  /// and how many commits it lies behind the head; empty when no carried
  /// test has a result (measureCarriedAge).
  std::string OldestRun;
  unsigned CommitsBehind = 0;

  bool full() const { return !FullBecause.empty(); }
};

/// The incremental collect \p P (a selection in the coverage mode from the
/// newest snapshot to the head) asks for.
IncrementalCollect incrementalCollect(const Plan &P);

/// Sets \p C's OldestRun and CommitsBehind from the newest result of each
/// carried-over test in \p S, counted back from \p Head in \p Repo: how
/// long ago the oldest carried-over coverage was last collected (a full
/// collect refreshes it). A commit the repository lacks is left out.
llvm::Error measureCarriedAge(const git::Repository &Repo, Store &S,
                              llvm::StringRef Head, IncrementalCollect &C);

/// One line saying what the collect will do: "incremental: 3 tests
/// selected by the changes since 5d1c2e3 (1 never covered); the other 11
/// keep their coverage", or why every test runs.
std::string incrementalIntent(const IncrementalCollect &C);

/// The tail of the collect's summary line: "; 11 carried over (the oldest
/// last ran at 5d1c2e3, 2 commits back), 1 never covered"; \p Carried is
/// how many discovered tests were carried over.
std::string incrementalSummary(const IncrementalCollect &C, unsigned Carried);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_INCREMENTAL_H
