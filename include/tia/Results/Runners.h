//===- tia/Results/Runners.h - what tia knows of each test runner -*- C++
//-*-===//
//
// lib/Results is the one home of everything runner-specific, so that adding
// a runner touches it and its tests alone:
//  - recognising one: the program a command starts (ctest, pytest, a test
//    binary of GoogleTest, Catch2, doctest or Boost.Test), and a case
//    framework's binary from its contents; a lit suite;
//  - how a case framework's binary lists its cases, and which arguments of
//    a ctest command choose them (collect's discovery);
//  - selecting with it: the arguments that run a selection, in both forms
//    (select's runner formats, `tia run`);
//  - asking it for a JUnit report (`tia run`), reading that report and
//    importing its results (JUnit.h: `tia results import`, `tia run`);
//  - what its exit codes mean after tia narrowed the run.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_RESULTS_RUNNERS_H
#define TIA_RESULTS_RUNNERS_H

#include "tia/Results/JUnit.h"
#include "tia/Select/Policy.h"
#include "tia/Support/CaseFilters.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace results {

//===----------------------------------------------------------------------===//
// Recognising a runner
//===----------------------------------------------------------------------===//

/// The runner \p Command starts: ctest and pytest by name (`python -m
/// pytest` too), lit as runsLit tells, a test binary by the framework it
/// links, read from \p Program (the command's program found; empty when it
/// was not), and GoogleTest when it cannot be told.
Runner recogniseRunner(const std::vector<std::string> &Command,
                       llvm::StringRef Program);

//===----------------------------------------------------------------------===//
// Case frameworks' binaries (CaseFrameworks.cpp)
//===----------------------------------------------------------------------===//

/// Parses `--gtest_list_tests` output into "Suite.Name" cases, in order
/// (typed and parameterized ones included, their "# ..." comments dropped).
std::vector<std::string> parseGTestList(llvm::StringRef Text);

/// Parses `--list-test-names-only` output of a Catch2 binary: one case
/// name a line, as Catch2 names them (spaces, commas, brackets kept).
std::vector<std::string> parseCatch2List(llvm::StringRef Text);

/// Splits the arguments after the executable of a ctest command running a
/// Catch2 binary into its test specs (catch_discover_tests' one case, or
/// tags) and its other options (with their values).
std::pair<std::vector<std::string>, std::vector<std::string>>
splitCatch2Arguments(llvm::ArrayRef<std::string> Command);

/// The framework test binary \p Path is linked with, from its contents
/// (GoogleTest's, Catch2's and doctest's option names, Boost.Test's
/// functions); std::nullopt for
/// another program or one that cannot be read.
std::optional<CaseFramework> caseFrameworkOfBinary(llvm::StringRef Path);

/// Parses `--list-test-cases` output of a doctest binary: the case names
/// between its "[doctest]" notes and "====" rules, one a line.
std::vector<std::string> parseDoctestList(llvm::StringRef Text);

/// A test case of a Boost.Test binary: its path of suites ("math/adds",
/// "math/data/_0", "math/sum<int>") and whether it runs unless named.
struct BoostTestUnit {
  std::string Path;
  bool Enabled;
};

/// Parses `--list_content` output of a Boost.Test binary (which it writes
/// to stderr): the leaves of its tree of suites.
std::vector<BoostTestUnit> parseBoostTestList(llvm::StringRef Text);

/// Splits the arguments after the executable of a ctest command running a
/// Boost.Test binary into its filters (--run_test=, -t) and its other
/// options.
std::pair<std::vector<std::string>, std::vector<std::string>>
splitBoostTestArguments(llvm::ArrayRef<std::string> Command);

/// Splits the arguments after the executable of a ctest command running a
/// doctest binary into its filters (--test-case=, -tc=, --test-suite=, ...,
/// with or without doctest's "dt-" prefix; doctest_discover_tests' one
/// case) and its other options.
std::pair<std::vector<std::string>, std::vector<std::string>>
splitDoctestArguments(llvm::ArrayRef<std::string> Command);

/// True when \p Case matches a --gtest_filter value ("A.*:B.c-*.Slow").
bool matchesGTestFilter(llvm::StringRef Filter, llvm::StringRef Case);

/// The framework whose cases the ctest command \p Command runs, if any:
/// GoogleTest for a --gtest_filter, else the binary's (Command[0]).
std::optional<CaseFramework>
frameworkOfCommand(const std::vector<std::string> &Command);

