//===- Evaluation.cpp - tia eval replay and tia eval mutants --------------===//

#include "tia/Eval/Evaluation.h"
#include "tia/Select/Changes.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Progress.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <chrono>
#include <map>
#include <set>

namespace tia {
namespace eval {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

namespace {

/// Checks \p Commit out, builds and indexes it.
llvm::Error prepareAt(VersionSteps &Steps, ScratchClone &S,
                      llvm::StringRef Commit) {
  if (llvm::Error E = S.checkout(Commit))
    return E;
  auto Built = Steps.build(Commit);
  if (!Built)
    return Built.takeError();
  auto Indexed = Steps.index();
  if (!Indexed)
    return Indexed.takeError();
  return llvm::Error::success();
}

/// Prepares the ground at \p Commit: checkout, build, index, collect.
llvm::Expected<std::vector<TestResult>>
mapAt(VersionSteps &Steps, ScratchClone &S, llvm::StringRef Commit) {
  if (llvm::Error E = prepareAt(Steps, S, Commit))
    return E;
  double Seconds = 0;
  return Steps.collect(Commit, Seconds);
}

/// The id of the snapshot recorded at \p Commit in \p S; 0: none.
llvm::Expected<int64_t> snapshotAt(Store &S, llvm::StringRef Commit) {
  auto Snaps = S.coverageSnapshots();
  if (!Snaps)
    return Snaps.takeError();
  for (const CoverageSnapshot &C : *Snaps)
    if (C.Commit == Commit)
      return C.Id;
  return 0;
}

llvm::Expected<llvm::StringMap<std::string>> testFiles(Store &S) {
  auto Infos = S.testInfos();
  if (!Infos)
    return Infos.takeError();
  llvm::StringMap<std::string> Out;
  for (const TestInfo &T : *Infos)
    Out[T.Id] = T.File;
  return Out;
}

/// The files \p Commit changed against \p Parent, both paths of a rename.
llvm::Expected<std::set<std::string>>
filesChanged(ScratchClone &S, llvm::StringRef Parent, llvm::StringRef Commit) {
  auto Repo = git::Repository::discover(S.Tree);
  if (!Repo)
    return Repo.takeError();
  auto Diff = Repo->diff(Parent, Commit);
  if (!Diff)
    return Diff.takeError();
  std::set<std::string> Files;
  for (const git::FileChange &F : *Diff)
    for (const std::string *Path : {&F.OldPath, &F.NewPath})
      if (!Path->empty())
        Files.insert(*Path);
  return Files;
}

/// One report per mode, the first holding the others.
ReplayReport emptyReport(const ReplayRequest &R,
                         const std::vector<select::SelectionMode> &Modes) {
  ReplayReport Out;
  Out.From = R.From;
  Out.To = R.To;
  Out.FirstParent = R.FirstParent;
  Out.Build = R.Build;
  Out.TestCommand = R.TestCommand;
  ReplayReport Base = Out; // before it holds others
  Out.Mode = select::modeName(Modes.front()).str();
  for (size_t I = 1; I < Modes.size(); ++I) {
    ReplayReport Other = Base;
    Other.Mode = select::modeName(Modes[I]).str();
    Out.Others.push_back(std::move(Other));
  }
  return Out;
}

/// Replays one commit \p C whose parent's results are \p ParentResults:
/// every mode selects against the parent's index and coverage, before the
/// commit is indexed and collected, whose results are the ground truth.
/// Returns the commit's results.
llvm::Expected<std::vector<TestResult>> replayCommit(
    ScratchClone &S, VersionSteps &Steps, const git::CommitInfo &C,
    const std::vector<TestResult> &ParentResults, const ReplayRequest &R,
    const std::vector<select::SelectionMode> &Modes, ReplayReport &Report) {
  const std::string &Parent = C.Parents.front();
  CommitMeasure M;
  M.Commit = C.Id;
  M.Parent = Parent;
  M.Summary = C.Summary;
  if (llvm::Error E = S.checkout(C.Id))
    return E;
  auto Built = Steps.build(C.Id);
  if (!Built)
    return Built.takeError();
  M.BuildSeconds = *Built;
  std::vector<select::Plan> Plans;
  std::vector<double> SelectSeconds(Modes.size(), 0.0);
  for (size_t I = 0; I < Modes.size(); ++I) {
    auto Plan = Steps.select(Parent, C.Id, SelectSeconds[I], "", Modes[I]);
    if (!Plan)
      return Plan.takeError();
    Plans.push_back(std::move(*Plan));
  }
  auto Indexed = Steps.index();
  if (!Indexed)
    return Indexed.takeError();
  M.IndexSeconds = *Indexed;
  auto Results = Steps.collect(C.Id, M.CollectSeconds);
  if (!Results)
    return Results.takeError();
  if (!R.TestCommand.empty()) {
    auto TestStart = std::chrono::steady_clock::now();
    M.TestCommandExit = S.shell(R.TestCommand, "tests");
    M.AllTestsSeconds = secondsSince(TestStart);
    M.TestCommandRan = true;
  }

  auto DB = Store::open(S.Db, Store::Mode::ReadOnly);
  if (!DB)
    return DB.takeError();
  Observed Obs;
  auto ParentSnap = snapshotAt(**DB, Parent);
  if (!ParentSnap)
    return ParentSnap.takeError();
  auto CommitSnap = snapshotAt(**DB, C.Id);
  if (!CommitSnap)
    return CommitSnap.takeError();
  Obs.ParentSnapshot = *ParentSnap;
  Obs.CommitSnapshot = *CommitSnap;
  Obs.ParentResults = ParentResults;
  Obs.CommitResults = *Results;
  auto Own = filesChanged(S, Parent, C.Id);
  if (!Own)
    return Own.takeError();
  Obs.CommitFiles = std::move(*Own);
  auto Files = testFiles(**DB);
  if (!Files)
    return Files.takeError();
  for (size_t I = 0; I < Modes.size(); ++I) {
    CommitMeasure Mode = M;
    Mode.SelectSeconds = SelectSeconds[I];
    if (llvm::Error E = measure(**DB, Plans[I], Obs, *Files, Mode))
      return E;
    (I ? Report.Others[I - 1] : Report).Commits.push_back(std::move(Mode));
  }
  return Results;
}

} // namespace

llvm::Expected<std::vector<git::CommitInfo>>
commitsOf(const git::Repository &Repo, llvm::StringRef From, llvm::StringRef To,
          bool FirstParent) {
  auto F = Repo.resolveCommit(From);
  if (!F)
    return F.takeError();
  auto T = Repo.resolveCommit(To);
  if (!T)
    return T.takeError();
  auto Commits = git::commitRange(Repo, *F, *T, FirstParent);
  if (!Commits)
    return Commits.takeError();
  if (Commits->empty())
    return makeErrorf("the range {0}..{1} holds no commit ({1} is {0} or one "
                      "of its ancestors): write the older revision first",
                      From, To);
  return Commits;
}

namespace {

/// The state a replay walks through history with: the results of each
/// commit collected, and the commit the clone's tree, build and index are
/// at, which every selection needs to be its commit's parent.
class HistoryWalk {
public:
  HistoryWalk(ScratchClone &S, VersionSteps &Steps, ReplayJournal *Journal)
      : S(S), Steps(Steps), Journal(Journal) {}

