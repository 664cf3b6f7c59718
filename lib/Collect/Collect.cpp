//===- Collect.cpp - discover, run, read, store ---------------------------===//

#include "CollectInternal.h"
#include "NativeInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/LitId.h"
#include "tia/Support/Paths.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
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

/// "<framework>\n<name>" as a test definition names a case: GoogleTest's
/// "Suite.Name" without the instantiation prefix ("Prefix/") and the index
/// suffix ("/0"), Catch2's name without a template instance's " - Type".
std::string definitionName(CaseFramework F, llvm::StringRef Case) {
  // A Catch2 template case's instances are "name - Type".
  if (F == CaseFramework::Catch2)
    return ("catch2\n" + Case.split(" - ").first).str();
  if (F == CaseFramework::Doctest)
    return ("doctest\n" + doctestTemplateName(Case)).str();
  if (F == CaseFramework::Boost)
    return ("boost\n" + boostDefinitionName(Case)).str();
  auto [Suite, Name] = Case.split('.');
  Suite = Suite.rsplit('/').second.empty() ? Suite : Suite.rsplit('/').second;
  Name = Name.split('/').first;
  return ("gtest\n" + Suite + "." + Name).str();
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

using BinaryMap = std::map<std::string, Binary>;

/// The clang-instrumented libraries of the build, found on first use only:
/// finding them walks the whole build tree.
class LibraryList {
public:
  explicit LibraryList(llvm::StringRef BuildDir) : BuildDir(BuildDir) {}
  const std::vector<std::string> &get() {
    if (!Found)
      Found = instrumentedLibraries(BuildDir);
    return *Found;
  }

private:
  std::string BuildDir;
  std::optional<std::vector<std::string>> Found;
};

llvm::Error requireIndex(Store &S) {
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  if (Files->empty())
    return makeError("no index in the database: run 'tia index' before "
                     "'tia collect'");
  return llvm::Error::success();
}

llvm::Expected<std::string> makeScratchDir() {
  llvm::SmallString<256> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("tia-collect", Dir))
    return makeErrorf("cannot make a scratch folder: {0}", EC.message());
  return std::string(Dir);
}

/// The tests ctest lists in the build, narrowed by --only; warns of what
/// discovery could not read.
llvm::Expected<std::vector<DiscoveredTest>>
discoverChosenTests(const CollectOptions &O, llvm::StringRef Scratch,
                    std::map<std::string, double> &ListSeconds, bool &Complete,
                    llvm::raw_ostream &Err) {
  auto Found = discoverTests(O.BuildDir, O.CTest, Scratch);
  if (!Found)
    return Found.takeError();
  ListSeconds = std::move(Found->ListSeconds);
  Complete = Found->Problems.empty();
  if (!O.Quiet)
    for (const std::string &P : Found->Problems)
      Err << "tia: warning: " << P << "\n";
  if (Found->Tests.empty())
    return makeErrorf("ctest lists no tests in {0}: build the tests (and "
                      "add_test or gtest_discover_tests them) first",
                      O.BuildDir);
  return selectOnly(std::move(Found->Tests), O.Only, Err, O.Quiet);
}

/// Looks at the executable \p B.Path and reads its clang mappings (with
/// the build's instrumented libraries'). Returns false when it is a script
/// or an uninstrumented program, which may start instrumented ones.
bool probeExecutable(Binary &B, LibraryList &Libraries) {
  auto P = coverage::probeBinary(B.Path);
  if (!P) {
    // A script: the programs it starts are among the build's.
    llvm::consumeError(P.takeError());
    return false;
  }
  B.Probe = *P;
  if (B.Probe.Kind == coverage::Instrumentation::Clang) {
    std::vector<std::string> Objects = {B.Path};
    llvm::append_range(Objects, Libraries.get());
    auto C = coverage::ClangCoverage::open(Objects);
    if (C)
      B.Clang = std::move(*C);
    else
      B.Problem = llvm::toString(C.takeError());
  } else if (B.Probe.Kind == coverage::Instrumentation::ClangNoMapping) {
    B.Problem = B.Path + " was built with -fprofile-instr-generate but "
                         "without -fcoverage-mapping: add -fcoverage-mapping "
                         "to its compile and link flags";
  }
  return B.Probe.Kind != coverage::Instrumentation::None;
}

