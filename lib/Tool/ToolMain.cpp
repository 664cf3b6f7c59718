//===- ToolMain.cpp - tia's command line ----------------------------------===//
//
// Options (llvm::cl, one subcommand each) and the dispatch to the commands.
// Conflicting options are checked here, in one place.
//
//===----------------------------------------------------------------------===//

#include "tia/Tool/ToolMain.h"
#include "tia/Tool/Commands.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <vector>

using namespace llvm;

namespace tia {

namespace {

cl::OptionCategory TiaCat("tia options");

cl::SubCommand IndexCmd("index",
                        "Index the C++ translation units of a compilation "
                        "database (all, or those at or below PATHs)");
cl::SubCommand CoverageCmd("coverage",
                           "'tia coverage import FILE...': import per-test "
                           "coverage (lcov, llvm-cov export JSON)");
cl::SubCommand SelectCmd("select",
                         "Print the tests a change can affect (base...head, "
                         "or base against the work tree)");
cl::SubCommand DumpCmd("dump", "'tia dump elements|tests|coverage': print what "
                               "the database holds, sorted and stable");

// Shared by every command.
cl::opt<std::string>
    Db("db",
       cl::desc("Database file (default: $TIA_DB, else .tia/tia.db at "
                "the repository root)"),
       cl::value_desc("file"), cl::init(""), cl::cat(TiaCat),
       cl::sub(cl::SubCommand::getAll()));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Print no progress and no summary, only errors"),
                    cl::init(false), cl::cat(TiaCat),
                    cl::sub(cl::SubCommand::getAll()));
cl::alias QuietShort("q", cl::desc("Alias for --quiet"), cl::aliasopt(Quiet));

// index
cl::opt<std::string> BuildDir(
    "p",
    cl::desc("Build directory with compile_commands.json (default: ./build, "
             "then .)"),
    cl::value_desc("build-dir"), cl::init(""), cl::cat(TiaCat),
    cl::sub(IndexCmd));
cl::opt<unsigned> Jobs("jobs",
                       cl::desc("Translation units parsed at once (default: "
                                "one per core)"),
                       cl::init(0), cl::cat(TiaCat), cl::sub(IndexCmd));
cl::alias JobsShort("j", cl::desc("Alias for --jobs"), cl::aliasopt(Jobs));
cl::opt<std::string> ResourceDir(
    "resource-dir",
    cl::desc("Clang resource directory with the builtin headers (default: "
             "$TIA_RESOURCE_DIR, else the one found at build time)"),
    cl::init(""), cl::cat(TiaCat), cl::sub(IndexCmd), cl::sub(SelectCmd));
cl::list<std::string> IndexPaths(cl::Positional, cl::desc("[PATH...]"),
                                 cl::cat(TiaCat), cl::sub(IndexCmd));

// coverage import
cl::opt<coverage::Format> CovFormat(
    "format", cl::desc("Format of the coverage files"),
    cl::values(clEnumValN(coverage::Format::Lcov, "lcov",
                          "lcov tracefile; one TN: section per test"),
               clEnumValN(coverage::Format::LlvmCovJson, "llvm-cov-json",
                          "'llvm-cov export -format=text' of one test "
                          "(needs --test)")),
    cl::init(coverage::Format::Lcov), cl::cat(TiaCat), cl::sub(CoverageCmd));
cl::opt<std::string> CovTest("test",
                             cl::desc("Test the files belong to, e.g. "
                                      "gtest:bin:Suite.Name (overrides TN: "
                                      "names)"),
                             cl::value_desc("id"), cl::init(""),
                             cl::cat(TiaCat), cl::sub(CoverageCmd));
cl::opt<std::string> CovCommit("commit",
                               cl::desc("Revision the coverage was collected "
                                        "at (default: HEAD)"),
                               cl::value_desc("rev"), cl::init(""),
                               cl::cat(TiaCat), cl::sub(CoverageCmd));
cl::list<std::string> CovArgs(cl::Positional, cl::desc("import FILE..."),
                              cl::cat(TiaCat), cl::sub(CoverageCmd));

// select
cl::opt<std::string> Base("base",
                          cl::desc("Base revision; the change is "
                                   "base...head (from their merge base)"),
                          cl::value_desc("rev"), cl::init(""), cl::cat(TiaCat),
                          cl::sub(SelectCmd));
cl::opt<std::string> Head("head",
                          cl::desc("Head revision (default: the work tree)"),
                          cl::value_desc("rev"), cl::init(""), cl::cat(TiaCat),
                          cl::sub(SelectCmd));
cl::opt<bool> Worktree("worktree",
                       cl::desc("Compare the work tree, staged, unstaged and "
                                "untracked files included (the default)"),
                       cl::init(false), cl::cat(TiaCat), cl::sub(SelectCmd));
cl::opt<tool::OutputFormat> SelFormat(
    "format", cl::desc("Output on stdout"),
    cl::values(clEnumValN(tool::OutputFormat::Ids, "ids",
                          "one test id per line"),
               clEnumValN(tool::OutputFormat::Json, "json",
                          "the selection with its reasons (docs/Formats.md)")),
    cl::init(tool::OutputFormat::Ids), cl::cat(TiaCat), cl::sub(SelectCmd));
cl::opt<bool> Explain("explain",
                      cl::desc("Print, per selected test, the changed "
                               "elements and lines that selected it"),
                      cl::init(false), cl::cat(TiaCat), cl::sub(SelectCmd));

// dump
cl::list<std::string> DumpArgs(cl::Positional,
                               cl::desc("elements|tests|coverage"),
                               cl::cat(TiaCat), cl::sub(DumpCmd));
cl::opt<std::string> DumpFile("file",
                              cl::desc("Only this file (repository-relative)"),
                              cl::value_desc("path"), cl::init(""),
                              cl::cat(TiaCat), cl::sub(DumpCmd));
cl::opt<bool> DumpHashes("hashes", cl::desc("Print element token hashes"),
                         cl::init(false), cl::cat(TiaCat), cl::sub(DumpCmd));

/// A usage error: one line, exit code 2.
int usage(const Twine &Msg) {
  WithColor::error(errs(), "tia") << Msg << "\n";
  return 2;
}

int fail(Error E) {
  WithColor::error(errs(), "tia") << toString(std::move(E)) << "\n";
  return 1;
}

int dispatch() {
  tool::GlobalOptions G;
  G.Db = Db;
  G.Quiet = Quiet;
  G.ResourceDir = ResourceDir;

  if (IndexCmd) {
    tool::IndexOptions O;
    O.BuildDir = BuildDir;
    O.Jobs = Jobs;
    O.Paths = IndexPaths;
    if (Error E = tool::runIndex(G, O, outs(), errs()))
      return fail(std::move(E));
    return 0;
  }
  if (CoverageCmd) {
    if (CovArgs.empty() || CovArgs[0] != "import")
      return usage("'tia coverage' needs a subcommand: tia coverage import "
                   "--format lcov|llvm-cov-json FILE...");
    tool::CoverageImportOptions O;
    O.Fmt = CovFormat;
    O.TestId = CovTest;
    O.Commit = CovCommit;
    O.Files.assign(CovArgs.begin() + 1, CovArgs.end());
    if (Error E = tool::runCoverageImport(G, O, outs(), errs()))
      return fail(std::move(E));
    return 0;
  }
  if (SelectCmd) {
    if (Base.empty())
      return usage("no base revision: pass --base REV (for example --base "
                   "origin/main)");
    if (!Head.empty() && Worktree)
      return usage("--head and --worktree cannot be used together: pass one");
    if (Explain && SelFormat == tool::OutputFormat::Json)
      return usage("--explain goes with --format ids: the JSON output "
                   "already carries the reasons");
    tool::SelectCommandOptions O;
    O.Base = Base;
    if (!Head.empty())
      O.Head = Head.getValue();
    O.Format = SelFormat;
    O.Explain = Explain;
    if (Error E = tool::runSelect(G, O, outs(), errs()))
      return fail(std::move(E));
    return 0;
  }
  if (DumpCmd) {
    tool::DumpOptions O;
    if (DumpArgs.size() != 1)
      return usage("'tia dump' needs one of: elements, tests, coverage");
    if (DumpArgs[0] == "elements")
      O.What = tool::DumpWhat::Elements;
    else if (DumpArgs[0] == "tests")
      O.What = tool::DumpWhat::Tests;
    else if (DumpArgs[0] == "coverage")
      O.What = tool::DumpWhat::Coverage;
    else
      return usage("unknown dump '" + DumpArgs[0] +
                   "': use elements, tests or coverage");
    O.File = DumpFile;
    O.Hashes = DumpHashes;
    if (Error E = tool::runDump(G, O, outs(), errs()))
      return fail(std::move(E));
    return 0;
  }
  return usage("no command given: run 'tia --help' for the commands");
}

/// llvm::cl wants the subcommand first; tia also takes the global options
/// before it ("tia --db FILE index"), so move it to the front.
void subcommandFirst(std::vector<const char *> &Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--db" || A == "-db") {
      ++I;
      continue;
    }
    if (A.starts_with("--db=") || A.starts_with("-db=") || A == "--quiet" ||
        A == "-quiet" || A == "-q")
      continue;
    if (A == "index" || A == "coverage" || A == "select" || A == "dump")
      std::rotate(Args.begin() + 1, Args.begin() + I, Args.begin() + I + 1);
    return;
  }
}

} // namespace

int toolMain(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  std::vector<const char *> Args(Argv, Argv + Argc);
  subcommandFirst(Args);
  Argc = static_cast<int>(Args.size());
  Argv = Args.data();
  cl::HideUnrelatedOptions(TiaCat);
  cl::SetVersionPrinter([](raw_ostream &OS) { OS << "tia 0.1.0\n"; });
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "tia - test impact analysis for C++\n\n"
          "  Finds the tests a change can affect: index the code, import "
          "per-test\n  coverage, then select for a change.\n\n"
          "  tia index -p build\n"
          "  tia coverage import --format lcov coverage.info\n"
          "  tia select --base origin/main\n",
          &errs()))
    return 2;
  int RC = dispatch();
  outs().flush();
  return RC;
}

} // namespace tia
