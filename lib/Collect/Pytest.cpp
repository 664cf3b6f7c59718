//===- Pytest.cpp - per-test coverage from a pytest run -------------------===//
//
// The plugin is written to a temporary directory and loaded with `-p` via
// PYTHONPATH; coverage.py writes its data file there too (COVERAGE_FILE),
// so the project's work tree only sees what pytest itself leaves.
//
//===----------------------------------------------------------------------===//

#include "tia/Collect/Pytest.h"
#include "CollectInternal.h"
#include "FileReadsInternal.h"
#include "NativeInternal.h"
#include "PytestInternal.h"
#include "tia/Collect/Process.h"
#include "tia/Store/CoveragePyData.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "tia/Support/Plural.h"
#include "tia/Support/Progress.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <chrono>
#include <map>
#include <set>

extern char **environ;

namespace tia {
namespace collect {

namespace {

#include "ChildSource.inc"
#include "EvidenceSource.inc"
#include "FilesSource.inc"
#include "NativeSource.inc"
#include "PytestPluginSource.inc"
#include "PytestServerSource.inc"
#include "SiteCustomizeSource.inc"

std::string embedded(const char *const *Pieces) {
  std::string Out;
  for (const char *const *P = Pieces; *P; ++P)
    Out += *P;
  return Out;
}

/// A temporary directory removed with everything in it when destroyed.
class TempDir {
public:
  static llvm::Expected<TempDir> make() {
    llvm::SmallString<128> Path;
    if (std::error_code EC =
            llvm::sys::fs::createUniqueDirectory("tia-pytest", Path))
      return makeErrorf("cannot create a temporary directory: {0}",
                        EC.message());
    return TempDir(std::string(Path));
  }
  TempDir(TempDir &&O) : Path(std::move(O.Path)) { O.Path.clear(); }
  ~TempDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
  std::string file(llvm::StringRef Name) const {
    return (Path + "/" + Name).str();
  }
  const std::string &path() const { return Path; }

private:
  explicit TempDir(std::string P) : Path(std::move(P)) {}
  std::string Path;
};

llvm::Error writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return makeErrorf("cannot write {0}: {1}", Path, EC.message());
  OS << Text;
  return llvm::Error::success();
}

/// True when \p Python runs and can import pytest and pytest-cov.
bool canRunPytest(llvm::StringRef Python) {
  std::optional<llvm::StringRef> Quiet[] = {
      llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef("")};
  llvm::StringRef Args[] = {Python, "-c", "import pytest, pytest_cov"};
  return llvm::sys::ExecuteAndWait(Python, Args, std::nullopt, Quiet) == 0;
}

llvm::Error cannotImportPytest(llvm::StringRef Python) {
  return makeErrorf("{0} cannot import pytest and pytest_cov: install them "
                    "for it (Debian: python3-pytest python3-pytest-cov) or "
                    "choose another --python",
                    Python);
}

llvm::Expected<std::string> choosePython(llvm::StringRef Given) {
  if (!Given.empty()) {
    auto Found = llvm::sys::findProgramByName(Given);
    if (Found && !llvm::sys::fs::can_execute(*Found))
      Found = std::make_error_code(std::errc::no_such_file_or_directory);
    if (!Found)
      return makeErrorf("cannot find the Python '{0}': pass --python PATH "
                        "or set python.interpreter in .tia.yaml",
                        Given);
    // Whether it can import pytest is found out when its first pytest run
    // fails (pytestFailure): a probe here would start one more Python per
    // collect.
    return *Found;
  }
  std::vector<std::string> Candidates;
  for (llvm::StringRef Name : {"python3", "/usr/bin/python3"})
    if (auto Found = llvm::sys::findProgramByName(Name);
        Found && !llvm::is_contained(Candidates, *Found))
      Candidates.push_back(*Found);
  if (Candidates.empty())
    return makeError("no Python found (tried python3 on PATH and "
                     "/usr/bin/python3): install python3, python3-pytest and "
                     "python3-pytest-cov, or pass --python PATH");
  // A candidate with another after it is asked whether it can import
  // pytest; the last is taken as it is, and its first failing run says
  // what it lacks.
  for (size_t I = 0; I + 1 < Candidates.size(); ++I)
    if (canRunPytest(Candidates[I]))
      return Candidates[I];
  return Candidates.back();
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, true);
  llvm::StringRef R = P;
  if (R.consume_front(Root) && R.consume_front("/"))
    return R.str();
  return llvm::sys::path::is_absolute(P) ? std::string() : Path.str();
}

/// The plan as the plugin reads it; \p Indexed: the index's files, whose
/// Python modules other than tests get their dynamic accesses recorded.
std::string planJson(const ProbePlan &Plan, const std::string &Root,
                     bool Isolated,
                     const std::vector<FileVersionRef> &Indexed) {
  std::map<std::string, llvm::json::Array> ByFile;
  std::set<std::string> Tests(Plan.TestFiles.begin(), Plan.TestFiles.end());
  for (const Probe &P : Plan.Probes) {
    // pytest rewrites test modules and conftest.py itself; tia leaves them
    // alone (their functions are not pruned without evidence).
    if (Tests.count(P.File) ||
        llvm::sys::path::filename(P.File) == "conftest.py")
      continue;
    ByFile[P.File].push_back(
        llvm::json::Array{P.Qualified, static_cast<int64_t>(P.Line), P.Key});
  }
  llvm::json::Object Probes;
  for (auto &[File, List] : ByFile)
    Probes[File] = std::move(List);
  llvm::json::Array Names, Files;
  for (const std::string &N : Plan.Names)
    Names.push_back(N);
  for (const auto &[File, Version] : Indexed)
    if (llvm::StringRef(File).ends_with(".py") && !Tests.count(File) &&
        llvm::sys::path::filename(File) != "conftest.py")
      Files.push_back(File);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(llvm::json::Object{{"root", Root},
                                             {"isolated", Isolated},
                                             {"probes", std::move(Probes)},
                                             {"files", std::move(Files)},
                                             {"names", std::move(Names)}});
  return OS.str();
}

/// Reads the evidence files the processes wrote into \p E, with \p Extra.
void readEvidence(const std::vector<std::string> &Files,
                  const std::vector<RuntimeEvidence::Access> &Extra,
                  RuntimeEvidence &E) {
  std::set<std::string> Probed;
  std::set<std::tuple<std::string, std::string, std::string>> Accesses;
  for (const RuntimeEvidence::Access &A : Extra)
    Accesses.insert({A.Scope, A.Kind, A.Value});
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf)
      continue; // The process crashed: no evidence from it.
    auto V = parseJson((*Buf)->getBuffer());
    if (!V) {
      llvm::consumeError(V.takeError());
      continue;
    }
    const llvm::json::Object *O = V->getAsObject();
    if (!O)
      continue;
    if (const llvm::json::Array *A = O->getArray("instrumented"))
      for (const llvm::json::Value &K : *A)
        if (auto S = K.getAsString())
          Probed.insert(S->str());
    if (const llvm::json::Array *A = O->getArray("accesses"))
      for (const llvm::json::Value &R : *A)
        if (const llvm::json::Array *T = R.getAsArray(); T && T->size() == 3)
          Accesses.insert({(*T)[0].getAsString().value_or("").str(),
                           (*T)[1].getAsString().value_or("").str(),
                           (*T)[2].getAsString().value_or("").str()});
  }
  E.Probed.assign(Probed.begin(), Probed.end());
  for (auto &[Scope, Kind, Value] : Accesses)
    E.Accesses.push_back({Scope, Kind, Value});
}

