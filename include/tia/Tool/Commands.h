//===- tia/Tool/Commands.h - the commands, callable from tests ------------===//
//
// Each command takes its options as a struct and its output streams as
// parameters, so that a unit test can run a whole command. They return an
// llvm::Error for the driver to print as one line.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_TOOL_COMMANDS_H
#define TIA_TOOL_COMMANDS_H

#include "tia/Collect/Request.h"
#include "tia/Coverage/Coverage.h"
#include "tia/Index/Workspace.h"
#include "tia/Predict/Predict.h"
#include "tia/Report/Report.h"
#include "tia/Results/JUnit.h"
#include "tia/Select/Static.h"
#include "tia/Support/Shard.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace tool {

/// Options every command shares.
struct GlobalOptions {
  /// --db; empty: $TIA_DB, else .tia/tia.db at the repository root.
  std::string Db;
  /// Directory the command runs in (the process's by default).
  std::string WorkingDir;
  /// No progress and no summary.
  bool Quiet = false;
  /// Clang's resource directory; empty: the default.
  std::string ResourceDir;
};

/// `tia index` (index::indexIn).
using IndexOptions = index::IndexOptions;

/// `tia merge OUT IN...`.
struct MergeOptions {
  std::string Output;              ///< OUT: new, or a database to add to
  std::vector<std::string> Inputs; ///< the shard databases
};

struct CoverageImportOptions {
  coverage::Format Fmt = coverage::Format::Lcov;
  std::string TestId;
  /// Revision the coverage was collected at; empty: HEAD.
  std::string Commit;
  std::vector<std::string> Files;
};

/// `tia collect --pytest` (collect::collectPytestIn).
using CollectPytestOptions = collect::PytestRequest;
/// `tia collect` (collect::collectIn).
using CollectCommandOptions = collect::CollectRequest;

struct ResultsImportOptions {
  results::Runner Hint = results::Runner::Auto;
  /// The GoogleTest binary; empty: from each file's name.
  std::string Binary;
  /// Where pytest ran, relative to the repository root.
  std::string PytestDir;
  /// Revision the tests ran at; empty: HEAD.
  std::string Commit;
  std::vector<std::string> Files;
};

/// What select, explain and run share: which change, which policy limits.
struct SelectCommandOptions {
  /// Empty: select.base of .tia.yaml.
  std::string Base;
  std::optional<std::string> Head; ///< std::nullopt: the work tree
  /// std::nullopt: output.format of .tia.yaml.
  std::optional<report::Format> Format;
  /// std::nullopt: output.exclusion of .tia.yaml.
  std::optional<bool> Exclusion;
  bool Explain = false;
  /// --all: select every test.
  bool All = false;
  /// std::nullopt: select.max_tests / select.time_budget of .tia.yaml.
  std::optional<unsigned> MaxTests;
  std::optional<double> TimeBudget;
  /// Compare the compile commands of BUILD_DIR/compile_commands.json with
  /// the indexed ones; empty: do not.
  std::string BuildDir;
  /// How elements map to tests (Python: coverage, the name graph or both).
  select::SelectionMode Mode = select::SelectionMode::Combined;
  /// Ablations of static selection (hidden options, for benchmarks).
  bool ContextMatching = true, CriticalPruning = true;
  /// --order predicted: order the selection by the newest model's failure
  /// probabilities (the heuristic order without a usable model).
  bool OrderPredicted = false;
  /// --predict-top N|P%: keep only the most likely tests of the ordered
  /// selection, a predictive subset (partial and unsafe).
  predict::TopCut PredictTop;
  /// --exit-code: say in the exit code that every test was selected (3) or
  /// the selection was cut (4); without it any valid selection exits 0.
  bool ExitCode = false;
  /// --covered-findings: the findings formats also report the changed
  /// functions selected tests reach.
  bool CoveredFindings = false;
};

/// Exit codes of `tia select --exit-code` (docs/UserGuide.md); without
/// --exit-code every valid selection exits 0, as `git diff` does without
/// its --exit-code.
enum SelectExitCode {
  SelectedSome = 0,    ///< the selection tia computed (possibly empty)
  SelectedAll = 3,     ///< every test, because of a fallback
  SelectedPartial = 4, ///< the budget or a prediction cut the selection
};

struct ExplainOptions {
  SelectCommandOptions Select;
  /// The test id (or an unambiguous ending of one, "VectorTest.Length").
  std::string Test;
};

struct RunOptions {
  SelectCommandOptions Select;
  /// The runner and its arguments: "ctest ...", "build/x_test ...",
  /// "pytest ...".
  std::vector<std::string> Command;
  /// Which runner it is; Auto: from the program's name.
  results::Runner Kind = results::Runner::Auto;
  /// Pass the tests to run rather than those to skip.
  bool Inclusion = false;
  /// Run every test and record the selection tia would have made
  /// (`tia observed` reports on it).
  bool Observe = false;
};

enum class ObservedFormat { Text, Json, Markdown };

struct ObservedOptions {
  ObservedFormat Format = ObservedFormat::Text;
};

enum class DumpWhat {
  Elements,
  Tests,
  Coverage,
  Results,
  References,
  Definitions,
  Names,
  Evidence,
  Flaky,
  Observations,
  Files,
  Boundaries
};

struct DumpOptions {
  DumpWhat What = DumpWhat::Elements;
  std::string File; ///< only this repository-relative file (elements)
  bool Hashes = false;
};

enum class ReportFormat { Text, Ids, Json };

