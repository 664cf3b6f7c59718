//===- EvalCommand.cpp - tia eval replay, tia eval mutants ----------------===//
//
// Both commands work in lib/Eval's scratch clone; what runs at a version
// (the build command, index, collect, the selection of select) are the
// other commands' pipelines, from the libraries they call
// (eval::libraryHooks).
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Eval/CommandSteps.h"
#include "tia/Eval/LibraryHooks.h"
#include "tia/Support/Error.h"

namespace tia {
namespace tool {

namespace {

/// The user's repository, for the revisions of the range.
llvm::Expected<git::Repository> userRepository(const GlobalOptions &G) {
  auto Ctx = makeContext(G, /*NeedGit=*/true);
  if (!Ctx)
    return Ctx.takeError();
  return std::move(*Ctx->Repo);
}

/// What runs at each version: the commands' own pipelines, quietly.
eval::CommandHooks hooksFor(const GlobalOptions &G, const EvalBuildOptions &O) {
  return eval::libraryHooks({O.Jobs, O.Only, O.Python}, G.ResourceDir);
}

} // namespace

llvm::Error runEvalReplay(const GlobalOptions &G, const EvalReplayOptions &O,
                          llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Repo = userRepository(G);
  if (!Repo)
    return Repo.takeError();
  eval::ReplayRequest R;
  R.From = O.From;
  R.To = O.To;
  R.FirstParent = O.FirstParent;
  R.Build = O.Run.Build;
  R.TestCommand = O.TestCommand;
  R.Modes = O.Modes;
  R.Quiet = G.Quiet;
  R.Scratch = O.Run.Scratch;
  R.Settings = llvm::json::Object{{"only", llvm::json::Array(O.Run.Only)},
                                  {"python", O.Run.Python}};
  auto Report = eval::replayWithCommands(
      *Repo, {O.Run.Build, O.Run.BuildDir, O.Run.Pytest}, hooksFor(G, O.Run), R,
      Err);
  if (!Report)
    return Report.takeError();
  eval::writeReplay(*Report, O.Run.Format == ReportFormat::Json, Out);
  if (!G.Quiet)
    Err << eval::replaySummary(*Report) << "\n";
  return llvm::Error::success();
}

llvm::Error runEvalMutants(const GlobalOptions &G, const EvalMutantsOptions &O,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Count == 0)
    return makeError("--count must be at least 1");
  auto Repo = userRepository(G);
  if (!Repo)
    return Repo.takeError();
  eval::MutantsRequest R;
  R.Count = O.Count;
  auto Files = eval::MutatedFiles::parse(O.Mutate);
  if (!Files)
    return Files.takeError();
  R.Files = std::move(*Files);
  R.Build = O.Run.Build;
  R.Quiet = G.Quiet;
  R.Mode = O.Mode;
  R.Scratch = O.Run.Scratch;
  if (llvm::Error E = eval::chooseMutated(*Repo, O.From, O.To, R))
    return E;
  auto Report = eval::mutateWithCommands(
      *Repo, {O.Run.Build, O.Run.BuildDir, O.Run.Pytest}, hooksFor(G, O.Run), R,
      Err);
  if (!Report)
    return Report.takeError();
  eval::writeMutants(*Report, O.Run.Format == ReportFormat::Json, Out);
  if (!G.Quiet)
    Err << eval::mutantsSummary(*Report) << "\n";
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand EvalSubcommand(
    "eval", "'tia eval replay --commits A..B --build CMD': measure the "
            "selection on history (TestR, precision, SafeR, TimeR); 'tia "
            "eval mutants': check that the tests failing for small mutations "
            "are selected. Both work in a scratch clone with a database of "
            "its own (--db is not used)");

namespace {
llvm::cl::opt<std::string> Commits(
    "commits",
    llvm::cl::desc("The commits to replay (or, for mutants, whose changed "
                   "functions to mutate), as A..B: reachable from B, not "
                   "from A"),
    llvm::cl::value_desc("A..B"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> Build(
    "build",
    llvm::cl::desc("Shell command that builds each version, run at the root "
                   "of a scratch clone (for example 'cmake -S . -B build "
                   "-DCMAKE_BUILD_TYPE=Debug ... && ninja -C build')"),
    llvm::cl::value_desc("cmd"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> TestCmd(
    "test-cmd",
    llvm::cl::desc("replay: shell command that runs the whole test suite, "
                   "timed at each commit as the retest-all baseline (default: "
                   "the sum of the collected tests' durations)"),
    llvm::cl::value_desc("cmd"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<bool> FirstParent(
    "first-parent",
    llvm::cl::desc("replay: follow only the first parent of merges"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> BuildDir(
    "p",
    llvm::cl::desc("Build directory of the tests, relative to the root "
                   "(default: build); its ctest tests run when it holds "
                   "CTestTestfile.cmake"),
    llvm::cl::value_desc("build-dir"), llvm::cl::init("build"),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<bool>
    Pytest("pytest", llvm::cl::desc("Also run the Python tests with pytest"),
           llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
           llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> Python(
    "python",
    llvm::cl::desc("With --pytest: the Python that runs pytest (default: as "
                   "'tia collect --pytest' finds it)"),
    llvm::cl::value_desc("path"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<unsigned>
    Count("count",
          llvm::cl::desc("mutants: how many mutants to make (default 10)"),
          llvm::cl::init(10), llvm::cl::cat(tiaCategory()),
          llvm::cl::sub(EvalSubcommand));
llvm::cl::list<std::string> Mutate(
    "mutate",
    llvm::cl::desc("mutants: mutate only the functions of files whose "
                   "repository-relative paths match this glob (repeatable; "
                   "for example 'lib/Select/*', where * matches '/' too)"),
    llvm::cl::value_desc("glob"), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<unsigned>
    Jobs("jobs",
         llvm::cl::desc("Test processes at once in each collection (default: "
                        "one per core; pytest: 1)"),
         llvm::cl::init(0), llvm::cl::cat(tiaCategory()),
         llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> ModesOpt(
    "modes",
    llvm::cl::desc("replay: the selection modes to measure, comma-separated "
                   "(static, coverage, combined), each against the same "
                   "builds, collections and ground truth; mutants: the one "
                   "mode to select in (default: combined)"),
    llvm::cl::value_desc("m1,m2"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));

/// --modes: the modes it names, in order, into \p Modes; the exit code of
/// a usage error.
std::optional<int> parseModes(std::vector<select::SelectionMode> &Modes) {
  if (!ModesOpt.getNumOccurrences())
    return std::nullopt;
  auto Parsed = select::parseModeList(ModesOpt, "--modes");
  if (!Parsed)
    return usageError(llvm::toString(Parsed.takeError()));
  Modes = std::move(*Parsed);
  return std::nullopt;
}
llvm::cl::list<std::string> Only(
    "only",
    llvm::cl::desc("Collect only the ctest tests whose ids match this glob "
                   "(repeatable; for example 'gtest:*' to leave out tests "
                   "that are no GoogleTest case)"),
    llvm::cl::value_desc("glob"), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
enum class EvalFormat { Markdown, Json };
llvm::cl::opt<EvalFormat> Format(
    "format", llvm::cl::desc("Report format"),
    llvm::cl::values(clEnumValN(EvalFormat::Markdown, "markdown",
                                "a table (the default)"),
                     clEnumValN(EvalFormat::Json, "json", "docs/Formats.md")),
    llvm::cl::init(EvalFormat::Markdown), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(EvalSubcommand));
llvm::cl::opt<std::string> Scratch(
    "scratch",
    llvm::cl::desc("Work in a clone kept in this folder (made when missing "
                   "or empty) rather than a temporary one: a later run with "
                   "the same folder builds incrementally and reuses its "
                   "database; replay writes each measured commit to the "
                   "folder's journal and reads back those it holds, so a "
                   "stopped replay goes on where it stopped"),
    llvm::cl::value_desc("dir"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(EvalSubcommand));
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("replay|mutants"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(EvalSubcommand));

} // namespace

int evalMain(const GlobalOptions &G) {
  if (Args.size() != 1 || (Args[0] != "replay" && Args[0] != "mutants"))
    return usageError("'tia eval' needs a subcommand: tia eval replay "
                      "--commits A..B --build CMD, or tia eval mutants");
  EvalBuildOptions B;
  B.Build = Build;
  B.BuildDir = BuildDir;
  B.Pytest = Pytest;
  B.Python = Python;
  if (!Python.empty() && !Pytest)
    return usageError("--python goes with --pytest");
  B.Jobs = Jobs;
  B.Scratch = Scratch;
  B.Only.assign(Only.begin(), Only.end());
  B.Format =
      Format == EvalFormat::Json ? ReportFormat::Json : ReportFormat::Text;
  std::optional<std::pair<std::string, std::string>> Range;
  if (!Commits.empty()) {
    Range = git::splitRange(Commits);
    if (!Range)
      return usageError("--commits takes a range A..B, for example "
                        "HEAD~5..HEAD, not '" +
                        Commits + "'");
  }
  if (Args[0] == "replay") {
    if (!Range)
      return usageError("tia eval replay needs --commits A..B");
    if (Count.getNumOccurrences() || Mutate.getNumOccurrences())
      return usageError("--count and --mutate are for tia eval mutants");
    EvalReplayOptions O;
    O.Run = B;
    O.From = Range->first;
    O.To = Range->second;
    O.FirstParent = FirstParent;
    O.TestCommand = TestCmd;
    if (std::optional<int> Bad = parseModes(O.Modes))
      return *Bad;
    return exitCode(runEvalReplay(G, O, llvm::outs(), llvm::errs()));
  }
  if (FirstParent || !TestCmd.empty())
    return usageError("--first-parent and --test-cmd are for tia eval replay");
  EvalMutantsOptions O;
  std::vector<select::SelectionMode> Modes;
  if (std::optional<int> Bad = parseModes(Modes))
    return *Bad;
  if (Modes.size() > 1)
    return usageError("tia eval mutants selects in one mode: pass one of "
                      "static, coverage and combined to --modes");
  if (!Modes.empty())
    O.Mode = Modes.front();
  O.Run = B;
  if (Range) {
    O.From = Range->first;
    O.To = Range->second;
  }
  O.Count = Count;
  O.Mutate.assign(Mutate.begin(), Mutate.end());
  return exitCode(runEvalMutants(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
