//===- ToolMain.cpp - tia's command line ----------------------------------===//
//
// The options every command shares and the dispatch to the commands. Each
// command's own options live beside it, in its <Name>Command.cpp, and are
// checked there, in one place per command.
//
//===----------------------------------------------------------------------===//

#include "tia/Tool/ToolMain.h"
#include "CommandsInternal.h"
#include "tia/Report/Report.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <vector>

using namespace llvm;

namespace tia {
namespace tool {

cl::OptionCategory &tiaCategory() {
  static cl::OptionCategory Cat("tia options");
  return Cat;
}

int usageError(const Twine &Msg) {
  WithColor::error(errs(), "tia") << Msg << "\n";
  return 2;
}

int exitCode(Error E) {
  if (!E)
    return 0;
  WithColor::error(errs(), "tia") << toString(std::move(E)) << "\n";
  return 1;
}

ArrayRef<CommandEntry> commandTable() {
  static const CommandEntry Table[] = {
      {&CollectSubcommand, collectMain},   {&ContextSubcommand, contextMain},
      {&CoverageSubcommand, coverageMain}, {&DumpSubcommand, dumpMain},
      {&EvalSubcommand, evalMain},         {&ExplainSubcommand, explainMain},
      {&IndexSubcommand, indexMain},       {&MergeSubcommand, mergeMain},
      {&ObservedSubcommand, observedMain}, {&RankSubcommand, rankMain},
      {&ResultsSubcommand, resultsMain},   {&RunSubcommand, runMain},
      {&SelectSubcommand, selectMain},     {&TrainSubcommand, trainMain},
  };
  return Table;
}

namespace {

// Shared by every command.
cl::opt<std::string>
    Db("db",
       cl::desc("Database file (default: $TIA_DB, else .tia/tia.db at "
                "the repository root)"),
       cl::value_desc("file"), cl::init(""), cl::cat(tiaCategory()),
       cl::sub(cl::SubCommand::getAll()));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Print no progress and no summary, only errors"),
                    cl::init(false), cl::cat(tiaCategory()),
                    cl::sub(cl::SubCommand::getAll()));
cl::alias QuietShort("q", cl::desc("Alias for --quiet"), cl::aliasopt(Quiet));
cl::opt<std::string> ResourceDir(
    "resource-dir",
    cl::desc("Clang resource directory with the builtin headers (default: "
             "$TIA_RESOURCE_DIR, else the one found at build time)"),
    cl::init(""), cl::cat(tiaCategory()), cl::sub(cl::SubCommand::getAll()));

int dispatch() {
  GlobalOptions G;
  G.Db = Db;
  G.Quiet = Quiet;
  G.ResourceDir = ResourceDir;
  for (const CommandEntry &C : commandTable())
    if (*C.Sub)
      return C.Main(G);
  return usageError("no command given: run 'tia --help' for the commands");
}

/// llvm::cl wants the subcommand first; tia also takes the global options
/// before it ("tia --db FILE index"), so move it to the front.
void subcommandFirst(std::vector<const char *> &Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--db" || A == "-db" || A == "--resource-dir" ||
        A == "-resource-dir") {
      ++I;
      continue;
    }
    if (A.starts_with("-"))
      continue;
    if (llvm::any_of(commandTable(), [&](const CommandEntry &C) {
          return C.Sub->getName() == A;
        }))
      std::rotate(Args.begin() + 1, Args.begin() + I, Args.begin() + I + 1);
    return;
  }
}

} // namespace
} // namespace tool

int toolMain(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  std::vector<const char *> Args(Argv, Argv + Argc);
  tool::subcommandFirst(Args);
  Argc = static_cast<int>(Args.size());
  Argv = Args.data();
  cl::HideUnrelatedOptions(tool::tiaCategory());
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "tia " << report::toolVersion() << "\n"; });
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "tia - test impact analysis for C++ and Python\n\n"
          "  Finds the tests a change can affect: index the code, collect "
          "(or import)\n  per-test coverage, then select for a change.\n\n"
          "  tia index -p build\n"
          "  tia collect -p build\n"
          "  tia select --base origin/main\n"
          "  tia run --base origin/main -- ctest --test-dir build\n",
          &errs()))
    return 2;
  int RC = tool::dispatch();
  outs().flush();
  return RC;
}

} // namespace tia