struct TrainCommandOptions {
  /// Only runs started at or after this time (seconds since the epoch;
  /// 0: all).
  int64_t Since = 0;
  std::string Head = "HEAD";
  /// Hyperparameter candidates ("max_depth=3 eta=0.1 rounds=100"); empty:
  /// the built-in grid.
  std::vector<std::string> Params;
  unsigned Jobs = 1;                        ///< XGBoost's threads
  ReportFormat Format = ReportFormat::Text; ///< Text or Json
};

struct RankCommandOptions {
  std::string Base = "HEAD";
  std::optional<std::string> Head; ///< std::nullopt: the work tree
  /// Only these tests (a safe selection); empty: every known test.
  std::vector<std::string> Tests;
  /// Keep the first N tests, or the first P% (inactive: all).
  predict::TopCut Top;
  /// Keep the first tests whose recent durations add up to at most this
  /// many seconds (0: no budget).
  double TimeBudget = 0;
  ReportFormat Format = ReportFormat::Text;
  /// --exit-code: exit SelectedPartial when a cut left tests out.
  bool ExitCode = false;
};

/// What `tia eval replay` and `tia eval mutants` share: how to build and
/// test each version, in a scratch clone of the repository.
struct EvalBuildOptions {
  /// Shell command that builds a checked-out version, run at the root of
  /// the scratch clone; empty: nothing to build.
  std::string Build;
  /// Build directory of the tests, relative to the root (ctest); used when
  /// it holds CTestTestfile.cmake after the build.
  std::string BuildDir = "build";
  /// Also run the Python tests with pytest.
  bool Pytest = false;
  /// The Python that runs pytest; empty: as tia collect --pytest finds it.
  std::string Python;
  /// Test processes at once in each collection (0: one per core).
  unsigned Jobs = 0;
  /// Collect only the ctest tests whose ids match one of these globs
  /// ("gtest:*"); empty: every test.
  std::vector<std::string> Only;
  /// A folder to keep the scratch clone in; empty: a temporary one.
  std::string Scratch;
  ReportFormat Format = ReportFormat::Text; ///< Text: Markdown
};

struct EvalReplayOptions {
  EvalBuildOptions Run;
  std::string From, To; ///< the range From..To
  bool FirstParent = false;
  /// Shell command that runs the whole test suite: the retest-all time;
  /// empty: the sum of the collected tests' durations.
  std::string TestCommand;
  /// The selection modes to measure, each against the same ground truth;
  /// empty: combined only.
  std::vector<select::SelectionMode> Modes;
};

struct EvalMutantsOptions {
  EvalBuildOptions Run;
  /// Mutate only the functions the range From..To changed, at To; empty:
  /// any function, at HEAD.
  std::string From, To;
  unsigned Count = 10; ///< mutants to make
  /// --mutate: globs of the files whose functions may be mutated.
  std::vector<std::string> Mutate;
  /// --modes: the one mode the mutants' selections are made in.
  select::SelectionMode Mode = select::SelectionMode::Combined;
};

/// Parses --since: "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS" (UTC), to seconds
/// since the epoch. Fails with "bad date 'TEXT': use YYYY-MM-DD".
llvm::Expected<int64_t> parseDate(llvm::StringRef Text);

llvm::Error runEvalReplay(const GlobalOptions &G, const EvalReplayOptions &O,
                          llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runEvalMutants(const GlobalOptions &G, const EvalMutantsOptions &O,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runIndex(const GlobalOptions &G, const IndexOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runCoverageImport(const GlobalOptions &G,
                              const CoverageImportOptions &O,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err);
/// `tia coverage repair`: Store::repairCoverage on the database, a warning
/// per test whose coverage was dropped and a one-line summary on \p Err.
llvm::Error runCoverageRepair(const GlobalOptions &G, llvm::raw_ostream &Out,
                              llvm::raw_ostream &Err);
/// `tia merge`: merge::mergeInto of the shard databases into OUT, a
/// warning per missing shard and a one-line summary on \p Err.
llvm::Error runMerge(const GlobalOptions &G, const MergeOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runCollectPytest(const GlobalOptions &G,
                             const CollectPytestOptions &O,
                             llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runCollect(const GlobalOptions &G, const CollectCommandOptions &O,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runResultsImport(const GlobalOptions &G,
                             const ResultsImportOptions &O,
                             llvm::raw_ostream &Out, llvm::raw_ostream &Err);
/// Returns the exit code of a selection that succeeded: 0, or with
/// O.ExitCode its SelectExitCode.
llvm::Expected<int> runSelect(const GlobalOptions &G,
                              const SelectCommandOptions &O,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runExplain(const GlobalOptions &G, const ExplainOptions &O,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err);
/// Returns the runner's exit code; when the runner succeeded and
/// O.Select.ExitCode is set, the selection's SelectExitCode.
llvm::Expected<int> runRun(const GlobalOptions &G, const RunOptions &O,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runObserved(const GlobalOptions &G, const ObservedOptions &O,
                        llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runDump(const GlobalOptions &G, const DumpOptions &O,
                    llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error runTrain(const GlobalOptions &G, const TrainCommandOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err);
/// Returns 0, or with O.ExitCode SelectedPartial when --top or
/// --time-budget cut the ranking.
llvm::Expected<int> runRank(const GlobalOptions &G, const RankCommandOptions &O,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace tool
} // namespace tia

#endif // TIA_TOOL_COMMANDS_H
