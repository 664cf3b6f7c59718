//===- tia/Select/Policy.h - from changed elements to the tests to run ----===//
//
// The selection policy on top of the change -> element -> covering-tests
// engine (Selection.h): impacted ∪ previously failing ∪ newly added, every
// test when tia cannot reason about a change, then an order and an optional
// budget. Every rule leaves its reason on the tests it adds. The result, a
// Plan, is what every output format is written from.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_POLICY_H
#define TIA_SELECT_POLICY_H

#include "tia/Config/Config.h"
#include "tia/Select/Selection.h"
#include "tia/Store/Store.h"
#include "tia/Support/CaseFilters.h"
#include "llvm/Support/Error.h"
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace select {

/// Why a test is selected.
enum class ReasonKind {
  Covers,            ///< it covers a changed element
  Related,           ///< it covers an element a new element may replace
  Fallback,          ///< tia cannot reason about a change: every test
  PreviouslyFailing, ///< its latest outcome was a failure
  NewTest,           ///< the coverage map has never seen it
  ChangedTest,       ///< its own code changed
};

/// Returns "covers", "related", "fallback", "previously-failing",
/// "new-test" or "changed-test".
llvm::StringRef reasonName(ReasonKind K);

struct TestReason {
  ReasonKind Kind = ReasonKind::Covers;
  /// Covers and Related: index into Plan::Changes.Elements.
  size_t Element = NoIndex;
  /// Fallback: index into Plan::Changes.Fallbacks.
  size_t Fallback = NoIndex;
  /// Covers (by a rule other than covering the element itself), Related
  /// and a scoped Fallback: how the test reaches the change ("covers
  /// same-named f(int)"); the other kinds: one line for people. Empty when
  /// the test covers the element itself, and for a fallback to all.
  std::string Detail;
  /// NewTest and ChangedTest: the file defining the test, when known.
  std::string File;
  /// Covers, Related and Fallback: the engine's rule that linked them.
  Rule Applied = Rule::Covers;
  /// Covers and Related: what links the test to the element (the coverage
  /// map, static analysis, or the test's own source).
  Evidence By = Evidence::Coverage;
  /// Covers: the build object the test ran the element in, when it is not
  /// its own program (select::Reason::Through).
  std::string Through;
  /// How import-time code reaches the element (select::Reason::AtImport).
  std::string AtImport;
};

struct PlannedTest {
  std::string Id;
  std::vector<TestReason> Reasons;
  /// The id comes from a test definition no recorded test matches yet: its
  /// name is the definition's ("gtest:<binary>:Suite.Name", which for a
  /// parameterized or typed test stands for its instantiations;
  /// "gtest:*:Suite.Name" when no test of its file ran yet, so the binary
  /// is unknown).
  bool FromDefinition = false;
  bool PreviouslyFailing = false;
  /// The distinct changed elements its Covers and Related reasons name.
  unsigned ChangedElementsCovered = 0;
  /// Failures among its recorded results (0 without results).
  double FailureRate = 0;
  /// Expected duration: the mean of its recorded durations, else an
  /// estimate (SecondsKnown false).
  double Seconds = 0;
  bool SecondsKnown = false;
  /// The model's predicted failure probability (--order predicted); NaN
  /// when no model ordered the tests.
  double Probability = std::numeric_limits<double>::quiet_NaN();

  bool has(ReasonKind K) const;
};

/// The coverage snapshot a selection used.
struct SnapshotUse {
  CoverageSnapshot Snapshot;
  /// The commit the diff starts from: the merge base of the commits its
  /// tests' coverage was collected at.
  std::string DiffFrom;
  /// Commits between DiffFrom and the base.
  unsigned CommitsBehindBase = 0;
  /// Committer time of the snapshot's commit, seconds since the epoch.
  int64_t CommitTime = 0;
};

/// Limits on what runs; 0: none.
struct Budget {
  unsigned MaxTests = 0;
  double Seconds = 0;
  bool active() const { return MaxTests || Seconds > 0; }
};

/// Why nothing needs to run, when that is so.
enum class QuietChange {
  None,     ///< something may need testing
  Nothing,  ///< no file changed
  Docs,     ///< only files of the default select.ignore list changed
  Ignored,  ///< only files select.ignore names changed
  Comments, ///< only comments and whitespace changed
  NoEffect, ///< only changes with no effect (comments, renames, coverage
            ///< data, ignored files)
};

/// How the tests of a plan were ordered, and whether a prediction cut them.
struct Ordering {
  /// --order predicted was asked for.
  bool PredictedAsked = false;
  /// A model ordered them ("model #3"); empty: the heuristic order.
  std::string Model;
  /// Why the heuristic order was used although predicted was asked.
  std::string Why;
  /// --predict-top, or the budget in a model's order, cut the ordered
  /// selection: a predictive subset, unsafe.
  bool PredictiveCut = false;
  /// The options that cut it ("--predict-top 10%", "--time-budget 30").
  std::string CutAsked;
  /// For a predictive cut: the share of validation failures such a cut
  /// caught (0..1); std::nullopt without a model curve.
  std::optional<double> Confidence;
};

/// The selection: what changed, which tests run, in which order, and why.
struct Plan {
  /// The engine's view of the change: changed files, elements, fallbacks,
  /// notes, revisions. (Its Tests are the impacted tests only; the policy's
  /// result is Selected.)
  Selection Changes;
  /// The tests to run, in order.
  std::vector<PlannedTest> Selected;
  /// Tests selected and then left out by the budget, in order.
  std::vector<PlannedTest> Cut;
  /// Every known test that is neither selected nor cut, sorted.
  std::vector<std::string> NotSelected;
  /// pytest ids the coverage map knows and the head does not define (a
  /// deleted or renamed test or file), left out; sorted.
  std::vector<std::string> Undefined;
  /// Instances of parametrized pytest functions whose file changed since
  /// they were recorded, each with the function id run in its place.
  std::vector<std::pair<std::string, std::string>> Widened;
  /// std::nullopt when no snapshot could be used (see the fallbacks).
  std::optional<SnapshotUse> Snapshot;
  /// Every known test and every test definition's id.
  unsigned TotalTests = 0;
  Budget Limits;
  /// A fallback selected every test, so the budget did not apply.
  bool BudgetIgnored = false;
  QuietChange Quiet = QuietChange::None;
  /// The ctest test each known lit test runs in (its suite's), by test id:
  /// ctest runs a lit test only by running that ctest test.
  std::map<std::string, std::string> EnclosingCTests;
  /// Flaky tests (their outcome flipped without a change) whose latest
  /// result failed: that failure is not a reason to select them.
  std::vector<FlakyTest> FlakyFailing;
  /// How Selected and Cut were ordered and cut (--order, --predict-top).
  Ordering Order;

  bool selectsAll() const { return Changes.selectsAll(); }
  bool partial() const { return !Cut.empty(); }
  /// The tests the exclusion form skips: not selected, or cut; sorted.
  std::vector<std::string> skippedIds() const;
  /// Expected seconds of the selected tests.
  double selectedSeconds() const;
};

struct PolicyOptions {
  /// Base, head and front end; Classify, DiffFrom, Snapshot and
  /// ExtraElements are the policy's to set.
  SelectOptions Select;
  config::SelectConfig Config;
  /// Non-empty: select every test, and this says who asked ("--all",
  /// "TIA_ALL=1").
  std::string AllRequestedBy;
  Budget Limits;
  /// Non-empty: compare the compile commands of
  /// BUILD_DIR/compile_commands.json with the indexed ones.
  std::string BuildDir;
  /// A test whose outcome flipped without a change in the runs of this many
  /// days before the newest run is flaky: its failures are not "previously
  /// failing" (predict.flaky-window-days).
  unsigned FlakyWindowDays = 56;
};

/// Selects the tests for \p O's change. Fails like selectTests (unknown
/// revision, never indexed), and for a BuildDir without a compilation
/// database.
llvm::Expected<Plan> plan(git::Repository &Repo, Store &S,
                          const PolicyOptions &O);

//===----------------------------------------------------------------------===//
// The pure parts, exposed for tests
//===----------------------------------------------------------------------===//

/// Sorts \p Tests into run order: previously failing first, then more
/// changed elements covered, then a higher failure rate, then shorter,
/// then by id.
void orderTests(std::vector<PlannedTest> &Tests);

/// Moves the tail of \p P.Selected that \p P.Limits leaves out to P.Cut:
/// at most MaxTests tests, and tests while their expected seconds add up to
/// at most Seconds (the first test always stays). Does nothing when a
/// fallback selects every test (it sets BudgetIgnored instead), unless
/// \p EvenWhenAll (a predictive order, whose cut is marked unsafe).
void applyBudget(Plan &P, bool EvenWhenAll = false);

/// True when GoogleTest name \p Full ("Inst/Suite.Name/2", "Typed/0.Size")
/// is an instance of the definition \p Pattern ("Suite.Name").
bool gtestNameMatches(llvm::StringRef Full, llvm::StringRef Pattern);

/// Whether case name \p Full (of a known id) is an instance of definition
/// \p Definition: gtestNameMatches for GoogleTest; for Catch2 the same
/// name, or "Definition - Type" of a TEMPLATE_TEST_CASE.
bool caseNameMatches(CaseFramework F, llvm::StringRef Full,
                     llvm::StringRef Definition);

/// What differs between two compile commands of one file, for people:
/// "added -DFAST; removed -O2" (at most three of each), or the directories.
std::string commandDifference(const CompileCommand &Old,
                              const CompileCommand &New);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_POLICY_H
