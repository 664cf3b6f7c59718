//===- RunHistoryReplay.cpp - the recorded runs along the commits ---------===//

#include "PredictInternal.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Progress.h"
#include <map>

namespace tia {
namespace predict {

namespace {

/// What one test did at one tested commit, over all its runs there.
struct Outcomes {
  bool AnyFailed = false, AnyPassed = false;
  /// An attempt of one run differed from another attempt of that run.
  bool FlippedInRun = false;
  double Seconds = 0;
};

using OutcomesAtCommit = llvm::StringMap<std::map<std::string, Outcomes>>;

/// Per commit, per test: the final attempt of each run since the runs of
/// \p RunById, and whether it flipped.
OutcomesAtCommit
outcomesByCommit(const std::vector<RunResult> &Results,
                 const std::map<int64_t, const RunRecord *> &RunById) {
  OutcomesAtCommit AtCommit;
  for (size_t I = 0; I != Results.size(); ++I) {
    const RunResult &R = Results[I];
    auto Run = RunById.find(R.RunId);
    if (Run == RunById.end() || R.Result.Result == Outcome::Skipped)
      continue;
    bool Failed = isFailure(R.Result.Result);
    Outcomes &O = AtCommit[Run->second->Commit][R.Result.TestId];
    // Results come sorted by (run, test, attempt): compare with the
    // previous attempt of the same test in the same run.
    if (I > 0) {
      const RunResult &P = Results[I - 1];
      if (P.RunId == R.RunId && P.Result.TestId == R.Result.TestId &&
          P.Result.Result != Outcome::Skipped &&
          isFailure(P.Result.Result) != Failed)
        O.FlippedInRun = true;
    }
    bool Last = I + 1 == Results.size() || Results[I + 1].RunId != R.RunId ||
                Results[I + 1].Result.TestId != R.Result.TestId;
    if (!Last)
      continue;
    (Failed ? O.AnyFailed : O.AnyPassed) = true;
    O.Seconds = R.Result.Seconds;
  }
  return AtCommit;
}

llvm::Expected<llvm::StringMap<std::string>> testFilesOf(Store &S) {
  auto Infos = S.testInfos();
  if (!Infos)
    return Infos.takeError();
  llvm::StringMap<std::string> TestFiles;
  for (const TestInfo &T : *Infos)
    if (!T.File.empty())
      TestFiles[T.Id] = T.File;
  return TestFiles;
}

/// Replays the history commit by commit: at each tested commit, the
/// changes since the previous one are the candidate causes of its
/// outcomes (a training row per test, when asked), then the state absorbs
/// both.
class HistoryReplay {
public:
  HistoryReplay(CauseFilter &Filter, bool EmitRows,
                const llvm::StringSet<> &Flaky, OutcomesAtCommit &AtCommit,
                Replay &Out)
      : Filter(Filter), EmitRows(EmitRows), Flaky(Flaky), AtCommit(AtCommit),
        Out(Out), State(*Out.State) {}

  /// Commit \p C, the first-parent successor of the commits before it.
  llvm::Error step(const git::CommitInfo &C,
                   const std::vector<const RunRecord *> *Tested) {
    Pending.push_back(&C);
    if (!Tested)
      return llvm::Error::success();
    ++Out.TestedCommits;
    Out.Runs += Tested->size();
    int64_t Time = Tested->front()->StartedAt;
    for (const RunRecord *R : *Tested)
      Time = std::min(Time, R->StartedAt);
    if (llvm::Error E = testedCommit(C, Time))
      return E;
    absorbPending();
    return llvm::Error::success();
  }

  void absorbPending() {
    for (const git::CommitInfo *Q : Pending)
      State.absorbCommit(*Q);
    Pending.clear();
  }

private:
  llvm::Error testedCommit(const git::CommitInfo &C, int64_t Time) {
    std::vector<git::FileStat> Causes;
    for (git::FileStat &F : mergeChanges(Pending)) {
      auto Why = Filter.whyIgnored(F);
      if (!Why)
        return Why.takeError();
      if (!*Why)
        Causes.push_back(std::move(F));
    }
    ChangeFeatures Change;
    Change.Files = State.fileFeatures(Causes, Time);
    bool RowsHere = EmitRows && !Causes.empty();
    if (RowsHere) {
      auto Covered = Filter.coveredModified(Causes);
      if (!Covered)
        return Covered.takeError();
      Change.Covered = std::move(*Covered);
    } else if (Causes.empty()) {
      ++Out.IgnoredCommits;
    }
    std::vector<Observation> Obs;
    for (const auto &[Test, O] : AtCommit[C.Id]) {
      bool Flipped = O.FlippedInRun || (O.AnyFailed && O.AnyPassed);
      if (Flipped) {
        Out.FlakyRowsDropped += RowsHere;
        continue;
      }
      Obs.push_back({Test, O.AnyFailed, O.Seconds});
      if (!RowsHere)
        continue;
      if (Flaky.contains(Test)) {
        ++Out.FlakyRowsDropped;
        continue;
      }
      Row R;
      R.Fixed = State.row(Change, Test, Time, nullptr);
      R.Change = Out.Changes.size();
      R.Label = O.AnyFailed;
      R.Commit = TestedIndex;
      R.Test = Test;
      Out.Rows.push_back(std::move(R));
    }
    if (RowsHere) {
      Out.Changes.push_back(Change);
      ++TestedIndex;
    }
    State.absorbOutcomes(Time, Obs, Change.Files);
    return llvm::Error::success();
  }

  CauseFilter &Filter;
  bool EmitRows;
  const llvm::StringSet<> &Flaky;
  OutcomesAtCommit &AtCommit;
  Replay &Out;
  HistoryState &State;
  std::vector<const git::CommitInfo *> Pending;
  unsigned TestedIndex = 0;
};

} // namespace

llvm::Expected<Replay> replay(const git::Repository &Repo, Store &S,
                              CauseFilter &Filter, llvm::StringRef Head,
                              int64_t Since, bool EmitRows,
                              const llvm::StringSet<> &Flaky,
                              llvm::raw_ostream &Err, bool Quiet) {
  auto Runs = S.runs();
  if (!Runs)
    return Runs.takeError();
  std::map<int64_t, const RunRecord *> RunById;
  llvm::StringMap<std::vector<const RunRecord *>> RunsAt;
  for (const RunRecord &R : *Runs)
    if (R.StartedAt >= Since && !R.Commit.empty()) {
      RunById[R.Id] = &R;
      RunsAt[R.Commit].push_back(&R);
    }
  auto Results = S.allResults(Since);
  if (!Results)
    return Results.takeError();
  OutcomesAtCommit AtCommit = outcomesByCommit(*Results, RunById);
  auto TestFiles = testFilesOf(S);
  if (!TestFiles)
    return TestFiles.takeError();

  // File features look 56 days back from the first run.
  auto Commits =
      git::firstParentHistory(Repo, Head, Since ? Since - 56 * Day : 0);
  if (!Commits)
    return Commits.takeError();

  Replay Out;
  Out.State = std::make_unique<HistoryState>(std::move(*TestFiles));
  HistoryReplay History(Filter, EmitRows, Flaky, AtCommit, Out);
  Progress P("replaying", Commits->size(), Err, Quiet);
  for (const git::CommitInfo &C : *Commits) {
    P.step(shortId(C.Id));
    auto Tested = RunsAt.find(C.Id);
    if (llvm::Error E =
            History.step(C, Tested == RunsAt.end() ? nullptr : &Tested->second))
      return E;
  }
  History.absorbPending();
  P.finish();
  return Out;
}

} // namespace predict
} // namespace tia