  /// The journal's measures of \p C, if it holds them (then also its
  /// results, for the commits after it).
  const std::vector<CommitMeasure> *measuredBefore(llvm::StringRef C) {
    const JournalEntry *E = Journal ? Journal->find(C) : nullptr;
    if (!E || E->Measures.empty())
      return nullptr;
    ResultsAt[C.str()] = E->Results;
    return &E->Measures;
  }

  /// Brings the clone to \p Parent, with its coverage in the database and
  /// its results: collected when neither this run nor the journal has
  /// them.
  llvm::Expected<const std::vector<TestResult> *>
  readyAt(llvm::StringRef Parent) {
    if (ReadyAt == Parent)
      return &ResultsAt[Parent.str()];
    if (!ResultsAt.count(Parent.str()))
      if (const JournalEntry *E = Journal ? Journal->find(Parent) : nullptr)
        ResultsAt[Parent.str()] = E->Results;
    auto Known = ResultsAt.find(Parent.str());
    auto Collected = hasCoverageAt(Parent);
    if (!Collected)
      return Collected.takeError();
    if (Known != ResultsAt.end() && *Collected) {
      if (llvm::Error E = prepareAt(Steps, S, Parent))
        return E;
    } else {
      auto Results = mapAt(Steps, S, Parent);
      if (!Results)
        return Results.takeError();
      if (llvm::Error E = record(Parent, *Results, {}))
        return E;
      ResultsAt[Parent.str()] = std::move(*Results);
    }
    ReadyAt = Parent.str();
    return &ResultsAt[Parent.str()];
  }

