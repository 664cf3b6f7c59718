//===- CoverageCommand.cpp - tia coverage import --------------------------===//

#include "CommandsInternal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

llvm::Error runCoverageImport(const GlobalOptions &G,
                              const CoverageImportOptions &O,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Files.empty())
    return makeError("no coverage files given: pass the lcov, llvm-cov "
                     "JSON or coverage.py files to import");
  if (O.Fmt == coverage::Format::LlvmCovJson && O.TestId.empty())
    return makeError("llvm-cov JSON does not name its test: pass --test ID");
  if (O.Fmt == coverage::Format::CoveragePy && !O.TestId.empty())
    return makeError("--test does not go with coverage.py data: its test "
                     "contexts name the tests");
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();

  coverage::ImportOptions Import;
  Import.Fmt = O.Fmt;
  Import.TestId = O.TestId;
  Import.ProjectRoot = Ctx->Root;
  if (!O.Commit.empty()) {
    if (!Ctx->Repo)
      return makeError("--commit needs a git repository: run tia inside the "
                       "work tree");
    auto C = Ctx->Repo->resolveCommit(O.Commit);
    if (!C)
      return C.takeError();
    Import.Commit = *C;
  } else if (Ctx->Repo) {
    auto H = Ctx->Repo->headCommit();
    if (!H)
      return H.takeError();
    Import.Commit = H->value_or("");
  }

  auto S = openForUpdate(*Ctx);
  if (!S)
    return S.takeError();

  std::vector<std::string> Files;
  for (const std::string &F : O.Files)
    Files.push_back(absolutePath(F, Ctx->WorkingDir));
  auto Sum = coverage::importCoverage(**S, Files, Import);
  if (!Sum)
    return Sum.takeError();
  for (const std::string &Context : Sum->UnknownContexts)
    Err << "tia: warning: context '" << Context
        << "' names no known test: index the test files first\n";
  for (const std::string &Id : Sum->Unlinked)
    Err << "tia: warning: the coverage of " << Id
        << " matched no indexed element: check that the report's paths are "
           "those of this checkout and that 'tia index' ran first\n";
  if (!G.Quiet)
    Err << llvm::formatv("imported the coverage of {0} test{1} ({2} "
                         "test-element links) from {3} file{4}{5}\n",
                         Sum->Tests, Sum->Tests == 1 ? "" : "s", Sum->Links,
                         O.Files.size(), O.Files.size() == 1 ? "" : "s",
                         Sum->UnmatchedNames
                             ? llvm::formatv("; {0} covered functions matched "
                                             "no indexed element",
                                             Sum->UnmatchedNames)
                                   .str()
                             : std::string());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    CoverageSubcommand("coverage",
                       "'tia coverage import FILE...': import per-test "
                       "coverage (lcov, llvm-cov export JSON, coverage.py)");

namespace {
llvm::cl::opt<coverage::Format> Format(
    "format", llvm::cl::desc("Format of the coverage files"),
    llvm::cl::values(clEnumValN(coverage::Format::Lcov, "lcov",
                                "lcov tracefile; one TN: section per test"),
                     clEnumValN(coverage::Format::LlvmCovJson, "llvm-cov-json",
                                "'llvm-cov export -format=text' of one test "
                                "(needs --test)"),
                     clEnumValN(coverage::Format::CoveragePy, "coverage.py",
                                "coverage.py's .coverage data file recorded "
                                "with test contexts (pytest --cov "
                                "--cov-context=test)")),
    llvm::cl::init(coverage::Format::Lcov), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(CoverageSubcommand));
llvm::cl::opt<std::string>
    Test("test",
         llvm::cl::desc("Test the files belong to, e.g. gtest:bin:Suite.Name "
                        "(overrides TN: names)"),
         llvm::cl::value_desc("id"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(CoverageSubcommand));
llvm::cl::opt<std::string>
    Commit("commit",
           llvm::cl::desc("Revision the coverage was collected at (default: "
                          "HEAD)"),
           llvm::cl::value_desc("rev"), llvm::cl::init(""),
           llvm::cl::cat(tiaCategory()), llvm::cl::sub(CoverageSubcommand));
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("import FILE..."),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(CoverageSubcommand));
} // namespace

int coverageMain(const GlobalOptions &G) {
  if (Args.empty() || Args[0] != "import")
    return usageError("'tia coverage' needs a subcommand: tia coverage import "
                      "--format lcov|llvm-cov-json|coverage.py FILE...");
  CoverageImportOptions O;
  O.Fmt = Format;
  O.TestId = Test;
  O.Commit = Commit;
  O.Files.assign(Args.begin() + 1, Args.end());
  return exitCode(runCoverageImport(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
