//===- CollectCommand.cpp - tia collect -----------------------------------===//
//
// Wires the options of `tia collect` to lib/Collect, which does the work.
// `--pytest` runs the Python tests with per-test coverage.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Collect/Pytest.h"
#include "tia/Select/Static.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

llvm::Error runCollectPytest(const GlobalOptions &G,
                             const CollectPytestOptions &O,
                             llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();

  collect::PytestOptions P;
  P.Python = !O.Python.empty() ? O.Python : Ctx->Config.Python.Interpreter;
  P.Root = Ctx->Root;
  P.PytestArgs = O.PytestArgs;
  if (!O.JunitXml.empty())
    P.JunitXml = absolutePath(O.JunitXml, Ctx->WorkingDir);
  P.Quiet = G.Quiet;
  if (Ctx->Repo) {
    auto H = Ctx->Repo->headCommit();
    if (!H)
      return H.takeError();
    P.Commit = H->value_or("");
  }

  P.Isolate = O.Isolate;
  P.Jobs = O.Jobs;

  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  // Reopen for writing only once the database is known to be tia's.
  S = Store::open(Ctx->DbPath, Store::Mode::ReadWrite);
  if (!S)
    return S.takeError();
  // What static selection wants observed: the index's critical functions,
  // operator methods and registered functions.
  auto Python = pythonOptions(*Ctx);
  if (!Python)
    return Python.takeError();
  auto Plan = select::probePlan(**S, staticOptions(*Ctx, *Python));
  if (!Plan)
    return Plan.takeError();
  P.Plan = std::move(*Plan);
  auto Sum = collect::collectPytest(**S, P, Err);
  if (!Sum)
    return Sum.takeError();
  for (const std::string &Context : Sum->Coverage.UnknownContexts)
    Err << "tia: warning: context '" << Context
        << "' names no known test: run 'tia index' first\n";
  if (!G.Quiet) {
    unsigned Total = Sum->Passed + Sum->Failed + Sum->Errors + Sum->Skipped;
    Err << llvm::formatv("collected {0} pytest tests in {1:f1}s with {2}: {3} "
                         "passed, {4} failed, {5} errors, {6} skipped; {7} "
                         "test-element links ({8} through imports); {9} test "
                         "files {10}, {11} functions probed, {12} runtime "
                         "accesses\n",
                         Total, Sum->Seconds, Sum->Python, Sum->Passed,
                         Sum->Failed, Sum->Errors, Sum->Skipped,
                         Sum->Coverage.Links, Sum->Coverage.ImportTimeLinks,
                         Sum->TestFiles,
                         Sum->Isolated ? "each in its own process"
                                       : "in one process",
                         Sum->Probed, Sum->Accesses);
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    CollectSubcommand("collect",
                      "Run the tests with per-test coverage and import it, "
                      "with their outcomes ('tia collect --pytest [-- "
                      "PYTEST_ARGS]')");

namespace {
llvm::cl::opt<bool>
    Pytest("pytest",
           llvm::cl::desc("Run the Python tests with pytest, pytest-cov "
                          "(one coverage context per test) and tia's plugin"),
           llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
           llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<std::string> Python(
    "python",
    llvm::cl::desc("Python that runs pytest (default: python.interpreter "
                   "of .tia.yaml, else the first of python3 on PATH and "
                   "/usr/bin/python3 with pytest and pytest-cov)"),
    llvm::cl::value_desc("path"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<std::string>
    JunitXml("junitxml",
             llvm::cl::desc("Also write pytest's JUnit XML report to FILE"),
             llvm::cl::value_desc("file"), llvm::cl::init(""),
             llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<bool> NoIsolation(
    "no-isolation",
    llvm::cl::desc("Run all test files in one pytest process (faster; the "
                   "runtime evidence of static selection is then shared by "
                   "all files and prunes less)"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<unsigned>
    Jobs("jobs",
         llvm::cl::desc("Test files run at once, each in its own process "
                        "(default 1: one after the other, as the tests may "
                        "share files or ports)"),
         llvm::cl::init(1), llvm::cl::cat(tiaCategory()),
         llvm::cl::sub(CollectSubcommand));
llvm::cl::list<std::string> PytestArgs(llvm::cl::Positional,
                                       llvm::cl::desc("[-- PYTEST_ARGS...]"),
                                       llvm::cl::cat(tiaCategory()),
                                       llvm::cl::sub(CollectSubcommand));
} // namespace

int collectMain(const GlobalOptions &G) {
  if (!Pytest)
    return usageError("'tia collect' needs a test runner: pass --pytest");
  CollectPytestOptions O;
  O.Python = Python;
  O.JunitXml = JunitXml;
  O.PytestArgs.assign(PytestArgs.begin(), PytestArgs.end());
  O.Isolate = !NoIsolation;
  if (Jobs == 0)
    return usageError("--jobs must be at least 1");
  if (Jobs > 1 && NoIsolation)
    return usageError("--jobs runs test files in processes of their own: it "
                      "cannot go with --no-isolation");
  O.Jobs = Jobs;
  return exitCode(runCollectPytest(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