/// pytest's JUnit reports of the processes, as one.
llvm::Error mergeJunit(const std::vector<std::string> &Parts,
                       const std::string &To) {
  std::string Suites;
  for (const std::string &P : Parts) {
    auto Buf = llvm::MemoryBuffer::getFile(P, /*IsText=*/true);
    if (!Buf)
      continue;
    llvm::StringRef Text = (*Buf)->getBuffer();
    size_t Begin = Text.find("<testsuite ");
    size_t End = Text.rfind("</testsuite>");
    if (Begin == llvm::StringRef::npos || End == llvm::StringRef::npos)
      continue;
    Suites += Text.slice(Begin, End + strlen("</testsuite>")).str();
  }
  return writeFile(To,
                   "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites>" +
                       Suites + "</testsuites>");
}

/// The scratch folder of one collection, and the pytest command and
/// environment every process of it starts from.
struct PytestSetup {
  std::string Python;
  TempDir Tmp;
  std::string PlanFile;    ///< the probe plan; empty without one
  bool TraceFiles = false; ///< record the files each test reads
  /// The file read tracer preloaded into pytest for the processes the
  /// tests start (runtime/FileReadTracer.c); empty: none.
  std::string Tracer;
  std::vector<std::string> Args;
  std::vector<std::string> Env;
  /// The build's programs and libraries (NativeInternal.h), and the plan
  /// and folder of their per-test profiles.
  std::vector<BuildObject> Objects;
  std::string NativePlan, ProfileDir;
};

/// The caller's environment, with the plugin importable from \p PluginDir
/// and coverage.py's data file left to each job, as are the profiles of
/// C and C++ code (profileVariables).
std::vector<std::string> pytestEnvironment(const std::string &PluginDir,
                                           const std::string &Root) {
  std::vector<std::string> Env;
  std::string PythonPath = PluginDir;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef Var = *E;
    if (Var.starts_with("PYTHONPATH=")) {
      llvm::StringRef Old = Var.drop_front(11);
      if (!Old.empty())
        PythonPath += ":" + Old.str();
      continue;
    }
    if (Var.starts_with("COVERAGE_FILE=") || Var.starts_with("TIA_PYTEST_") ||
        Var.starts_with("LLVM_PROFILE_FILE=") || Var.starts_with("GCOV_PREFIX"))
      continue;
    Env.push_back(Var.str());
  }
  Env.push_back("PYTHONPATH=" + PythonPath);
  Env.push_back("TIA_PYTEST_ROOT=" + Root);
  return Env;
}

/// What traces the Python processes the tests start (tia_child.py): the
/// startup hook, and coverage.py's configuration for them (parallel data
/// files next to the job's, $COVERAGE_FILE; the repository measured).
llvm::Error writeChildTracing(const TempDir &Dir, const std::string &Root) {
  if (llvm::Error E =
          writeFile(Dir.file("tia_child.py"), embedded(ChildSource)))
    return E;
  if (llvm::Error E = writeFile(Dir.file("sitecustomize.py"),
                                embedded(SiteCustomizeSource)))
    return E;
  return writeFile(Dir.file("coveragerc"),
                   "[run]\nparallel = True\nsource =\n    " + Root + "\n");
}

/// Where the C and C++ code run in and under pytest writes its profiles:
/// clang's and gcov's data in \p Folder, never in the working tree.
std::vector<std::string> profileVariables(const std::string &Folder) {
  return {"LLVM_PROFILE_FILE=" + Folder + "/%p-%m.profraw",
          "GCOV_PREFIX=" + Folder, "GCOV_PREFIX_STRIP=0"};
}

/// Finds the build's programs and libraries (under the repository and the
/// build directories) and writes tia_native.py and its plan.
llvm::Error setUpNative(PytestSetup &Setup, const PytestOptions &O) {
  const TempDir &Dir = Setup.Tmp;
  Setup.ProfileDir = Dir.file("native");
  if (std::error_code EC = llvm::sys::fs::create_directories(Setup.ProfileDir))
    return makeErrorf("cannot make {0}: {1}", Setup.ProfileDir, EC.message());
  std::vector<std::string> Dirs = {O.Root};
  for (const std::string &B : O.BuildDirs)
    if (!llvm::StringRef(B).starts_with(O.Root + "/"))
      Dirs.push_back(B);
  Setup.Objects = findBuildObjects(Dirs);
  if (Setup.Objects.empty())
    return llvm::Error::success();
  if (llvm::Error E =
          writeFile(Dir.file("tia_native.py"), embedded(NativeSource)))
    return E;
  Setup.NativePlan = Dir.file("native.json");
  return writeFile(Setup.NativePlan,
                   nativePlanJson(Setup.ProfileDir, Setup.Objects));
}

