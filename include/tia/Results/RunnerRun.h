//===- tia/Results/RunnerRun.h - a runner's run and its report --*- C++ -*-===//
//
// `tia run` starts a test runner asked for a JUnit report at a temporary
// path, then imports that report as a run, so that the previously-failing
// set and the durations stay current. Whatever tia makes of the report,
// the run's outcome is the runner's.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_RESULTS_RUNNERRUN_H
#define TIA_RESULTS_RUNNERRUN_H

#include "tia/Config/Workspace.h"
#include "tia/Results/Runners.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace results {

/// The runner a command line starts.
struct RunnerCommand {
  Runner Kind = Runner::Auto; ///< never Auto
  std::string Binary;         ///< the program's file name, for messages
};

/// The runner \p Command (not empty) starts: \p Asked, or, for Auto, the one
/// recogniseCommand tells from \p WorkingDir.
RunnerCommand runnerOf(const std::vector<std::string> &Command, Runner Asked,
                       llvm::StringRef WorkingDir);

/// The JUnit report of a runner's run: at a temporary path tia asked for,
/// or where the user's own command asked the runner to write one (which
/// tia reads and leaves in place: a CI that keeps its report keeps it).
struct RunnerReport {
  std::string Path;
  bool UsersOwn = false;
  /// The user's report file before the run: a report the run did not
  /// rewrite is an earlier run's, not this one's.
  std::optional<llvm::sys::TimePoint<>> ModifiedBefore;

  /// The run wrote it.
  bool written() const;
  /// Removes tia's own report; leaves the user's.
  void discard() const;
};

/// Runs \p Program with \p Args (runRunner), in \p WorkingDir, asking
/// runner \p R for a JUnit report, unless \p Args already do
/// (reportAskedFor): \p Report says where. Returns the runner's exit code;
/// fails when the temporary directory cannot be written or the runner
/// cannot start.
llvm::Expected<int> runForReport(const RunnerCommand &R,
                                 llvm::StringRef Program,
                                 std::vector<std::string> Args,
                                 llvm::StringRef WorkingDir, bool Quiet,
                                 RunnerReport &Report, llvm::raw_ostream &Out,
                                 llvm::raw_ostream &Err);

/// "note: N tests to skip are not for RUNNER": what the selection held
/// that runner \p Kind cannot be told to skip (\p Exclusion) or to run:
/// \p Unnamed tests of other runners.
std::string unnamedNote(unsigned Unnamed, bool Exclusion, Runner Kind);

/// What importing a runner's report gave.
struct ImportedRun {
  std::unique_ptr<Store> DB; ///< opened for writing; null when not imported
  int64_t RunId = 0;
  unsigned Results = 0;
};

/// Imports \p Report into \p W's database as a run at \p HeadCommit, else
/// HEAD (at no commit for a work tree with changes), then discards it;
/// says what it imported on \p Err unless \p Quiet. A report that is
/// missing, was not written by this run or cannot be read is a warning;
/// fails for a store or git error.
llvm::Expected<ImportedRun> importRunReport(const config::Workspace &W,
                                            llvm::StringRef HeadCommit,
                                            const RunnerCommand &R,
                                            const RunnerReport &Report,
                                            bool Quiet, llvm::raw_ostream &Err);

} // namespace results
} // namespace tia

#endif // TIA_RESULTS_RUNNERRUN_H
