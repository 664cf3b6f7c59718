//===- CommandSteps.cpp - evaluations run with tia's commands -------------===//

#include "tia/Eval/CommandSteps.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Paths.h"
#include "tia/Support/Plural.h"
#include "llvm/Support/FileSystem.h"
#include <chrono>

namespace tia {
namespace eval {

std::string CommandSteps::buildDir() const {
  return absolutePath(B.BuildDir, S.Tree);
}

llvm::Expected<double> CommandSteps::build(llvm::StringRef Commit) {
  auto Start = std::chrono::steady_clock::now();
  if (B.Build.empty())
    return 0.0;
  int Rc = S.shell(B.Build, "build");
  if (Rc != 0)
    return makeErrorf("the build command failed at {0} (exit {1}): {2}; fix "
                      "--build or replay a range that builds",
                      shortId(Commit), Rc, S.logLine("build"));
  return secondsSince(Start);
}

llvm::Expected<double> CommandSteps::index() {
  auto Start = std::chrono::steady_clock::now();
  // A version without C++ (or before its build made the compilation
  // database) is indexed for its Python files alone.
  std::string BuildDir;
  if (llvm::sys::fs::exists(buildDir() + "/compile_commands.json"))
    BuildDir = buildDir();
  if (llvm::Error E = H.Index(S.Tree, S.Db, BuildDir))
    return E;
  return secondsSince(Start);
}

/// Runs \p Collect, one collect command into \p Db. With \p OutcomesOnly
/// (a mutant's run, whose outcomes alone count) a command that failed
/// after it recorded its run (pytest crashed, a profile could not be
/// read) is no error: the crashed test is recorded crashed.
llvm::Error CommandSteps::ranOrFailed(llvm::function_ref<llvm::Error()> Collect,
                                      llvm::StringRef Db,
                                      llvm::StringRef Commit,
                                      bool OutcomesOnly) {
  auto Before = newestRun(Db);
  if (!Before)
    return Before.takeError();
  llvm::Error E = Collect();
  if (!E)
    return E;
  if (OutcomesOnly) {
    auto After = newestRun(Db);
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
CommandSteps::collect(llvm::StringRef Commit, double &Seconds,
                      llvm::StringRef Db) {
  auto Start = std::chrono::steady_clock::now();
  bool OutcomesOnly = !Db.empty();
  if (Db.empty())
    Db = S.Db;
  auto Before = newestRun(Db);
  if (!Before)
    return Before.takeError();
  bool Any = false;
  if (llvm::sys::fs::exists(buildDir() + "/CTestTestfile.cmake")) {
    if (llvm::Error E =
            ranOrFailed([&] { return H.CollectCTest(S.Tree, Db, buildDir()); },
                        Db, Commit, OutcomesOnly))
      return E;
    Any = true;
  }
  if (B.Pytest) {
    if (llvm::Error E = ranOrFailed([&] { return H.CollectPytest(S.Tree, Db); },
                                    Db, Commit, OutcomesOnly))
      return E;
    Any = true;
  }
  if (!Any)
    return makeErrorf("no tests to run at {0}: no CTestTestfile.cmake in {1} "
                      "after the build; pass the build directory with -p "
                      "DIR, or --pytest for Python tests",
                      shortId(Commit), B.BuildDir);
  Seconds = secondsSince(Start);
  return resultsAfterRun(Db, *Before);
}

llvm::Expected<select::Plan> CommandSteps::select(llvm::StringRef Base,
                                                  llvm::StringRef Head,
                                                  double &Seconds,
                                                  llvm::StringRef Db,
                                                  select::SelectionMode Mode) {
  auto Start = std::chrono::steady_clock::now();
  auto P = H.Select(S.Tree, Db.empty() ? llvm::StringRef(S.Db) : Db, Base, Head,
                    Mode);
  if (!P)
    return P.takeError();
  Seconds = secondsSince(Start);
  return P;
}

namespace {

/// A database opened to read, and the runs it recorded, oldest first.
struct RecordedRuns {
  std::unique_ptr<Store> S;
  std::vector<RunRecord> Runs;
};

llvm::Expected<RecordedRuns> recordedRuns(llvm::StringRef Db) {
  auto S = Store::open(Db, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  auto Runs = (*S)->runs();
  if (!Runs)
    return Runs.takeError();
  return RecordedRuns{std::move(*S), std::move(*Runs)};
}

} // namespace

llvm::Expected<int64_t> newestRun(llvm::StringRef Db) {
  // Before the first collection there is no database to open.
  if (!llvm::sys::fs::exists(Db))
    return 0;
  auto R = recordedRuns(Db);
  if (!R)
    return R.takeError();
  return R->Runs.empty() ? 0 : R->Runs.back().Id;
}

llvm::Expected<std::vector<TestResult>> resultsAfterRun(llvm::StringRef Db,
                                                        int64_t Before) {
  auto R = recordedRuns(Db);
  if (!R)
    return R.takeError();
  std::vector<TestResult> Out;
  for (const RunRecord &Run : R->Runs) {
    if (Run.Id <= Before)
      continue;
    auto Results = R->S->resultsOfRun(Run.Id);
    if (!Results)
      return Results.takeError();
    Out.insert(Out.end(), Results->begin(), Results->end());
  }
  return Out;
}

namespace {

/// The clone an evaluation works in: kept in \p Scratch, or a temporary one.
llvm::Expected<std::unique_ptr<ScratchClone>>
scratchFor(const git::Repository &Repo, llvm::StringRef Scratch) {
  if (Scratch.empty())
    return ScratchClone::create(Repo.workdir());
  return ScratchClone::keep(Repo.workdir(), Scratch);
}

} // namespace

llvm::json::Object replaySettings(const BuildSettings &B,
                                  const ReplayRequest &R) {
  llvm::json::Object Out = R.Settings;
  // Another build of tia may select otherwise: its measures are not mixed
  // with this one's. A build that cannot read itself matches no other run.
  std::string Tia = executableDigest();
  Out["tia"] =
      !Tia.empty()
          ? Tia
          : "unreadable, at " + std::to_string(std::chrono::system_clock::now()
                                                   .time_since_epoch()
                                                   .count());
  Out["build"] = B.Build;
  Out["build_dir"] = B.BuildDir;
  Out["pytest"] = B.Pytest;
  Out["test_command"] = R.TestCommand;
  llvm::json::Array Modes;
  for (select::SelectionMode M : R.Modes)
    Modes.push_back(select::modeName(M));
  if (R.Modes.empty())
    Modes.push_back(select::modeName(select::SelectionMode::Combined));
  Out["modes"] = std::move(Modes);
  return Out;
}

llvm::Expected<ReplayReport> replayWithCommands(const git::Repository &Repo,
                                                const BuildSettings &B,
                                                const CommandHooks &Hooks,
                                                const ReplayRequest &R,
                                                llvm::raw_ostream &Err) {
  auto Commits = commitsOf(Repo, R.From, R.To, R.FirstParent);
  if (!Commits)
    return Commits.takeError();
  auto S = scratchFor(Repo, R.Scratch);
  if (!S)
    return S.takeError();
  CommandSteps Steps(**S, B, Hooks);
  if (R.Scratch.empty())
    return replayHistory(**S, Steps, *Commits, R, Err);
  auto Journal = ReplayJournal::open((*S)->Dir + "/replay-journal.jsonl",
                                     replaySettings(B, R));
  if (!Journal)
    return Journal.takeError();
  if (size_t N = Journal->measuredCommits(); N && !R.Quiet)
    Err << "tia: " << Journal->path() << " holds " << N << " commit"
        << pluralS(N)
        << " measured before; those of the range are read from it\n";
  return replayHistory(**S, Steps, *Commits, R, Err, &*Journal);
}

llvm::Error chooseMutated(const git::Repository &Repo, llvm::StringRef From,
                          llvm::StringRef To, MutantsRequest &R) {
  if (To.empty()) {
    auto H = Repo.headCommit();
    if (!H)
      return H.takeError();
    if (!*H)
      return makeError("no commit yet: commit the code to mutate first");
    R.Head = **H;
    return llvm::Error::success();
  }
  auto Commits = commitsOf(Repo, From, To, /*FirstParent=*/false);
  if (!Commits)
    return Commits.takeError();
  auto F = Repo.resolveCommit(From);
  if (!F)
    return F.takeError();
  R.From = *F;
  R.Range = (From + ".." + To).str();
  R.Head = Commits->back().Id;
  return llvm::Error::success();
}

llvm::Expected<MutantsReport> mutateWithCommands(const git::Repository &Repo,
                                                 const BuildSettings &B,
                                                 const CommandHooks &Hooks,
                                                 const MutantsRequest &R,
                                                 llvm::raw_ostream &Err) {
  auto S = scratchFor(Repo, R.Scratch);
  if (!S)
    return S.takeError();
  CommandSteps Steps(**S, B, Hooks);
  return mutateAndSelect(**S, Steps, R, Err);
}

} // namespace eval
} // namespace tia
