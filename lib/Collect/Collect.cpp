//===- Collect.cpp - discover, run, read, store ---------------------------===//

#include "CollectInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <chrono>
#include <map>
#include <optional>
#include <set>

namespace tia {
namespace collect {

namespace {

/// Removes the scratch folder when collection ends, however it ends.
struct ScratchDir {
  std::string Path;
  ~ScratchDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
  }
};

/// The tests --only names (ids or glob patterns); warns of names that
/// match nothing.
llvm::Expected<std::vector<DiscoveredTest>>
selectOnly(std::vector<DiscoveredTest> All,
           const std::vector<std::string> &Only, llvm::raw_ostream &Err,
           bool Quiet) {
  if (Only.empty())
    return std::move(All);
  std::vector<llvm::GlobPattern> Patterns;
  for (const std::string &O : Only) {
    auto P = llvm::GlobPattern::create(O);
    if (!P)
      return makeErrorf("bad --only pattern '{0}': {1}", O,
                        llvm::toString(P.takeError()));
    Patterns.push_back(std::move(*P));
  }
  std::vector<bool> Used(Only.size(), false);
  std::vector<DiscoveredTest> Out;
  for (DiscoveredTest &T : All) {
    bool Match = false;
    for (size_t I = 0; I < Patterns.size(); ++I)
      if (Patterns[I].match(T.Id))
        Match = Used[I] = true;
    if (Match)
      Out.push_back(std::move(T));
  }
  for (size_t I = 0; I < Only.size(); ++I)
    if (!Used[I] && !Quiet)
      Err << "tia: warning: --only " << Only[I]
          << " matches no discovered test (removed or renamed?)\n";
  if (Out.empty())
    return makeError("--only matches none of the discovered tests: check the "
                     "ids with 'tia dump tests' or 'ctest -N'");
  return std::move(Out);
}

/// "Suite.Name" as a test definition names it: the instantiation prefix
/// ("Prefix/") and the index suffix ("/0") dropped.
std::string definitionName(llvm::StringRef Case) {
  auto [Suite, Name] = Case.split('.');
  Suite = Suite.rsplit('/').second.empty() ? Suite : Suite.rsplit('/').second;
  Name = Name.split('/').first;
  return (Suite + "." + Name).str();
}

/// The clang-instrumented shared libraries under \p BuildDir, whose
/// mappings the tests' profiles are read against too.
std::vector<std::string> instrumentedLibraries(llvm::StringRef BuildDir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(BuildDir, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file &&
        (Name == "CMakeFiles" || Name.starts_with(".")))
      It.no_push();
    if (It->type() != llvm::sys::fs::file_type::regular_file ||
        !(Name.ends_with(".so") || Name.contains(".so.")))
      continue;
    auto P = coverage::probeBinary(It->path());
    if (!P)
      llvm::consumeError(P.takeError()); // Not an object: not a library.
    else if (P->Kind == coverage::Instrumentation::Clang)
      Out.push_back(It->path());
  }
  llvm::sort(Out);
  return Out;
}

/// Work for one thread: a case or ctest test alone, or cases through the
/// listener.
struct Unit {
  std::vector<size_t> Tests; ///< indexes into the test list
  bool Listener = false;
};

} // namespace

std::string summaryLine(const CollectSummary &Sum) {
  std::string Counts = llvm::formatv("{0} passed", Sum.Passed).str();
  auto Add = [&](unsigned N, llvm::StringRef What) {
    if (N)
      Counts += llvm::formatv(", {0} {1}", N, What).str();
  };
  Add(Sum.Failed, "failed");
  Add(Sum.Crashed, "crashed");
  Add(Sum.TimedOut, "timed out");
  Add(Sum.Errored, Sum.Errored == 1 ? "error" : "errors");
  Add(Sum.Skipped, "skipped");
  return llvm::formatv("collected {0} test{1} ({2}) in {3:f1}s: {4} "
                       "test-element links",
                       Sum.Tests, Sum.Tests == 1 ? "" : "s", Counts,
                       Sum.Seconds, Sum.Links)
      .str();
}

