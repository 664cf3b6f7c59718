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

enum class Format { Lcov, LlvmCovJson };

struct ImportOptions {
  Format Fmt = Format::Lcov;
  /// Test the reports belong to; required for llvm-cov JSON, and for lcov
  /// it takes the place of the TN names (every section goes to this test).
  std::string TestId;
  /// Absolute repository root, to make report paths repository-relative.
  std::string ProjectRoot;
  /// Commit the coverage was collected at (may be empty).
  std::string Commit;
};

struct ImportSummary {
  unsigned Tests = 0;          ///< tests whose coverage was replaced
  unsigned Links = 0;          ///< test -> element links stored
  unsigned UnmatchedNames = 0; ///< hits that matched no indexed element
  std::vector<std::string> TestIds;
  /// Tests whose coverage matched no indexed element at all (paths of
  /// another checkout, an index of other sources): only fallbacks will
  /// select them.
  std::vector<std::string> Unlinked;
};

/// Reads every file in \p Files, maps the hits onto the elements of the
/// store's current index (by name, else by file and line), and replaces the
/// coverage of each test found, all in one transaction: on any error nothing
/// is written. Fails when the store was never indexed ("no index in the
/// database: run 'tia index' before importing coverage"), when a file cannot
/// be read or parsed, or when a report names no test and no TestId is given.
llvm::Expected<ImportSummary>
importCoverage(Store &S, const std::vector<std::string> &Files,
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
