//===- ResultsCommand.cpp - tia results import ----------------------------===//

#include "CommandsInternal.h"
#include "tia/Results/JUnit.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"

namespace tia {
namespace tool {

llvm::Error runResultsImport(const GlobalOptions &G,
                             const ResultsImportOptions &O,
                             llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Files.empty())
    return makeError("no result files given: pass the JUnit XML files a test "
                     "run wrote");
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();

  results::ImportOptions Import;
  Import.Hint = O.Hint;
  Import.GtestBinary = O.Binary;
  Import.ProjectRoot = Ctx->Root;
  Import.PytestDir = O.PytestDir;
  llvm::StringRef Dir = Import.PytestDir;
  Dir.consume_front("./");
  Import.PytestDir = Dir.rtrim('/').str();
  if (Import.PytestDir == ".")
    Import.PytestDir.clear();
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
  auto Sum = results::importJUnit(**S, Files, Import);
  if (!Sum)
    return Sum.takeError();
  for (const std::string &W : Sum->Warnings)
    Err << "tia: warning: " << W << "\n";
  if (!G.Quiet)
    Err << "imported " << results::summaryText(*Sum) << " from " << Files.size()
        << " file" << pluralS(Files.size()) << " as run " << Sum->RunId << "\n";
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand ResultsSubcommand("results",
                                       "'tia results import --format junit "
                                       "FILE...': import test outcomes (the "
                                       "JUnit XML of ctest, test binaries, "
                                       "pytest, lit)");

namespace {
enum class ResultsFormat { JUnit };
llvm::cl::opt<ResultsFormat> Format(
    "format", llvm::cl::desc("Format of the result files"),
    llvm::cl::values(clEnumValN(ResultsFormat::JUnit, "junit",
                                "JUnit XML: ctest --output-junit, "
                                "--gtest_output=xml, pytest --junitxml")),
    llvm::cl::init(ResultsFormat::JUnit), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(ResultsSubcommand));
llvm::cl::opt<results::Runner> Runner(
    "runner", llvm::cl::desc("The runner that wrote the files"),
    llvm::cl::values(
        clEnumValN(results::Runner::Auto, "auto",
                   "recognise it from the report (the default)"),
        clEnumValN(results::Runner::Ctest, "ctest", "ids ctest:<name>"),
        clEnumValN(results::Runner::Gtest, "gtest",
                   "ids gtest:<binary>:<Suite.Name>"),
        clEnumValN(results::Runner::Pytest, "pytest", "ids pytest:<node id>"),
        clEnumValN(results::Runner::Catch2, "catch2",
                   "ids catch2:<binary>:<name> (Catch2's -r junit; --binary "
                   "names the binary)"),
        clEnumValN(results::Runner::Doctest, "doctest",
                   "ids doctest:<binary>:<name> (doctest's --reporters=junit; "
                   "--binary names the binary)"),
        clEnumValN(results::Runner::Boost, "boost",
                   "ids boost:<binary>:<suite/case> (Boost.Test's "
                   "--log_format=JUNIT; --binary names the binary)"),
        clEnumValN(results::Runner::Lit, "lit",
                   "ids lit:<suite>::<path> (lit's --xunit-xml-output)")),
    llvm::cl::init(results::Runner::Auto), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(ResultsSubcommand));
llvm::cl::opt<std::string>
    Binary("binary",
           llvm::cl::desc("The GoogleTest binary that wrote the files "
                          "(default: the file name, as "
                          "--gtest_output=xml:DIR/ writes DIR/<binary>.xml)"),
           llvm::cl::value_desc("name"), llvm::cl::init(""),
           llvm::cl::cat(tiaCategory()), llvm::cl::sub(ResultsSubcommand));
llvm::cl::opt<std::string>
    PytestDir("pytest-dir",
              llvm::cl::desc("Directory pytest ran in, relative to the "
                             "repository root (default: the root)"),
              llvm::cl::value_desc("dir"), llvm::cl::init(""),
              llvm::cl::cat(tiaCategory()), llvm::cl::sub(ResultsSubcommand));
llvm::cl::opt<std::string>
    Commit("commit",
           llvm::cl::desc("Revision the tests ran at (default: HEAD)"),
           llvm::cl::value_desc("rev"), llvm::cl::init(""),
           llvm::cl::cat(tiaCategory()), llvm::cl::sub(ResultsSubcommand));
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("import FILE..."),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(ResultsSubcommand));
} // namespace

int resultsMain(const GlobalOptions &G) {
  if (Args.empty() || Args[0] != "import")
    return usageError("'tia results' needs a subcommand: tia results import "
                      "--format junit FILE...");
  ResultsImportOptions O;
  O.Hint = Runner;
  O.Binary = Binary;
  O.PytestDir = PytestDir;
  O.Commit = Commit;
  O.Files.assign(Args.begin() + 1, Args.end());
  return exitCode(runResultsImport(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
