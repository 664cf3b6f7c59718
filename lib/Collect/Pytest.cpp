//===- Pytest.cpp - per-test coverage from a pytest run -------------------===//
//
// The plugin is written to a temporary directory and loaded with `-p` via
// PYTHONPATH; coverage.py writes its data file there too (COVERAGE_FILE),
// so the project's work tree only sees what pytest itself leaves.
//
//===----------------------------------------------------------------------===//

#include "tia/Collect/Pytest.h"
#include "PytestInternal.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
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

#include "EvidenceSource.inc"
#include "PytestPluginSource.inc"

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

llvm::Expected<std::string> choosePython(llvm::StringRef Given) {
  if (!Given.empty()) {
    auto Found = llvm::sys::findProgramByName(Given);
    if (Found && !llvm::sys::fs::can_execute(*Found))
      Found = std::make_error_code(std::errc::no_such_file_or_directory);
    if (!Found)
      return makeErrorf("cannot find the Python '{0}': pass --python PATH "
                        "or set python.interpreter in .tia.yaml",
                        Given);
    if (!canRunPytest(*Found))
      return makeErrorf("{0} cannot import pytest and pytest_cov: install "
                        "them for it (Debian: python3-pytest "
                        "python3-pytest-cov) or choose another --python",
                        *Found);
    return *Found;
  }
  std::vector<std::string> Tried;
  for (llvm::StringRef Candidate : {"python3", "/usr/bin/python3"}) {
    auto Found = llvm::sys::findProgramByName(Candidate);
    if (!Found)
      continue;
    if (llvm::is_contained(Tried, *Found))
      continue;
    Tried.push_back(*Found);
    if (canRunPytest(*Found))
      return *Found;
  }
  return makeErrorf("no Python with pytest and pytest-cov found (tried {0}): "
                    "install python3-pytest and python3-pytest-cov, or pass "
                    "--python PATH",
                    Tried.empty() ? std::string("python3")
                                  : llvm::join(Tried, ", "));
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, true);
  llvm::StringRef R = P;
  if (R.consume_front(Root) && R.consume_front("/"))
    return R.str();
  return llvm::sys::path::is_absolute(P) ? std::string() : Path.str();
}

/// The plan as the plugin reads it.
std::string planJson(const ProbePlan &Plan, const std::string &Root,
                     bool Isolated) {
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
  llvm::json::Array Names;
  for (const std::string &N : Plan.Names)
    Names.push_back(N);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(llvm::json::Object{{"root", Root},
                                             {"isolated", Isolated},
                                             {"probes", std::move(Probes)},
                                             {"names", std::move(Names)}});
  return OS.str();
}

/// Reads the evidence files the processes wrote into \p E.
void readEvidence(const std::vector<std::string> &Files, RuntimeEvidence &E) {
  std::set<std::string> Probed;
  std::set<std::tuple<std::string, std::string, std::string>> Accesses;
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

} // namespace