/// The arguments that list the cases: GoogleTest filters afterwards;
/// Catch2, doctest and Boost.Test apply the ctest test's own specs or
/// filters (\p Specs).
std::vector<std::string> listArguments(CaseFramework F,
                                       const std::vector<std::string> &Specs);

/// The ctest test's own choice of cases (Catch2 test specs, doctest
/// filters, Boost.Test's --run_test) and its other arguments.
std::pair<std::vector<std::string>, std::vector<std::string>>
splitCaseArguments(CaseFramework F, llvm::ArrayRef<std::string> Command);

/// The cases of one ctest test's binary, as the binary lists them.
struct CaseListing {
  CaseFramework Framework;
  std::vector<std::string> Cases;
  std::set<std::string> Disabled; ///< Boost.Test's, run only when named
};

/// The cases a binary of \p F listed in \p Text.
CaseListing parseListing(CaseFramework F, llvm::StringRef Text);

//===----------------------------------------------------------------------===//
// lit suites (Lit.cpp)
//===----------------------------------------------------------------------===//

/// True when \p Command runs lit (lit.py, lit or llvm-lit, directly or
/// through python): a ctest test that is a lit suite, whose tests collect
/// expands the way it expands a binary's cases.
bool runsLit(const std::vector<std::string> &Command);

/// Parses `lit --show-tests` output into the tests' full names ("SUITE ::
/// PATH"), in order.
std::vector<std::string> parseLitTestList(llvm::StringRef Text);

/// Where a lit suite's test files live and where it runs them, from `lit
/// --show-suites`.
struct LitSuite {
  std::string SourceRoot, ExecRoot;
};

/// Parses `lit --show-suites` output: each suite by name.
std::map<std::string, LitSuite> parseLitSuites(llvm::StringRef Text);

/// The id of lit test \p FullName: "lit:SUITE::PATH".
std::string litTestId(llvm::StringRef FullName);

/// The full name ("SUITE :: PATH") of lit test id \p Id; std::nullopt for
/// an id of another runner.
std::optional<std::string> litFullName(llvm::StringRef Id);

/// True when \p P selects a lit test by its id (not by selecting all).
bool selectsLitTest(const select::Plan &P);

/// lit's --filter value that matches exactly the tests \p FullNames. A
/// space is written "\x20", so that the value survives a shell's word
/// splitting (`lit $(tia select --format lit) DIR`).
std::string litFilter(const std::vector<std::string> &FullNames);

/// The longest --filter value litArguments prints. Linux takes at most
/// 128 KiB in one argument or environment string (MAX_ARG_STRLEN), so
/// lit's LIT_FILTER variable holds no more than its --filter, and lit reads
/// no filter from a file.
constexpr size_t LitFilterLimit = 100000;

/// A --filter value no longer than a limit.
struct BoundedLitFilter {
  /// std::nullopt when not even whole folders fit.
  std::optional<std::string> Regex;
  /// The folders that run whole in place of their selected tests.
  unsigned WholeFolders = 0;
};

/// lit's --filter value for the tests \p FullNames within \p Limit
/// characters: litFilter when it fits; else the same names, grouped by
/// folder; else, when \p MayWiden (a filter of tests to run, where more is
/// safe), whole folders in place of their tests, the folders with the
/// longest alternatives first, until it fits.
BoundedLitFilter boundedLitFilter(const std::vector<std::string> &FullNames,
                                  size_t Limit, bool MayWiden);

/// How lit's xunit report (--xunit-xml-output) names a test: the class
/// name is the suite's name with '.' written '-', a '.', then the test's
/// folder in the suite with '.' written '_' (the suite's name again for a
/// test at the suite's root); the name is the test's file name.
struct LitXunitName {
  std::string ClassName;
  std::string Name;
  bool operator==(const LitXunitName &O) const {
    return ClassName == O.ClassName && Name == O.Name;
  }
};

/// The xunit name of lit test id \p Id ("lit:my.suite::a.b/c.test" ->
/// "my-suite.a_b", "c.test"); std::nullopt for an id of another runner.
std::optional<LitXunitName> litXunitName(llvm::StringRef Id);

/// The id a lit xunit case most plainly stands for, when no known test
/// has its name: the class name up to its first '.' is the suite, the rest
/// the folder, or the root when it is the suite's name again
/// ("s.s", "a.test" -> "lit:s::a.test"; "s.sub/x", "b.test" ->
/// "lit:s::sub/x/b.test"). It is a guess: a '-' of the suite's name or a
/// '_' of the folder may have been a '.'. std::nullopt for a class name
/// without a '.', which lit does not write.
std::optional<std::string> plainLitId(llvm::StringRef ClassName,
                                      llvm::StringRef Name);