/// Chooses the Python and writes the plugin, the evidence recorder, the
/// child processes' tracing and the probe plan into a fresh temporary
/// folder.
llvm::Expected<PytestSetup> setUp(Store &S, const PytestOptions &O) {
  auto Python = choosePython(O.Python);
  if (!Python)
    return Python.takeError();
  auto Tmp = TempDir::make();
  if (!Tmp)
    return Tmp.takeError();
  PytestSetup Setup{*Python, std::move(*Tmp), "", O.TraceFiles, {}, {}};
  const TempDir &Dir = Setup.Tmp;
  if (llvm::Error E = writeFile(Dir.file("tia_pytest_plugin.py"),
                                embedded(PytestPluginSource)))
    return E;
  if (llvm::Error E =
          writeFile(Dir.file("tia_evidence.py"), embedded(EvidenceSource)))
    return E;
  if (llvm::Error E = writeChildTracing(Dir, O.Root))
    return E;
  if (llvm::Error E =
          writeFile(Dir.file("tia_files.py"), embedded(FilesSource)))
    return E;
  if (llvm::Error E = writeFile(Dir.file("tia_pytest_server.py"),
                                embedded(PytestServerSource)))
    return E;
  if (Setup.TraceFiles) {
    auto Tracer = writeFileReadTracer(Dir.path());
    if (!Tracer)
      return Tracer.takeError();
    Setup.Tracer = std::move(*Tracer);
  }
  if (O.Plan) {
    auto Indexed = S.currentFiles();
    if (!Indexed)
      return Indexed.takeError();
    Setup.PlanFile = Dir.file("plan.json");
    if (llvm::Error E = writeFile(
            Setup.PlanFile, planJson(*O.Plan, O.Root, O.Isolate, *Indexed)))
      return E;
  }
  if (llvm::Error E = setUpNative(Setup, O))
    return E;
  Setup.Args = {*Python,
                "-m",
                "pytest",
                "-p",
                "tia_pytest_plugin",
                "--cov=" + O.Root,
                "--cov-context=test",
                "--cov-report="};
  Setup.Env = pytestEnvironment(Dir.path(), O.Root);
  llvm::append_range(Setup.Env,
                     profileVariables(Setup.ProfileDir + "/unowned"));
  return Setup;
}

/// \p Env with the variables of \p Extra set (replacing those of their
/// names) at its end.
std::vector<std::string> withVariables(const std::vector<std::string> &Env,
                                       llvm::ArrayRef<std::string> Extra) {
  // Dropped rather than shadowed: of two of a name in an environment, the
  // first is the one a program sees.
  std::set<llvm::StringRef> Set;
  for (const std::string &Var : Extra)
    Set.insert(llvm::StringRef(Var).split('=').first);
  std::vector<std::string> Out;
  for (const std::string &Var : Env)
    if (!Set.count(llvm::StringRef(Var).split('=').first))
      Out.push_back(Var);
  Out.insert(Out.end(), Extra.begin(), Extra.end());
  return Out;
}

/// The fork servers' environment: the jobs' common one, with the file read
/// tracer preloaded as into the test jobs (it skips pytest's own process,
/// whose reads tia's audit hook records, and follows the tests' children;
/// in the listing job, whose environment names no reads file, it traces
/// nothing).
std::vector<std::string> serverEnvironment(const PytestSetup &Setup) {
  std::vector<std::string> Extra;
  if (!Setup.Tracer.empty()) {
    Extra = tracerVariables(Setup.Tracer, /*ReadsFile=*/"", Setup.Env);
    Extra.push_back("TIA_READS_SKIP_SELF=start");
  }
  return withVariables(Setup.Env, Extra);
}

/// One pytest process named \p Name (its files in the temporary folder):
/// tia's arguments, \p Extra, then the user's; \p ExtraEnv added.
PytestJob makeJob(const PytestSetup &Setup, const PytestOptions &O,
                  const std::string &Name, llvm::ArrayRef<std::string> Extra,
                  llvm::ArrayRef<std::string> ExtraEnv) {
  PytestJob J;
  J.Args = Setup.Args;
  J.Args.insert(J.Args.end(), Extra.begin(), Extra.end());
  J.Args.insert(J.Args.end(), O.PytestArgs.begin(), O.PytestArgs.end());
  J.Env = withVariables(Setup.Env, ExtraEnv);
  J.ResultsLog = Setup.Tmp.file(Name + ".jsonl");
  J.Env.push_back("TIA_PYTEST_RESULTS=" + J.ResultsLog);
  J.Out = Setup.Tmp.file(Name + ".out");
  J.Err = Setup.Tmp.file(Name + ".err");
  return J;
}

/// The name of the \p Index-th test job: its files' stem.
std::string jobName(const PytestOptions &O, size_t Index) {
  return O.Isolate ? "file" + std::to_string(Index) : "all";
}

/// True when pytest could not run the tests (not: some failed). Exit code 1
/// before the plugin saw the collection is no run at all: Python's own
/// exit when it cannot import pytest.
bool pytestFailed(const PytestJob &J) {
  if (J.Crashed || J.ReturnCode == 0)
    return false;
  return J.ReturnCode != 1 || !J.Log.HaveCollected;
}

/// What pytest did when runJobs killed it with no test running.
std::string stalledText(double TimeoutSeconds) {
  return "was killed after " + secondsText(TimeoutSeconds) +
         " in which no test started or ended";
}

/// Why \p J failed: killed after \p TimeoutSeconds (Stalled), its Python
/// cannot import pytest and pytest-cov (asked only now, so that a run that
/// works starts no extra Python), or pytest's exit code with the end of its
/// output.
llvm::Error pytestFailure(const PytestJob &J, double TimeoutSeconds) {
  if (!J.Stalled && !canRunPytest(J.Args.front()))
    return cannotImportPytest(J.Args.front());
  int Code = J.ReturnCode;
  static const char *const Why[] = {"",
                                    "",
                                    "was interrupted",
                                    "hit an internal error",
                                    "was called wrongly (usage error)",
                                    "collected no tests"};
  std::string What = J.Stalled  ? stalledText(TimeoutSeconds)
                     : Code < 0 ? "was ended by a signal"
                     : Code < 6
                         ? Why[Code]
                         : "failed with exit code " + std::to_string(Code);
  std::string ErrTail = tail(J.Err, 3), OutTail = tail(J.Out, 5);
  std::string Detail = !ErrTail.empty() ? ErrTail : OutTail;
  return makeErrorf("pytest {0}: {1}", What,
                    Detail.empty() ? std::string("no output") : Detail);
}

