//===- EvalCommand.cpp - tia eval replay, tia eval mutants ----------------===//
//
// Both commands work in a scratch clone of the repository (git clone
// --shared into a temporary directory, with a database of its own), so the
// user's work tree and database are never touched; the clone is removed at
// the end, on an error, and on SIGINT or SIGTERM. The steps are the other
// commands' (index, collect, the selection of select); the measures and
// reports are lib/Eval's.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Collect/Collect.h"
#include "tia/Eval/Mutants.h"
#include "tia/Eval/SelectionReplay.h"
#include "tia/Git/History.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Progress.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <set>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tia {
namespace tool {

namespace {

//===----------------------------------------------------------------------===//
// The scratch clone
//===----------------------------------------------------------------------===//

/// The directory to remove when interrupted; written before the handler is
/// set, read only by it.
char InterruptedScratch[4096];

/// Only async-signal-safe calls here: fork, exec, wait.
void removeScratch() {
  pid_t Pid = fork();
  if (Pid == 0) {
    execl("/bin/rm", "rm", "-rf", InterruptedScratch, (char *)nullptr);
    _exit(127);
  }
  if (Pid > 0) {
    int Status;
    waitpid(Pid, &Status, 0);
  }
}

/// The process group of the build or test command running now (0: none),
/// for the interrupt handlers.
std::atomic<pid_t> RunningShell{0};

/// Ends the running build or test command, whole process group, so that it
/// does not write into the scratch directory after it is removed; then
/// removes it. Async-signal-safe.
void endShellAndRemoveScratch() {
  if (pid_t P = RunningShell.load())
    ::kill(-P, SIGKILL);
  removeScratch();
}

/// The interrupt handler between collections; during one (and after the
/// first: it keeps its handler) collect's handler ends the tests and calls
/// endShellAndRemoveScratch.
void removeScratchOnSignal() {
  collect::killRunningTests();
  endShellAndRemoveScratch();
  _exit(130);
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// The last non-empty line of \p Log, for a one-line error.
std::string lastLine(llvm::StringRef Log) {
  auto Buf = llvm::MemoryBuffer::getFile(Log);
  if (!Buf)
    return "";
  llvm::StringRef Text = (*Buf)->getBuffer().rtrim();
  llvm::StringRef Line = Text.rsplit('\n').second;
  if (Line.empty())
    Line = Text;
  return Line.trim().take_front(200).str();
}

class Scratch {
public:
  /// Clones \p RepoDir (sharing its objects) into a new temporary
  /// directory, without a checkout.
  static llvm::Expected<std::unique_ptr<Scratch>>
  create(llvm::StringRef RepoDir) {
    llvm::SmallString<128> Dir;
    if (std::error_code EC =
            llvm::sys::fs::createUniqueDirectory("tia-eval", Dir))
      return makeErrorf("cannot create a scratch directory: {0} (set TMPDIR "
                        "to a writable directory)",
                        EC.message());
    std::unique_ptr<Scratch> S(new Scratch(Dir.str().str()));
    auto Git = llvm::sys::findProgramByName("git");
    if (!Git)
      return makeError("git not found on PATH: eval clones the repository "
                       "with it");
    S->GitPath = *Git;
    if (llvm::Error E = S->git({"clone", "-q", "--shared", "--no-checkout",
                                RepoDir.str(), S->Tree},
                               S->Dir))
      return std::move(E);
    return std::move(S);
  }

  ~Scratch() {
    llvm::sys::SetInterruptFunction(nullptr);
    collect::setInterruptCleanup(nullptr);
    if (OldTmpDir)
      setenv("TMPDIR", OldTmpDir->c_str(), 1);
    else
      unsetenv("TMPDIR");
    llvm::sys::fs::remove_directories(Dir, /*IgnoreErrors=*/true);
  }

  std::string Dir;  ///< the temporary directory
  std::string Tree; ///< DIR/tree: the clone's work tree
  std::string Db;   ///< DIR/tia.db

  /// Runs git with \p Args in \p Cwd (the tree by default).
  llvm::Error git(std::vector<std::string> Args, llvm::StringRef Cwd = "") {
    std::vector<llvm::StringRef> Argv = {"git",
                                         "-C",
                                         Cwd.empty() ? llvm::StringRef(Tree)
                                                     : Cwd,
                                         "-c",
                                         "user.name=tia eval",
                                         "-c",
                                         "user.email=eval@tia.invalid",
                                         "-c",
                                         "core.hooksPath=/dev/null"};
    for (const std::string &A : Args)
      Argv.push_back(A);
    std::string Log = Dir + "/git.log";
    std::optional<llvm::StringRef> Redirects[] = {
        std::nullopt, llvm::StringRef(Log), llvm::StringRef(Log)};
    std::string Msg;
    int Rc = llvm::sys::ExecuteAndWait(GitPath, Argv, std::nullopt, Redirects,
                                       0, 0, &Msg);
    if (Rc != 0)
      return makeErrorf("git {0} failed in the scratch clone: {1}", Args[0],
                        Msg.empty() ? lastLine(Log) : Msg);
    return llvm::Error::success();
  }

  llvm::Error checkout(llvm::StringRef Commit) {
    return git({"checkout", "-q", "--force", "--detach", Commit.str()});
  }

  /// Runs \p Cmd with /bin/sh at the tree's root, in a process group of
  /// its own that an interrupt of tia ends; returns its exit code (-1 when
  /// it could not start or was killed) and leaves its output in
  /// DIR/<Name>.log.
  int shell(llvm::StringRef Cmd, llvm::StringRef Name) {
    std::string Log = Dir + "/" + Name.str() + ".log";
    std::string Script = "cd \"$1\" && eval \"$2\"", CmdText = Cmd.str();
    char *Argv[] = {const_cast<char *>("sh"),
                    const_cast<char *>("-c"),
                    Script.data(),
                    const_cast<char *>("sh"),
                    Tree.data(),
                    CmdText.data(),
                    nullptr};
    posix_spawn_file_actions_t Actions;
    posix_spawnattr_t Attr;
    posix_spawn_file_actions_init(&Actions);
    posix_spawnattr_init(&Attr);
    posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&Actions, 1, Log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&Actions, 1, 2);
    posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&Attr, 0);
    pid_t Pid = 0;
    int Rc = posix_spawn(&Pid, "/bin/sh", &Actions, &Attr, Argv, environ);
    posix_spawn_file_actions_destroy(&Actions);
    posix_spawnattr_destroy(&Attr);
    if (Rc != 0)
      return -1;
    RunningShell.store(Pid);
    int Status = 0;
    pid_t Got;
    do
      Got = waitpid(Pid, &Status, 0);
    while (Got < 0 && errno == EINTR);
    RunningShell.store(0);
    if (Got < 0 || !WIFEXITED(Status))
      return -1;
    return WEXITSTATUS(Status);
  }

