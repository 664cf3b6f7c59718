//===- RunCommand.cpp - tia run -------------------------------------------===//
//
// Selects, runs the runner with the selection, and imports the JUnit report
// it was asked to write, so that the previously-failing set stays current.
// The selection goes to the runner in its exclusion form by default (the
// tests to skip), so that a test tia has never seen still runs.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Collect/Collect.h"
#include "tia/Report/Report.h"
#include "tia/Results/RunnerRun.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"

namespace tia {
namespace tool {

namespace {

/// The selection's arguments for the runner; empty for an observed run,
/// which runs every test. Switches \p Exclusion when only the other form
/// fits on a command line.
std::vector<std::string>
runnerSelection(const GlobalOptions &G, const RunOptions &O,
                const select::Plan &P, const results::RunnerCommand &R,
                bool &Exclusion, llvm::raw_ostream &Err) {
  results::RunnerArguments Selection;
  bool Fits = true;
  if (!O.Observe)
    Selection = results::fittingSelectionArguments(P, R.Kind, R.Binary,
                                                   Exclusion, Fits);
  if (!Fits)
    Err << "tia: warning: the selection is too long to pass to " << R.Binary
        << "; running every test\n";
  if (!Selection.Widened.empty())
    Err << "tia: warning: " << Selection.Widened << "\n";
  if (!G.Quiet) {
    report::writeSummary(P, Err);
    if (O.Observe)
      Err << "observing: every test runs\n";
    if (Selection.Unnamed)
      Err << results::unnamedNote(Selection.Unnamed, Exclusion, R.Kind) << "\n";
  }
  return Selection.Arguments;
}

/// tia run --observe when no selection can be made (\p Why): every test
/// still runs and its results are kept where there is a database, so that
/// CI behaves as it did before tia; nothing is observed.
llvm::Expected<int> runUnplanned(const GlobalOptions &G, const RunOptions &O,
                                 llvm::Error Why, llvm::raw_ostream &Out,
                                 llvm::raw_ostream &Err) {
  Err << "tia: warning: nothing observed: " << llvm::toString(std::move(Why))
      << "; running every test\n";
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  results::RunnerCommand R =
      results::runnerOf(O.Command, O.Kind, Ctx->WorkingDir);
  auto Program = results::findRunnerProgram(O.Command.front(), Ctx->WorkingDir);
  if (!Program)
    return Program.takeError();
  results::RunnerReport Report;
  auto RC = results::runForReport(R, *Program, O.Command, Ctx->WorkingDir,
                                  G.Quiet, Report, Out, Err);
  if (!RC)
    return RC.takeError();
  auto Done = results::importRunReport(*Ctx, O.Select.Head.value_or(""), R,
                                       Report, G.Quiet, Err);
  if (!Done)
    Err << "tia: warning: the results of " << R.Binary
        << " were not imported: " << llvm::toString(Done.takeError()) << "\n";
  if (!G.Quiet)
    Err << "ran " << R.Binary << ": every test, not observed: exit code " << *RC
        << "\n";
  return *RC;
}

} // namespace

llvm::Expected<int> runRun(const GlobalOptions &G, const RunOptions &O,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Command.empty())
    return makeError("no test runner given: tia run [OPTIONS] -- ctest|"
                     "pytest|BINARY [ARGS...]");
  auto Made = makePlan(G, O.Select, "HEAD");
  if (!Made && O.Observe)
    return runUnplanned(G, O, Made.takeError(), Out, Err);
  if (!Made)
    return Made.takeError();
  const select::Plan &P = Made->Plan;
  const Context &Ctx = Made->Ctx;
  if (llvm::Error E = warnAboutDamagedCoverage(*Made->DB, Ctx, Err))
    return E;
  // Results are written later, with the database opened for writing.
  Made->DB.reset();
  std::vector<OtherMode> Others;
  if (O.Observe)
    Others = planOtherModes(G, O.Select, P.Changes.Mode);

  results::RunnerCommand R =
      results::runnerOf(O.Command, O.Kind, Ctx.WorkingDir);
  bool Exclusion = !O.Inclusion;
  std::vector<std::string> Selection =
      runnerSelection(G, O, P, R, Exclusion, Err);
  if (!O.Observe)
    if (std::optional<std::string> Why =
            results::nothingToRun(P, R.Kind, R.Binary, Exclusion)) {
      if (!G.Quiet)
        Err << "nothing to run: " << *Why << "\n";
      return O.Select.ExitCode ? exitCodeOf(P) : 0;
    }

  auto Program = results::findRunnerProgram(O.Command.front(), Ctx.WorkingDir);
  if (!Program)
    return Program.takeError();
  std::string NameFile;
  if (R.Kind == results::Runner::Ctest)
    results::useCtestNameFile(P, Exclusion, *Program, Selection, NameFile);
  std::vector<std::string> Args = O.Command;
  llvm::append_range(Args, Selection);
  results::RunnerReport Report;
  auto RC = results::runForReport(R, *Program, Args, Ctx.WorkingDir, G.Quiet,
                                  Report, Out, Err);
  if (!NameFile.empty())
    llvm::sys::fs::remove(NameFile);
  if (!RC)
    return RC.takeError();
  if (!O.Observe)
    *RC = results::runExitCode(P, R.Kind, *RC);

