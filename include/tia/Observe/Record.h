//===- tia/Observe/Record.h - an observed run's would-be selection --------===//
//
// An observed run (`tia run --observe`) runs the whole suite and keeps, with
// its results, the selection tia would have made for it in each mode. This
// library owns that record (made from the plans and the run's results,
// stored as versioned JSON) and the report `tia observed` makes from the
// records: every failure of an observed run classed as caught (the
// selection would have run it), escaped (it would not have), or unstable
// (a flaky test, or a failure that passed again at the same commit).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_OBSERVE_RECORD_H
#define TIA_OBSERVE_RECORD_H

#include "tia/Select/Policy.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tia {
namespace observe {

/// The version of the record's JSON (StoredObservation::FormatVersion).
constexpr int RecordVersion = 1;

/// What a selection would have done with one test of the observed run.
enum class Fate {
  Selected,    ///< it would have run
  Cut,         ///< selected, then left out by --max-tests or --time-budget
  NotSelected, ///< tia knew it and would have skipped it
  Unknown,     ///< tia did not know it: it runs in the exclusion form (the
               ///< default), not with --inclusion
};

/// "selected", "cut", "not-selected", "unknown".
llvm::StringRef fateName(Fate F);
std::optional<Fate> parseFate(llvm::StringRef Name);

/// One fallback of a mode's selection.
struct FallbackRecord {
  std::string Kind; ///< select::fallbackName
  std::string File;
  std::string Detail;
  std::string Scope; ///< "all" or "includers"
};

/// One test a mode selected, with its reasons ("covers", "fallback",
/// "previously-failing" ...; rule names for covers and related: "covers
/// (type-use)").
struct SelectedRecord {
  std::string Id;
  std::vector<std::string> Reasons;
};

/// The selection one mode would have made.
struct ModeRecord {
  std::string Mode;    ///< "combined", "coverage", "static"
  std::string Error;   ///< the selection failed in this mode; nothing else set
  std::string Summary; ///< report::summaryLine
  bool SelectsAll = false;
  std::vector<FallbackRecord> Fallbacks;
  /// Empty when SelectsAll (every test), else in run order.
  std::vector<SelectedRecord> Selected;
  std::vector<std::string> Cut; ///< in run order
  unsigned MaxTests = 0;        ///< the budget asked (0: none)
  double BudgetSeconds = 0;
  /// Of the observed run's tests: those that would have run, and their
  /// seconds in the run.
  unsigned WouldRun = 0;
  double WouldRunSeconds = 0;
  /// Of the observed run's tests: those the budget cut, and their seconds.
  unsigned CutRun = 0;
  double CutSeconds = 0;
};

/// A test that failed in the observed run.
struct FailureRecord {
  std::string Id;
  /// Its fate in each mode that did not fail, by mode name.
  std::map<std::string, Fate> Fates;
  /// Why the asked mode would not have run it (`tia explain` at that run);
  /// empty when it would have.
  std::vector<std::string> Why;
};

/// The record of one observed run.
struct Record {
  std::string Mode;       ///< the mode asked for (the one CI would use)
  std::string Runner;     ///< "ctest", "gtest", "pytest"
  bool Exclusion = true;  ///< the selection passed as the tests to skip
  std::string Base, Head; ///< commits; Head empty for a work tree
  std::vector<std::string> ChangedFiles;
  /// The observed run: its distinct tests and their seconds (every
  /// attempt).
  unsigned Tests = 0;
  double Seconds = 0;
  std::vector<ModeRecord> Modes;       ///< the asked mode first
  std::vector<FailureRecord> Failures; ///< sorted by id

  /// The record of mode \p Name; null when it was not recorded.
  const ModeRecord *mode(llvm::StringRef Name) const;
};

/// A mode's plan, or why it could not be made.
struct ModePlan {
  select::SelectionMode Mode = select::SelectionMode::Combined;
  const select::Plan *Plan = nullptr; ///< null: Error says why
  std::string Error;
};

/// Writes why \p Plan would not run test \p Id to its stream (the text of
/// `tia explain`); fails like the store.
using ExplainFn = std::function<llvm::Error(
    const select::Plan &Plan, llvm::StringRef Id, llvm::raw_ostream &OS)>;

/// What a record is made from, besides the plans.
struct RecordInput {
  std::string Runner;
  bool Exclusion = true;
  /// The observed run's results (every attempt).
  std::vector<TestResult> Results;
  ExplainFn Explain;
};

/// The record of a run with \p Results under the plans of \p Modes (the
/// asked mode first). Fails only when Explain fails.
llvm::Expected<Record> makeRecord(const std::vector<ModePlan> &Modes,
                                  const RecordInput &In);

/// What \p P would do with test \p Id, as the runner would be given it
/// (gtest definitions stand for their instances).
Fate fateOf(const select::Plan &P, llvm::StringRef Id);

/// True when the selection passed with \p Exclusion would run a test of
/// fate \p F.
bool wouldRun(Fate F, bool Exclusion);

/// \p R as the JSON text kept in the store (docs/Formats.md).
std::string recordJson(const Record &R);
/// Reads recordJson's text; fails for another version or a bad document,
/// naming what is wrong.
llvm::Expected<Record> parseRecord(llvm::StringRef Json, int FormatVersion);

} // namespace observe
} // namespace tia

#endif // TIA_OBSERVE_RECORD_H
