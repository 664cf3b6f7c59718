//===- Pytest.cpp - per-test coverage from a pytest run -------------------===//
//
// The plugin is written to a temporary directory and loaded with `-p` via
// PYTHONPATH; coverage.py writes its data file there too (COVERAGE_FILE),
// so the project's work tree only sees what pytest itself leaves.
//
//===----------------------------------------------------------------------===//

#include "tia/Collect/Pytest.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
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
#include <thread>

extern char **environ;

namespace tia {
namespace collect {

namespace {

#include "PytestPluginSource.inc"

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

/// The last \p N lines of \p Path, one line, for error messages.
std::string tail(const std::string &Path, size_t N) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::string();
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef((*Buf)->getBuffer()).split(Lines, '\n', -1, false);
  size_t From = Lines.size() > N ? Lines.size() - N : 0;
  std::vector<std::string> Out;
  for (size_t I = From; I < Lines.size(); ++I)
    Out.push_back(Lines[I].trim().str());
  return llvm::join(Out, " | ");
}

/// What the plugin wrote so far.
struct PluginLog {
  unsigned Collected = 0;
  bool HaveCollected = false;
  std::vector<llvm::json::Object> Results;
  std::string Running; ///< started, not finished
};

void readPluginLog(const std::string &Path, PluginLog &Log) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return;
  Log = PluginLog();
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef((*Buf)->getBuffer()).split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    auto V = llvm::json::parse(Line);
    if (!V) {
      llvm::consumeError(V.takeError()); // A line being written.
      continue;
    }
    llvm::json::Object *O = V->getAsObject();
    if (!O)
      continue;
    if (auto N = O->getInteger("collected")) {
      Log.Collected = static_cast<unsigned>(*N);
      Log.HaveCollected = true;
    } else if (auto S = O->getString("start")) {
      Log.Running = S->str();
    } else if (O->getString("id")) {
      Log.Running.clear();
      Log.Results.push_back(std::move(*O));
    }
  }
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, true);
  llvm::StringRef R = P;
  if (R.consume_front(Root) && R.consume_front("/"))
    return R.str();
  return llvm::sys::path::is_absolute(P) ? std::string() : Path.str();
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
  std::string Plugin;
  for (const char *const *P = PytestPluginSource; *P; ++P)
    Plugin += *P;
  if (llvm::Error E = writeFile(Tmp->file("tia_pytest_plugin.py"), Plugin))
    return std::move(E);
  std::string Results = Tmp->file("results.jsonl");
  std::string Data = Tmp->file(".coverage");
  std::string Out = Tmp->file("pytest.out"), ErrLog = Tmp->file("pytest.err");

  std::vector<std::string> Args = {*Python,
                                   "-m",
                                   "pytest",
                                   "-p",
                                   "tia_pytest_plugin",
                                   "--cov=" + O.Root,
                                   "--cov-context=test",
                                   "--cov-report="};
  if (!O.JunitXml.empty())
    Args.push_back("--junitxml=" + O.JunitXml);
  Args.insert(Args.end(), O.PytestArgs.begin(), O.PytestArgs.end());

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
    if (Var.starts_with("COVERAGE_FILE=") ||
        Var.starts_with("TIA_PYTEST_RESULTS="))
      continue;
    Env.push_back(Var.str());
  }
  Env.push_back("PYTHONPATH=" + PythonPath);
  Env.push_back("COVERAGE_FILE=" + Data);
  Env.push_back("TIA_PYTEST_RESULTS=" + Results);

  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(Out), llvm::StringRef(ErrLog)};
  // pytest runs in the repository root, where its configuration is.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (std::error_code EC = llvm::sys::fs::set_current_path(O.Root))
    return makeErrorf("cannot enter {0}: {1}", O.Root, EC.message());
  std::string ExecError;
  bool ExecFailed = false;
  llvm::sys::ProcessInfo PI = llvm::sys::ExecuteNoWait(
      *Python, ArgRefs, EnvRefs, Redirects, 0, &ExecError, &ExecFailed);
  llvm::sys::fs::set_current_path(Cwd);
  if (ExecFailed)
    return makeErrorf("cannot run {0}: {1}", *Python, ExecError);

  // Progress from the plugin's log while pytest runs.
  std::unique_ptr<Progress> Prog;
  PluginLog Log;
  size_t Shown = 0;
  llvm::sys::ProcessInfo Done;
  while (true) {
    Done = llvm::sys::Wait(PI, /*SecondsToWait=*/0, &ExecError, nullptr,
                           /*Polling=*/true);
    readPluginLog(Results, Log);
    if (!Prog && Log.HaveCollected)
      Prog = std::make_unique<Progress>("testing", Log.Collected, Err, O.Quiet);
    if (Prog)
      for (; Shown < Log.Results.size(); ++Shown)
        Prog->step(Log.Results[Shown].getString("id").value_or(""));
    if (Done.Pid != 0)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (Prog)
    Prog->finish();

  int Code = Done.ReturnCode;
  bool Crashed = Code < 0;
  std::string ErrTail = tail(ErrLog, 3);
  std::string OutTail = tail(Out, 5);
  if (!Crashed && Code != 0 && Code != 1) {
    static const char *const Why[] = {"",
                                      "",
                                      "was interrupted",
                                      "hit an internal error",
                                      "was called wrongly (usage error)",
                                      "collected no tests"};
    std::string What =
        Code < 6 ? Why[Code] : "failed with exit code " + std::to_string(Code);
    std::string Detail = !ErrTail.empty() ? ErrTail : OutTail;
    return makeErrorf("pytest {0}: {1}", What,
                      Detail.empty() ? std::string("no output") : Detail);
  }

  PytestSummary Sum;
  Sum.Python = *Python;
  std::vector<TestResult> TestResults;
  std::vector<TestInfo> Infos;
  for (llvm::json::Object &R : Log.Results) {
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
  }
  if (Crashed && !Log.Running.empty()) {
    TestResult T;
    T.TestId = "pytest:" + Log.Running;
    T.Result = Outcome::Crashed;
    T.Message = "pytest ended by a signal while this test ran";
    TestResults.push_back(std::move(T));
    ++Sum.Crashed;
  }

  coverage::ImportOptions Import;
  Import.Fmt = coverage::Format::CoveragePy;
  Import.ProjectRoot = O.Root;
  Import.Commit = O.Commit;
  for (llvm::json::Object &R : Log.Results) {
    auto &Locations =
        Import.ExtraLocations["pytest:" + R.getString("id").value_or("").str()];
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

  bool HaveCoverage = !Crashed && llvm::sys::fs::exists(Data);
  if (!Crashed && !HaveCoverage)
    return makeErrorf("pytest wrote no coverage data: check that pytest-cov "
                      "is active for {0} (pytest -p pytest_cov)",
                      *Python);
  llvm::Error E = S.transaction([&]() -> llvm::Error {
    if (HaveCoverage) {
      auto Cov = coverage::importCoveragePy(S, {Data}, Import);
      if (!Cov)
        return Cov.takeError();
      Sum.Coverage = std::move(*Cov);
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
    return makeErrorf("pytest crashed{0}: the outcomes so far are recorded, "
                      "no coverage{1}",
                      Log.Running.empty() ? std::string()
                                          : " while running " + Log.Running,
                      ErrTail.empty() ? std::string() : " (" + ErrTail + ")");
  Sum.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Sum;
}

} // namespace collect
} // namespace tia
