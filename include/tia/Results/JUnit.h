//===- tia/Results/JUnit.h - test outcomes from JUnit XML reports ---------===//
//
// Reads the JUnit XML that ctest (--output-junit), GoogleTest
// (--gtest_output=xml), pytest (--junitxml), lit (--xunit-xml-output) and
// others write, turns each test case into a tia test id and an outcome, and
// stores them as one run. Parsing and naming are pure functions over text,
// so that every path through them can be tested and fuzzed without files or
// a database.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_RESULTS_JUNIT_H
#define TIA_RESULTS_JUNIT_H

#include "tia/Support/Model.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace results {

/// The test runner that wrote a report.
enum class Runner { Auto, Ctest, Gtest, Pytest, Catch2, Doctest, Boost, Lit };

/// Returns "auto", "ctest", "gtest", "pytest", "catch2", "doctest", "boost"
/// or "lit".
llvm::StringRef runnerName(Runner R);
/// Parses a name returned by runnerName; std::nullopt for anything else.
std::optional<Runner> parseRunner(llvm::StringRef Name);

/// One <testcase> as the report wrote it.
struct JUnitCase {
  /// The "classname" attribute: the suite for GoogleTest ("VectorTest",
  /// "Inst/Suite", "Typed/0"), the dotted module and classes for pytest
  /// ("tests.test_a.TestK"), the test name again for ctest, the suite and
  /// the test's folder for lit ("my-suite.sub_dir/inner").
  std::string ClassName;
  std::string Name;
  /// The "file" and "line" attributes (GoogleTest; pytest's xunit1 family)
  /// as written; empty and 0 when absent.
  std::string File;
  unsigned Line = 0;
  Outcome Result = Outcome::Passed;
  double Seconds = 0;
  /// The first line of the failure, error or skip message; may be empty.
  std::string Message;
  /// 1-based line of the <testcase> in the report.
  unsigned ReportLine = 0;
};

/// The test cases of one report.
struct JUnitReport {
  /// Which runner wrote it; Auto only when the report holds no test case.
  Runner Kind = Runner::Auto;
  std::vector<JUnitCase> Cases; ///< in document order
};

/// Parses \p Text, the contents of \p FileName. \p Hint Auto recognises the
/// runner: GoogleTest by its "result" attributes, ctest by its "status"
/// attributes, pytest by its suite named "pytest", lit by the shape of its
/// report (a timed <testsuites> of untimed suites, each case's class name
/// its suite's name and a '.'). A lit test that lit did not run ("Test not
/// selected") is left out. Errors:
///  - "malformed JUnit file FILE:LINE:COL: REASON" (not well-formed XML)
///  - "FILE is not a JUnit report: its root element is <X>, not
///     <testsuites> or <testsuite>"
///  - "FILE:LINE: REASON" for a <testcase> without a name or with a time
///    that is not a number of seconds
///  - "cannot tell which runner wrote FILE: pass --runner ctest, gtest or
///     pytest"
llvm::Expected<JUnitReport> parseJUnit(llvm::StringRef Text,
                                       llvm::StringRef FileName,
                                       Runner Hint = Runner::Auto);

/// How report names become tia test ids.
struct NamingOptions {
  /// The GoogleTest binary the report came from: "gtest:<binary>:<Suite.Name>";
  /// for a Catch2 or doctest report, the binary that wrote it
  /// ("catch2:<binary>:<name>", "doctest:<binary>:<name>").
  std::string GtestBinary;
  /// GtestBinary was passed (--binary), not taken from the file name: it
  /// names every case even when the store knows no test of it.
  bool GtestBinaryGiven = false;
  /// The directory pytest ran in, relative to the repository root ("" for
  /// the root): node ids are made repository-relative with it.
  std::string PytestDir;
  /// Tells whether a repository-relative path names a file; resolves which
  /// part of a pytest class name is the module. May be null.
  llvm::function_ref<bool(llvm::StringRef)> IsFile;
  /// The test ids the store already knows, sorted: a ctest name that is the
  /// "Suite.Name" of exactly one known GoogleTest id and no known ctest id
  /// maps onto it (gtest_discover_tests names ctest tests so).
  llvm::ArrayRef<std::string> KnownIds;
  /// The known lit tests each lit suite's ctest test runs, by its name
  /// (TestCommand::EnclosingCTest): that ctest test's result in a ctest
  /// report stands for theirs. May be null.
  const std::map<std::string, std::vector<std::string>> *LitTestsByCTest =
      nullptr;
};

