//===- CollectCommand.cpp - tia collect -----------------------------------===//
//
// Wires the options of `tia collect` to lib/Collect, which does the work:
// the tests of a CMake build (ctest, GoogleTest) or, with `--pytest`, the
// Python tests.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Collect/Request.h"

namespace tia {
namespace tool {

llvm::Error runCollect(const GlobalOptions &G, const CollectCommandOptions &O,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  return collect::collectIn(*Ctx, O, G.Quiet, G.ResourceDir, Err);
}

llvm::Error runCollectPytest(const GlobalOptions &G,
                             const CollectPytestOptions &O,
                             llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  return collect::collectPytestIn(*Ctx, O, G.Quiet, G.ResourceDir, Err);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand CollectSubcommand(
    "collect", "Run the tests of a build (or, with --pytest, the Python "
               "tests), each with its own coverage, and store outcomes and "
               "per-test coverage");

namespace {
llvm::cl::opt<std::string> BuildDir(
    "p",
    llvm::cl::desc("Build directory of the tests, where ctest runs (default: "
                   "./build, then .); with --pytest, the build whose "
                   "extension modules and programs the tests use (default: "
                   "the one 'tia index' recorded)"),
    llvm::cl::value_desc("build-dir"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<unsigned>
    Jobs("jobs",
         llvm::cl::desc("Tests at once, as ctest -j (default: one per core; "
                        "with --pytest, test files at once, each in its own "
                        "process, default 1 as they may share files or "
                        "ports)"),
         llvm::cl::init(0), llvm::cl::cat(tiaCategory()),
         llvm::cl::sub(CollectSubcommand));
llvm::cl::alias JobsShort("j", llvm::cl::desc("Alias for --jobs"),
                          llvm::cl::aliasopt(Jobs));
llvm::cl::opt<double> Timeout(
    "timeout",
    llvm::cl::desc("Seconds a test may run before it is killed (default: its "
                   "ctest TIMEOUT, else 1500; with --pytest, 1500, and a "
                   "test file runs again without the test killed)"),
    llvm::cl::value_desc("seconds"), llvm::cl::init(0),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::list<std::string>
    Only("only",
         llvm::cl::desc("Run and update only these tests (ids or globs such "
                        "as 'gtest:calc_test:*'), with the tests that set "
                        "up and clean up their fixtures; the others keep "
                        "theirs"),
         llvm::cl::value_desc("test"), llvm::cl::ZeroOrMore,
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<bool> ProcessPerTest(
    "process-per-test",
    llvm::cl::desc("Run each GoogleTest case in its own process, even in "
                   "binaries built with tia's listener"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<bool> SplitCases(
    "split-cases",
    llvm::cl::desc("Run the GoogleTest cases of one ctest test at once, "
                   "split across the jobs (default: one after another, as "
                   "ctest runs them); only for suites whose cases share no "
                   "files, ports or other state"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<std::string>
    Gcov("gcov",
         llvm::cl::desc("gcov of the gcc that built the tests (default: "
                        "gcov)"),
         llvm::cl::value_desc("path"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<std::string> CTest("ctest",
                                 llvm::cl::desc("ctest to discover the tests "
                                                "with (default: ctest)"),
                                 llvm::cl::value_desc("path"),
                                 llvm::cl::init(""),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(CollectSubcommand));
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
    llvm::cl::desc("With --pytest: run all test files in one pytest process "
                   "(faster; the runtime evidence of static selection is "
                   "then shared by all files and prunes less)"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<bool> NoFileTrace(
    "no-file-trace",
    llvm::cl::desc("Do not record the files each test reads (selection "
                   "then counts every test as reading every file that is "
                   "not source code)"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<std::string> Shard(
    "shard",
    llvm::cl::desc("Run only share K of N of the tests (GoogleTest cases and "
                   "ctest tests; with --pytest, test files), the same shares "
                   "on every machine"),
    llvm::cl::value_desc("K/N"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<std::string> BalanceFrom(
    "balance-from",
    llvm::cl::desc("With --shard: balance the shares by the test durations "
                   "this database recorded (default: by number of tests)"),
    llvm::cl::value_desc("db"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<bool> Incremental(
    "incremental",
    llvm::cl::desc("Run only the tests that the change since the newest "
                   "coverage snapshot can affect, and new and never "
                   "covered tests; carry the others' coverage over (every "
                   "test when tia cannot tell)"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CollectSubcommand));
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("[TEST...] | --pytest [-- "
                                                "PYTEST_ARGS...]"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(CollectSubcommand));
} // namespace

int collectMain(const GlobalOptions &G) {
  if (Timeout < 0)
    return usageError("--timeout must be a number of seconds above 0");
  if (Pytest) {
    if (!Only.empty() || ProcessPerTest || SplitCases || !Gcov.empty() ||
        !CTest.empty())
      return usageError("--pytest runs the Python tests: --only, "
                        "--process-per-test, --split-cases, --gcov and "
                        "--ctest are for the tests of a CMake build");
    if (Jobs > 1 && NoIsolation)
      return usageError("--jobs runs test files in processes of their own: "
                        "it cannot go with --no-isolation");
    if (!Shard.empty() && NoIsolation)
      return usageError("--shard shares out test files, each run in a "
                        "process of its own: it cannot go with "
                        "--no-isolation");
    if (Incremental && NoIsolation)
      return usageError("--incremental runs the test files that hold an "
                        "affected test, each in a process of its own: it "
                        "cannot go with --no-isolation");
    CollectPytestOptions O;
    O.BuildDir = BuildDir;
    if (Timeout > 0)
      O.TimeoutSeconds = Timeout;
    if (std::optional<int> Bad =
            parseShardOptions(Shard, BalanceFrom, O.Shard, O.BalanceFrom))
      return *Bad;
    O.Python = Python;
    O.JunitXml = JunitXml;
    O.PytestArgs.assign(Args.begin(), Args.end());
    O.Isolate = !NoIsolation;
    O.Incremental = Incremental;
    O.TraceFiles = !NoFileTrace;
    // Test files run one after the other unless asked: they may share
    // files or ports.
    O.Jobs = Jobs == 0 ? 1 : Jobs;
    return exitCode(runCollectPytest(G, O, llvm::outs(), llvm::errs()));
  }
  if (!Python.empty() || !JunitXml.empty() || NoIsolation)
    return usageError("--python, --junitxml and --no-isolation go with "
                      "--pytest");
  CollectCommandOptions O;
  if (std::optional<int> Bad =
          parseShardOptions(Shard, BalanceFrom, O.Shard, O.BalanceFrom))
    return *Bad;
  O.BuildDir = BuildDir;
  O.Jobs = Jobs;
  O.TimeoutSeconds = Timeout;
  O.Only.assign(Only.begin(), Only.end());
  // "--only A B C": the ids after --only are positional to llvm::cl.
  if (!Args.empty()) {
    if (Only.empty())
      return usageError("unexpected argument '" + Args.front() +
                        "': name tests with --only TEST...");
    O.Only.insert(O.Only.end(), Args.begin(), Args.end());
  }
  O.ProcessPerTest = ProcessPerTest;
  O.SplitCases = SplitCases;
  O.Gcov = Gcov;
  O.CTest = CTest;
  O.TraceFiles = !NoFileTrace;
  O.Incremental = Incremental;
  if (Incremental && !O.Only.empty())
    return usageError("--incremental chooses the tests to run: it cannot go "
                      "with --only");
  return exitCode(runCollect(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
