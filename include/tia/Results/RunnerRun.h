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
#include "llvm/Support/raw_ostream.h"
#include <memory>
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

/// Runs \p Program with \p Args (runRunner), asking runner \p R for a JUnit
/// report at a new temporary path, which \p Report is set to. Returns the
/// runner's exit code; fails when the temporary directory cannot be written
/// or the runner cannot start.
llvm::Expected<int> runForReport(const RunnerCommand &R,
                                 llvm::StringRef Program,
                                 std::vector<std::string> Args, bool Quiet,
                                 std::string &Report, llvm::raw_ostream &Out,
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

/// Imports the JUnit report at \p Report into \p W's database as a run at
/// \p HeadCommit, else HEAD (at no commit for a work tree with changes),
/// then removes it; says what it imported on \p Err unless \p Quiet. A
/// report that is missing or cannot be read is a warning; fails for a
/// store or git error.
llvm::Expected<ImportedRun> importRunReport(const config::Workspace &W,
                                            llvm::StringRef HeadCommit,
                                            const RunnerCommand &R,
                                            llvm::StringRef Report, bool Quiet,
                                            llvm::raw_ostream &Err);

} // namespace results
} // namespace tia

#endif // TIA_RESULTS_RUNNERRUN_H
