//===- Request.cpp - a collection as a command asks it --------------------===//

#include "tia/Collect/Request.h"
#include "tia/Collect/BuildDirs.h"
#include "tia/Collect/Collect.h"
#include "tia/Collect/Pytest.h"
#include "tia/Select/Incremental.h"
#include "tia/Select/PythonSettings.h"
#include "tia/Store/Balance.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"

namespace tia {
namespace collect {

namespace {

/// Sets \p Trace and \p Tracked: reads are kept for the files git tracks,
/// so without git there is nothing to trace.
llvm::Error traceIn(const config::Workspace &W, bool Wanted, bool &Trace,
                    std::vector<std::string> &Tracked) {
  Trace = Wanted && W.Repo;
  if (!Trace)
    return llvm::Error::success();
  auto Files = W.Repo->trackedFiles();
  if (!Files)
    return Files.takeError();
  Tracked = std::move(*Files);
  return llvm::Error::success();
}

/// Fills what both collections take from \p W alike: the commit the
/// coverage is recorded at, the files to trace the reads of, and the
/// durations (of the database \p BalanceFrom) that balance the shards.
template <typename Options>
llvm::Error fillFromWorkspace(const config::Workspace &W, bool TraceFiles,
                              llvm::StringRef BalanceFrom, Options &O) {
  if (!BalanceFrom.empty()) {
    auto Durations = recordedDurations(absolutePath(BalanceFrom, W.WorkingDir));
    if (!Durations)
      return Durations.takeError();
    O.Durations = std::move(*Durations);
  }
  auto Commit = config::recordedCommit(W, "");
  if (!Commit)
    return Commit.takeError();
  O.Commit = *Commit;
  return traceIn(W, TraceFiles, O.TraceFiles, O.TrackedFiles);
}

/// With --incremental, the selection that decides what runs (said on
/// \p Err unless \p Quiet), and in \p O the coverage it lets carry over.
template <typename Options>
llvm::Expected<std::optional<select::IncrementalCollect>>
planCarryOver(const config::Workspace &W, bool Incremental,
              llvm::StringRef BuildDir, llvm::StringRef ResourceDir, bool Quiet,
              Options &O, llvm::raw_ostream &Err) {
  if (!Incremental)
    return std::nullopt;
  auto Update = select::planIncrementalCollect(W, BuildDir, ResourceDir);
  if (!Update)
    return Update.takeError();
  if (!Quiet)
    Err << select::incrementalIntent(*Update) << "\n";
  if (!Update->full())
    O.Carry = CarryOver{Update->Carry, Update->Snapshot, /*Restamp=*/!O.Shard};
  return std::move(*Update);
}

/// What --incremental adds to the summary line; empty without it.
std::string
carriedSummary(const std::optional<select::IncrementalCollect> &Update,
               unsigned Carried, unsigned LeftOut, bool Sharded) {
  if (!Update)
    return "";
  return select::incrementalSummary(*Update, Carried, LeftOut, Sharded);
}

CollectOptions collectOptionsOf(const CollectRequest &R, bool Quiet) {
  CollectOptions C;
  C.Jobs = R.Jobs;
  C.TimeoutSeconds = R.TimeoutSeconds;
  C.Only = R.Only;
  C.ProcessPerTest = R.ProcessPerTest;
  C.SplitCases = R.SplitCases;
  if (!R.Gcov.empty())
    C.Gcov = R.Gcov;
  if (!R.CTest.empty())
    C.CTest = R.CTest;
  C.Quiet = Quiet;
  C.Shard = R.Shard;
  return C;
}

PytestOptions pytestOptionsOf(const config::Workspace &W,
                              const PytestRequest &R, bool Quiet) {
  PytestOptions P;
  P.Python = !R.Python.empty() ? R.Python : W.Config.Python.Interpreter;
  P.Root = W.Root;
  P.PytestArgs = R.PytestArgs;
  if (!R.JunitXml.empty())
    P.JunitXml = absolutePath(R.JunitXml, W.WorkingDir);
  P.Quiet = Quiet;
  P.Isolate = R.Isolate;
  P.Jobs = R.Jobs;
  P.TimeoutSeconds = R.TimeoutSeconds;
  P.Shard = R.Shard;
  return P;
}

/// The build the Python tests use, with \p S's paths anchored at it, and
/// the probes static selection wants observed: the index's critical
/// functions, operator methods and registered functions.
llvm::Error preparePytest(Store &S, const config::Workspace &W,
                          llvm::StringRef GivenBuildDir, PytestOptions &P) {
  auto Build = pytestBuildDir(S, GivenBuildDir, W.WorkingDir);
  if (!Build)
    return Build.takeError();
  if (!Build->empty())
    P.BuildDirs.push_back(*Build);
  // What the store writes (test commands, shared objects) is relative to
  // the build directory given, not to the one the index recorded.
  if (!GivenBuildDir.empty())
    if (llvm::Error E = config::anchorPaths(S, W, *Build))
      return E;
  auto Python = select::pythonOptions(W, select::rememberedIn(S));
  if (!Python)
    return Python.takeError();
  auto Plan = select::probePlan(S, select::staticOptions(W, *Python));
  if (!Plan)
    return Plan.takeError();
  P.Plan = std::move(*Plan);
  return llvm::Error::success();
}

} // namespace

llvm::Error collectIn(const config::Workspace &W, const CollectRequest &R,
                      bool Quiet, llvm::StringRef ResourceDir,
                      llvm::raw_ostream &Err) {
  auto BuildDir = findTestBuildDir(R.BuildDir, W.WorkingDir, W.Root);
  if (!BuildDir)
    return BuildDir.takeError();
  CollectOptions C = collectOptionsOf(R, Quiet);
  C.BuildDir = *BuildDir;
  C.ProjectRoot = W.Root;
  if (llvm::Error E = fillFromWorkspace(W, R.TraceFiles, R.BalanceFrom, C))
    return E;
  auto Update =
      planCarryOver(W, R.Incremental, C.BuildDir, ResourceDir, Quiet, C, Err);
  if (!Update)
    return Update.takeError();

  auto S = config::openForUpdate(W, C.BuildDir);
  if (!S)
    return S.takeError();
  auto Sum = collect(**S, C, Err);
  if (!Sum)
    return Sum.takeError();
  for (size_t I = 0; I + 1 < Sum->Problems.size(); ++I)
    Err << "tia: error: " << Sum->Problems[I] << "\n";
  if (!Quiet)
    Err << summaryLine(*Sum)
        << carriedSummary(*Update, Sum->Carried, Sum->LeftOut,
                          C.Shard.has_value())
        << "\n";
  if (!Sum->Problems.empty())
    return makeError(Sum->Problems.back());
  return llvm::Error::success();
}

llvm::Error collectPytestIn(const config::Workspace &W, const PytestRequest &R,
                            bool Quiet, llvm::StringRef ResourceDir,
                            llvm::raw_ostream &Err) {
  PytestOptions P = pytestOptionsOf(W, R, Quiet);
  if (llvm::Error E = fillFromWorkspace(W, R.TraceFiles, R.BalanceFrom, P))
    return E;
  std::string GivenBuildDir;
  if (!R.BuildDir.empty())
    GivenBuildDir = absolutePath(R.BuildDir, W.WorkingDir);
  auto Update = planCarryOver(W, R.Incremental, GivenBuildDir, ResourceDir,
                              Quiet, P, Err);
  if (!Update)
    return Update.takeError();

  auto S = config::openForUpdate(W);
  if (!S)
    return S.takeError();
  if (llvm::Error E = preparePytest(**S, W, R.BuildDir, P))
    return E;
  auto Sum = collectPytest(**S, P, Err);
  if (!Sum)
    return Sum.takeError();
  for (const std::string &Context : Sum->Coverage.UnknownContexts)
    Err << "tia: warning: context '" << Context
        << "' names no known test: run 'tia index' first\n";
  if (!Quiet)
    Err << pytestSummaryLine(*Sum)
        << carriedSummary(*Update, Sum->Carried, Sum->LeftOut,
                          P.Shard.has_value())
        << "\n";
  return llvm::Error::success();
}

} // namespace collect
} // namespace tia
