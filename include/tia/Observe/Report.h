//===- tia/Observe/Report.h - what observed runs say about selection ------===//
//
// `tia observed`: every failure of the observed runs classed as caught
// (the asked mode would have run it), escaped (it would not have, and the
// failure is real) or unstable (a flaky test, or one that passed again at
// the same commit), with escape rates, the reduction each mode would have
// given, what the budget cut, and why each escape was not selected.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_OBSERVE_REPORT_H
#define TIA_OBSERVE_REPORT_H

#include "tia/Observe/Record.h"

namespace tia {
namespace observe {

/// The version of `tia observed --format json`.
constexpr int ReportVersion = 1;

enum class Class {
  Caught,   ///< the asked mode would have run it
  Escaped,  ///< it would not have, and the failure is real
  Unstable, ///< flaky, or it passed again at the same commit
};

/// "caught", "escaped", "unstable".
llvm::StringRef className(Class C);

struct ClassifiedFailure {
  std::string Id;
  Class Kind = Class::Caught;
  Fate AskedFate = Fate::Selected;
  std::map<std::string, Fate> Fates;
  /// Unstable: why ("flaky: flipped 2 of 5 times", "passed on a retry at
  /// the same commit"). Escaped: what missed it ("not selected: ...",
  /// "cut by --max-tests 3").
  std::string Why;
  /// Escaped: the explanation recorded at the run.
  std::vector<std::string> Explanation;
};

/// One observed run and its classed failures.
struct RunReport {
  int64_t RunId = 0;
  std::string Commit;
  int64_t StartedAt = 0;
  Record Rec;
  std::vector<ClassifiedFailure> Failures; ///< sorted by id
  unsigned Caught = 0, Escaped = 0, Unstable = 0;
};

/// The counts of one mode over every run that recorded it.
struct ModeTotals {
  std::string Mode;
  unsigned Runs = 0;
  unsigned Caught = 0, Escaped = 0; ///< unstable failures left out
  unsigned Tests = 0, WouldRun = 0;
  double Seconds = 0, WouldRunSeconds = 0;
};

struct Report {
  std::vector<RunReport> Runs; ///< oldest first
  /// Records this tia cannot read (another version), skipped: "run 4:
  /// ...".
  std::vector<std::string> Skipped;
  unsigned Caught = 0, Escaped = 0, Unstable = 0;
  /// The asked modes over every run: the tests the runs ran, those the
  /// selection would have run, and their seconds.
  unsigned Tests = 0, WouldRun = 0;
  double Seconds = 0, WouldRunSeconds = 0;
  /// By mode, in the order combined, coverage, static.
  std::vector<ModeTotals> Modes;
  /// The asked mode's budget: runs where it cut tests, the tests it cut,
  /// and the cut tests that failed (not unstable).
  unsigned BudgetRuns = 0, BudgetCut = 0, BudgetCutFailures = 0;
  double BudgetCutSeconds = 0;
};

/// What the report is made from.
struct ReportInput {
  std::vector<RunRecord> Runs;                 ///< every run
  std::vector<StoredObservation> Observations; ///< oldest first
  /// Every result of the runs at or after the oldest observed run.
  std::vector<RunResult> Results;
  /// The flaky tests, as the selection policy sees them.
  std::vector<FlakyTest> Flaky;
};

/// Classes every failure of every observed run.
Report makeReport(const ReportInput &In);

/// escaped / (caught + escaped); 0 without such failures.
double escapeRate(unsigned Caught, unsigned Escaped);

/// "observed 3 runs: 4 failures, 1 caught, 2 escaped, 1 unstable (escape
/// rate 66.7%); the selection would have run 40.0% of the tests".
std::string summaryLine(const Report &R);

void writeText(const Report &R, llvm::raw_ostream &OS);
void writeJson(const Report &R, llvm::raw_ostream &OS);
void writeMarkdown(const Report &R, llvm::raw_ostream &OS);

} // namespace observe
} // namespace tia

#endif // TIA_OBSERVE_REPORT_H
