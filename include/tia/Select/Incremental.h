//===- tia/Select/Incremental.h - a map updated by what a change affects --===//
//
// `tia collect --incremental` on the main branch: the tests the change
// since the newest usable coverage snapshot can affect are run with
// coverage, with the new and never-covered ones; every other test's
// coverage in that snapshot is carried over to the new commit. The
// selection decides, so the update is as safe as a selection from that
// snapshot: a test it leaves out is unaffected by everything that changed
// since the merge base of the snapshot's commits, which is the claim any
// selection makes for a test it skips (docs/Safety.md).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_INCREMENTAL_H
#define TIA_SELECT_INCREMENTAL_H

#include "tia/Config/Workspace.h"
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
  /// The snapshot the selection read: the coverage carried over is its.
  int64_t Snapshot = 0;
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
/// last ran at 5d1c2e3, 2 commits back), 1 never covered". \p Carried is
/// how many tests' coverage was carried to the new commit; \p LeftOut how
/// many discovered tests were not run; a shard (\p Sharded) carries none
/// over and says so.
std::string incrementalSummary(const IncrementalCollect &C, unsigned Carried,
                               unsigned LeftOut, bool Sharded);

/// What `collect --incremental` runs in \p W: a selection in the coverage
/// mode from the newest snapshot to HEAD decides (docs/CI.md, "Incremental
/// collection"), with no budget, and with the compile commands of
/// \p BuildDir when it holds compile_commands.json; the age of what it
/// carries measured. Fails like planRequest and measureCarriedAge.
llvm::Expected<IncrementalCollect>
planIncrementalCollect(const config::Workspace &W, llvm::StringRef BuildDir,
                       llvm::StringRef ResourceDir);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_INCREMENTAL_H