  std::string logLine(llvm::StringRef Name) {
    return lastLine(Dir + "/" + Name.str() + ".log");
  }

private:
  explicit Scratch(std::string D)
      : Dir(std::move(D)), Tree(Dir + "/tree"), Db(Dir + "/tia.db") {
    size_t N = std::min(Dir.size(), sizeof(InterruptedScratch) - 1);
    memcpy(InterruptedScratch, Dir.data(), N);
    InterruptedScratch[N] = 0;
    collect::setInterruptCleanup(endShellAndRemoveScratch);
    llvm::sys::SetInterruptFunction(removeScratchOnSignal);
    // The steps' own temporary files (collect's, pytest's, the build's) go
    // into the scratch directory too, and leave with it.
    if (const char *T = getenv("TMPDIR"))
      OldTmpDir = T;
    std::string Tmp = Dir + "/tmp";
    llvm::sys::fs::create_directory(Tmp);
    setenv("TMPDIR", Tmp.c_str(), 1);
  }
  std::string GitPath;
  std::optional<std::string> OldTmpDir;
};

//===----------------------------------------------------------------------===//
// The steps at one version
//===----------------------------------------------------------------------===//

/// Builds, indexes, collects and selects in the scratch clone.
class Steps {
public:
  Steps(const GlobalOptions &G, const EvalBuildOptions &O, Scratch &S)
      : O(O), S(S) {
    In.Db = S.Db;
    In.WorkingDir = S.Tree;
    In.Quiet = true;
    In.ResourceDir = G.ResourceDir;
  }

