//===- tia/Coverage/Coverage.h - per-test coverage reports ----------------===//
//
// Readers for coverage reports (lcov tracefiles, `llvm-cov export` JSON) and
// the import that maps what they report onto indexed elements.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COVERAGE_COVERAGE_H
#define TIA_COVERAGE_COVERAGE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace coverage {

/// A function the report says ran (count > 0), as the report names it.
struct FunctionHit {
  std::string Name;  ///< mangled name, file prefix of local symbols removed
  std::string File;  ///< as written in the report (absolute or relative)
  unsigned Line = 0; ///< first line, 0 when unknown
  /// For local symbols, the file llvm-cov put before the name ("src/a.cpp"
  /// of "src/a.cpp:_ZL6helperv"), as the compile command spelled it.
  std::string LocalPrefix;
};

/// A line the report says ran.
struct LineHit {
  std::string File;
  unsigned Line = 0;
};

/// The coverage of one test.
struct TestCoverage {
  std::string TestId; ///< empty when the report does not name the test
  std::vector<FunctionHit> Functions;
  std::vector<LineHit> Lines;
};

/// Parses an lcov tracefile: one TestCoverage per distinct `TN:` name, in
/// order of first appearance. Understands TN, SF, FN (lcov 1 and 2 forms),
/// FNDA, DA, end_of_record and ignores the summary and branch records.
/// Fails with "malformed lcov FILE:LINE: REASON".
llvm::Expected<std::vector<TestCoverage>> parseLcov(llvm::StringRef Text,
                                                    llvm::StringRef FileName);

/// Parses `llvm-cov export -format=text` JSON (one test). Functions with an
/// execution count above zero are hits; the "file:" prefix llvm-cov puts on
/// local symbols is removed. Fails with "malformed llvm-cov JSON FILE: REASON".
llvm::Expected<TestCoverage> parseLlvmCovJson(llvm::StringRef Text,
                                              llvm::StringRef FileName);

enum class Format { Lcov, LlvmCovJson, CoveragePy };

/// Decodes coverage.py's numbits (bit N of byte B set: line B * 8 + N ran)
/// into ascending line numbers.
std::vector<unsigned> numbitsToLines(llvm::StringRef Numbits);

/// The pytest node id a coverage.py dynamic context names: pytest-cov's
/// "tests/test_a.py::test_x|run" gives "tests/test_a.py::test_x"; an empty
/// context (code run outside tests) and one without "::" give "".
std::string nodeIdOfContext(llvm::StringRef Context);

struct ImportOptions {
  Format Fmt = Format::Lcov;
  /// Test the reports belong to; required for llvm-cov JSON, and for lcov
  /// it takes the place of the TN names (every section goes to this test).
  std::string TestId;
  /// Absolute repository root, to make report paths repository-relative.
  std::string ProjectRoot;
  /// Commit the coverage was collected at (may be empty).
  std::string Commit;
  /// coverage.py only: source locations (repository-relative file, line)
  /// each test depends on besides what its context recorded, such as the
  /// definitions of the fixtures it uses (a module- or session-scoped
  /// fixture runs in the context of the first test that needs it only).
  std::map<std::string, std::vector<std::pair<std::string, unsigned>>>
      ExtraLocations;
  /// coverage.py only: tests that did not pass in the run the data comes
  /// from; their coverage may stop half-way, so it is not stored and each
  /// keeps the coverage it had (docs/Safety.md).
  std::set<std::string> Untrusted;
  /// coverage.py only: the C and C++ functions each test ran in the build's
  /// extension modules and programs (clang profiles or gcov data read by
  /// `tia collect --pytest`), matched as importReports matches them.
  std::map<std::string, std::vector<FunctionHit>> NativeHits;
};

struct ImportSummary {
  unsigned Tests = 0;          ///< tests whose coverage was replaced
  unsigned Links = 0;          ///< test -> element links stored
  unsigned UnmatchedNames = 0; ///< hits that matched no indexed element
  std::vector<std::string> TestIds;
  /// Tests whose coverage matched no indexed element at all (paths of
  /// another checkout, an index of other sources): only fallbacks will
  /// select them. A test whose report holds nothing (it ran no instrumented
  /// code) is not among them.
  std::vector<std::string> Unlinked;
  /// coverage.py: dynamic contexts that name no known test.
  std::vector<std::string> UnknownContexts;
  /// coverage.py: links made by the import-time rule.
  unsigned ImportTimeLinks = 0;
  /// coverage.py: links to C and C++ elements (ImportOptions::NativeHits).
  unsigned NativeLinks = 0;
};

/// Fails, with what to do, when \p S holds one share of a sharded index
/// (Store::indexShare): coverage mapped onto it would keep no link to the
/// code of the other shares. Every import checks it; a collect checks it
/// before it runs a test.
llvm::Error requireWholeIndex(Store &S);

/// Reads every file in \p Files, maps the hits onto the elements of the
/// store's current index (by name, else by file and line), and replaces the
/// coverage of each test found, all in one transaction: on any error nothing
/// is written. For coverage.py data, see importCoveragePy. Fails when the store
/// was never indexed ("no index in the database: run 'tia index' before
/// importing coverage"), when a file cannot be read or parsed, or when a report
/// names no test and no TestId is given.
llvm::Expected<ImportSummary>
importCoverage(Store &S, const std::vector<std::string> &Files,
               const ImportOptions &Options);

/// Imports coverage.py data files recorded with dynamic contexts (pytest-cov
/// `--cov-context=test`, or `[run] dynamic_context = test_function`). Each
/// test context's lines go to the innermost element holding them (the
/// decorator and signature lines of a function go to the code that defines
/// it). Lines run outside any test, and the module, class and variable
/// elements any test ran, are import-time code: they go to every test whose
/// file imports their module, directly or through other modules (the
/// import graph of the index, with each test's conftest.py files and
/// packages). All in one transaction. Fails, writing nothing, for a file
/// that is not coverage.py data, one recorded without contexts ("... was
/// recorded without test contexts: run pytest --cov --cov-context=test, or
/// set [run] dynamic_context = test_function"), or a store never indexed.
llvm::Expected<ImportSummary>
importCoveragePy(Store &S, const std::vector<std::string> &Files,
                 const ImportOptions &Options);

/// Maps \p Reports (each naming its test, unless Options.TestId is given)
/// onto the current index and replaces the coverage of each test they name,
/// in one transaction (which joins the caller's, if any). Several reports of
/// one test are united. Fails like importCoverage, writing nothing.
llvm::Expected<ImportSummary>
importReports(Store &S, const std::vector<TestCoverage> &Reports,
              const ImportOptions &Options);

} // namespace coverage
} // namespace tia

#endif // TIA_COVERAGE_COVERAGE_H