/// Profiles written by the programs an uninstrumented executable (a
/// script, a shell, a runner) starts are read against every instrumented
/// test binary and library.
void readScriptsAgainstBuild(BinaryMap &Binaries,
                             const std::vector<Binary *> &Scripts,
                             LibraryList &Libraries) {
  if (Scripts.empty())
    return;
  std::vector<std::string> Objects;
  for (auto &[Path, B] : Binaries)
    if (B.Probe.Kind == coverage::Instrumentation::Clang)
      Objects.push_back(Path);
  llvm::append_range(Objects, Libraries.get());
  if (Objects.empty())
    return;
  for (Binary *B : Scripts) {
    auto C = coverage::ClangCoverage::open(Objects);
    if (C)
      B->Clang = std::move(*C);
    else
      B->Problem = llvm::toString(C.takeError());
  }
}

/// Every executable the tests run, each looked at once, clang's mappings
/// read once.
BinaryMap probeExecutables(const std::vector<DiscoveredTest> &Tests,
                           llvm::StringRef BuildDir) {
  BinaryMap Binaries;
  LibraryList Libraries(BuildDir);
  std::vector<Binary *> Scripts;
  for (const DiscoveredTest &T : Tests) {
    const std::string &Path = T.Command.Executable;
    if (Binaries.count(Path))
      continue;
    Binary &B = Binaries[Path];
    B.Path = Path;
    if (!probeExecutable(B, Libraries))
      Scripts.push_back(&B);
  }
  readScriptsAgainstBuild(Binaries, Scripts, Libraries);
  return Binaries;
}

/// The cases of one binary that run through one listener process share
/// this key: the command but for the argument naming the case.
std::string listenerKey(const DiscoveredTest &T) {
  const TestCommand &C = T.Command;
  std::string Key = C.Executable + "\n" + C.WorkingDir + "\n" +
                    llvm::join(C.Environment, "\n");
  for (const std::string &A : argumentsWithoutCase(T))
    Key += "\n" + A;
  return Key;
}

/// Splits each group of listener cases into shards, so that a few binaries
/// still use every job (--split-cases).
std::vector<Unit>
shardListenerGroups(const std::vector<DiscoveredTest> &Tests,
                    const std::map<std::string, std::vector<size_t>> &Groups,
                    unsigned Jobs) {
  size_t Shards =
      Groups.empty()
          ? 1
          : std::max<size_t>(1, (Jobs + Groups.size() - 1) / Groups.size());
  std::vector<Unit> Units;
  for (auto &[Key, Group] : Groups) {
    size_t N = std::min(Shards, Group.size());
    for (size_t K = 0; K < N; ++K) {
      Unit U{{}, true, &Tests[Group.front()].Sched};
      for (size_t I = Group.size() * K / N; I < Group.size() * (K + 1) / N; ++I)
        U.Tests.push_back(Group[I]);
      Units.push_back(std::move(U));
    }
  }
  return Units;
}

/// True when the cases of \p T's binary run through tia's listener.
bool usesListener(const DiscoveredTest &T, const BinaryMap &Binaries,
                  const CollectOptions &O) {
  return !T.Case.empty() &&
         Binaries.at(T.Command.Executable).Probe.HasListener &&
         !O.ProcessPerTest;
}

/// --split-cases: the listener shards first, then every other enabled test
/// alone, so that the cases of one ctest test run at once.
std::vector<Unit> planSplitUnits(const std::vector<DiscoveredTest> &Tests,
                                 const BinaryMap &Binaries,
                                 const CollectOptions &O, unsigned Jobs) {
  std::vector<Unit> Alone;
  std::map<std::string, std::vector<size_t>> ListenerGroups;
  for (size_t I = 0; I < Tests.size(); ++I) {
    const DiscoveredTest &T = Tests[I];
    if (T.Disabled)
      continue;
    if (usesListener(T, Binaries, O))
      ListenerGroups[listenerKey(T)].push_back(I);
    else
      Alone.push_back({{I}, false, &T.Sched});
  }
  std::vector<Unit> Units = shardListenerGroups(Tests, ListenerGroups, Jobs);
  llvm::append_range(Units, Alone);
  return Units;
}