  GlobalOptions In; ///< the commands' options inside the clone

  /// Runs the build command; fails naming the commit.
  llvm::Expected<double> build(llvm::StringRef Commit) {
    auto Start = std::chrono::steady_clock::now();
    if (O.Build.empty())
      return 0.0;
    int Rc = S.shell(O.Build, "build");
    if (Rc != 0)
      return makeErrorf("the build command failed at {0} (exit {1}): {2}; fix "
                        "--build or replay a range that builds",
                        shortId(Commit), Rc, S.logLine("build"));
    return secondsSince(Start);
  }

  std::string buildDir() const { return absolutePath(O.BuildDir, S.Tree); }
  bool hasCTest() const {
    return llvm::sys::fs::exists(buildDir() + "/CTestTestfile.cmake");
  }

  llvm::Expected<double> index() {
    auto Start = std::chrono::steady_clock::now();
    IndexOptions I;
    if (llvm::sys::fs::exists(buildDir() + "/compile_commands.json"))
      I.BuildDir = buildDir();
    if (llvm::Error E = runIndex(In, I, llvm::nulls(), llvm::nulls()))
      return std::move(E);
    return secondsSince(Start);
  }

  /// Runs every test with its coverage into \p Db (the clone's database
  /// when empty); returns the results of the runs it recorded.
  llvm::Expected<std::vector<TestResult>>
  collect(llvm::StringRef Commit, double &Seconds, llvm::StringRef Db = "") {
    auto Start = std::chrono::steady_clock::now();
    GlobalOptions G = In;
    if (!Db.empty())
      G.Db = Db.str();
    int64_t Before = 0;
    if (auto Runs = lastRun(G.Db))
      Before = *Runs;
    else
      return Runs.takeError();
    bool Any = false;
    if (hasCTest()) {
      CollectCommandOptions C;
      C.BuildDir = buildDir();
      C.Jobs = O.Jobs;
      C.Only = O.Only;
      if (llvm::Error E = runCollect(G, C, llvm::nulls(), llvm::nulls()))
        return makeErrorf("cannot collect coverage at {0}: {1}",
                          shortId(Commit), llvm::toString(std::move(E)));
      Any = true;
    }
    if (O.Pytest) {
      CollectPytestOptions P;
      P.Jobs = O.Jobs ? O.Jobs : 1;
      P.Python = O.Python;
      if (llvm::Error E = runCollectPytest(G, P, llvm::nulls(), llvm::nulls()))
        return makeErrorf("cannot collect coverage at {0}: {1}",
                          shortId(Commit), llvm::toString(std::move(E)));
      Any = true;
    }
    if (!Any)
      return makeErrorf("no tests to run at {0}: no CTestTestfile.cmake in {1} "
                        "after the build; pass the build directory with -p "
                        "DIR, or --pytest for Python tests",
                        shortId(Commit), O.BuildDir);
    Seconds = secondsSince(Start);
    auto St = Store::open(G.Db, Store::Mode::ReadOnly);
    if (!St)
      return St.takeError();
    auto Runs = (*St)->runs();
    if (!Runs)
      return Runs.takeError();
    std::vector<TestResult> Out;
    for (const RunRecord &R : *Runs) {
      if (R.Id <= Before)
        continue;
      auto Results = (*St)->resultsOfRun(R.Id);
      if (!Results)
        return Results.takeError();
      Out.insert(Out.end(), Results->begin(), Results->end());
    }
    return Out;
  }