llvm::Expected<PytestSummary> collectPytest(Store &S, const PytestOptions &O,
                                            llvm::raw_ostream &Err) {
  auto Start = std::chrono::steady_clock::now();
  auto Python = choosePython(O.Python);
  if (!Python)
    return Python.takeError();
  auto Tmp = TempDir::make();
  if (!Tmp)
    return Tmp.takeError();
  if (llvm::Error E = writeFile(Tmp->file("tia_pytest_plugin.py"),
                                embedded(PytestPluginSource)))
    return std::move(E);
  if (llvm::Error E =
          writeFile(Tmp->file("tia_evidence.py"), embedded(EvidenceSource)))
    return std::move(E);
  std::string Plan = Tmp->file("plan.json");
  if (O.Plan)
    if (llvm::Error E = writeFile(Plan, planJson(*O.Plan, O.Root, O.Isolate)))
      return std::move(E);

  std::vector<std::string> Args = {*Python,
                                   "-m",
                                   "pytest",
                                   "-p",
                                   "tia_pytest_plugin",
                                   "--cov=" + O.Root,
                                   "--cov-context=test",
                                   "--cov-report="};

  // The caller's environment, with the plugin importable and coverage.py's
  // data file in the temporary directory.
  std::vector<std::string> Env;
  std::string PythonPath = Tmp->path();
  for (char **E = environ; *E; ++E) {
    llvm::StringRef Var = *E;
    if (Var.starts_with("PYTHONPATH=")) {
      llvm::StringRef Old = Var.drop_front(11);
      if (!Old.empty())
        PythonPath += ":" + Old.str();
      continue;
    }
    if (Var.starts_with("COVERAGE_FILE=") || Var.starts_with("TIA_PYTEST_"))
      continue;
    Env.push_back(Var.str());
  }
  Env.push_back("PYTHONPATH=" + PythonPath);
  Env.push_back("TIA_PYTEST_ROOT=" + O.Root);

  // One job, or one per test file after a job that lists them.
  std::vector<PytestJob> Jobs;
  auto MakeJob = [&](const std::string &Name, llvm::ArrayRef<std::string> Extra,
                     llvm::ArrayRef<std::string> ExtraEnv) {
    PytestJob J;
    J.Args = Args;
    J.Args.insert(J.Args.end(), Extra.begin(), Extra.end());
    J.Args.insert(J.Args.end(), O.PytestArgs.begin(), O.PytestArgs.end());
    J.Env = Env;
    J.Env.insert(J.Env.end(), ExtraEnv.begin(), ExtraEnv.end());
    J.ResultsLog = Tmp->file(Name + ".jsonl");
    J.Env.push_back("TIA_PYTEST_RESULTS=" + J.ResultsLog);
    J.Out = Tmp->file(Name + ".out");
    J.Err = Tmp->file(Name + ".err");
    return J;
  };
  auto Failure = [&](const PytestJob &J) -> llvm::Error {
    int Code = J.ReturnCode;
    static const char *const Why[] = {"",
                                      "",
                                      "was interrupted",
                                      "hit an internal error",
                                      "was called wrongly (usage error)",
                                      "collected no tests"};
    std::string What =
        Code < 6 ? Why[Code] : "failed with exit code " + std::to_string(Code);
    std::string ErrTail = tail(J.Err, 3), OutTail = tail(J.Out, 5);
    std::string Detail = !ErrTail.empty() ? ErrTail : OutTail;
    return makeErrorf("pytest {0}: {1}", What,
                      Detail.empty() ? std::string("no output") : Detail);
  };
  auto Failed = [](const PytestJob &J) {
    return !J.Crashed && J.ReturnCode != 0 && J.ReturnCode != 1;
  };

  std::vector<std::string> TestFiles;
  unsigned Total = 0;
  if (O.Isolate) {
    std::vector<PytestJob> List = {MakeJob(
        "list", {"--collect-only", "-q", "--no-cov"}, {"TIA_PYTEST_LIST=1"})};
    if (llvm::Error E = runJobs(List, 1, O.Root, 0, /*Quiet=*/true,
                                /*StopOnFailure=*/true, Err))
      return std::move(E);
    if (List[0].Crashed || Failed(List[0]))
      return Failure(List[0]);
    std::set<std::string> Seen;
    for (auto &[Item, Path] : List[0].Log.Items)
      if (Seen.insert(Path).second)
        TestFiles.push_back(Path);
    Total = List[0].Log.Items.size();
    for (size_t I = 0; I < TestFiles.size(); ++I) {
      std::string Name = "file" + std::to_string(I);
      std::vector<std::string> Extra;
      if (!O.JunitXml.empty())
        Extra.push_back("--junitxml=" + Tmp->file(Name + ".xml"));
      std::vector<std::string> ExtraEnv = {
          "TIA_PYTEST_ONLY=" + TestFiles[I],
          "COVERAGE_FILE=" + Tmp->file(Name + ".coverage"),
          "TIA_PYTEST_EVIDENCE=" + Tmp->file(Name + ".evidence")};
      if (O.Plan)
        ExtraEnv.push_back("TIA_PYTEST_PROBES=" + Plan);
      Jobs.push_back(MakeJob(Name, Extra, ExtraEnv));
    }
  } else {
    std::vector<std::string> Extra;
    if (!O.JunitXml.empty())
      Extra.push_back("--junitxml=" + O.JunitXml);
    std::vector<std::string> ExtraEnv = {
        "COVERAGE_FILE=" + Tmp->file("all.coverage"),
        "TIA_PYTEST_EVIDENCE=" + Tmp->file("all.evidence"),
        "TIA_PYTEST_LIST=1"};
    if (O.Plan)
      ExtraEnv.push_back("TIA_PYTEST_PROBES=" + Plan);
    Jobs.push_back(MakeJob("all", Extra, ExtraEnv));
  }
  if (llvm::Error E = runJobs(Jobs, O.Isolate ? O.Jobs : 1, O.Root, Total,
                              O.Quiet, /*StopOnFailure=*/true, Err))
    return std::move(E);

  std::string CrashedIn, CrashTail;
  for (const PytestJob &J : Jobs) {
    if (J.Crashed) {
      if (CrashedIn.empty()) {
        CrashedIn = J.Log.Running.empty() ? "-" : J.Log.Running;
        CrashTail = tail(J.Err, 3);
      }
      continue;
    }
    // A test file whose tests were all deselected collects nothing.
    if (Failed(J) && !(O.Isolate && J.ReturnCode == 5))
      return Failure(J);
  }
  if (!O.Isolate)
    for (auto &[Item, Path] : Jobs[0].Log.Items)
      if (!llvm::is_contained(TestFiles, Path))
        TestFiles.push_back(Path);

  PytestSummary Sum;
  Sum.Python = *Python;
  Sum.Isolated = O.Isolate;
  Sum.TestFiles = TestFiles.size();
  std::vector<TestResult> TestResults;
  std::vector<TestInfo> Infos;
  coverage::ImportOptions Import;
  Import.Fmt = coverage::Format::CoveragePy;
  Import.ProjectRoot = O.Root;
  Import.Commit = O.Commit;
  std::vector<std::string> DataFiles, EvidenceFiles, JunitParts;
  RuntimeEvidence Evidence;
  Evidence.Commit = O.Commit;
  Evidence.Isolated = O.Isolate;
  for (size_t JI = 0; JI < Jobs.size(); ++JI) {
    const PytestJob &J = Jobs[JI];
    for (const llvm::json::Object &R : J.Log.Results) {
      std::string NodeId = R.getString("id").value_or("").str();
      TestResult T;
      T.TestId = "pytest:" + NodeId;
      std::string Outcome = R.getString("outcome").value_or("error").str();
      T.Result = parseOutcome(Outcome).value_or(Outcome::Error);
      T.Seconds = R.getNumber("duration").value_or(0);
      T.Message = R.getString("message").value_or("").str();
      switch (T.Result) {
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
      TestResults.push_back(std::move(T));

      TestInfo Info;
      Info.Id = "pytest:" + NodeId;
      Info.File = R.getString("file").value_or("").str();
      Info.Line = static_cast<unsigned>(R.getInteger("line").value_or(0));
      TestCommand Cmd;
      Cmd.Executable = *Python;
      Cmd.WorkingDir = O.Root;
      Cmd.Arguments = {"-m", "pytest", NodeId};
      Info.Command = std::move(Cmd);
      Infos.push_back(std::move(Info));

      auto &Locations = Import.ExtraLocations["pytest:" + NodeId];
      if (const llvm::json::Array *F = R.getArray("fixtures"))
        for (const llvm::json::Value &V : *F)
          if (const llvm::json::Array *Pair = V.getAsArray();
              Pair && Pair->size() == 2) {
            std::string File =
                relativeTo((*Pair)[0].getAsString().value_or(""), O.Root);
            if (!File.empty())
              Locations.emplace_back(
                  File,
                  static_cast<unsigned>((*Pair)[1].getAsInteger().value_or(0)));
          }
    }
    if (J.Crashed && !J.Log.Running.empty()) {
      TestResult T;
      T.TestId = "pytest:" + J.Log.Running;
      T.Result = Outcome::Crashed;
      T.Message = "pytest ended by a signal while this test ran";
      TestResults.push_back(std::move(T));
      ++Sum.Crashed;
    }
    if (J.Crashed)
      continue;
    std::string Name = O.Isolate ? "file" + std::to_string(JI) : "all";
    if (llvm::sys::fs::exists(Tmp->file(Name + ".coverage")))
      DataFiles.push_back(Tmp->file(Name + ".coverage"));
    EvidenceFiles.push_back(Tmp->file(Name + ".evidence"));
    if (O.Isolate) {
      Evidence.TestFiles.push_back(TestFiles[JI]);
      JunitParts.push_back(Tmp->file(Name + ".xml"));
    }
  }
  if (!O.Isolate)
    Evidence.TestFiles = TestFiles;
  readEvidence(EvidenceFiles, Evidence);
  Sum.Probed = Evidence.Probed.size();
  Sum.Accesses = Evidence.Accesses.size();

  bool Crashed = !CrashedIn.empty();
  if (!Crashed && DataFiles.empty())
    return makeErrorf("pytest wrote no coverage data: check that pytest-cov "
                      "is active for {0} (pytest -p pytest_cov)",
                      *Python);
  if (O.Isolate && !O.JunitXml.empty())
    if (llvm::Error E = mergeJunit(JunitParts, O.JunitXml))
      return std::move(E);
  llvm::Error E = S.transaction([&]() -> llvm::Error {
    if (!Crashed) {
      auto Cov = coverage::importCoveragePy(S, DataFiles, Import);
      if (!Cov)
        return Cov.takeError();
      Sum.Coverage = std::move(*Cov);
      if (O.Plan)
        if (llvm::Error E = S.putRuntimeEvidence(Evidence))
          return E;
    }
    for (const TestInfo &I : Infos)
      if (llvm::Error E = S.putTestInfo(I))
        return E;
    auto Run = S.addRun(O.Commit, "collect");
    if (!Run)
      return Run.takeError();
    return S.putResults(*Run, TestResults);
  });
  if (E)
    return std::move(E);
  if (Crashed)
    return makeErrorf(
        "pytest crashed{0}: the outcomes so far are recorded, "
        "no coverage{1}",
        CrashedIn == "-" ? std::string() : " while running " + CrashedIn,
        CrashTail.empty() ? std::string() : " (" + CrashTail + ")");
  Sum.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Sum;
}

} // namespace collect
} // namespace tia