/// The work of the jobs as ctest does it: one unit per ctest test, whose
/// cases run one after another (through one listener process when the
/// binary has it), the units with more cases first.
std::vector<Unit> planUnits(const std::vector<DiscoveredTest> &Tests,
                            const BinaryMap &Binaries, const CollectOptions &O,
                            unsigned Jobs) {
  if (O.SplitCases)
    return planSplitUnits(Tests, Binaries, O, Jobs);
  std::map<std::string, std::vector<size_t>> ByCTest;
  std::vector<Unit> Units;
  for (size_t I = 0; I < Tests.size(); ++I) {
    if (Tests[I].Disabled)
      continue;
    // lit runs the tests of a suite at once: each is a unit of its own.
    if (isLitId(Tests[I].Id))
      Units.push_back({{I}, false, &Tests[I].Sched});
    else
      ByCTest[Tests[I].Sched.CTestName].push_back(I);
  }
  for (auto &[Name, Group] : ByCTest) {
    const DiscoveredTest &First = Tests[Group.front()];
    Units.push_back({Group, usesListener(First, Binaries, O), &First.Sched});
  }
  llvm::stable_sort(Units, [](const Unit &A, const Unit &B) {
    return A.Tests.size() > B.Tests.size();
  });
  return Units;
}

unsigned countTests(const std::vector<Unit> &Units) {
  unsigned N = 0;
  for (const Unit &U : Units)
    N += U.Tests.size();
  return N;
}

/// Why \p T must not run: a fixture it requires whose setup test failed in
/// \p Runs (ctest then runs none of the tests requiring it); empty when
/// every setup it needs passed or did not run here.
std::string failedSetup(const DiscoveredTest &T,
                        const std::vector<DiscoveredTest> &Tests,
                        const std::vector<TestRun> &Runs) {
  for (const std::string &F : T.Sched.Requires)
    for (size_t I = 0; I < Tests.size(); ++I)
      if (llvm::is_contained(Tests[I].Sched.Setup, F) &&
          !Runs[I].Result.TestId.empty() && isFailure(Runs[I].Result.Result))
        return "not run: the setup of fixture " + F + " failed (" +
               Tests[I].Id + " " + outcomeName(Runs[I].Result.Result).str() +
               ")";
  return "";
}

/// Runs \p Units on \p Jobs threads; one TestRun per test, a disabled one
/// skipped, one whose fixture's setup failed an error.
std::vector<TestRun> runUnits(const std::vector<Unit> &Units,
                              const std::vector<DiscoveredTest> &Tests,
                              const BinaryMap &Binaries, RunContext &Ctx,
                              unsigned Jobs) {
  std::vector<TestRun> Runs(Tests.size());
  for (size_t I = 0; I < Tests.size(); ++I)
    if (Tests[I].Disabled) {
      Runs[I].Result.TestId = Tests[I].Id;
      Runs[I].Result.Result = Outcome::Skipped;
      Runs[I].Result.Message = "disabled";
    }
  runScheduled(Units, Jobs, [&](const Unit &U) {
    // The setups this unit requires ended before it started (runScheduled
    // orders them), so their runs are written.
    std::string NotRun = failedSetup(Tests[U.Tests.front()], Tests, Runs);
    if (!NotRun.empty()) {
      for (size_t I : U.Tests) {
        Runs[I].Result.TestId = Tests[I].Id;
        Runs[I].Result.Result = Outcome::Error;
        Runs[I].Result.Message = NotRun;
        Ctx.Prog.step(Tests[I].Id);
      }
      return;
    }
    const Binary &B = Binaries.at(Tests[U.Tests.front()].Command.Executable);
    if (!U.Listener) {
      for (size_t I : U.Tests)
        Runs[I] = runAlone(Ctx, Tests[I], B);
      return;
    }
    std::vector<const DiscoveredTest *> Cases;
    for (size_t I : U.Tests)
      Cases.push_back(&Tests[I]);
    std::vector<TestRun> Got = runWithListener(Ctx, Cases, B);
    for (size_t K = 0; K < U.Tests.size(); ++K)
      Runs[U.Tests[K]] = std::move(Got[K]);
  });
  return Runs;
}