/// The pytest node id of a JUnit test case: the longest dotted prefix of
/// \p ClassName that names a file ("a.b" -> "a/b.py", below \p Options'
/// PytestDir) is the module and the rest are classes; without such a file,
/// a known id with the same class name and name; else the leading
/// components up to the first one starting with "Test" are the module.
/// Returns the node id and whether it was guessed (no file or known id).
std::pair<std::string, bool> pytestNodeId(llvm::StringRef ClassName,
                                          llvm::StringRef Name,
                                          const NamingOptions &Options);

/// The results of \p Report under tia's test ids. A test that appears more
/// than once (a runner's retries) gets attempts 0, 1, ... in report order.
/// Guessed pytest node ids are named in \p Warnings. A GoogleTest case
/// whose binary was not passed and is not one the store knows is the known
/// test of the same "Suite.Name" when exactly one binary has it; the other
/// cases keep the file's name and one warning names the file and --binary.
/// Fails for a GoogleTest report without a binary (test_detail.xml) with a
/// case left ("cannot tell which binary wrote FILE (N of its M cases ...):
/// pass --binary NAME, or let GoogleTest name the file with
/// --gtest_output=xml:DIR/"). A lit case is the known lit test it stands
/// for, else its name is rebuilt (litResultIds). A ctest test that is a lit
/// suite's (Options.LitTestsByCTest) and no known ctest test of its own is
/// the results of its lit tests: its outcome each, an even share of its
/// time, and a warning when it failed (which lit test did is not known).
llvm::Expected<std::vector<TestResult>>
testResults(const JUnitReport &Report, llvm::StringRef FileName,
            const NamingOptions &Options, std::vector<std::string> &Warnings);

/// The GoogleTest binary a report file is named after: "geometry_test" of
/// "out/geometry_test.xml"; empty for GoogleTest's default
/// "test_detail.xml".
std::string binaryFromReportName(llvm::StringRef FileName);

struct ImportOptions {
  Runner Hint = Runner::Auto;
  /// The GoogleTest binary of every file; empty: binaryFromReportName.
  std::string GtestBinary;
  /// Absolute repository root.
  std::string ProjectRoot;
  /// The directory pytest ran in, relative to the root.
  std::string PytestDir;
  /// The commit the tests ran at; may be empty.
  std::string Commit;
  /// What records the run: "junit" for an import, "run" for `tia run`.
  std::string Source = "junit";
};

struct ImportSummary {
  int64_t RunId = 0;
  unsigned Results = 0;
  /// Results per outcome, indexed by Outcome.
  unsigned ByOutcome[6] = {};
  std::vector<std::string> Warnings;
};

/// Reads and names every file first, then stores them as one run in one
/// transaction: on any error nothing is written. GoogleTest source files
/// (repository-relative) become the test's source when the store has none.
llvm::Expected<ImportSummary> importJUnit(Store &S,
                                          const std::vector<std::string> &Files,
                                          const ImportOptions &Options);

/// "8 results (5 passed, 2 failed, 1 skipped)": the outcomes \p Sum
/// counts, in a fixed order, those with none left out.
std::string summaryText(const ImportSummary &Sum);

/// How `tia run` imports the report of its runner \p Kind (GoogleTest's
/// reading when it could not be told): the results of GoogleTest binary
/// \p Binary, recorded by "run" at \p Commit (empty: at no commit).
ImportOptions runImportOptions(Runner Kind, llvm::StringRef Binary,
                               llvm::StringRef Root, llvm::StringRef Commit);

/// Imports the report a runner wrote at \p Report into \p S as \p O say
/// (importJUnit). A report that cannot be read or stored
/// is a warning on \p Err naming \p Binary, and std::nullopt: the run's
/// outcome is the runner's, whatever tia makes of its report. Each warning
/// of the import goes to \p Err too.
std::optional<ImportSummary>
importRunnerReport(Store &S, llvm::StringRef Report, const ImportOptions &O,
                   llvm::StringRef Binary, llvm::raw_ostream &Err);

} // namespace results
} // namespace tia

#endif // TIA_RESULTS_JUNIT_H
