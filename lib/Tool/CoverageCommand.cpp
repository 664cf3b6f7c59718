//===- CoverageCommand.cpp - tia coverage import / repair -----------------===//

#include "CommandsInternal.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
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
  auto Commit = recordedCommit(*Ctx, O.Commit);
  if (!Commit)
    return Commit.takeError();
  Import.Commit = *Commit;

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
                         Sum->Tests, pluralS(Sum->Tests), Sum->Links,
                         O.Files.size(), pluralS(O.Files.size()),
                         Sum->UnmatchedNames
                             ? llvm::formatv("; {0} covered functions matched "
                                             "no indexed element",
                                             Sum->UnmatchedNames)
                                   .str()
                             : std::string());
  return llvm::Error::success();
}

llvm::Error runCoverageRepair(const GlobalOptions &G, llvm::raw_ostream &Out,
                              llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto S = openForUpdate(*Ctx);
  if (!S)
    return S.takeError();
  auto R = (*S)->repairCoverage();
  if (!R)
    return R.takeError();
  for (const std::string &Id : R->DroppedTests)
    Err << "tia: warning: the coverage of " << Id
        << " could not be read and is dropped: the test has no coverage "
           "recorded until it is collected again\n";
  if (!G.Quiet)
    Err << llvm::formatv("rebuilt the tests of {0} element key{1} from the "
                         "coverage of {2} test{3}; {4} {5} damaged\n",
                         R->Keys, pluralS(R->Keys), R->Tests, pluralS(R->Tests),
                         R->DamagedKeys, R->DamagedKeys == 1 ? "was" : "were");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    CoverageSubcommand("coverage",
                       "'tia coverage import FILE...': import per-test "
                       "coverage (lcov, llvm-cov export JSON, coverage.py); "
                       "'tia coverage repair': rebuild the tests of each "
                       "element of a damaged database from each test's "
                       "coverage");

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
                                 llvm::cl::desc("import FILE... | repair"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(CoverageSubcommand));
} // namespace

int coverageMain(const GlobalOptions &G) {
  if (!Args.empty() && Args[0] == "repair") {
    if (Args.size() > 1)
      return usageError("'tia coverage repair' takes no files: it rebuilds "
                        "the tests of each element from each test's coverage");
    return exitCode(runCoverageRepair(G, llvm::outs(), llvm::errs()));
  }
  if (Args.empty() || Args[0] != "import")
    return usageError("'tia coverage' needs a subcommand: tia coverage import "
                      "--format lcov|llvm-cov-json|coverage.py FILE..., or "
                      "tia coverage repair");
  CoverageImportOptions O;
  O.Fmt = Format;
  O.TestId = Test;
  O.Commit = Commit;
  O.Files.assign(Args.begin() + 1, Args.end());
  return exitCode(runCoverageImport(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