/// The environment of a test job named \p Name: where its coverage and
/// evidence go, and the probe plan.
std::vector<std::string> recordingEnv(const PytestSetup &Setup,
                                      const std::string &Name) {
  std::vector<std::string> Env = {
      "COVERAGE_FILE=" + Setup.Tmp.file(Name + ".coverage"),
      "TIA_PYTEST_EVIDENCE=" + Setup.Tmp.file(Name + ".evidence"),
      "TIA_PYTEST_CHILD=" + Setup.Tmp.file(Name)};
  if (!Setup.PlanFile.empty())
    Env.push_back("TIA_PYTEST_PROBES=" + Setup.PlanFile);
  if (Setup.TraceFiles)
    Env.push_back("TIA_PYTEST_FILES=1");
  if (!Setup.NativePlan.empty())
    Env.push_back("TIA_PYTEST_NATIVE=" + Setup.NativePlan);
  if (!Setup.Tracer.empty()) {
    // The processes the tests start that are not Python (a shell, a
    // compiled tool) are traced by the preloaded tracer, into one file per
    // tia_files key under the job's folder; pytest's own process is the
    // audit hook's (TIA_READS_SKIP_SELF).
    std::string Dir = Setup.Tmp.file(Name + ".reads");
    llvm::sys::fs::create_directories(Dir);
    llvm::append_range(
        Env, tracerVariables(Setup.Tracer, Dir + "/outside", Setup.Env));
    Env.push_back("TIA_READS_SKIP_SELF=start");
    Env.push_back("TIA_PYTEST_READS_DIR=" + Dir);
  }
  return Env;
}

/// The jobs to run and the test files they cover.
struct JobPlan {
  std::vector<PytestJob> Jobs;
  std::vector<std::string> TestFiles;
  unsigned Total = 0; ///< tests listed; 0: the first job's count
  /// --shard: the plan whose share the jobs run.
  std::optional<shard::ShardPlan> Shares;
  /// --incremental: tests carried over, not run, and what carries over:
  /// the tests of PytestOptions::Carry but those of the files that run.
  unsigned LeftOut = 0;
  std::optional<CarryOver> Carry;
  /// Every test the session collected (node id and file), deselected ones
  /// too, before --shard and --incremental left some out: what is gone is
  /// judged against it.
  std::vector<std::pair<std::string, std::string>> Listed;
};

/// --shard: keeps share K of \p Plan's test files, by the durations of
/// their tests (\p Items: node id and file) or their number, and says what
/// it holds.
void keepShare(JobPlan &Plan,
               const std::vector<std::pair<std::string, std::string>> &Items,
               const PytestOptions &O, llvm::raw_ostream &Err) {
  std::map<std::string, double> Recorded, Counts;
  std::map<std::string, std::vector<std::optional<double>>> TimesOf;
  for (const auto &[Item, Path] : Items) {
    Counts[Path] += 1;
    auto It = O.Durations.find("pytest:" + Item);
    TimesOf[Path].push_back(It == O.Durations.end()
                                ? std::nullopt
                                : std::optional<double>(It->second));
  }
  if (!O.Durations.empty()) {
    // A test never timed costs what the timed ones do on average.
    std::vector<std::optional<double>> All;
    for (auto &[Path, Times] : TimesOf)
      llvm::append_range(All, Times);
    std::vector<double> Costs = shard::estimateUnknownCosts(All);
    size_t At = 0;
    for (auto &[Path, Times] : TimesOf)
      for (size_t I = 0; I < Times.size(); ++I)
        Recorded[Path] += Costs[At++];
  }
  Plan.Shares = shard::planByCost(
      Plan.TestFiles, Recorded,
      [&](const std::string &Path) { return Counts[Path]; }, O.Shard->N);
  std::vector<std::string> Mine = Plan.Shares->unitsOf(O.Shard->K);
  std::set<std::string> Keep(Mine.begin(), Mine.end());
  llvm::erase_if(Plan.TestFiles,
                 [&](const std::string &F) { return !Keep.count(F); });
  Plan.Total = 0;
  for (const auto &[Item, Path] : Items)
    Plan.Total += Keep.count(Path);
  if (!O.Quiet)
    Err << shard::describeShare(*Plan.Shares, O.Shard->K, "test files",
                                Recorded.empty() ? "tests (by count)"
                                                 : "s of test time (recorded)")
        << "\n";
}

/// --incremental: leaves out of \p Items (node id and file) the files all
/// of whose tests \p Carry carries over; a file with one test to run runs
/// whole. Returns how many tests were left out.
unsigned
leaveOutCarriedFiles(std::vector<std::pair<std::string, std::string>> &Items,
                     const CarryOver &Carry) {
  std::set<std::string> Run;
  for (const auto &[Item, Path] : Items)
    if (!Carry.Tests.count("pytest:" + Item))
      Run.insert(Path);
  size_t Before = Items.size();
  llvm::erase_if(Items, [&](const std::pair<std::string, std::string> &I) {
    return !Run.count(I.second);
  });
  return Before - Items.size();
}

/// Isolated: a process that only lists the tests, then one job per test
/// file, in the order pytest listed them.
llvm::Expected<JobPlan> planIsolatedJobs(const PytestSetup &Setup,
                                         const PytestOptions &O,
                                         PytestServers &Servers,
                                         llvm::raw_ostream &Err) {
  std::vector<PytestJob> List = {makeJob(Setup, O, "list",
                                         {"--collect-only", "-q", "--no-cov"},
                                         {"TIA_PYTEST_LIST=1"})};
  JobsOptions Run;
  Run.StopOnFailure = true;
  Run.TimeoutSeconds = O.TimeoutSeconds;
  Run.Servers = &Servers;
  if (llvm::Error E = runJobs(List, O.Root, Run, Err))
    return E;
  if (List[0].Crashed || pytestFailed(List[0]))
    return pytestFailure(List[0], O.TimeoutSeconds);
  JobPlan Plan;
  std::vector<std::pair<std::string, std::string>> Items = List[0].Log.Items;
  Plan.Listed = Items;
  llvm::append_range(Plan.Listed, List[0].Log.Deselected);
  if (O.Carry) {
    Plan.LeftOut = leaveOutCarriedFiles(Items, *O.Carry);
    // The tests of the files that run get their coverage from this run.
    Plan.Carry = *O.Carry;
    for (const auto &[Item, Path] : Items)
      Plan.Carry->Tests.erase("pytest:" + Item);
  }
  std::set<std::string> Seen;
  for (auto &[Item, Path] : Items)
    if (Seen.insert(Path).second)
      Plan.TestFiles.push_back(Path);
  Plan.Total = Items.size();
  if (O.Shard)
    keepShare(Plan, Items, O, Err);
  for (size_t I = 0; I < Plan.TestFiles.size(); ++I) {
    std::string Name = jobName(O, I);
    std::vector<std::string> Extra;
    if (!O.JunitXml.empty())
      Extra.push_back("--junitxml=" + Setup.Tmp.file(Name + ".xml"));
    std::vector<std::string> Env = {"TIA_PYTEST_ONLY=" + Plan.TestFiles[I]};
    llvm::append_range(Env, recordingEnv(Setup, Name));
    Plan.Jobs.push_back(makeJob(Setup, O, Name, Extra, Env));
  }
  return Plan;
}