  /// \p C was measured: the clone is at it, and the journal holds it.
  llvm::Error measured(llvm::StringRef C, std::vector<TestResult> Results,
                       std::vector<CommitMeasure> Measures) {
    ReadyAt = C.str();
    if (llvm::Error E = record(C, Results, std::move(Measures)))
      return E;
    ResultsAt[C.str()] = std::move(Results);
    return llvm::Error::success();
  }

private:
  llvm::Expected<bool> hasCoverageAt(llvm::StringRef Commit) {
    if (!llvm::sys::fs::exists(S.Db))
      return false;
    auto DB = Store::open(S.Db, Store::Mode::ReadOnly);
    if (!DB)
      return DB.takeError();
    auto Snap = snapshotAt(**DB, Commit);
    if (!Snap)
      return Snap.takeError();
    return *Snap != 0;
  }
  llvm::Error record(llvm::StringRef C, const std::vector<TestResult> &Results,
                     std::vector<CommitMeasure> Measures) {
    if (!Journal)
      return llvm::Error::success();
    return Journal->record(C, {Results, std::move(Measures)});
  }

  ScratchClone &S;
  VersionSteps &Steps;
  ReplayJournal *Journal;
  std::map<std::string, std::vector<TestResult>> ResultsAt;
  std::string ReadyAt;
};

/// Every mode's measure of the commit measured last.
std::vector<CommitMeasure> lastMeasures(const ReplayReport &Report) {
  std::vector<CommitMeasure> Out{Report.Commits.back()};
  for (const ReplayReport &Other : Report.Others)
    Out.push_back(Other.Commits.back());
  return Out;
}

void addMeasures(ReplayReport &Report,
                 const std::vector<CommitMeasure> &Measures) {
  for (size_t I = 0; I < Measures.size(); ++I)
    (I ? Report.Others[I - 1] : Report).Commits.push_back(Measures[I]);
}

} // namespace

llvm::Expected<ReplayReport>
replayHistory(ScratchClone &S, VersionSteps &Steps,
              const std::vector<git::CommitInfo> &Commits,
              const ReplayRequest &R, llvm::raw_ostream &Err,
              ReplayJournal *Journal) {
  auto Start = std::chrono::steady_clock::now();
  std::vector<select::SelectionMode> Modes = R.Modes;
  if (Modes.empty())
    Modes.push_back(select::SelectionMode::Combined);
  ReplayReport Report = emptyReport(R, Modes);
  HistoryWalk Walk(S, Steps, Journal);
  Progress P("replaying", Commits.size(), Err, R.Quiet);
  for (const git::CommitInfo &C : Commits) {
    if (C.Parents.empty()) {
      if (!R.Quiet)
        Err << "tia: warning: " << shortId(C.Id)
            << " is a root commit, with no parent to select against: "
               "skipped\n";
      P.step(shortId(C.Id));
      continue;
    }
    if (const std::vector<CommitMeasure> *Before = Walk.measuredBefore(C.Id)) {
      addMeasures(Report, *Before);
      ++Report.FromJournal;
      P.step(shortId(C.Id) + " measured before");
      continue;
    }
    auto ParentResults = Walk.readyAt(C.Parents.front());
    if (!ParentResults)
      return ParentResults.takeError();
    auto Results = replayCommit(S, Steps, C, **ParentResults, R, Modes, Report);
    if (!Results)
      return Results.takeError();
    if (llvm::Error E =
            Walk.measured(C.Id, std::move(*Results), lastMeasures(Report)))
      return E;
    P.step(shortId(C.Id) + " " + C.Summary);
  }
  P.finish();
  Report.Seconds = secondsSince(Start);
  for (ReplayReport &Other : Report.Others)
    Other.Seconds = Report.Seconds;
  return Report;
}

llvm::Expected<MutatedFiles>
MutatedFiles::parse(std::vector<std::string> Globs) {
  MutatedFiles Out;
  for (const std::string &Glob : Globs) {
    auto P = llvm::GlobPattern::create(Glob);
    if (!P)
      return makeErrorf("bad --mutate pattern '{0}': {1}", Glob,
                        llvm::toString(P.takeError()));
    Out.Patterns.push_back(std::move(*P));
  }
  Out.Globs = std::move(Globs);
  return Out;
}

bool MutatedFiles::contains(llvm::StringRef Path) const {
  return Patterns.empty() ||
         llvm::any_of(Patterns, [&](const llvm::GlobPattern &G) {
           return G.match(Path);
         });
}

std::string MutatedFiles::describe() const { return llvm::join(Globs, " or "); }

namespace {

/// The functions to mutate at R.Head, sorted by (file, line): every
/// function of a file that defines no test and that R lets be mutated or,
/// with R.From, those of them whose lines R.From..R.Head changed.
llvm::Expected<std::vector<Element>> mutationSites(ScratchClone &S,
                                                   const MutantsRequest &R) {
  llvm::StringRef Head = R.Head, From = R.From;
  auto Repo = git::Repository::discover(S.Tree);
  if (!Repo)
    return Repo.takeError();
  auto DB = Store::open(S.Db, Store::Mode::ReadOnly);
  if (!DB)
    return DB.takeError();
  auto Infos = (*DB)->testInfos();
  if (!Infos)
    return Infos.takeError();
  llvm::StringSet<> TestFiles;
  for (const TestInfo &T : *Infos)
    if (!T.File.empty())
      TestFiles.insert(T.File);

  std::map<std::string, std::vector<unsigned>> Changed;
  if (!From.empty()) {
    auto Diff = Repo->diff(From, Head);
    if (!Diff)
      return Diff.takeError();
    for (const git::FileChange &F : *Diff)
      if (!F.NewPath.empty())
        for (const git::Hunk &H : F.Hunks)
          Changed[F.NewPath].insert(Changed[F.NewPath].end(),
                                    H.AddedLines.begin(), H.AddedLines.end());
  }

  auto Files = Repo->treeFiles(Head);
  if (!Files)
    return Files.takeError();
  std::vector<Element> Out;
  for (const auto &[Path, Blob] : *Files) {
    if (TestFiles.contains(Path) || (!From.empty() && !Changed.count(Path)) ||
        !R.Files.contains(Path))
      continue;
    auto Index = (*DB)->getFileIndex(Path, Blob);
    if (!Index)
      return Index.takeError();
    if (!*Index || !(*Index)->Tests.empty())
      continue;
    for (const Element &E : (*Index)->Elements) {
      if (!isFunctionKind(E.Kind) || E.File != Path)
        continue;
      if (!From.empty() && select::linesIn(E, Changed[Path]).empty())
        continue;
      Out.push_back(E);
    }
  }
  return Out;
}

/// Up to \p Count mutations of \p Sites: evenly spread sites first, then
/// the others.
std::vector<Mutation> chooseMutations(ScratchClone &S,
                                      const std::vector<Element> &Sites,
                                      size_t Count) {
  std::vector<size_t> Order = spread(Sites.size(), Count);
  std::vector<bool> Taken(Sites.size(), false);
  for (size_t I : Order)
    Taken[I] = true;
  for (size_t I = 0; I != Sites.size(); ++I)
    if (!Taken[I])
      Order.push_back(I);
  std::vector<Mutation> Out;
  for (size_t I : Order) {
    if (Out.size() == Count)
      break;
    const Element &E = Sites[I];
    auto Text = llvm::MemoryBuffer::getFile(S.Tree + "/" + E.File);
    if (!Text)
      continue; // not in the work tree (generated?): nothing to mutate
    if (auto M = mutateElement((*Text)->getBuffer(), E, Out.size() % 4))
      Out.push_back(std::move(*M));
  }
  return Out;
}

/// Commits mutation \p M, selects for it and, when it builds, runs the
/// tests against it (into a copy of the database): which of those that
/// passed before fail, and which of them the selection missed.
llvm::Expected<MutantResult> tryMutant(ScratchClone &S, VersionSteps &Steps,
                                       const Mutation &M,
                                       const MutantsRequest &R,
                                       const llvm::StringSet<> &PassedBefore) {
  MutantResult MR;
  MR.Mut = M;
  std::string Path = S.Tree + "/" + M.File;
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return makeErrorf("cannot read {0}: {1}", M.File,
                      Text.getError().message());
  // Made before the file is opened for writing: a large file's buffer maps
  // the file, and truncating it under the map ends the process (SIGBUS).
  std::string Mutated = applyMutation((*Text)->getBuffer(), M);
  Text->reset();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return makeErrorf("cannot write {0} in the scratch clone: {1}", M.File,
                        EC.message());
    OS << Mutated;
  }
  if (llvm::Error E =
          S.git({"commit", "-q", "--no-verify", "-a", "-m", "tia eval mutant"}))
    return E;
  double Secs = 0;
  auto Plan = Steps.select(R.Head, "HEAD", Secs, /*Db=*/"", R.Mode);
  if (!Plan)
    return Plan.takeError();
  std::vector<std::string> Selected;
  for (const select::PlannedTest &T : Plan->Selected)
    Selected.push_back(T.Id);
  MR.SelectedAll = Plan->selectsAll();
  if (!R.Build.empty() && S.shell(R.Build, "build") != 0) {
    MR.Built = false;
  } else {
    std::string MutantDb = S.Dir + "/mutant.db";
    llvm::sys::fs::remove(MutantDb);
    if (std::error_code EC = llvm::sys::fs::copy_file(S.Db, MutantDb))
      return makeErrorf("cannot copy the scratch database: {0}", EC.message());
    auto Results = Steps.collect("mutant", Secs, MutantDb);
    if (!Results)
      return Results.takeError();
    std::set<std::string> Failing;
    for (const TestResult &T : *Results)
      if (isFailure(T.Result) && PassedBefore.contains(T.TestId))
        Failing.insert(T.TestId);
    MR.Failing.assign(Failing.begin(), Failing.end());
    for (const std::string &T : MR.Failing)
      if (!selectionIncludes(Selected, T))
        MR.Missed.push_back(T);
    llvm::StringSet<> Ran;
    for (const TestResult &T : *Results)
      if (selectionIncludes(Selected, T.TestId))
        Ran.insert(T.TestId);
    MR.Selected = Ran.size();
  }
  if (llvm::Error E = S.git({"reset", "-q", "--hard", R.Head}))
    return E;
  return MR;
}

} // namespace

llvm::Expected<MutantsReport> mutateAndSelect(ScratchClone &S,
                                              VersionSteps &Steps,
                                              const MutantsRequest &R,
                                              llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  auto Baseline = mapAt(Steps, S, R.Head);
  if (!Baseline)
    return Baseline.takeError();
  llvm::StringSet<> PassedBefore;
  for (const TestResult &T : *Baseline)
    if (T.Result == Outcome::Passed)
      PassedBefore.insert(T.TestId);

  auto Sites = mutationSites(S, R);
  if (!Sites)
    return Sites.takeError();
  std::vector<Mutation> Mutations = chooseMutations(S, *Sites, R.Count);
  if (Mutations.empty())
    return makeErrorf(
        "no function to mutate at {0}{1}{2}: tia mutates the bodies of "
        "indexed functions outside test files",
        shortId(R.Head),
        R.Range.empty() ? std::string() : " changed by " + R.Range,
        R.Files.describe().empty()
            ? std::string()
            : " in files matching " + R.Files.describe());

  MutantsReport Report;
  Report.Commit = R.Head;
  Report.From = R.From;
  Report.MutatePatterns = R.Files.patterns();
  Report.Build = R.Build;
  Progress P("mutating", Mutations.size(), Err, R.Quiet);
  for (const Mutation &M : Mutations) {
    auto MR = tryMutant(S, Steps, M, R, PassedBefore);
    if (!MR)
      return MR.takeError();
    Report.Mutants.push_back(std::move(*MR));
    P.step(M.File + ":" + std::to_string(M.Line));
  }
  P.finish();
  Report.Seconds = secondsSince(Start);
  return Report;
}

} // namespace eval
} // namespace tia
