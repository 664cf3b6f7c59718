//===- tia/Eval/SelectionReplay.h - selection measured against history ----===//
//
// What `tia eval replay` measures at each commit of a range: the tests tia
// selected against the parent with the parent's coverage, and the tests the
// commit really affected (the ground truth, from the coverage collected at
// the commit itself and at the parent). From them the usual regression test
// selection figures: TestR (tests skipped), precision, SafeR (commits where
// every affected test was selected) and TimeR (time saved, tia's own cost
// counted). The orchestration (checkouts, builds, collections) is the
// driver's; this library holds the measures and the reports, so that they
// are tested without building anything.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_SELECTIONREPLAY_H
#define TIA_EVAL_SELECTIONREPLAY_H

#include "tia/Select/Policy.h"
#include "tia/Support/Model.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace eval {

/// An affected test tia did not select, and why it did not.
struct MissedTest {
  std::string Test;
  std::string Reason; ///< one line for people
};

/// One framework's part of a commit's tests (lit, gtest, pytest, ...).
struct FrameworkCounts {
  unsigned Tests = 0, Selected = 0, Affected = 0;
};

/// What one replayed commit measured.
struct CommitMeasure {
  std::string Commit;  ///< 40 hex digits
  std::string Parent;  ///< its first parent
  std::string Summary; ///< the commit message's first line

  /// The tests that ran at the commit, and the files defining them.
  unsigned Tests = 0, TestFiles = 0;
  /// Of those, the ones tia selected against the parent.
  unsigned Selected = 0, SelectedFiles = 0;
  /// Of those, the ones the commit affected (ground truth).
  unsigned Affected = 0, AffectedFiles = 0;
  /// Affected and selected.
  unsigned AffectedSelected = 0;
  std::vector<std::string> AffectedTests; ///< sorted
  std::vector<MissedTest> Missed;         ///< sorted by test
  /// Tests, Selected and Affected by the framework of each test's id (the
  /// part before the first ':'): the share of the lit suite a commit
  /// selects apart from that of the unit tests. Empty in a measure read
  /// from a report that did not have them.
  std::map<std::string, FrameworkCounts> ByFramework;
  /// Elements the commit changed (every kind), as the selection saw them.
  unsigned ChangedElements = 0;
  /// "KIND FILE" of each fallback the selection took.
  std::vector<std::string> Fallbacks;
  bool SelectedAll = false;

  /// Wall-clock seconds of each step.
  double BuildSeconds = 0, IndexSeconds = 0, SelectSeconds = 0,
         CollectSeconds = 0;
  /// The retest-all baseline: the --test-cmd run when there is one, else
  /// the sum of every test's duration in the collection.
  double AllTestsSeconds = 0;
  /// The selected tests' durations in the collection, summed.
  double SelectedTestsSeconds = 0;
  /// --test-cmd ran, and its exit code.
  bool TestCommandRan = false;
  int TestCommandExit = 0;

  /// Every affected test was selected.
  bool safe() const { return Missed.empty(); }
  /// Tests skipped / all tests (0 without tests).
  double testReduction() const;
  /// Affected among selected; std::nullopt when nothing was selected.
  std::optional<double> precision() const;
  /// tia's own cost: indexing, selecting, and what the collection took
  /// beyond the retest-all baseline (coverage instrumentation, one process
  /// per test); never negative.
  double overheadSeconds() const;
  /// 1 - (selected tests' time + overhead) / retest-all time;
  /// std::nullopt when the baseline took no time.
  std::optional<double> timeReduction() const;
  /// The same without the collection's cost: what TimeR would be with the
  /// coverage map kept up to date elsewhere (a nightly collection).
  std::optional<double> timeReductionWithoutCollection() const;
};

/// Every commit's measure and the totals, for one selection mode.
struct ReplayReport {
  std::string From, To; ///< as given
  bool FirstParent = false;
  std::string Build, TestCommand;
  /// The selection mode measured ("combined", "coverage", "static").
  std::string Mode = "combined";
  std::vector<CommitMeasure> Commits;
  double Seconds = 0; ///< the whole replay, set-up included
  /// Of the commits, those a kept replay's journal held: measured by an
  /// earlier run, whose seconds they keep.
  unsigned FromJournal = 0;
  /// With several modes (--modes): the report of each mode after the first
  /// (which is this one), measured against the same builds, collections and
  /// ground truth. Their own Others are empty.
  std::vector<ReplayReport> Others;