/// Removes "\p Root/" from \p Text: messages name files relative to the
/// repository.
void dropRoot(std::string &Text, const std::string &Root) {
  if (Root.empty())
    return;
  std::string Prefix = Root + "/";
  for (size_t At; (At = Text.find(Prefix)) != std::string::npos;)
    Text.erase(At, Prefix.size());
}

void countOutcome(CollectSummary &Sum, Outcome R) {
  switch (R) {
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
}

/// What a collection stores: every test's outcome, the coverage of those
/// that left some.
struct Collected {
  std::vector<TestResult> Results;
  std::vector<coverage::TestCoverage> Reports;
  /// The files the traced tests read, those git tracks.
  std::vector<FileReads> Reads;
  /// The programs of the build the traced tests ran besides their own, and
  /// the sources of those programs (NativeInternal.h).
  std::vector<TestBoundaries> Boundaries;
  std::map<std::string, std::vector<std::string>> BoundarySources;
};

/// True when the coverage of a run that ended with \p R can be trusted: the
/// test ran to its end. A failing test may have stopped half-way, so what
/// it covered is not what it covers when it passes; a skipped one ran what
/// its skip needed.
bool trustedCoverage(Outcome R) {
  return R == Outcome::Passed || R == Outcome::Skipped;
}

/// The programs of the build each traced test whose coverage is trusted
/// ran besides its own (a tool under test), each with whether its coverage
/// was read, into \p Out: a change to the sources of one without coverage
/// selects the test (docs/Safety.md, "Across languages and processes").
/// The build's objects are found only once some test ran another program.
void gatherBoundaries(Store &S, const std::vector<TestRun> &Runs,
                      const CollectOptions &O, Collected &Out) {
  std::optional<NativeCoverage> Native;
  for (const TestRun &R : Runs) {
    if (!R.Reads || !trustedCoverage(R.Result.Result))
      continue;
    std::set<std::string> Others;
    for (const std::string &P : R.Reads->Executed)
      if (P != R.Binary && llvm::StringRef(P).starts_with(O.BuildDir + "/"))
        Others.insert(P);
    if (!Others.empty() && !Native)
      Native.emplace(S, findBuildObjects({O.BuildDir}), O.BuildDir,
                     O.ProjectRoot, std::vector<std::string>{O.BuildDir});
    Out.Boundaries.push_back(
        {R.Result.TestId, Others.empty() ? std::vector<Boundary>()
                                         : Native->boundariesOf({}, Others)});
  }
  if (Native)
    Out.BoundarySources = Native->sources();
}

/// Turns \p Runs into what to store, counting outcomes and coverage
/// problems into \p Sum; warns of every test that did not pass, whose
/// coverage is not stored (\p Covered: the tests with earlier coverage).
Collected gatherRuns(Store &S, std::vector<TestRun> &Runs,
                     const CollectOptions &O,
                     const std::set<std::string> &Covered, CollectSummary &Sum,
                     llvm::raw_ostream &Err) {
  TrackedTree Tree = trackedTree(O.ProjectRoot, O.TrackedFiles);
  Collected Out;
  gatherBoundaries(S, Runs, O, Out); // Before the results move out of Runs.
  std::map<std::string, unsigned> Problems; // message -> tests it hit
  for (TestRun &R : Runs) {
    countOutcome(Sum, R.Result.Result);
    dropRoot(R.Result.Message, O.ProjectRoot);
    dropRoot(R.CoverageProblem, O.ProjectRoot);
    bool Trusted = trustedCoverage(R.Result.Result);
    if (!O.Quiet && !Trusted)
      warnNotPassed(R.Result, Covered.count(R.Result.TestId) != 0, Err);
    if (!R.CoverageProblem.empty())
      ++Problems[R.CoverageProblem];
    if (R.KilledProcess)
      Sum.KilledProcess.push_back(R.Result.TestId);
    if (R.Hits && Trusted) {
      coverage::TestCoverage C;
      C.TestId = R.Result.TestId;
      C.Functions = std::move(*R.Hits);
      Out.Reports.push_back(std::move(C));
    }
    if (R.Reads)
      Out.Reads.push_back(
          keepTracked(R.Result.TestId, O.Commit, *R.Reads, Tree));
    Out.Results.push_back(std::move(R.Result));
  }
  Sum.Tests = Out.Results.size();
  Sum.Traced = Out.Reads.size();
  for (auto &[Message, Count] : Problems)
    Sum.Problems.push_back(
        llvm::formatv("{0} ({1} test{2} ran without their coverage being "
                      "collected)",
                      Message, Count, pluralS(Count))
            .str());
  return Out;
}

/// Where each GoogleTest, Catch2, doctest and Boost.Test case is defined
/// (definitionName -> file, line), for the tests the store does not place yet.
using DefinitionMap = std::map<std::string, std::pair<std::string, unsigned>>;

llvm::Expected<DefinitionMap> caseDefinitions(Store &S) {
  auto Definitions = S.currentTestDefinitions();
  if (!Definitions)
    return Definitions.takeError();
  DefinitionMap DefinedAt;
  for (auto &[Path, Def] : *Definitions)
    if (caseFrameworkOfId(Def.Framework + ":"))
      DefinedAt.try_emplace(Def.Framework + "\n" + Def.Name, Path,
                            Def.BeginLine);
  return DefinedAt;
}

/// \p Folders (absolute) relative to the repository \p Repo, "." for
/// the root itself; none when one lies outside it, where no test file of
/// the repository can be new.
std::vector<std::string>
repositoryFolders(const std::vector<std::string> &Folders,
                  const FolderPaths &Repo) {
  std::vector<std::string> Out;
  for (const std::string &F : Folders) {
    std::string Rel = Repo.relative(F);
    if (!Rel.empty())
      Out.push_back(std::move(Rel));
  }
  return Out;
}

/// Stores each test's command, keeping where it is defined (or finding it
/// in \p DefinedAt, or, for a lit test, from discovery: its file in
/// \p Root).
llvm::Error putTestInfos(Store &S, const std::vector<DiscoveredTest> &Tests,
                         const DefinitionMap &DefinedAt, llvm::StringRef Root) {
  FolderPaths Repo(Root);
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
    if (!T.File.empty()) {
      Info.File = Repo.relative(T.File);
      Info.Line = 0;
    }
    if (Info.File.empty() && !T.Case.empty()) {
      auto It = DefinedAt.find(definitionName(frameworkOf(T), T.Case));
      if (It != DefinedAt.end()) {
        Info.File = It->second.first;
        Info.Line = It->second.second;
      }
    }
    Info.Command = T.Command;
    Info.Command->EnclosingCTestFolders =
        repositoryFolders(T.Command.EnclosingCTestFolders, Repo);
    if (llvm::Error E = S.putTestInfo(Info))
      return E;
  }
  return llvm::Error::success();
}

