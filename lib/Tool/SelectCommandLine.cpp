//===- SelectCommandLine.cpp - the options select and run share -----------===//
//
// tia select and tia run make the same selection, so they take the same
// options, declared once here and registered for each of the two
// subcommands; fill() checks them in one place.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"

namespace tia {
namespace tool {

// One initializer per option that select and run share: long, as
// option declarations are, and kept whole so that each option reads as one
// declaration.
SelectCommandLine::SelectCommandLine(llvm::cl::SubCommand &Sub)
    : Format("format",
             llvm::cl::desc("Output on stdout (default: output.format of "
                            ".tia.yaml, else ids)"),
             llvm::cl::values(
                 clEnumValN(report::Format::Ids, "ids",
                            "one test id per line, in run order"),
                 clEnumValN(report::Format::Json, "json",
                            "the selection with its reasons "
                            "(docs/Formats.md)"),
                 clEnumValN(report::Format::Ctest, "ctest",
                            "ctest arguments, one per line: -R REGEX "
                            "(-E REGEX with --exclusion)"),
                 clEnumValN(report::Format::CtestList, "ctest-list",
                            "ctest test names, for --tests-from-file "
                            "(--exclude-from-file with --exclusion)"),
                 clEnumValN(report::Format::Gtest, "gtest",
                            "per GoogleTest binary: BINARY "
                            "--gtest_filter=PATTERNS"),
                 clEnumValN(report::Format::Catch2, "catch2",
                            "per Catch2 binary: BINARY 'SPEC' (one "
                            "'~NAME' per skipped case with --exclusion)"),
                 clEnumValN(report::Format::Doctest, "doctest",
                            "per doctest binary: BINARY "
                            "'--test-case=NAMES' (--test-case-exclude= with "
                            "--exclusion)"),
                 clEnumValN(report::Format::Boost, "boost",
                            "per Boost.Test binary: BINARY "
                            "'--run_test=PATHS' (--run_test=!PATH:... with "
                            "--exclusion)"),
                 clEnumValN(report::Format::Pytest, "pytest",
                            "pytest node ids (--deselect=ID with "
                            "--exclusion)"),
                 clEnumValN(report::Format::PytestFiles, "pytest-files",
                            "pytest test files (--ignore=FILE with "
                            "--exclusion)"),
                 clEnumValN(report::Format::Lit, "lit",
                            "lit arguments: --filter REGEX (--filter-out "
                            "REGEX with --exclusion)"),
                 clEnumValN(report::Format::Markdown, "markdown",
                            "a pull request comment"),
                 clEnumValN(report::Format::Github, "github",
                            "GitHub Actions step outputs; the Markdown "
                            "goes to $GITHUB_STEP_SUMMARY, the findings as "
                            "annotations to stderr"),
                 clEnumValN(report::Format::Sarif, "sarif",
                            "SARIF 2.1.0 findings (untested changes, "
                            "changes that run every test) for code "
                            "scanning"),
                 clEnumValN(report::Format::CodeQuality, "codequality",
                            "the same findings as a GitLab Code Quality "
                            "report")),
             llvm::cl::cat(tiaCategory()), llvm::cl::sub(Sub)),
      Exclusion("exclusion",
                llvm::cl::desc("Print the tests to skip instead of the tests "
                               "to run, so that tests tia never saw still run "
                               "(default: output.exclusion of .tia.yaml)"),
                llvm::cl::cat(tiaCategory()), llvm::cl::sub(Sub)),
      All("all", llvm::cl::desc("Select every test (as TIA_ALL=1 does)"),
          llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
          llvm::cl::sub(Sub)),
      MaxTests("max-tests",
               llvm::cl::desc("Run at most N tests, the first in run order "
                              "(default: select.max_tests of .tia.yaml)"),
               llvm::cl::value_desc("n"), llvm::cl::cat(tiaCategory()),
               llvm::cl::sub(Sub)),
      TimeBudget("time-budget",
                 llvm::cl::desc("Run the first tests in run order whose "
                                "expected durations add up to at most "
                                "SECONDS (default: select.time_budget of "
                                ".tia.yaml)"),
                 llvm::cl::value_desc("seconds"), llvm::cl::cat(tiaCategory()),
                 llvm::cl::sub(Sub)),
      BuildDir("p",
               llvm::cl::desc("Build directory whose compile_commands.json "
                              "is compared with the indexed commands: a "
                              "translation unit whose command changed has "
                              "all its elements modified; the database's "
                              "build paths are read as in it (default: the "
                              "one 'tia index' recorded)"),
               llvm::cl::value_desc("build-dir"), llvm::cl::init(""),
               llvm::cl::cat(tiaCategory()), llvm::cl::sub(Sub)),
      Mode("mode", llvm::cl::desc("How changed elements map to tests"),
           llvm::cl::values(
               clEnumValN(select::SelectionMode::Combined, "combined",
                          "coverage where the map has evidence, static "
                          "analysis for new elements, tests without "
                          "coverage and stale coverage (default)"),
               clEnumValN(select::SelectionMode::Coverage, "coverage",
                          "the coverage map only"),
               clEnumValN(select::SelectionMode::Static, "static",
                          "static analysis only (Python: name-based "
                          "propagation; C++: the reference graph)")),
           llvm::cl::init(select::SelectionMode::Combined),
           llvm::cl::cat(tiaCategory()), llvm::cl::sub(Sub)),
      Order("order", llvm::cl::desc("Run order of the selected tests"),
            llvm::cl::values(
                clEnumValN(RunOrder::Heuristic, "heuristic",
                           "previously failing, more changed elements "
                           "covered, higher failure rate, shorter "
                           "(default)"),
                clEnumValN(RunOrder::Predicted, "predicted",
                           "most likely to fail first, by the model 'tia "
                           "train' stored (the heuristic order without "
                           "one)")),
            llvm::cl::init(RunOrder::Heuristic), llvm::cl::cat(tiaCategory()),
            llvm::cl::sub(Sub)),
      PredictTop("predict-top",
                 llvm::cl::desc("Run only the N (or P%) most likely to fail "
                                "of the tests in predicted order: a "
                                "predictive subset, partial and unsafe "
                                "(implies --order predicted)"),
                 llvm::cl::value_desc("N|P%"), llvm::cl::init(""),
                 llvm::cl::cat(tiaCategory()), llvm::cl::sub(Sub)),
      // Ablations of name-based selection, for benchmarks.
      NoContextMatching(
          "static-no-context-matching",
          llvm::cl::desc("Static selection: every definition of a name is a "
                         "candidate (measures Algorithm 2's context "
                         "matching)"),
          llvm::cl::init(false), llvm::cl::Hidden, llvm::cl::cat(tiaCategory()),
          llvm::cl::sub(Sub)),
      NoCriticalPruning(
          "static-no-critical-pruning",
          llvm::cl::desc("Static selection: follow critical functions "
                         "without runtime evidence (measures critical "
                         "pruning)"),
          llvm::cl::init(false), llvm::cl::Hidden, llvm::cl::cat(tiaCategory()),
          llvm::cl::sub(Sub)),
      // Any valid selection is a success (0), so that a CI step under
      // 'set -e' goes on; the distinct codes are asked for, as with
      // 'git diff --exit-code'.
      ExitCode("exit-code",
               llvm::cl::desc("Exit 3 when every test is selected and 4 when "
                              "a budget or --predict-top cut the selection "
                              "(tia run: when the runner passed); without "
                              "it any valid selection exits 0"),
               llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
               llvm::cl::sub(Sub)),
      CoveredFindings(
          "covered-findings",
          llvm::cl::desc("With --format sarif, codequality or github: also "
                         "report each changed function a selected test "
                         "reaches, naming the tests"),
          llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
          llvm::cl::sub(Sub)) {}

std::optional<int> SelectCommandLine::fill(SelectCommandOptions &O) const {
  if (Format.getNumOccurrences())
    O.Format = Format;
  if (Exclusion.getNumOccurrences())
    O.Exclusion = Exclusion;
  O.All = All;
  if (MaxTests.getNumOccurrences()) {
    if (MaxTests == 0)
      return usageError("--max-tests 0 would run nothing: give at least 1, or "
                        "leave it out");
    O.MaxTests = MaxTests;
  }
  if (TimeBudget.getNumOccurrences()) {
    if (!(TimeBudget > 0))
      return usageError("--time-budget needs a number of seconds above 0");
    O.TimeBudget = TimeBudget;
  }
  O.BuildDir = BuildDir;
  O.Mode = Mode;
  O.ContextMatching = !NoContextMatching;
  O.CriticalPruning = !NoCriticalPruning;
  O.ExitCode = ExitCode;
  O.CoveredFindings = CoveredFindings;
  O.OrderPredicted = Order == RunOrder::Predicted;
  if (!PredictTop.empty()) {
    std::optional<predict::TopCut> Cut = predict::parseTopCut(PredictTop);
    if (!Cut)
      return usageError("bad --predict-top '" + PredictTop +
                        "': use a count (--predict-top 20) or a percentage "
                        "(--predict-top 10%)");
    O.PredictTop = *Cut;
    O.OrderPredicted = true;
  }
  return std::nullopt;
}

} // namespace tool
} // namespace tia
