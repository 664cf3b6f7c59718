//===- RunnerRun.cpp - a runner's run and its report ----------------------===//

#include "tia/Results/RunnerRun.h"
#include "tia/Results/JUnit.h"
#include "llvm/ADT/ScopeExit.h"
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

namespace {

std::optional<llvm::sys::TimePoint<>> modificationTime(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return std::nullopt;
  return Status.getLastModificationTime();
}

} // namespace

bool RunnerReport::written() const {
  std::optional<llvm::sys::TimePoint<>> Now = modificationTime(Path);
  return Now && (!ModifiedBefore || *Now != *ModifiedBefore);
}

void RunnerReport::discard() const {
  if (!UsersOwn)
    llvm::sys::fs::remove(Path);
}

llvm::Expected<int> runForReport(const RunnerCommand &R,
                                 llvm::StringRef Program,
                                 std::vector<std::string> Args,
                                 llvm::StringRef WorkingDir, bool Quiet,
                                 RunnerReport &Report, llvm::raw_ostream &Out,
                                 llvm::raw_ostream &Err) {
  Report = RunnerReport();
  if (std::optional<std::string> Own =
          reportAskedFor(R.Kind, Args, WorkingDir)) {
    Report.Path = std::move(*Own);
    Report.UsersOwn = true;
    Report.ModifiedBefore = modificationTime(Report.Path);
  } else {
    auto Path = temporaryReportPath();
    if (!Path)
      return Path.takeError();
    Report.Path = std::move(*Path);
    askForReport(R.Kind, Report.Path, Args);
  }
  return runRunner(Program, Args, R.Binary, Quiet, Out, Err);
}

std::string unnamedNote(unsigned Unnamed, bool Exclusion, Runner Kind) {
  return "note: " + std::to_string(Unnamed) +
         (Unnamed == 1 ? " test" : " tests") +
         (Exclusion ? " to skip" : " to run") +
         (Unnamed == 1 ? " is" : " are") + " not for " + runnerName(Kind).str();
}

llvm::Expected<ImportedRun>
importRunReport(const config::Workspace &W, llvm::StringRef HeadCommit,
                const RunnerCommand &R, const RunnerReport &Report, bool Quiet,
                llvm::raw_ostream &Err) {
  auto Discard = llvm::make_scope_exit([&] { Report.discard(); });
  ImportedRun Out;
  if (!Report.written()) {
    Err << "tia: warning: " << R.Binary << " wrote no JUnit report"
        << (Report.UsersOwn ? " at " + Report.Path + " (the command's own)"
                            : "")
        << ", so no results were imported\n";
    return Out;
  }
  auto Commit = runCommit(W, HeadCommit);
  if (!Commit)
    return Commit.takeError();
  auto S = config::openForUpdate(W);
  if (!S)
    return S.takeError();
  std::optional<ImportSummary> Sum = importRunnerReport(
      **S, Report.Path, runImportOptions(R.Kind, R.Binary, W.Root, *Commit),
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