/// Writes the run, the outcomes, the tests' commands, the coverage, the
/// carried-over coverage (carryCoverage) and the retirement of the tests
/// \p Gone in one transaction.
llvm::Expected<coverage::ImportSummary>
storeCollection(Store &S, const std::vector<DiscoveredTest> &Tests,
                const Collected &C, const CollectOptions &O,
                const std::optional<shard::ShardPlan> &Plan,
                const std::vector<std::string> &Gone, CollectSummary &Sum) {
  auto DefinedAt = caseDefinitions(S);
  if (!DefinedAt)
    return DefinedAt.takeError();
  coverage::ImportOptions Import;
  Import.ProjectRoot = O.ProjectRoot;
  Import.Commit = O.Commit;
  coverage::ImportSummary Imported;
  llvm::Error E = S.transaction([&]() -> llvm::Error {
    auto Run = S.addRun(O.Commit, "collect");
    if (!Run)
      return Run.takeError();
    Sum.RunId = *Run;
    if (llvm::Error E = S.putResults(*Run, C.Results))
      return E;
    if (Plan)
      if (llvm::Error E = S.putShardRecord(
              shardRecordOf("collect", *Plan, *O.Shard, O.Commit, *Run)))
        return E;
    if (llvm::Error E = putTestInfos(S, Tests, *DefinedAt, O.ProjectRoot))
      return E;
    for (const FileReads &R : C.Reads)
      if (llvm::Error E = S.putFileReads(R))
        return E;
    for (const TestBoundaries &B : C.Boundaries)
      if (llvm::Error E = S.putBoundaries(B))
        return E;
    for (const auto &[Object, Sources] : C.BoundarySources)
      if (llvm::Error E = S.putBoundarySources(Object, Sources))
        return E;
    if (O.Carry) {
      auto Carried = carryCoverage(S, *O.Carry, O.Commit);
      if (!Carried)
        return Carried.takeError();
      Sum.Carried = *Carried;
    }
    if (!C.Reports.empty()) {
      auto Got = coverage::importReports(S, C.Reports, Import);
      if (!Got)
        return Got.takeError();
      Imported = std::move(*Got);
    }
    // Last: carrying over reads a snapshot that a new one may drop.
    return S.retireTests(O.Commit, Gone);
  });
  if (E)
    return E;
  return Imported;
}