  /// The selection for \p Base..\p Head with the clone's database (or
  /// \p Db).
  llvm::Expected<select::Plan>
  select(llvm::StringRef Base, llvm::StringRef Head, double &Seconds,
         llvm::StringRef Db = "",
         select::SelectionMode Mode = select::SelectionMode::Combined) {
    auto Start = std::chrono::steady_clock::now();
    GlobalOptions G = In;
    if (!Db.empty())
      G.Db = Db.str();
    SelectCommandOptions Sel;
    Sel.Base = Base.str();
    Sel.Head = Head.str();
    Sel.Mode = Mode;
    auto P = makePlan(G, Sel);
    if (!P)
      return P.takeError();
    Seconds = secondsSince(Start);
    return std::move(P->Plan);
  }

  /// The id of the snapshot recorded at \p Commit; 0: none.
  llvm::Expected<int64_t> snapshotAt(llvm::StringRef Commit) {
    auto St = Store::open(S.Db, Store::Mode::ReadOnly);
    if (!St)
      return St.takeError();
    auto Snaps = (*St)->coverageSnapshots();
    if (!Snaps)
      return Snaps.takeError();
    for (const CoverageSnapshot &C : *Snaps)
      if (C.Commit == Commit)
        return C.Id;
    return 0;
  }

  llvm::Expected<llvm::StringMap<std::string>> testFiles() {
    auto St = Store::open(S.Db, Store::Mode::ReadOnly);
    if (!St)
      return St.takeError();
    auto Infos = (*St)->testInfos();
    if (!Infos)
      return Infos.takeError();
    llvm::StringMap<std::string> Out;
    for (const TestInfo &T : *Infos)
      Out[T.Id] = T.File;
    return Out;
  }

private:
  llvm::Expected<int64_t> lastRun(llvm::StringRef Db) {
    if (!llvm::sys::fs::exists(Db))
      return 0;
    auto St = Store::open(Db, Store::Mode::ReadOnly);
    if (!St)
      return St.takeError();
    auto Runs = (*St)->runs();
    if (!Runs)
      return Runs.takeError();
    return Runs->empty() ? 0 : Runs->back().Id;
  }