/// The ids of the cases of \p Report, a lit report read from \p FileName:
/// the one test of \p KnownIds (sorted) with the same xunit name, else
/// plainLitId, and one warning on \p Warnings counting those guessed.
/// Fails for a case whose class name lit cannot have written
/// ("FILE:LINE: lit test case 'NAME' has class name 'X', not
/// SUITE.FOLDER: ...").
llvm::Expected<std::vector<std::string>>
litResultIds(const JUnitReport &Report, llvm::StringRef FileName,
             llvm::ArrayRef<std::string> KnownIds,
             std::vector<std::string> &Warnings);

//===----------------------------------------------------------------------===//
// Selecting with a runner (Arguments.cpp)
//===----------------------------------------------------------------------===//

/// A runner's arguments and the tests they could not name.
struct RunnerArguments {
  std::vector<std::string> Arguments;
  /// Selected (or, in the exclusion form, skipped) tests of other runners.
  unsigned Unnamed = 0;
  /// Why the arguments run more than the selection, when they do; empty
  /// otherwise.
  std::string Widened;
};

/// ctest's -R (inclusion) or -E (exclusion) with an anchored regex of test
/// names: "ctest:NAME" is NAME, "gtest:BINARY:Suite.Name" is Suite.Name
/// (gtest_discover_tests' names), a lit test its suite's ctest test (which
/// runs the suite's other tests too). No arguments when everything runs,
/// and when a selected lit test's ctest test is unknown (a new test file:
/// Widened says so); "-R ^$" when nothing does.
RunnerArguments ctestArguments(const select::Plan &P, bool Exclusion);

/// The ctest names to run (or to skip), one per element, sorted. Tests
/// known only from a definition (patterns, not names) are counted in
/// Unnamed.
RunnerArguments ctestNames(const select::Plan &P, bool Exclusion);

/// True when \p VersionOutput (what `ctest --version` prints) names a ctest
/// that reads --tests-from-file and --exclude-from-file (CMake 3.29 on).
bool ctestReadsNameFiles(llvm::StringRef VersionOutput);

/// The --gtest_filter of every known GoogleTest binary: "*" when all its
/// tests run, "-*" when none does.
std::vector<std::pair<std::string, std::string>>
gtestFilters(const select::Plan &P, bool Exclusion, unsigned &Unnamed);

/// The --gtest_filter value for \p Binary.
std::string gtestFilter(const select::Plan &P, llvm::StringRef Binary,
                        bool Exclusion);

/// The arguments that run the selected cases of every known binary of
/// framework \p F (Catch2, doctest or Boost.Test): one Catch2 test spec
/// naming them ("~*" when none runs), doctest's --test-case=
/// (--test-case-exclude=*) or Boost's --run_test=a:b; in the exclusion form
/// Catch2's "~NAME" per skipped case and "~[.]", doctest's
/// --test-case-exclude= or Boost's --run_test=!a:!b; no arguments when all
/// its cases run. Boost.Test cannot run no case (it exits 200): a Boost
/// binary none of whose cases is selected is left out of the inclusion
/// form. Case names are escaped as the framework reads them.
std::vector<std::pair<std::string, std::vector<std::string>>>
caseArguments(const select::Plan &P, CaseFramework F, bool Exclusion,
              unsigned &Unnamed);

/// pytest's node ids (or --deselect=ID), or with \p Files the test files
/// (or --ignore=FILE). No arguments when everything runs, and when nothing
/// does (pytest cannot be told to run nothing: do not run it).
RunnerArguments pytestArguments(const select::Plan &P, bool Exclusion,
                                bool Files);

/// lit's arguments: "--filter REGEX" naming the selected lit tests
/// (inclusion), or "--filter-out REGEX" naming the skipped ones
/// (exclusion). No arguments when everything runs (inclusion) or nothing
/// is skipped (exclusion); "--filter ^$ --allow-empty-runs" when nothing
/// runs, and --allow-empty-runs after the exclusion form when no lit test
/// is selected (lit fails a run of no test). Tests of other runners are
/// counted in Unnamed.
RunnerArguments litArguments(const select::Plan &P, bool Exclusion);

/// The arguments that make runner \p Kind run \p P's selection (or, with
/// \p Exclusion, skip the other tests); for a case framework's binary,
/// those of \p Binary (its file name). Unnamed counts the selected tests of
/// other runners.
RunnerArguments selectionArguments(const select::Plan &P, Runner Kind,
                                   llvm::StringRef Binary, bool Exclusion);