/// When many tests did not pass, how they ran is a likelier cause than the
/// code (the issue that made collect run tests as ctest does): says what to
/// check, and names --split-cases when it was used.
void warnIfManyFailed(const CollectSummary &Sum, const CollectOptions &O,
                      llvm::raw_ostream &Err) {
  unsigned NotPassed = Sum.Failed + Sum.Crashed + Sum.TimedOut + Sum.Errored;
  if (NotPassed < 3 || NotPassed * 10 < Sum.Tests)
    return;
  Err << "tia: warning: " << NotPassed << " of " << Sum.Tests
      << " tests did not pass in collect: check that they pass with ctest "
         "in this build, and that they share no files, ports or other "
         "state";
  if (O.SplitCases)
    Err << "; --split-cases ran the cases of one ctest test at once: "
           "collect without it";
  Err << "\n";
}

void warnUnlinked(const coverage::ImportSummary &Imported,
                  llvm::raw_ostream &Err) {
  if (Imported.Unlinked.empty())
    return;
  Err << "tia: warning: the coverage of " << Imported.Unlinked.size() << " test"
      << pluralS(Imported.Unlinked.size()) << " matched no indexed element ("
      << Imported.Unlinked.front()
      << (Imported.Unlinked.size() > 1 ? ", ..." : "")
      << "): check that 'tia index' ran on this build's sources\n";
}

/// Warns of the tests that keep no coverage because a process they started
/// was killed before it wrote its profile.
void warnKilledProcess(const CollectSummary &Sum, llvm::raw_ostream &Err) {
  if (Sum.KilledProcess.empty())
    return;
  Err << "tia: warning: " << Sum.KilledProcess.size() << " test"
      << pluralS(Sum.KilledProcess.size())
      << " passed with a process that was killed or crashed before it wrote "
         "its profile ("
      << Sum.KilledProcess.front()
      << (Sum.KilledProcess.size() > 1 ? ", ..." : "")
      << "): what that process ran is unknown, so this run records no "
         "coverage for them\n";
}

/// The tests a whole collect (no --only) of \p O.BuildDir finds gone:
/// goneCppTests of what discovery found (\p Listed). None when discovery
/// was not \p Complete: a test whose binary could not list its cases (not
/// built, say) may still exist. A --shard collect discovers every test
/// before it keeps its share, so every share finds the same tests gone and
/// retires them in its database, for `tia merge` to carry.
llvm::Expected<std::vector<std::string>>
goneTests(Store &S, const std::vector<DiscoveredTest> &Listed, bool Complete,
          const CollectOptions &O) {
  if (!Complete || !O.Only.empty())
    return std::vector<std::string>();
  auto Known = S.testInfos();
  if (!Known)
    return Known.takeError();
  std::set<std::string> Ids;
  for (const DiscoveredTest &T : Listed)
    Ids.insert(T.Id);
  return goneCppTests(*Known, Ids, O.BuildDir);
}

} // namespace

/// The tests the newest coverage snapshot holds: those with coverage to
/// keep.
llvm::Expected<std::set<std::string>> testsWithCoverage(Store &S) {
  std::set<std::string> Out;
  auto Snaps = S.coverageSnapshots();
  if (!Snaps)
    return Snaps.takeError();
  if (Snaps->empty())
    return Out;
  auto Members = S.snapshotTests(Snaps->front().Id);
  if (!Members)
    return Members.takeError();
  for (const TestRecord &T : *Members)
    Out.insert(T.Id);
  return Out;
}

