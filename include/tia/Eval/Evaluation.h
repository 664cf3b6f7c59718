//===- Evaluation.h - tia eval replay and tia eval mutants ------*- C++ -*-===//
//
// The two evaluations, run in a scratch clone: replaying history (at each
// commit, every mode's selection against the parent's map, then the
// commit's own map, whose results are the ground truth) and mutating
// functions (the selection for each mutant against the tests it makes
// fail). What is run at a version (the build command, index, collect,
// select) comes from the caller through VersionSteps: the commands' own
// pipelines, which lib/Tool provides.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_EVALUATION_H
#define TIA_EVAL_EVALUATION_H

#include "tia/Eval/Mutants.h"
#include "tia/Eval/ReplayJournal.h"
#include "tia/Eval/Scratch.h"
#include "tia/Eval/SelectionReplay.h"
#include "tia/Git/History.h"
#include "tia/Git/Repository.h"
#include "tia/Select/Policy.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

namespace tia {
namespace eval {

/// What the evaluations run at one version of the scratch clone.
class VersionSteps {
public:
  virtual ~VersionSteps() = default;
  /// Runs the build command; fails naming \p Commit. Its seconds.
  virtual llvm::Expected<double> build(llvm::StringRef Commit) = 0;
  /// Indexes the clone into its database. Its seconds.
  virtual llvm::Expected<double> index() = 0;
  /// Runs every test with its coverage into \p Db (the clone's database
  /// when empty); the results of the runs it recorded. A \p Db is given
  /// for a mutant's run, whose outcomes alone count: a collect that failed
  /// after recording them (pytest crashed) is then no error.
  virtual llvm::Expected<std::vector<TestResult>>
  collect(llvm::StringRef Commit, double &Seconds, llvm::StringRef Db = "") = 0;
  /// The selection for \p Base..\p Head with the clone's database (or
  /// \p Db) in \p Mode.
  virtual llvm::Expected<select::Plan>
  select(llvm::StringRef Base, llvm::StringRef Head, double &Seconds,
         llvm::StringRef Db = "",
         select::SelectionMode Mode = select::SelectionMode::Combined) = 0;
};

/// Seconds of wall time since \p Start: what the reports give each step.
double secondsSince(std::chrono::steady_clock::time_point Start);

/// The commits of \p From..\p To (oldest first); fails when there is none.
llvm::Expected<std::vector<git::CommitInfo>>
commitsOf(const git::Repository &Repo, llvm::StringRef From, llvm::StringRef To,
          bool FirstParent);

struct ReplayRequest {
  std::string From, To;
  bool FirstParent = false;
  std::string Build;       ///< the build command, for the report
  std::string TestCommand; ///< run at each commit; empty: none
  std::vector<select::SelectionMode> Modes; ///< empty: combined
  bool Quiet = false;
  /// --scratch: the folder of a kept clone; empty: a temporary one.
  std::string Scratch;
  /// What else decides the measures besides the fields above (tests run,
  /// build folder): a kept replay goes on only with the same.
  llvm::json::Object Settings;
};

/// Replays \p Commits (commitsOf) in \p S: progress and warnings to \p Err.
/// With \p Journal, the commits it holds are read from it rather than
/// measured again, and each commit measured is written to it.
llvm::Expected<ReplayReport>
replayHistory(ScratchClone &S, VersionSteps &Steps,
              const std::vector<git::CommitInfo> &Commits,
              const ReplayRequest &R, llvm::raw_ostream &Err,
              ReplayJournal *Journal = nullptr);

/// --mutate: the files whose functions may be mutated, by glob patterns of
/// their repository-relative paths ('*' matches '/' too).
class MutatedFiles {
public:
  /// Fails for a bad pattern ("bad --mutate pattern 'P': why").
  static llvm::Expected<MutatedFiles> parse(std::vector<std::string> Globs);
  /// Whether \p Path may be mutated: any file when no pattern was given.
  bool contains(llvm::StringRef Path) const;
  /// The patterns as given, joined by " or "; empty without any.
  std::string describe() const;
  const std::vector<std::string> &patterns() const { return Globs; }

private:
  std::vector<std::string> Globs;
  std::vector<llvm::GlobPattern> Patterns;
};

struct MutantsRequest {
  std::string Head; ///< the commit mutated
  /// With a range: only the functions it changed (From is its base).
  std::string From, Range;
  size_t Count = 10;
  MutatedFiles Files; ///< --mutate; any file by default
  std::string Build;  ///< the build command; empty: none
  bool Quiet = false;
  /// The mode each mutant's selection is made in.
  select::SelectionMode Mode = select::SelectionMode::Combined;
  /// --scratch: the folder of a kept clone; empty: a temporary one.
  std::string Scratch;
};

/// Mutates up to R.Count functions at R.Head in \p S, one at a time,
/// selecting for each mutant and running the tests against it.
llvm::Expected<MutantsReport> mutateAndSelect(ScratchClone &S,
                                              VersionSteps &Steps,
                                              const MutantsRequest &R,
                                              llvm::raw_ostream &Err);

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_EVALUATION_H
