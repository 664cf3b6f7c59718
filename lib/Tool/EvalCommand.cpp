//===- EvalCommand.cpp - tia eval replay, tia eval mutants ----------------===//
//
// Both commands work in lib/Eval's scratch clone; what runs at a version
// (the build command, index, collect, the selection of select) are the
// other commands' pipelines, which Steps hands to lib/Eval.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Eval/Evaluation.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include <chrono>

namespace tia {
namespace tool {

namespace {

using eval::secondsSince;

/// Builds, indexes, collects and selects in the scratch clone with the
/// commands' own pipelines.
class Steps : public eval::VersionSteps {
public:
  Steps(const GlobalOptions &G, const EvalBuildOptions &O,
        eval::ScratchClone &S)
      : O(O), S(S) {
    In.Db = S.Db;
    In.WorkingDir = S.Tree;
    In.Quiet = true;
    In.ResourceDir = G.ResourceDir;
  }

  llvm::Expected<double> build(llvm::StringRef Commit) override {
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

  llvm::Expected<double> index() override {
    auto Start = std::chrono::steady_clock::now();
    IndexOptions I;
    if (llvm::sys::fs::exists(buildDir() + "/compile_commands.json"))
      I.BuildDir = buildDir();
    if (llvm::Error E = runIndex(In, I, llvm::nulls(), llvm::nulls()))
      return E;
    return secondsSince(Start);
  }

  /// Runs \p Collect, one collect command into \p Db. With \p OutcomesOnly
  /// (a mutant's run, whose outcomes alone count) a command that failed
  /// after it recorded its run (pytest crashed, a profile could not be
  /// read) is no error: the crashed test is recorded crashed.
  llvm::Error ranOrFailed(llvm::function_ref<llvm::Error()> Collect,
                          llvm::StringRef Db, llvm::StringRef Commit,
                          bool OutcomesOnly) {
    auto Before = lastRun(Db);
    if (!Before)
      return Before.takeError();
    llvm::Error E = Collect();
    if (!E)
      return E;
    if (OutcomesOnly) {
      auto After = lastRun(Db);
      if (After && *After > *Before) {
        llvm::consumeError(std::move(E)); // Its outcomes were recorded.
        return llvm::Error::success();
      }
      if (!After)
        llvm::consumeError(After.takeError()); // The first error says more.
    }
    return makeErrorf("cannot collect coverage at {0}: {1}", shortId(Commit),
                      llvm::toString(std::move(E)));
  }

  llvm::Expected<std::vector<TestResult>>
  collect(llvm::StringRef Commit, double &Seconds,
          llvm::StringRef Db = "") override {
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
      if (llvm::Error E = ranOrFailed(
              [&] { return runCollect(G, C, llvm::nulls(), llvm::nulls()); },
              G.Db, Commit, !Db.empty()))
        return E;
      Any = true;
    }
    if (O.Pytest) {
      CollectPytestOptions P;
      P.Jobs = O.Jobs ? O.Jobs : 1;
      P.Python = O.Python;
      if (llvm::Error E = ranOrFailed(
              [&] {
                return runCollectPytest(G, P, llvm::nulls(), llvm::nulls());
              },
              G.Db, Commit, !Db.empty()))
        return E;
      Any = true;
    }
    if (!Any)
      return makeErrorf("no tests to run at {0}: no CTestTestfile.cmake in {1} "
                        "after the build; pass the build directory with -p "
                        "DIR, or --pytest for Python tests",
                        shortId(Commit), O.BuildDir);
    Seconds = secondsSince(Start);
    return resultsAfter(G.Db, Before);
  }