llvm::Expected<CollectSummary> collect(Store &S, const CollectOptions &O,
                                       llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  if (Files->empty())
    return makeError("no index in the database: run 'tia index' before "
                     "'tia collect'");

  ScratchDir Scratch;
  {
    llvm::SmallString<256> Dir;
    if (std::error_code EC =
            llvm::sys::fs::createUniqueDirectory("tia-collect", Dir))
      return makeErrorf("cannot make a scratch folder: {0}", EC.message());
    Scratch.Path = std::string(Dir);
  }

  auto Found = discoverTests(O.BuildDir, O.CTest, Scratch.Path);
  if (!Found)
    return Found.takeError();
  if (!O.Quiet)
    for (const std::string &P : Found->Problems)
      Err << "tia: warning: " << P << "\n";
  if (Found->Tests.empty())
    return makeErrorf("ctest lists no tests in {0}: build the tests (and "
                      "add_test or gtest_discover_tests them) first",
                      O.BuildDir);
  auto Chosen = selectOnly(std::move(Found->Tests), O.Only, Err, O.Quiet);
  if (!Chosen)
    return Chosen.takeError();
  std::vector<DiscoveredTest> &Tests = *Chosen;

  // Look at every executable once; read clang's mappings once.
  CoverageReader Reader(O.Gcov, Scratch.Path);
  std::map<std::string, Binary> Binaries;
  std::map<std::string, unsigned> Problems; // message -> tests it hit
  std::optional<std::vector<std::string>> Libraries;
  std::vector<Binary *> Scripts;
  for (const DiscoveredTest &T : Tests) {
    const std::string &Path = T.Command.Executable;
    if (Binaries.count(Path))
      continue;
    Binary &B = Binaries[Path];
    B.Path = Path;
    auto P = coverage::probeBinary(Path);
    if (!P) {
      // A script: the programs it starts are among the build's.
      llvm::consumeError(P.takeError());
      Scripts.push_back(&B);
      continue;
    }
    B.Probe = *P;
    if (B.Probe.Kind == coverage::Instrumentation::None)
      Scripts.push_back(&B); // A shell or a runner may start instrumented ones.
    if (B.Probe.Kind == coverage::Instrumentation::Clang) {
      if (!Libraries)
        Libraries = instrumentedLibraries(O.BuildDir);
      std::vector<std::string> Objects = {Path};
      llvm::append_range(Objects, *Libraries);
      auto C = coverage::ClangCoverage::open(Objects);
      if (C)
        B.Clang = std::move(*C);
      else
        B.Problem = llvm::toString(C.takeError());
    } else if (B.Probe.Kind == coverage::Instrumentation::ClangNoMapping) {
      B.Problem = Path + " was built with -fprofile-instr-generate but "
                         "without -fcoverage-mapping: add -fcoverage-mapping "
                         "to its compile and link flags";
    }
  }

  // Profiles written by the programs an uninstrumented executable (a
  // script, a shell, a runner) starts are read against every instrumented
  // test binary and library.
  if (!Scripts.empty()) {
    std::vector<std::string> Objects;
    for (auto &[Path, B] : Binaries)
      if (B.Probe.Kind == coverage::Instrumentation::Clang)
        Objects.push_back(Path);
    if (!Libraries)
      Libraries = instrumentedLibraries(O.BuildDir);
    llvm::append_range(Objects, *Libraries);
    for (Binary *B : Scripts) {
      if (Objects.empty())
        continue;
      auto C = coverage::ClangCoverage::open(Objects);
      if (C)
        B->Clang = std::move(*C);
      else
        B->Problem = llvm::toString(C.takeError());
    }
  }

  // Group the work.
  std::vector<TestRun> Runs(Tests.size());
  std::vector<Unit> Units;
  std::map<std::string, std::vector<size_t>> ListenerGroups;
  for (size_t I = 0; I < Tests.size(); ++I) {
    const DiscoveredTest &T = Tests[I];
    if (T.Disabled) {
      Runs[I].Result.TestId = T.Id;
      Runs[I].Result.Result = Outcome::Skipped;
      Runs[I].Result.Message = "disabled";
      continue;
    }
    const Binary &B = Binaries.at(T.Command.Executable);
    if (!T.Case.empty() && B.Probe.HasListener && !O.ProcessPerTest) {
      std::string Key = T.Command.Executable + "\n" + T.Command.WorkingDir +
                        "\n" + llvm::join(T.Command.Environment, "\n");
      for (const std::string &A : T.Command.Arguments)
        if (!llvm::StringRef(A).starts_with("--gtest_filter="))
          Key += "\n" + A;
      ListenerGroups[Key].push_back(I);
      continue;
    }
    Units.push_back({{I}, false});
  }
  unsigned Jobs = llvm::hardware_concurrency(O.Jobs).compute_thread_count();
  // Split a binary's cases so that a few binaries still use every job.
  size_t Shards = ListenerGroups.empty()
                      ? 1
                      : std::max<size_t>(1, (Jobs + ListenerGroups.size() - 1) /
                                                ListenerGroups.size());
  std::vector<Unit> ListenerUnits;
  for (auto &[Key, Group] : ListenerGroups) {
    size_t N = std::min(Shards, Group.size());
    for (size_t K = 0; K < N; ++K) {
      Unit U{{}, true};
      for (size_t I = Group.size() * K / N; I < Group.size() * (K + 1) / N; ++I)
        U.Tests.push_back(Group[I]);
      ListenerUnits.push_back(std::move(U));
    }
  }
  Units.insert(Units.begin(), ListenerUnits.begin(), ListenerUnits.end());

  unsigned ToRun = 0;
  for (const Unit &U : Units)
    ToRun += U.Tests.size();
  Progress Prog("running", ToRun, Err, O.Quiet);
  RunContext Ctx(O, Scratch.Path, Reader, Prog);
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (const Unit &U : Units)
      Pool.async([&, U] {
        const Binary &B =
            Binaries.at(Tests[U.Tests.front()].Command.Executable);
        if (!U.Listener) {
          Runs[U.Tests.front()] = runAlone(Ctx, Tests[U.Tests.front()], B);
          return;
        }
        std::vector<const DiscoveredTest *> Cases;
        for (size_t I : U.Tests)
          Cases.push_back(&Tests[I]);
        std::vector<TestRun> Got = runWithListener(Ctx, Cases, B);
        for (size_t K = 0; K < U.Tests.size(); ++K)
          Runs[U.Tests[K]] = std::move(Got[K]);
      });
    Pool.wait();
  }
  Prog.finish();
  // Messages name files relative to the repository.
  std::string Root = O.ProjectRoot + "/";
  auto Relative = [&](std::string &Text) {
    for (size_t At;
         !O.ProjectRoot.empty() && (At = Text.find(Root)) != std::string::npos;)
      Text.erase(At, Root.size());
  };
  if (!O.Quiet)
    for (std::string Note : Ctx.Notes) {
      Relative(Note);
      Err << "tia: warning: " << Note << "\n";
    }

  // What to store.
  CollectSummary Sum;
  Sum.Processes = Ctx.Processes;
  std::vector<TestResult> Results;
  std::vector<coverage::TestCoverage> Reports;
  for (size_t I = 0; I < Tests.size(); ++I) {
    TestRun &R = Runs[I];
    switch (R.Result.Result) {
    case Outcome::Passed:
      ++Sum.Passed;
      break;
    case Outcome::Failed:
      ++Sum.Failed;
      break;
    case Outcome::Error:
      ++Sum.Errored;
      break;
    case Outcome::TimedOut:
      ++Sum.TimedOut;
      break;
    case Outcome::Crashed:
      ++Sum.Crashed;
      break;
    case Outcome::Skipped:
      ++Sum.Skipped;
      break;
    }
    if (!O.Quiet && (R.Result.Result == Outcome::Crashed ||
                     R.Result.Result == Outcome::TimedOut ||
                     R.Result.Result == Outcome::Error))
      Err << "tia: warning: " << R.Result.TestId << " "
          << outcomeName(R.Result.Result) << " (" << R.Result.Message
          << "): its earlier coverage is kept\n";
    Relative(R.Result.Message);
    Relative(R.CoverageProblem);
    if (!R.CoverageProblem.empty())
      ++Problems[R.CoverageProblem];
    if (R.Hits) {
      coverage::TestCoverage C;
      C.TestId = R.Result.TestId;
      C.Functions = std::move(*R.Hits);
      Reports.push_back(std::move(C));
    }
    Results.push_back(std::move(R.Result));
  }
  Sum.Tests = Results.size();
  for (auto &[Message, Count] : Problems)
    Sum.Problems.push_back(
        llvm::formatv("{0} ({1} test{2} ran without their coverage being "
                      "collected)",
                      Message, Count, Count == 1 ? "" : "s")
            .str());

  // Where each test is defined, for tests the store does not place yet.
  auto Definitions = S.currentTestDefinitions();
  if (!Definitions)
    return Definitions.takeError();
  std::map<std::string, std::pair<std::string, unsigned>> DefinedAt;
  for (auto &[Path, Def] : *Definitions)
    if (Def.Framework == "gtest")
      DefinedAt.try_emplace(Def.Name, Path, Def.BeginLine);

  coverage::ImportOptions Import;
  Import.ProjectRoot = O.ProjectRoot;
  Import.Commit = O.Commit;
  coverage::ImportSummary Imported;
  llvm::Error E = S.transaction([&]() -> llvm::Error {
    auto Run = S.addRun(O.Commit, "collect");
    if (!Run)
      return Run.takeError();
    Sum.RunId = *Run;
    if (llvm::Error E = S.putResults(*Run, Results))
      return E;
    for (const DiscoveredTest &T : Tests) {
      auto Old = S.testInfo(T.Id);
      if (!Old)
        return Old.takeError();
      TestInfo Info;
      Info.Id = T.Id;
      if (*Old) {
        Info.File = (*Old)->File;
        Info.Line = (*Old)->Line;
      }
      if (Info.File.empty() && !T.Case.empty()) {
        auto It = DefinedAt.find(definitionName(T.Case));
        if (It != DefinedAt.end()) {
          Info.File = It->second.first;
          Info.Line = It->second.second;
        }
      }
      Info.Command = T.Command;
      if (llvm::Error E = S.putTestInfo(Info))
        return E;
    }
    if (Reports.empty())
      return llvm::Error::success();
    auto Got = coverage::importReports(S, Reports, Import);
    if (!Got)
      return Got.takeError();
    Imported = std::move(*Got);
    return llvm::Error::success();
  });
  if (E)
    return std::move(E);
  Sum.WithCoverage = Imported.Tests;
  Sum.Links = Imported.Links;
  if (!O.Quiet && !Imported.Unlinked.empty()) {
    Err << "tia: warning: the coverage of " << Imported.Unlinked.size()
        << " test" << (Imported.Unlinked.size() == 1 ? "" : "s")
        << " matched no indexed element (" << Imported.Unlinked.front()
        << (Imported.Unlinked.size() > 1 ? ", ..." : "")
        << "): check that 'tia index' ran on this build's sources\n";
  }
  Sum.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Sum;
}

} // namespace collect
} // namespace tia