/// Why \p Kind must not run at all for \p P: it cannot be told to run
/// none of its tests (pytest with no pytest test selected, Boost.Test with
/// no case of \p Binary selected) or would then write no report (lit with
/// no lit test selected, in the inclusion form). std::nullopt when it runs.
std::optional<std::string> nothingToRun(const select::Plan &P, Runner Kind,
                                        llvm::StringRef Binary, bool Exclusion);

/// The longest single argument Linux passes to a program (128 KiB).
constexpr size_t MaxArgumentSize = 128 * 1024 - 1;

/// selectionArguments in the form \p Exclusion asks for when they fit on a
/// command line (no argument over MaxArgumentSize) and run exactly the
/// selection, else in the other form when that does, switching \p Exclusion;
/// else a form that fits by running more (lit's whole folders). When
/// neither fits, no arguments (every test runs) and \p Fits is false.
RunnerArguments fittingSelectionArguments(const select::Plan &P, Runner Kind,
                                          llvm::StringRef Binary,
                                          bool &Exclusion, bool &Fits);

//===----------------------------------------------------------------------===//
// Running it (Invocation.cpp)
//===----------------------------------------------------------------------===//

/// Where the command \p Args (the program first) already asks runner
/// \p Kind for a JUnit report of its own, as an absolute path (relative
/// ones are from \p WorkingDir, ctest's from its --test-dir): pytest's
/// --junitxml, ctest's --output-junit, GoogleTest's --gtest_output=xml
/// (or GTEST_OUTPUT), lit's --xunit-xml-output. std::nullopt when it does
/// not, or for a runner whose report options tia does not read.
std::optional<std::string> reportAskedFor(Runner Kind,
                                          const std::vector<std::string> &Args,
                                          llvm::StringRef WorkingDir);

/// Adds to \p Args what asks runner \p Kind for a JUnit report at
/// \p Report (ctest's --output-junit, pytest's --junitxml=, GoogleTest's
/// --gtest_output=xml:, Catch2's and doctest's junit reporters, a Boost.Test
/// JUnit logger beside its console log, lit's --xunit-xml-output=).
void askForReport(Runner Kind, llvm::StringRef Report,
                  std::vector<std::string> &Args);

/// With a ctest that reads lists of names (CMake 3.29 on; \p Program's
/// `--version` tells), replaces \p Selection by --tests-from-file (or
/// --exclude-from-file) and a file of the names, which has no length limit;
/// \p NameFile is then that file, to remove after the run. Keeps
/// \p Selection when a selected test is a definition's pattern, when nothing
/// is passed, or when the file cannot be written.
void useCtestNameFile(const select::Plan &P, bool Exclusion,
                      llvm::StringRef Program,
                      std::vector<std::string> &Selection,
                      std::string &NameFile);

/// The exit code of runner \p Kind's run of \p P's selection as a CI step
/// should see it: pytest's "no tests ran" (5) when no pytest test was
/// selected, which tia ran only because it was asked to, is success.
int runExitCode(const select::Plan &P, Runner Kind, int Code);

//===----------------------------------------------------------------------===//
// Starting it (RunnerProcess.cpp)
//===----------------------------------------------------------------------===//

/// The program \p Program names: a path (with a '/') made absolute
/// against \p WorkingDir, else found on PATH. Fails, saying to install it,
/// when PATH has no such program.
llvm::Expected<std::string> findRunnerProgram(llvm::StringRef Program,
                                              llvm::StringRef WorkingDir);

/// The runner \p Command starts (recogniseRunner), its program found as
/// running it would find it (findRunnerProgram).
Runner recogniseCommand(const std::vector<std::string> &Command,
                        llvm::StringRef WorkingDir);

/// \p Args as a shell command line for people, each argument over 200
/// bytes shortened to its first 120 and its size.
std::string shownCommand(const std::vector<std::string> &Args);

/// A path for the runner's JUnit report in the temporary directory, where
/// no file is yet. Fails when the temporary directory cannot be written.
llvm::Expected<std::string> temporaryReportPath();

/// Runs \p Program with \p Args (Args[0] included), saying so on \p Err
/// unless \p Quiet, after flushing \p Out and \p Err so that the
/// runner's output follows tia's. Returns its exit code; 1, with a warning
/// naming \p Binary, when it did not exit normally. Fails when it cannot
/// start.
llvm::Expected<int> runRunner(llvm::StringRef Program,
                              const std::vector<std::string> &Args,
                              llvm::StringRef Binary, bool Quiet,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace results
} // namespace tia

#endif // TIA_RESULTS_RUNNERS_H