  unsigned tests() const;
  unsigned selected() const;
  unsigned affected() const;
  /// The commits' test files, summed (a file counts once per commit).
  unsigned testFiles() const;
  unsigned selectedFiles() const;
  unsigned affectedFiles() const;
  unsigned affectedSelected() const;
  unsigned missed() const;
  unsigned safeCommits() const;
  /// Over all commits: 1 - sum(selected) / sum(tests).
  double testReduction() const;
  /// sum(affected and selected) / sum(selected); std::nullopt when nothing
  /// was selected.
  std::optional<double> precision() const;
  /// Safe commits / commits; std::nullopt without commits.
  std::optional<double> safeReduction() const;
  /// 1 - sum(selected time + overhead) / sum(retest-all time).
  std::optional<double> timeReduction() const;
  std::optional<double> timeReductionWithoutCollection() const;
};

/// What the replay observed at the parent and at the commit, besides the
/// selection.
struct Observed {
  /// The coverage snapshots of the parent and of the commit; 0: none.
  int64_t ParentSnapshot = 0, CommitSnapshot = 0;
  /// The results of the collections at the parent and at the commit.
  std::vector<TestResult> ParentResults, CommitResults;
  /// The files the commit changed against its parent (both paths of a
  /// rename). A selection diffs from its coverage's commit, which may lie
  /// behind the parent; only the elements of these files are the commit's
  /// own changes. std::nullopt: every changed element counts.
  std::optional<std::set<std::string>> CommitFiles;
};

/// True when \p Selected (a plan's ids, which may be definitions standing
/// for instances: "gtest:*:Suite.Name", "gtest:bin:Suite.Name" for
/// "Inst/Suite.Name/2", "pytest:t.py::test_x" for "pytest:t.py::test_x[1]")
/// includes test \p Id.
bool selectionIncludes(const std::vector<std::string> &Selected,
                       llvm::StringRef Id);

/// The file that defines test \p Id, from \p Files (test id -> file); else
/// the GoogleTest binary, or the pytest file of the node id; else the id.
std::string testFileOf(llvm::StringRef Id,
                       const llvm::StringMap<std::string> &Files);

/// Fills \p M's test counts, ground truth and misses from plan \p P (made
/// against the parent) and \p O. A test is affected when it ran at the
/// commit and (a) covers, at the commit, an element the commit added or
/// modified, (b) covered, at the parent, an element the commit modified or
/// deleted, or (c) failed at the commit after passing at the parent.
/// Fails on a store error.
llvm::Error measure(Store &S, const select::Plan &P, const Observed &O,
                    const llvm::StringMap<std::string> &TestFiles,
                    CommitMeasure &M);

/// The report as JSON (docs/Formats.md, "tia eval replay"); with several
/// modes, the first mode's report with a "modes" array of every mode's.
void writeReplayJson(const ReplayReport &R, llvm::raw_ostream &OS);
/// One commit of the JSON report ("commits" of docs/Formats.md), and the
/// measure read back from it (seconds rounded to the millisecond); an
/// error names the first field missing or of the wrong kind.
void writeCommitJson(llvm::json::OStream &J, const CommitMeasure &M);
llvm::Expected<CommitMeasure> readCommitJson(const llvm::json::Value &V);
/// The report as a Markdown table, then the missed tests; with several
/// modes, a table comparing them per commit, their totals, then the missed
/// tests of each.
void writeReplayMarkdown(const ReplayReport &R, llvm::raw_ostream &OS);
/// writeReplayJson when \p Json, else writeReplayMarkdown; then flushes
/// \p OS, so that the report comes before any summary on another stream.
void writeReplay(const ReplayReport &R, bool Json, llvm::raw_ostream &OS);
/// "replayed 3 commits in 12.0s: TestR 55.6%, precision 40.0%, SafeR 100.0%
/// (3/3), TimeR -12.0%; 0 missed tests"; with several modes, the figures of
/// each ("static: TestR ..., coverage: ...").
std::string replaySummary(const ReplayReport &R);

/// \p V as a percentage with one decimal ("55.6%"), "-" for none.
std::string percent(std::optional<double> V);

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_SELECTIONREPLAY_H