  const EvalBuildOptions &O;
  Scratch &S;
};

/// The user's repository, for the revisions of the range.
llvm::Expected<git::Repository> userRepository(const GlobalOptions &G) {
  auto Ctx = makeContext(G, /*NeedGit=*/true);
  if (!Ctx)
    return Ctx.takeError();
  return std::move(*Ctx->Repo);
}

llvm::Expected<std::vector<git::CommitInfo>>
rangeOf(const git::Repository &Repo, llvm::StringRef From, llvm::StringRef To,
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

/// Prepares the ground at \p Commit: checkout, build, index, collect.
llvm::Expected<std::vector<TestResult>> mapAt(Steps &St, Scratch &S,
                                              llvm::StringRef Commit) {
  if (llvm::Error E = S.checkout(Commit))
    return std::move(E);
  auto Built = St.build(Commit);
  if (!Built)
    return Built.takeError();
  auto Indexed = St.index();
  if (!Indexed)
    return Indexed.takeError();
  double Seconds = 0;
  return St.collect(Commit, Seconds);
}

} // namespace

//===----------------------------------------------------------------------===//
// tia eval replay
//===----------------------------------------------------------------------===//

llvm::Error runEvalReplay(const GlobalOptions &G, const EvalReplayOptions &O,
                          llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  auto Repo = userRepository(G);
  if (!Repo)
    return Repo.takeError();
  auto Commits = rangeOf(*Repo, O.From, O.To, O.FirstParent);
  if (!Commits)
    return Commits.takeError();

  auto S = Scratch::create(Repo->workdir());
  if (!S)
    return S.takeError();
  Steps St(G, O.Run, **S);

  std::vector<select::SelectionMode> Modes = O.Modes;
  if (Modes.empty())
    Modes.push_back(select::SelectionMode::Combined);
  eval::ReplayReport R;
  R.From = O.From;
  R.To = O.To;
  R.FirstParent = O.FirstParent;
  R.Build = O.Run.Build;
  R.TestCommand = O.TestCommand;
  R.Mode = select::modeName(Modes.front()).str();
  for (size_t I = 1; I < Modes.size(); ++I) {
    eval::ReplayReport Other;
    Other.From = R.From;
    Other.To = R.To;
    Other.FirstParent = R.FirstParent;
    Other.Build = R.Build;
    Other.TestCommand = R.TestCommand;
    Other.Mode = select::modeName(Modes[I]).str();
    R.Others.push_back(std::move(Other));
  }
  auto ReportOf = [&](size_t I) -> eval::ReplayReport & {
    return I ? R.Others[I - 1] : R;
  };
  std::map<std::string, std::vector<TestResult>> ResultsAt;
  Progress P("replaying", Commits->size(), Err, G.Quiet);
  for (const git::CommitInfo &C : *Commits) {
    if (C.Parents.empty()) {
      if (!G.Quiet)
        Err << "tia: warning: " << shortId(C.Id)
            << " is a root commit, with no parent to select against: "
               "skipped\n";
      P.step(shortId(C.Id));
      continue;
    }
    const std::string &Parent = C.Parents.front();
    if (!ResultsAt.count(Parent)) {
      auto Results = mapAt(St, **S, Parent);
      if (!Results)
        return Results.takeError();
      ResultsAt[Parent] = std::move(*Results);
    }

    eval::CommitMeasure M;
    M.Commit = C.Id;
    M.Parent = Parent;
    M.Summary = C.Summary;
    if (llvm::Error E = (*S)->checkout(C.Id))
      return E;
    auto Built = St.build(C.Id);
    if (!Built)
      return Built.takeError();
    M.BuildSeconds = *Built;
    // Each mode selects against the parent's index and coverage, before the
    // commit is indexed and collected.
    std::vector<select::Plan> Plans;
    std::vector<double> SelectSeconds(Modes.size(), 0.0);
    for (size_t I = 0; I < Modes.size(); ++I) {
      auto Plan = St.select(Parent, C.Id, SelectSeconds[I], "", Modes[I]);
      if (!Plan)
        return Plan.takeError();
      Plans.push_back(std::move(*Plan));
    }
    auto Indexed = St.index();
    if (!Indexed)
      return Indexed.takeError();
    M.IndexSeconds = *Indexed;
    auto Results = St.collect(C.Id, M.CollectSeconds);
    if (!Results)
      return Results.takeError();
    if (!O.TestCommand.empty()) {
      auto TestStart = std::chrono::steady_clock::now();
      M.TestCommandExit = (*S)->shell(O.TestCommand, "tests");
      M.AllTestsSeconds = secondsSince(TestStart);
      M.TestCommandRan = true;
    }

    eval::Observed Obs;
    auto ParentSnap = St.snapshotAt(Parent);
    if (!ParentSnap)
      return ParentSnap.takeError();
    auto CommitSnap = St.snapshotAt(C.Id);
    if (!CommitSnap)
      return CommitSnap.takeError();
    Obs.ParentSnapshot = *ParentSnap;
    Obs.CommitSnapshot = *CommitSnap;
    Obs.ParentResults = ResultsAt[Parent];
    Obs.CommitResults = *Results;
    auto Files = St.testFiles();
    if (!Files)
      return Files.takeError();
    auto DB = Store::open((*S)->Db, Store::Mode::ReadOnly);
    if (!DB)
      return DB.takeError();
    for (size_t I = 0; I < Modes.size(); ++I) {
      eval::CommitMeasure Mode = M;
      Mode.SelectSeconds = SelectSeconds[I];
      if (llvm::Error E = eval::measure(**DB, Plans[I], Obs, *Files, Mode))
        return E;
      ReportOf(I).Commits.push_back(std::move(Mode));
    }
    ResultsAt[C.Id] = std::move(*Results);
    P.step(shortId(C.Id) + " " + C.Summary);
  }
  for (eval::ReplayReport &Other : R.Others)
    Other.Seconds = secondsSince(Start);
  P.finish();
  R.Seconds = secondsSince(Start);

  if (O.Run.Format == ReportFormat::Json)
    eval::writeReplayJson(R, Out);
  else
    eval::writeReplayMarkdown(R, Out);
  Out.flush();
  if (!G.Quiet)
    Err << eval::replaySummary(R) << "\n";
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// tia eval mutants
//===----------------------------------------------------------------------===//

namespace {

/// The functions to mutate at \p Head, sorted by (file, line): every
/// function of a file that defines no test or, with a range, those whose
/// lines the range changed.
llvm::Expected<std::vector<Element>>
mutationSites(Scratch &S, llvm::StringRef Head, llvm::StringRef From) {
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
    if (TestFiles.contains(Path) || (!From.empty() && !Changed.count(Path)))
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

} // namespace

llvm::Error runEvalMutants(const GlobalOptions &G, const EvalMutantsOptions &O,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  if (O.Count == 0)
    return makeError("--count must be at least 1");
  auto Repo = userRepository(G);
  if (!Repo)
    return Repo.takeError();
  std::string From, Head;
  if (!O.To.empty()) {
    auto Commits = rangeOf(*Repo, O.From, O.To, /*FirstParent=*/false);
    if (!Commits)
      return Commits.takeError();
    auto F = Repo->resolveCommit(O.From);
    if (!F)
      return F.takeError();
    From = *F;
    Head = Commits->back().Id;
  } else {
    auto H = Repo->headCommit();
    if (!H)
      return H.takeError();
    if (!*H)
      return makeError("no commit yet: commit the code to mutate first");
    Head = **H;
  }

  auto S = Scratch::create(Repo->workdir());
  if (!S)
    return S.takeError();
  Steps St(G, O.Run, **S);
  auto Baseline = mapAt(St, **S, Head);
  if (!Baseline)
    return Baseline.takeError();
  llvm::StringSet<> PassedBefore;
  for (const TestResult &R : *Baseline)
    if (R.Result == Outcome::Passed)
      PassedBefore.insert(R.TestId);

  auto Sites = mutationSites(**S, Head, From);
  if (!Sites)
    return Sites.takeError();
  // Evenly spread sites first, then the others, until Count mutate.
  std::vector<size_t> Order = eval::spread(Sites->size(), O.Count);
  {
    std::vector<bool> Taken(Sites->size(), false);
    for (size_t I : Order)
      Taken[I] = true;
    for (size_t I = 0; I != Sites->size(); ++I)
      if (!Taken[I])
        Order.push_back(I);
  }
  std::vector<eval::Mutation> Mutations;
  for (size_t I : Order) {
    if (Mutations.size() == O.Count)
      break;
    const Element &E = (*Sites)[I];
    auto Text = llvm::MemoryBuffer::getFile((*S)->Tree + "/" + E.File);
    if (!Text)
      continue; // not in the work tree (generated?): nothing to mutate
    if (auto M =
            eval::mutateElement((*Text)->getBuffer(), E, Mutations.size() % 4))
      Mutations.push_back(std::move(*M));
  }
  if (Mutations.empty())
    return makeErrorf("no function to mutate at {0}{1}: tia mutates the "
                      "bodies of indexed functions outside test files",
                      shortId(Head),
                      From.empty() ? std::string()
                                   : " changed by " + O.From + ".." + O.To);

  eval::MutantsReport R;
  R.Commit = Head;
  R.Build = O.Run.Build;
  std::string MutantDb = (*S)->Dir + "/mutant.db";
  Progress P("mutating", Mutations.size(), Err, G.Quiet);
  for (const eval::Mutation &M : Mutations) {
    eval::MutantResult MR;
    MR.Mut = M;
    std::string Path = (*S)->Tree + "/" + M.File;
    auto Text = llvm::MemoryBuffer::getFile(Path);
    if (!Text)
      return makeErrorf("cannot read {0}: {1}", M.File,
                        Text.getError().message());
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(Path, EC);
      if (EC)
        return makeErrorf("cannot write {0} in the scratch clone: {1}", M.File,
                          EC.message());
      OS << eval::applyMutation((*Text)->getBuffer(), M);
    }
    if (llvm::Error E = (*S)->git(
            {"commit", "-q", "--no-verify", "-a", "-m", "tia eval mutant"}))
      return E;
    double Secs = 0;
    auto Plan = St.select(Head, "HEAD", Secs);
    if (!Plan)
      return Plan.takeError();
    std::vector<std::string> Selected;
    for (const select::PlannedTest &T : Plan->Selected)
      Selected.push_back(T.Id);
    MR.SelectedAll = Plan->selectsAll();
    if (!O.Run.Build.empty() && (*S)->shell(O.Run.Build, "build") != 0) {
      MR.Built = false;
    } else {
      llvm::sys::fs::remove(MutantDb);
      if (std::error_code EC = llvm::sys::fs::copy_file((*S)->Db, MutantDb))
        return makeErrorf("cannot copy the scratch database: {0}",
                          EC.message());
      auto Results = St.collect("mutant", Secs, MutantDb);
      if (!Results)
        return Results.takeError();
      std::set<std::string> Failing;
      for (const TestResult &T : *Results)
        if (isFailure(T.Result) && PassedBefore.contains(T.TestId))
          Failing.insert(T.TestId);
      MR.Failing.assign(Failing.begin(), Failing.end());
      for (const std::string &T : MR.Failing)
        if (!eval::selectionIncludes(Selected, T))
          MR.Missed.push_back(T);
      llvm::StringSet<> Ran;
      for (const TestResult &T : *Results)
        if (eval::selectionIncludes(Selected, T.TestId))
          Ran.insert(T.TestId);
      MR.Selected = Ran.size();
    }
    if (llvm::Error E = (*S)->git({"reset", "-q", "--hard", Head}))
      return E;
    R.Mutants.push_back(std::move(MR));
    P.step(M.File + ":" + std::to_string(M.Line));
  }
  P.finish();
  R.Seconds = secondsSince(Start);
  if (O.Run.Format == ReportFormat::Json)
    eval::writeMutantsJson(R, Out);
  else
    eval::writeMutantsMarkdown(R, Out);
  Out.flush();
  if (!G.Quiet)
    Err << eval::mutantsSummary(R) << "\n";
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand EvalSubcommand(
    "eval", "'tia eval replay --commits A..B --build CMD': measure the "
            "selection on history (TestR, precision, SafeR, TimeR); 'tia "
            "eval mutants': check that the tests failing for small mutations "
            "are selected. Both work in a scratch clone with a database of "
            "its own (--db is not used)");

namespace {
llvm::cl::opt<std::string> Commits(
    "commits",
    llvm::cl::desc("The commits to replay (or, for mutants, whose changed "
                   "functions to mutate), as A..B: reachable from B, not "
                   "from A"),
    llvm::cl::value_desc("A..B"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> Build(
    "build",
    llvm::cl::desc("Shell command that builds each version, run at the root "
                   "of a scratch clone (for example 'cmake -S . -B build "
                   "-DCMAKE_BUILD_TYPE=Debug ... && ninja -C build')"),
    llvm::cl::value_desc("cmd"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> TestCmd(
    "test-cmd",
    llvm::cl::desc("replay: shell command that runs the whole test suite, "
                   "timed at each commit as the retest-all baseline (default: "
                   "the sum of the collected tests' durations)"),
    llvm::cl::value_desc("cmd"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<bool> FirstParent(
    "first-parent",
    llvm::cl::desc("replay: follow only the first parent of merges"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> BuildDir(
    "p",
    llvm::cl::desc("Build directory of the tests, relative to the root "
                   "(default: build); its ctest tests run when it holds "
                   "CTestTestfile.cmake"),
    llvm::cl::value_desc("build-dir"), llvm::cl::init("build"),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<bool>
    Pytest("pytest", llvm::cl::desc("Also run the Python tests with pytest"),
           llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
           llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> Python(
    "python",
    llvm::cl::desc("With --pytest: the Python that runs pytest (default: as "
                   "'tia collect --pytest' finds it)"),
    llvm::cl::value_desc("path"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<unsigned>
    Count("count",
          llvm::cl::desc("mutants: how many mutants to make (default 10)"),
          llvm::cl::init(10), llvm::cl::cat(tiaCategory()),
          llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<unsigned>
    Jobs("jobs",
         llvm::cl::desc("Test processes at once in each collection (default: "
                        "one per core; pytest: 1)"),
         llvm::cl::init(0), llvm::cl::cat(tiaCategory()),
         llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> ModesOpt(
    "modes",
    llvm::cl::desc("replay: the selection modes to measure, comma-separated "
                   "(static, coverage, combined), each against the same "
                   "builds, collections and ground truth (default: "
                   "combined)"),
    llvm::cl::value_desc("m1,m2"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::list<std::string> Only(
    "only",
    llvm::cl::desc("Collect only the ctest tests whose ids match this glob "
                   "(repeatable; for example 'gtest:*' to leave out tests "
                   "that are no GoogleTest case)"),
    llvm::cl::value_desc("glob"), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
enum class EvalFormat { Markdown, Json };
llvm::cl::opt<EvalFormat> Format(
    "format", llvm::cl::desc("Report format"),
    llvm::cl::values(clEnumValN(EvalFormat::Markdown, "markdown",
                                "a table (the default)"),
                     clEnumValN(EvalFormat::Json, "json", "docs/Formats.md")),
    llvm::cl::init(EvalFormat::Markdown), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("replay|mutants"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(EvalSubcommand));

/// Splits "A..B"; std::nullopt when it is no such range.
std::optional<std::pair<std::string, std::string>>
splitRange(llvm::StringRef R) {
  size_t At = R.find("..");
  if (At == llvm::StringRef::npos || At == 0 || At + 2 >= R.size() ||
      R.drop_front(At + 2).starts_with("."))
    return std::nullopt;
  return std::make_pair(R.take_front(At).str(), R.drop_front(At + 2).str());
}
} // namespace

int evalMain(const GlobalOptions &G) {
  if (Args.size() != 1 || (Args[0] != "replay" && Args[0] != "mutants"))
    return usageError("'tia eval' needs a subcommand: tia eval replay "
                      "--commits A..B --build CMD, or tia eval mutants");
  EvalBuildOptions B;
  B.Build = Build;
  B.BuildDir = BuildDir;
  B.Pytest = Pytest;
  B.Python = Python;
  if (!Python.empty() && !Pytest)
    return usageError("--python goes with --pytest");
  B.Jobs = Jobs;
  B.Only.assign(Only.begin(), Only.end());
  B.Format =
      Format == EvalFormat::Json ? ReportFormat::Json : ReportFormat::Text;
  std::optional<std::pair<std::string, std::string>> Range;
  if (!Commits.empty()) {
    Range = splitRange(Commits);
    if (!Range)
      return usageError("--commits takes a range A..B, for example "
                        "HEAD~5..HEAD, not '" +
                        Commits + "'");
  }
  if (Args[0] == "replay") {
    if (!Range)
      return usageError("tia eval replay needs --commits A..B");
    if (Count.getNumOccurrences())
      return usageError("--count is for tia eval mutants");
    EvalReplayOptions O;
    O.Run = B;
    O.From = Range->first;
    O.To = Range->second;
    O.FirstParent = FirstParent;
    O.TestCommand = TestCmd;
    if (ModesOpt.getNumOccurrences()) {
      llvm::SmallVector<llvm::StringRef, 4> Names;
      llvm::StringRef(ModesOpt).split(Names, ',');
      for (llvm::StringRef Name : Names) {
        std::optional<select::SelectionMode> M = select::parseMode(Name.trim());
        if (!M)
          return usageError("--modes takes static, coverage and combined, "
                            "comma-separated, not '" +
                            Name.trim().str() + "'");
        if (llvm::is_contained(O.Modes, *M))
          return usageError("--modes names '" + Name.trim().str() + "' twice");
        O.Modes.push_back(*M);
      }
    }
    return exitCode(runEvalReplay(G, O, llvm::outs(), llvm::errs()));
  }
  if (FirstParent || !TestCmd.empty() || ModesOpt.getNumOccurrences())
    return usageError(
        "--first-parent, --test-cmd and --modes are for tia eval replay");
  EvalMutantsOptions O;
  O.Run = B;
  if (Range) {
    O.From = Range->first;
    O.To = Range->second;
  }
  O.Count = Count;
  return exitCode(runEvalMutants(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