  auto Done = results::importRunReport(Ctx, P.Changes.HeadCommit, R, Report,
                                       G.Quiet, Err);
  if (!Done)
    return Done.takeError();
  if (O.Observe) {
    if (Done->DB)
      observeRun({G, P, Others, *Done->DB, Done->RunId,
                  results::runnerName(R.Kind).str(), !O.Inclusion},
                 Err);
    else
      Err << "tia: warning: nothing observed: the run's results were not "
             "imported\n";
  }
  if (!G.Quiet && !O.Observe)
    Err << "ran " << R.Binary << ": " << P.Selected.size() << " of "
        << P.TotalTests << " tests selected, "
        << (Exclusion ? "the others skipped" : "named") << ": exit code " << *RC
        << (Done->Results ? "" : ", no results imported") << "\n";
  if (!G.Quiet && O.Observe)
    Err << "ran " << R.Binary << ": every test, observed: exit code " << *RC
        << (Done->Results ? "" : ", no results imported") << "\n";
  // A failing runner's code wins: it is what the CI step must see. An
  // observed run ran every test, whatever the selection.
  if (*RC == 0 && O.Select.ExitCode && !O.Observe)
    return exitCodeOf(P);
  return *RC;
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    RunSubcommand("run", "'tia run [OPTIONS] -- RUNNER ARGS...': run the "
                         "selected tests with ctest, a test binary, pytest "
                         "or lit, and import their results");

namespace {
llvm::cl::opt<std::string>
    Base("base",
         llvm::cl::desc("Base revision (default: select.base of .tia.yaml, "
                        "else HEAD)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(RunSubcommand));
llvm::cl::opt<std::string>
    Head("head", llvm::cl::desc("Head revision (default: the work tree)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(RunSubcommand));
llvm::cl::opt<bool> Inclusion(
    "inclusion",
    llvm::cl::desc("Name the tests to run instead of the tests to skip (tests "
                   "tia never saw then do not run)"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(RunSubcommand));
llvm::cl::opt<results::Runner> Runner(
    "runner",
    llvm::cl::desc("The kind of runner (default: ctest, pytest and lit by "
                   "the program's name, a test binary by the framework it "
                   "links, GoogleTest when it cannot be told)"),
    llvm::cl::values(
        clEnumValN(results::Runner::Ctest, "ctest", "ctest"),
        clEnumValN(results::Runner::Gtest, "gtest", "a GoogleTest binary"),
        clEnumValN(results::Runner::Catch2, "catch2", "a Catch2 binary"),
        clEnumValN(results::Runner::Doctest, "doctest", "a doctest binary"),
        clEnumValN(results::Runner::Boost, "boost", "a Boost.Test binary"),
        clEnumValN(results::Runner::Pytest, "pytest", "pytest"),
        clEnumValN(results::Runner::Lit, "lit", "lit (lit.py, llvm-lit)")),
    llvm::cl::init(results::Runner::Auto), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(RunSubcommand));
llvm::cl::opt<bool> Observe(
    "observe",
    llvm::cl::desc("Run every test, and record with the run the selection tia "
                   "would have made in each mode ('tia observed' reports "
                   "what it would have missed); the exit code stays the "
                   "runner's"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(RunSubcommand));
SelectCommandLine Shared(RunSubcommand);
llvm::cl::list<std::string> Command(llvm::cl::Positional,
                                    llvm::cl::desc("-- RUNNER ARGS..."),
                                    llvm::cl::cat(tiaCategory()),
                                    llvm::cl::sub(RunSubcommand));
} // namespace

int runMain(const GlobalOptions &G) {
  RunOptions O;
  if (std::optional<int> Bad = Shared.fill(O.Select))
    return *Bad;
  if (Shared.Format.getNumOccurrences() || Shared.Exclusion.getNumOccurrences())
    return usageError("tia run passes the selection to the runner itself: "
                      "leave out --format and --exclusion (--inclusion names "
                      "the tests to run)");
  O.Select.Base = Base;
  if (!Head.empty())
    O.Select.Head = Head.getValue();
  O.Inclusion = Inclusion;
  O.Observe = Observe;
  O.Kind = Runner;
  O.Command.assign(Command.begin(), Command.end());
  if (O.Command.empty())
    return usageError("no test runner given: tia run [OPTIONS] -- ctest|"
                      "pytest|BINARY [ARGS...]");
  auto RC = runRun(G, O, llvm::outs(), llvm::errs());
  if (!RC)
    return exitCode(RC.takeError());
  return *RC;
}

} // namespace tool
} // namespace tia
