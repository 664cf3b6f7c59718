//===- CollectCommand.cpp - tia collect -----------------------------------===//
//
// Wires the options of `tia collect` to lib/Collect, which does the work.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Collect/Collect.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"

namespace tia {
namespace tool {

namespace {

llvm::Expected<std::string> findTestBuildDir(const Context &C,
                                             llvm::StringRef Given) {
  if (!Given.empty())
    return absolutePath(Given, C.WorkingDir);
  for (const std::string &Dir :
       {C.WorkingDir + "/build", C.Root + "/build", C.WorkingDir, C.Root})
    if (llvm::sys::fs::exists(Dir + "/CTestTestfile.cmake"))
      return absolutePath(Dir, "/");
  return makeError("no CTestTestfile.cmake in ./build or .: pass the build "
                   "directory of the tests with -p BUILD_DIR");
}

} // namespace

llvm::Error runCollect(const GlobalOptions &G, const CollectCommandOptions &O,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto BuildDir = findTestBuildDir(*Ctx, O.BuildDir);
  if (!BuildDir)
    return BuildDir.takeError();

  collect::CollectOptions C;
  C.BuildDir = *BuildDir;
  C.Jobs = O.Jobs;
  C.TimeoutSeconds = O.TimeoutSeconds;
  C.Only = O.Only;
  C.ProcessPerTest = O.ProcessPerTest;
  if (!O.Gcov.empty())
    C.Gcov = O.Gcov;
  if (!O.CTest.empty())
    C.CTest = O.CTest;
  C.ProjectRoot = Ctx->Root;
  C.Quiet = G.Quiet;
  if (Ctx->Repo) {
    auto H = Ctx->Repo->headCommit();
    if (!H)
      return H.takeError();
    C.Commit = H->value_or("");
  }

  auto S = openForUpdate(*Ctx);
  if (!S)
    return S.takeError();
  auto Sum = collect::collect(**S, C, Err);
  if (!Sum)
    return Sum.takeError();
  for (size_t I = 0; I + 1 < Sum->Problems.size(); ++I)
    Err << "tia: error: " << Sum->Problems[I] << "\n";
  if (!G.Quiet)
    Err << collect::summaryLine(*Sum) << "\n";
  if (!Sum->Problems.empty())
    return makeError(Sum->Problems.back());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand CollectSubcommand(
    "collect", "Run the tests of a build, each with its own coverage, and "
               "store outcomes and per-test coverage");

namespace {
llvm::cl::opt<std::string> BuildDir(
    "p",
    llvm::cl::desc("Build directory of the tests, where ctest runs (default: "
                   "./build, then .)"),
    llvm::cl::value_desc("build-dir"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<unsigned> Jobs("jobs",
                             llvm::cl::desc("Test processes at once (default: "
                                            "one per core)"),
                             llvm::cl::init(0), llvm::cl::cat(tiaCategory()),
                             llvm::cl::sub(CollectSubcommand));
llvm::cl::alias JobsShort("j", llvm::cl::desc("Alias for --jobs"),
                          llvm::cl::aliasopt(Jobs));
llvm::cl::opt<double> Timeout(
    "timeout",
    llvm::cl::desc("Seconds a test may run before it is killed (default: its "
                   "ctest TIMEOUT, else 1500)"),
    llvm::cl::value_desc("seconds"), llvm::cl::init(0),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::list<std::string>
    Only("only",
         llvm::cl::desc("Run and update only these tests (ids or globs such "
                        "as 'gtest:calc_test:*'); the others keep theirs"),
         llvm::cl::value_desc("test"), llvm::cl::ZeroOrMore,
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(CollectSubcommand));
llvm::cl::opt<bool> ProcessPerTest(
    "process-per-test",
    llvm::cl::desc("Run each GoogleTest case in its own process, even in "
                   "binaries built with tia's listener"),
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
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("[TEST...]"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(CollectSubcommand));
} // namespace

int collectMain(const GlobalOptions &G) {
  CollectCommandOptions O;
  O.BuildDir = BuildDir;
  O.Jobs = Jobs;
  if (Timeout < 0)
    return usageError("--timeout must be a number of seconds above 0");
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
  O.Gcov = Gcov;
  O.CTest = CTest;
  return exitCode(runCollect(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