/// Warns of a test that did not pass, with its message, and of what
/// selection uses for it instead of this run's coverage.
void warnNotPassed(const TestResult &R, bool HadCoverage,
                   llvm::raw_ostream &Err) {
  Err << "tia: warning: " << R.TestId << " " << outcomeName(R.Result) << " ("
      << R.Message << "): "
      << (HadCoverage ? "its coverage from an earlier collect is kept"
                      : "it has no coverage until a collect sees it "
                        "pass, and selects as a test never covered")
      << "\n";
}

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
  std::string Traced;
  if (Sum.Traced)
    Traced = llvm::formatv("; the files {0} test{1} read", Sum.Traced,
                           pluralS(Sum.Traced));
  return llvm::formatv("collected {0} test{1} ({2}) in {3:f1}s: {4} "
                       "test-element links{5}",
                       Sum.Tests, pluralS(Sum.Tests), Counts, Sum.Seconds,
                       Sum.Links, Traced)
      .str();
}

llvm::Expected<CollectSummary> collect(Store &S, const CollectOptions &O,
                                       llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  if (llvm::Error E = requireIndex(S))
    return E;
  if (llvm::Error E = coverage::requireWholeIndex(S))
    return E;
  auto ScratchPath = makeScratchDir();
  if (!ScratchPath)
    return ScratchPath.takeError();
  ScratchDir Scratch{*ScratchPath};
  std::map<std::string, double> ListSeconds;
  bool Complete = false;
  auto Tests = discoverChosenTests(O, Scratch.Path, ListSeconds, Complete, Err);
  if (!Tests)
    return Tests.takeError();
  auto Gone = goneTests(S, *Tests, Complete, O);
  if (!Gone)
    return Gone.takeError();
  unsigned LeftOut = leaveOut(*Tests, O.Carry, Err, O.Quiet);
  std::optional<shard::ShardPlan> Plan = keepShare(*Tests, O, Err);

  BinaryMap Binaries = probeExecutables(*Tests, O.BuildDir);
  unsigned Jobs = llvm::hardware_concurrency(O.Jobs).compute_thread_count();
  std::vector<Unit> Units = planUnits(*Tests, Binaries, O, Jobs);
  CoverageReader Reader(O.Gcov, Scratch.Path);
  Progress Prog("running", countTests(Units), Err, O.Quiet);
  Prog.startHeartbeat(); // the workers write nothing to Err while they run
  RunContext Ctx(O, Scratch.Path, Reader, Prog);
  if (O.TraceFiles) {
    auto Tracer = writeFileReadTracer(Scratch.Path);
    if (!Tracer)
      return Tracer.takeError();
    Ctx.Tracer = std::move(*Tracer);
  }
  std::vector<TestRun> Runs = runUnits(Units, *Tests, Binaries, Ctx, Jobs);
  Prog.finish();
  if (!O.Quiet) {
    for (std::string Note : Ctx.Notes) {
      dropRoot(Note, O.ProjectRoot);
      Err << "tia: warning: " << Note << "\n";
    }
    Err << startCostNote(Ctx.CaseProcesses, ListSeconds, Prog.elapsed(), Jobs,
                         O.ProcessPerTest);
  }

  CollectSummary Sum;
  Sum.Processes = Ctx.Processes;
  Sum.LeftOut = LeftOut;
  auto Covered = testsWithCoverage(S);
  if (!Covered)
    return Covered.takeError();
  Collected C = gatherRuns(S, Runs, O, *Covered, Sum, Err);
  if (!O.Quiet)
    warnIfManyFailed(Sum, O, Err);
  auto Imported = storeCollection(S, *Tests, C, O, Plan, *Gone, Sum);
  if (!Imported)
    return Imported.takeError();
  if (!O.Quiet)
    noteRetired(*Gone, Err);
  Sum.WithCoverage = Imported->Tests;
  Sum.Links = Imported->Links;
  if (!O.Quiet) {
    warnUnlinked(*Imported, Err);
    warnKilledProcess(Sum, Err);
  }
  Sum.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Sum;
}

} // namespace collect
} // namespace tia
