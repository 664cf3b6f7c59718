//===- RunnerRun.cpp - a runner's run and its report ----------------------===//

#include "tia/Results/RunnerRun.h"
#include "tia/Results/JUnit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace results {

namespace {

/// The commit a run of \p W's work tree is recorded at: \p HeadCommit, else
/// HEAD; none for a work tree with changes.
llvm::Expected<std::string> runCommit(const config::Workspace &W,
                                      llvm::StringRef HeadCommit) {
  // Tests run on a work tree with changes did not run at any commit:
  // recorded at HEAD, a test that a local edit breaks would look flaky
  // (its outcome flipped at one commit) and teach training a wrong label.
  if (HeadCommit.empty() && W.Repo) {
    auto Dirty = W.Repo->isDirty();
    if (!Dirty)
      return Dirty.takeError();
    if (*Dirty)
      return std::string();
  }
  return config::recordedCommit(W, HeadCommit);
}

} // namespace

RunnerCommand runnerOf(const std::vector<std::string> &Command, Runner Asked,
                       llvm::StringRef WorkingDir) {
  RunnerCommand R;
  R.Kind =
      Asked == Runner::Auto ? recogniseCommand(Command, WorkingDir) : Asked;
  R.Binary = llvm::sys::path::filename(Command.front()).str();
  return R;
}

llvm::Expected<int> runForReport(const RunnerCommand &R,
                                 llvm::StringRef Program,
                                 std::vector<std::string> Args, bool Quiet,
                                 std::string &Report, llvm::raw_ostream &Out,
                                 llvm::raw_ostream &Err) {
  auto Path = temporaryReportPath();
  if (!Path)
    return Path.takeError();
  Report = std::move(*Path);
  askForReport(R.Kind, Report, Args);
  return runRunner(Program, Args, R.Binary, Quiet, Out, Err);
}

std::string unnamedNote(unsigned Unnamed, bool Exclusion, Runner Kind) {
  return "note: " + std::to_string(Unnamed) +
         (Unnamed == 1 ? " test" : " tests") +
         (Exclusion ? " to skip" : " to run") +
         (Unnamed == 1 ? " is" : " are") + " not for " + runnerName(Kind).str();
}

llvm::Expected<ImportedRun> importRunReport(const config::Workspace &W,
                                            llvm::StringRef HeadCommit,
                                            const RunnerCommand &R,
                                            llvm::StringRef Report, bool Quiet,
                                            llvm::raw_ostream &Err) {
  ImportedRun Out;
  if (!llvm::sys::fs::exists(Report)) {
    Err << "tia: warning: " << R.Binary
        << " wrote no JUnit report, so no results were imported\n";
    return Out;
  }
  auto Commit = runCommit(W, HeadCommit);
  if (!Commit)
    return Commit.takeError();
  auto S = config::openForUpdate(W);
  if (!S)
    return S.takeError();
  std::optional<ImportSummary> Sum = importRunnerReport(
      **S, Report, runImportOptions(R.Kind, R.Binary, W.Root, *Commit),
      R.Binary, Err);
  if (!Sum)
    return Out;
  if (!Quiet)
    Err << "imported " << summaryText(*Sum) << " as run " << Sum->RunId << "\n";
  Out.DB = std::move(*S);
  Out.RunId = Sum->RunId;
  Out.Results = Sum->Results;
  return Out;
}

} // namespace results
} // namespace tia