  llvm::Expected<select::Plan> select(
      llvm::StringRef Base, llvm::StringRef Head, double &Seconds,
      llvm::StringRef Db = "",
      select::SelectionMode Mode = select::SelectionMode::Combined) override {
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

private:
  std::string buildDir() const { return absolutePath(O.BuildDir, S.Tree); }
  bool hasCTest() const {
    return llvm::sys::fs::exists(buildDir() + "/CTestTestfile.cmake");
  }

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

  /// The results of the runs \p Db recorded after run \p Before.
  llvm::Expected<std::vector<TestResult>> resultsAfter(llvm::StringRef Db,
                                                       int64_t Before) {
    auto St = Store::open(Db, Store::Mode::ReadOnly);
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

  GlobalOptions In; ///< the commands' options inside the clone
  const EvalBuildOptions &O;
  eval::ScratchClone &S;
};

/// The user's repository, for the revisions of the range.
llvm::Expected<git::Repository> userRepository(const GlobalOptions &G) {
  auto Ctx = makeContext(G, /*NeedGit=*/true);
  if (!Ctx)
    return Ctx.takeError();
  return std::move(*Ctx->Repo);
}

} // namespace

llvm::Error runEvalReplay(const GlobalOptions &G, const EvalReplayOptions &O,
                          llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Repo = userRepository(G);
  if (!Repo)
    return Repo.takeError();
  auto Commits = eval::commitsOf(*Repo, O.From, O.To, O.FirstParent);
  if (!Commits)
    return Commits.takeError();
  auto S = eval::ScratchClone::create(Repo->workdir());
  if (!S)
    return S.takeError();
  Steps St(G, O.Run, **S);
  eval::ReplayRequest R;
  R.From = O.From;
  R.To = O.To;
  R.FirstParent = O.FirstParent;
  R.Build = O.Run.Build;
  R.TestCommand = O.TestCommand;
  R.Modes = O.Modes;
  R.Quiet = G.Quiet;
  auto Report = eval::replayHistory(**S, St, *Commits, R, Err);
  if (!Report)
    return Report.takeError();
  if (O.Run.Format == ReportFormat::Json)
    eval::writeReplayJson(*Report, Out);
  else
    eval::writeReplayMarkdown(*Report, Out);
  Out.flush();
  if (!G.Quiet)
    Err << eval::replaySummary(*Report) << "\n";
  return llvm::Error::success();
}

llvm::Error runEvalMutants(const GlobalOptions &G, const EvalMutantsOptions &O,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Count == 0)
    return makeError("--count must be at least 1");
  auto Repo = userRepository(G);
  if (!Repo)
    return Repo.takeError();
  eval::MutantsRequest R;
  R.Count = O.Count;
  R.Build = O.Run.Build;
  R.Quiet = G.Quiet;
  R.Mode = O.Mode;
  if (!O.To.empty()) {
    auto Commits = eval::commitsOf(*Repo, O.From, O.To, /*FirstParent=*/false);
    if (!Commits)
      return Commits.takeError();
    auto F = Repo->resolveCommit(O.From);
    if (!F)
      return F.takeError();
    R.From = *F;
    R.Range = O.From + ".." + O.To;
    R.Head = Commits->back().Id;
  } else {
    auto H = Repo->headCommit();
    if (!H)
      return H.takeError();
    if (!*H)
      return makeError("no commit yet: commit the code to mutate first");
    R.Head = **H;
  }
  auto S = eval::ScratchClone::create(Repo->workdir());
  if (!S)
    return S.takeError();
  Steps St(G, O.Run, **S);
  auto Report = eval::mutateAndSelect(**S, St, R, Err);
  if (!Report)
    return Report.takeError();
  if (O.Run.Format == ReportFormat::Json)
    eval::writeMutantsJson(*Report, Out);
  else
    eval::writeMutantsMarkdown(*Report, Out);
  Out.flush();
  if (!G.Quiet)
    Err << eval::mutantsSummary(*Report) << "\n";
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
                   "builds, collections and ground truth; mutants: the one "
                   "mode to select in (default: combined)"),
    llvm::cl::value_desc("m1,m2"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));

/// --modes: the modes it names, in order, into \p Modes; the exit code of
/// a usage error.
std::optional<int> parseModes(std::vector<select::SelectionMode> &Modes) {
  if (!ModesOpt.getNumOccurrences())
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 4> Names;
  llvm::StringRef(ModesOpt).split(Names, ',');
  for (llvm::StringRef Name : Names) {
    std::optional<select::SelectionMode> M = select::parseMode(Name.trim());
    if (!M)
      return usageError("--modes takes static, coverage and combined, "
                        "comma-separated, not '" +
                        Name.trim().str() + "'");
    if (llvm::is_contained(Modes, *M))
      return usageError("--modes names '" + Name.trim().str() + "' twice");
    Modes.push_back(*M);
  }
  return std::nullopt;
}
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
    if (std::optional<int> Bad = parseModes(O.Modes))
      return *Bad;
    return exitCode(runEvalReplay(G, O, llvm::outs(), llvm::errs()));
  }
  if (FirstParent || !TestCmd.empty())
    return usageError("--first-parent and --test-cmd are for tia eval replay");
  EvalMutantsOptions O;
  std::vector<select::SelectionMode> Modes;
  if (std::optional<int> Bad = parseModes(Modes))
    return *Bad;
  if (Modes.size() > 1)
    return usageError("tia eval mutants selects in one mode: pass one of "
                      "static, coverage and combined to --modes");
  if (!Modes.empty())
    O.Mode = Modes.front();
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