/// Not isolated: one job runs (and lists) every test.
JobPlan planSharedJob(const PytestSetup &Setup, const PytestOptions &O) {
  std::vector<std::string> Extra;
  if (!O.JunitXml.empty())
    Extra.push_back("--junitxml=" + O.JunitXml);
  std::vector<std::string> Env = recordingEnv(Setup, jobName(O, 0));
  Env.push_back("TIA_PYTEST_LIST=1");
  JobPlan Plan;
  Plan.Jobs.push_back(makeJob(Setup, O, jobName(O, 0), Extra, Env));
  return Plan;
}

/// Where pytest crashed first, or was killed with no test running: what
/// happened ("crashed", stalledText), the test running then ("-": none
/// known) and the end of its error output.
struct Crash {
  std::string What, In, Tail;
};

/// The first crash among \p Jobs; fails when a job could not run its tests
/// (a test file whose tests were all deselected collects nothing: that is
/// no failure when isolated).
llvm::Expected<std::optional<Crash>>
firstCrash(const std::vector<PytestJob> &Jobs, const PytestOptions &O) {
  std::optional<Crash> First;
  for (const PytestJob &J : Jobs) {
    if (J.Crashed) {
      if (!First)
        First =
            Crash{J.Stalled ? stalledText(O.TimeoutSeconds) : "crashed",
                  J.Log.Running.empty() ? "-" : J.Log.Running, tail(J.Err, 3)};
      continue;
    }
    if (pytestFailed(J) && !(O.Isolate && J.ReturnCode == 5))
      return pytestFailure(J, O.TimeoutSeconds);
  }
  return First;
}

/// What the jobs leave to store, and the files to read it from.
struct Gathered {
  std::vector<TestResult> Results;
  std::vector<TestInfo> Infos;
  coverage::ImportOptions Import;
  std::vector<std::string> DataFiles, EvidenceFiles, JunitParts;
  RuntimeEvidence Evidence;
  /// Tests whose evidence stops at a failure, as accesses.
  std::vector<RuntimeEvidence::Access> Failures;
  /// What each test read, by test id (with $TIA_PYTEST_FILES).
  std::map<std::string, RawReads> Reads;
  /// Where each test's native profiles are, by test id (with
  /// $TIA_PYTEST_NATIVE), for the tests whose coverage is trusted.
  std::map<std::string, NativeRecord> Native;
  /// The build objects each of those tests crossed into, by test id, and
  /// the sources of those objects.
  std::map<std::string, std::vector<Boundary>> Boundaries;
  std::map<std::string, std::vector<std::string>> BoundarySources;
};

void countOutcome(PytestSummary &Sum, Outcome R) {
  switch (R) {
  case Outcome::Passed:
    ++Sum.Passed;
    break;
  case Outcome::Failed:
    ++Sum.Failed;
    break;
  case Outcome::Skipped:
    ++Sum.Skipped;
    break;
  default:
    ++Sum.Errors;
  }
}

/// The fixtures' definitions (file, line) the plugin reports for a test,
/// relative to \p Root.
std::vector<std::pair<std::string, unsigned>>
fixtureLocations(const llvm::json::Object &R, llvm::StringRef Root) {
  std::vector<std::pair<std::string, unsigned>> Out;
  if (const llvm::json::Array *F = R.getArray("fixtures"))
    for (const llvm::json::Value &V : *F)
      if (const llvm::json::Array *Pair = V.getAsArray();
          Pair && Pair->size() == 2) {
        std::string File =
            relativeTo((*Pair)[0].getAsString().value_or(""), Root);
        if (!File.empty())
          Out.emplace_back(File, static_cast<unsigned>(
                                     (*Pair)[1].getAsInteger().value_or(0)));
      }
  return Out;
}

/// The plugin's record of a test's native code (tia_native.py's record()).
NativeRecord nativeRecordOf(const llvm::json::Object &R) {
  NativeRecord N;
  N.Folder = R.getString("folder").value_or("").str();
  N.Outside = R.getString("outside").value_or("").str();
  for (auto [Key, List] : {std::make_pair("loaded", &N.Loaded),
                           std::make_pair("unreached", &N.Unreached)})
    if (const llvm::json::Array *A = R.getArray(Key))
      for (const llvm::json::Value &V : *A)
        if (auto S = V.getAsString())
          List->push_back(S->str());
  return N;
}

/// Adds the outcome, the rerun command and the fixtures of one result line
/// \p R of the plugin's log.
void addResult(const llvm::json::Object &R, const std::string &Python,
               const PytestOptions &O, Gathered &G, PytestSummary &Sum) {
  std::string NodeId = R.getString("id").value_or("").str();
  std::string Id = "pytest:" + NodeId;
  TestResult T;
  T.TestId = Id;
  std::string Outcome = R.getString("outcome").value_or("error").str();
  T.Result = parseOutcome(Outcome).value_or(Outcome::Error);
  T.Seconds = R.getNumber("duration").value_or(0);
  T.Message = R.getString("message").value_or("").str();
  countOutcome(Sum, T.Result);
  // Coverage is trusted only from a test that ran to its end.
  if (T.Result != Outcome::Passed && T.Result != Outcome::Skipped)
    G.Import.Untrusted.insert(Id);
  G.Results.push_back(std::move(T));

  TestInfo Info;
  Info.Id = Id;
  Info.File = R.getString("file").value_or("").str();
  Info.Line = static_cast<unsigned>(R.getInteger("line").value_or(0));
  TestCommand Cmd;
  Cmd.Executable = Python;
  Cmd.WorkingDir = O.Root;
  Cmd.Arguments = {"-m", "pytest", NodeId};
  Info.Command = std::move(Cmd);
  G.Infos.push_back(std::move(Info));

  auto &Locations = G.Import.ExtraLocations[Id];
  llvm::append_range(Locations, fixtureLocations(R, O.Root));

  if (const llvm::json::Object *Native = R.getObject("native"))
    if (!G.Import.Untrusted.count(Id))
      G.Native[Id] = nativeRecordOf(*Native);

  if (const llvm::json::Object *Files = R.getObject("files")) {
    RawReads &Reads = G.Reads[Id];
    Reads.add(*Files);
    // A test cut short by a failure did not read all it reads.
    if (G.Import.Untrusted.count(Id))
      Reads.Incomplete = true;
  }
}

/// Adds what the child processes of job \p Name read: PREFIX.files.PID,
/// one record per process, {"test": NODEID, "read": ..., "listed": ...}.
void addChildReads(const std::vector<std::string> &Files, Gathered &G) {
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf)
      continue;
    auto V = parseJson((*Buf)->getBuffer());
    if (!V) {
      llvm::consumeError(V.takeError()); // Cut short: nothing usable.
      continue;
    }
    if (const llvm::json::Object *O = V->getAsObject())
      if (auto Test = O->getString("test"); Test && !Test->empty())
        G.Reads["pytest:" + Test->str()].add(*O);
  }
}

/// The files \p Prefix + "." + \p Kind + ".*" of folder \p Dir: what the
/// child processes of a job wrote.
std::vector<std::string> childFiles(const TempDir &Dir, llvm::StringRef Prefix,
                                    llvm::StringRef Kind) {
  std::vector<std::string> Out;
  std::string Start = (Prefix + "." + Kind + ".").str();
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir.path(), EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::sys::path::filename(It->path()).starts_with(Start))
      Out.push_back(It->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// Adds the coverage data and evidence the child processes of job \p Name
/// left. A child that ran outside every test recorded nothing to attribute
/// (pytest-cov's own child measurement, when it outlived the job).
void addChildFiles(const TempDir &Dir, const std::string &Name, Gathered &G) {
  for (const std::string &F : childFiles(Dir, Name, "coverage")) {
    auto Data = readCoveragePyData(F);
    if (!Data) {
      llvm::consumeError(Data.takeError()); // Cut short: nothing usable.
      continue;
    }
    if (llvm::any_of(Data->Contexts,
                     [](const std::string &C) { return !C.empty(); }))
      G.DataFiles.push_back(F);
  }
  llvm::append_range(G.EvidenceFiles, childFiles(Dir, Name, "evidence"));
  addChildReads(childFiles(Dir, Name, "files"), G);
}

/// A test that failed, erred or crashed under collect ran only part of
/// what it runs: its evidence says so ("failed" under \p Scope), and
/// static selection does not prune it.
void noteFailure(const llvm::json::Object &R, const std::string &Scope,
                 Gathered &G) {
  llvm::StringRef Outcome = R.getString("outcome").value_or("error");
  if (Outcome == "passed" || Outcome == "skipped")
    return;
  G.Failures.push_back({Scope, "failed", R.getString("id").value_or("").str()});
}

/// Adds test \p NodeId, which runJobs killed after \p TimeoutSeconds:
/// what it ran before is no coverage of it.
void addTimedOut(const std::string &NodeId, double TimeoutSeconds, Gathered &G,
                 PytestSummary &Sum) {
  TestResult T;
  T.TestId = "pytest:" + NodeId;
  T.Result = Outcome::TimedOut;
  T.Seconds = TimeoutSeconds;
  T.Message = "killed after " + secondsText(TimeoutSeconds);
  G.Import.Untrusted.insert(T.TestId);
  G.Results.push_back(std::move(T));
  ++Sum.TimedOut;
}

/// Reads every job's results (with the tests killed after the timeout),
/// and lists the data files of the jobs that did not crash (the test
/// running in one that did is recorded crashed).
Gathered gatherJobs(const std::vector<PytestJob> &Jobs,
                    const PytestSetup &Setup, const PytestOptions &O,
                    const std::vector<std::string> &TestFiles,
                    PytestSummary &Sum) {
  Gathered G;
  G.Import.Fmt = coverage::Format::CoveragePy;
  G.Import.ProjectRoot = O.Root;
  G.Import.Commit = O.Commit;
  G.Evidence.Commit = O.Commit;
  G.Evidence.Isolated = O.Isolate;
  for (size_t JI = 0; JI < Jobs.size(); ++JI) {
    const PytestJob &J = Jobs[JI];
    for (const llvm::json::Object &R : J.Log.Results)
      addResult(R, Setup.Python, O, G, Sum);
    for (const std::string &NodeId : J.TimedOut)
      addTimedOut(NodeId, O.TimeoutSeconds, G, Sum);
    if (J.Crashed && !J.Log.Running.empty()) {
      TestResult T;
      T.TestId = "pytest:" + J.Log.Running;
      T.Result = Outcome::Crashed;
      T.Message = "pytest ended by a signal while this test ran";
      G.Results.push_back(std::move(T));
      ++Sum.Crashed;
    }
    if (J.Crashed)
      continue;
    std::string Name = jobName(O, JI);
    if (llvm::sys::fs::exists(Setup.Tmp.file(Name + ".coverage")))
      G.DataFiles.push_back(Setup.Tmp.file(Name + ".coverage"));
    G.EvidenceFiles.push_back(Setup.Tmp.file(Name + ".evidence"));
    addChildFiles(Setup.Tmp, Name, G);
    for (const llvm::json::Object &R : J.Log.Results)
      noteFailure(R, O.Isolate ? TestFiles[JI] : "*", G);
    if (O.Isolate) {
      G.Evidence.TestFiles.push_back(TestFiles[JI]);
      G.JunitParts.push_back(Setup.Tmp.file(Name + ".xml"));
    }
  }
  if (!O.Isolate)
    G.Evidence.TestFiles = TestFiles;
  return G;
}

/// Records what each test read, keeping the files git tracks.
llvm::Error storeReads(Store &S, const Gathered &G, const PytestOptions &O) {
  TrackedTree Tree = trackedTree(O.Root, O.TrackedFiles);
  for (const auto &[Id, Raw] : G.Reads)
    if (llvm::Error E = S.putFileReads(keepTracked(Id, O.Commit, Raw, Tree)))
      return E;
  return llvm::Error::success();
}

/// What is wrong with a profile, from CoverageReader's error: its first
/// line, without the scratch folder's path ("cannot read profile PATH: ").
std::string profileProblem(llvm::StringRef Error) {
  llvm::StringRef Line = Error.split('\n').first;
  if (Line.consume_front("cannot read profile ")) {
    size_t At = Line.find(": ");
    if (At != llvm::StringRef::npos)
      Line = Line.drop_front(At + 2);
  }
  return Line.str();
}

/// Reads the C and C++ functions each trusted test ran into the import,
/// and the build objects it crossed into, with the sources of those it has
/// no coverage of. A test whose profiles cannot be read (another clang's,
/// a program killed while it wrote one) has no coverage of what it crossed
/// into, and a warning on \p Err says why, once per reason.
void readNative(Store &S, const PytestSetup &Setup, const PytestOptions &O,
                Gathered &G, llvm::raw_ostream &Err) {
  if (Setup.Objects.empty())
    return;
  std::map<std::string, std::vector<std::string>> Unreadable; // why -> tests
  const std::set<std::string> NoPrograms;
  NativeCoverage Native(S, Setup.Objects, Setup.ProfileDir, O.Root,
                        O.BuildDirs);
  for (const auto &[Id, Record] : G.Native) {
    auto Reads = G.Reads.find(Id);
    const std::set<std::string> &Executed =
        Reads == G.Reads.end() ? NoPrograms : Reads->second.Executed;
    // A profile that cannot be read is no coverage: the test then has none
    // of what it crossed into.
    std::string Problem;
    auto Hits = Native.hitsOf(Record, Executed);
    if (!Hits) {
      std::string Why = profileProblem(llvm::toString(Hits.takeError()));
      Problem = "its profiles could not be read: " + Why;
      Unreadable[Why].push_back(Id);
    } else if (!Hits->empty()) {
      G.Import.NativeHits[Id] = std::move(*Hits);
    }
    G.Boundaries[Id] = Native.boundariesOf(Record, Executed, Problem);
  }
  G.BoundarySources = Native.sources();
  if (!O.Quiet)
    for (const auto &[Why, Tests] : Unreadable)
      Err << "tia: warning: cannot read the C and C++ profiles of "
          << Tests.size() << " test" << pluralS(Tests.size()) << " ("
          << Tests.front() << (Tests.size() > 1 ? ", ..." : "") << "): " << Why
          << "; they are selected for every change to what they loaded or "
             "ran\n";
}

/// Replaces the boundaries of every test whose coverage this collect
/// replaces: none, for those that crossed into no object of the project.
llvm::Error storeBoundaries(Store &S, const Gathered &G) {
  for (const TestResult &T : G.Results) {
    if (G.Import.Untrusted.count(T.TestId))
      continue;
    auto It = G.Boundaries.find(T.TestId);
    TestBoundaries B{T.TestId, It == G.Boundaries.end()
                                   ? std::vector<Boundary>()
                                   : It->second};
    if (llvm::Error E = S.putBoundaries(B))
      return E;
  }
  for (const auto &[Object, Sources] : G.BoundarySources)
    if (llvm::Error E = S.putBoundarySources(Object, Sources))
      return E;
  return llvm::Error::success();
}

/// The known pytest tests the session found gone (gonePytestTests); none
/// for a share of --shard, whose merge would not carry the retirement, or
/// when pytest was given node ids.
llvm::Expected<std::vector<std::string>>
goneFromSession(Store &S, const JobPlan &Plan, const PytestOptions &O) {
  // A node id argument ("f.py::test_x") leaves its file's other tests out
  // of the session without deselecting them.
  bool NodeIdArgument = llvm::any_of(O.PytestArgs, [](const std::string &A) {
    return llvm::StringRef(A).contains("::");
  });
  if (O.Shard || NodeIdArgument)
    return std::vector<std::string>();
  auto Known = S.sharedTests();
  if (!Known)
    return Known.takeError();
  std::vector<std::string> Ids;
  for (const TestRecord &T : **Known)
    Ids.push_back(T.Id);
  return gonePytestTests(Ids, Plan.Listed, [&](llvm::StringRef File) {
    return llvm::sys::fs::exists(O.Root + "/" + File);
  });
}

/// Writes the coverage, the runtime evidence and the files each test read,
/// and retires the tests \p Gone (unless pytest crashed), the tests'
/// commands, and a "collect" run with the outcomes, in one transaction.
llvm::Error storePytest(Store &S, const Gathered &G, const PytestOptions &O,
                        const JobPlan &Plan, bool Crashed,
                        const std::vector<std::string> &Gone,
                        PytestSummary &Sum) {
  const std::optional<shard::ShardPlan> &Shares = Plan.Shares;
  return S.transaction([&]() -> llvm::Error {
    if (!Crashed && Plan.Carry) {
      auto Carried = carryCoverage(S, *Plan.Carry, O.Commit);
      if (!Carried)
        return Carried.takeError();
      Sum.Carried = *Carried;
    }
    if (!Crashed) {
      auto Cov = coverage::importCoveragePy(S, G.DataFiles, G.Import);
      if (!Cov)
        return Cov.takeError();
      Sum.Coverage = std::move(*Cov);
      if (O.Plan)
        if (llvm::Error E = S.putRuntimeEvidence(G.Evidence))
          return E;
    }
    if (!Crashed && O.TraceFiles)
      if (llvm::Error E = storeReads(S, G, O))
        return E;
    if (!Crashed)
      if (llvm::Error E = storeBoundaries(S, G))
        return E;
    for (const TestInfo &I : G.Infos)
      if (llvm::Error E = S.putTestInfo(I))
        return E;
    auto Run = S.addRun(O.Commit, "collect");
    if (!Run)
      return Run.takeError();
    if (Shares)
      if (llvm::Error E = S.putShardRecord(
              shardRecordOf("pytest", *Shares, *O.Shard, O.Commit, *Run)))
        return E;
    if (llvm::Error E = S.putResults(*Run, G.Results))
      return E;
    // Last: carrying over reads a snapshot that a new one may drop.
    return Crashed ? llvm::Error::success() : S.retireTests(O.Commit, Gone);
  });
}

/// Runs the tests that failed or erred under collect once more without
/// tia's instrumentation (recheckFailures in PytestProcesses.cpp); those that
/// pass are reported on \p Err, dropped from the results (not failing)
/// and from the coverage import (their earlier coverage stays). Their
/// evidence still counts as incomplete.
llvm::Error checkFailures(const PytestSetup &Setup, const PytestOptions &O,
                          Gathered &G, PytestSummary &Sum,
                          llvm::raw_ostream &Err) {
  std::vector<std::pair<std::string, std::string>> Failed;
  for (const TestResult &T : G.Results)
    if (T.Result == Outcome::Failed || T.Result == Outcome::Error)
      Failed.push_back(
          {llvm::StringRef(T.TestId).drop_front(7).str(), T.Message});
  if (Failed.empty())
    return llvm::Error::success();
  PytestJob Plain = makeJob(Setup, O, "recheck", {}, {});
  Plain.Args = {Setup.Python, "-m", "pytest", "-p", "tia_pytest_plugin"};
  Plain.Args.push_back("--no-cov");
  llvm::append_range(Plain.Args, O.PytestArgs);
  PytestJob Covered =
      makeJob(Setup, O, "recheck-coverage", {},
              {"COVERAGE_FILE=" + Setup.Tmp.file("recheck-coverage.coverage")});
  auto Broken = recheckFailures(std::move(Plain), std::move(Covered), Failed,
                                O.Root, O.TimeoutSeconds, Err);
  if (!Broken)
    return Broken.takeError();
  for (const BrokenByCollect &B : *Broken) {
    std::string Id = "pytest:" + B.NodeId;
    Err << "tia: warning: " << Id << " failed under collect ("
        << (B.Message.empty() ? std::string("no message") : B.Message)
        << ") and passed without tia's instrumentation: broken by " << B.Cause
        << "; its outcome is not recorded and it keeps its earlier "
           "coverage\n";
    auto It = llvm::find_if(
        G.Results, [&](const TestResult &T) { return T.TestId == Id; });
    (It->Result == Outcome::Failed ? Sum.Failed : Sum.Errors) -= 1;
    G.Results.erase(It);
    ++Sum.Broken;
  }
  return llvm::Error::success();
}

/// Warns of every test that did not pass (failed, error, crashed), with
/// its message, as the C++ collect does.
llvm::Error warnNotPassedTests(Store &S, const std::vector<TestResult> &Results,
                               llvm::raw_ostream &Err) {
  auto Covered = testsWithCoverage(S);
  if (!Covered)
    return Covered.takeError();
  for (const TestResult &T : Results)
    if (isFailure(T.Result))
      warnNotPassed(T, Covered->count(T.TestId) != 0, Err);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<PytestSummary> collectPytest(Store &S, const PytestOptions &O,
                                            llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  if (llvm::Error E = coverage::requireWholeIndex(S))
    return E;
  auto Setup = setUp(S, O);
  if (!Setup)
    return Setup.takeError();
  // Isolated, the list and every test file are a pytest each: forked from
  // servers that import pytest once. One process for all needs none.
  PytestServers Servers(Setup->Python, serverEnvironment(*Setup), O.Root,
                        Setup->Tmp.file("server.log"), O.Jobs);
  llvm::Expected<JobPlan> Plan = O.Isolate
                                     ? planIsolatedJobs(*Setup, O, Servers, Err)
                                     : planSharedJob(*Setup, O);
  if (!Plan)
    return Plan.takeError();
  std::vector<PytestJob> &Jobs = Plan->Jobs;
  JobsOptions Run;
  Run.Parallel = O.Isolate ? O.Jobs : 1;
  Run.Total = Plan->Total;
  Run.Quiet = O.Quiet;
  Run.StopOnFailure = true;
  Run.TimeoutSeconds = O.TimeoutSeconds;
  Run.Servers = O.Isolate ? &Servers : nullptr;
  if (llvm::Error E = runJobs(Jobs, O.Root, Run, Err))
    return E;
  auto Crashed = firstCrash(Jobs, O);
  if (!Crashed)
    return Crashed.takeError();
  if (!O.Isolate) {
    for (auto &[Item, Path] : Jobs[0].Log.Items)
      if (!llvm::is_contained(Plan->TestFiles, Path))
        Plan->TestFiles.push_back(Path);
    Plan->Listed = Jobs[0].Log.Items;
    llvm::append_range(Plan->Listed, Jobs[0].Log.Deselected);
  }

  PytestSummary Sum;
  Sum.Python = Setup->Python;
  Sum.Isolated = O.Isolate;
  Sum.LeftOut = Plan->LeftOut;
  Sum.TestFiles = Plan->TestFiles.size();
  Gathered G = gatherJobs(Jobs, *Setup, O, Plan->TestFiles, Sum);
  if (!*Crashed)
    if (llvm::Error E = checkFailures(*Setup, O, G, Sum, Err))
      return E;
  if (!O.Quiet)
    if (llvm::Error E = warnNotPassedTests(S, G.Results, Err))
      return E;
  readEvidence(G.EvidenceFiles, G.Failures, G.Evidence);
  Sum.Probed = G.Evidence.Probed.size();
  Sum.Accesses = G.Evidence.Accesses.size();
  // A share of --shard may hold no test file (more workers than files):
  // it ran nothing, which is no missing coverage.
  if (!*Crashed && G.DataFiles.empty() && !Plan->TestFiles.empty())
    return makeErrorf("pytest wrote no coverage data: check that pytest-cov "
                      "is active for {0} (pytest -p pytest_cov)",
                      Setup->Python);
  if (O.Isolate && !O.JunitXml.empty())
    if (llvm::Error E = mergeJunit(G.JunitParts, O.JunitXml))
      return E;
  if (!*Crashed)
    readNative(S, *Setup, O, G, Err);
  auto Gone = goneFromSession(S, *Plan, O);
  if (!Gone)
    return Gone.takeError();
  if (llvm::Error E =
          storePytest(S, G, O, *Plan, Crashed->has_value(), *Gone, Sum))
    return E;
  if (!O.Quiet && !*Crashed)
    noteRetired(*Gone, Err);
  if (const std::optional<Crash> &C = *Crashed)
    return makeErrorf("pytest {0}{1}: the outcomes so far are recorded, "
                      "no coverage{2}",
                      C->What,
                      C->In == "-" ? std::string() : " while running " + C->In,
                      C->Tail.empty() ? std::string() : " (" + C->Tail + ")");
  Sum.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Sum;
}

} // namespace collect
} // namespace tia
