//===- tia/Report/Report.h - selection outputs ----------------------------===//
//
// Every output format of a selection, from the same Plan. Output is sorted
// or in run order, and never depends on the clock, the machine or the
// environment, so that golden tests and users' diffs mean something.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_REPORT_REPORT_H
#define TIA_REPORT_REPORT_H

#include "tia/Select/Policy.h"
#include "tia/Support/CaseFilters.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace report {

/// The formats of `select --format`, named as config::outputFormatNames().
enum class Format {
  Ids,         ///< one test id per line
  Json,        ///< the whole selection (docs/Formats.md)
  Ctest,       ///< ctest arguments: -R/-E and a regex
  CtestList,   ///< ctest test names, for --tests-from-file (CMake 3.29)
  Gtest,       ///< per binary: "BINARY --gtest_filter=..."
  Catch2,      ///< per binary: "BINARY 'spec'" (Catch2 test specs)
  Doctest,     ///< per binary: "BINARY '--test-case=...'" (doctest filters)
  Boost,       ///< per binary: "BINARY '--run_test=...'" (Boost.Test)
  Pytest,      ///< pytest arguments: node ids, or --deselect=ID
  PytestFiles, ///< pytest arguments: test files, or --ignore=FILE
  Markdown,    ///< the pull request comment
  Github,      ///< GitHub Actions step outputs, and annotations on stderr
  Sarif,       ///< SARIF 2.1.0: findings for code scanning and review bots
  CodeQuality, ///< GitLab Code Quality: findings for the merge request
  Lit,         ///< lit arguments: --filter REGEX, or --filter-out REGEX
};

/// How much a finding weighs, as SARIF names it (GitHub: notice, warning,
/// error; GitLab: info, minor, major).
enum class FindingLevel { Note, Warning, Error };

/// Parses "note", "warning" or "error".
std::optional<FindingLevel> parseFindingLevel(llvm::StringRef Name);

/// The level of each kind of finding (`report:` in .tia.yaml).
struct FindingLevels {
  FindingLevel Untested = FindingLevel::Warning;
  FindingLevel SelectsAll = FindingLevel::Note;
  FindingLevel Covered = FindingLevel::Note;
};

/// The levels `report:` of .tia.yaml gives the findings; a level it does
/// not name (the configuration checked them as it was read) keeps its
/// default.
FindingLevels findingLevels(const config::ReportConfig &C);

/// Parses a name of config::outputFormatNames().
std::optional<Format> parseFormat(llvm::StringRef Name);

/// The version of the JSON output's schema.
constexpr int JsonVersion = 2;

/// Options every format shares.
struct WriteOptions {
  /// The tests to skip instead of the tests to run (runner formats and
  /// ids): a test tia has never seen then still runs.
  bool Exclusion = false;
  /// The findings formats (sarif, codequality, github's annotations).
  FindingLevels Levels;
  /// Also report each changed function a selected test reaches, naming
  /// the tests (--covered-findings).
  bool CoveredFindings = false;
  /// Absolute repository root: SARIF's SRCROOT (paths are relative to it).
  std::string Root;
};

/// Writes \p P in format \p F to \p OS. Tests a runner format cannot name
/// (a pytest test in --format gtest, ...) are left out and counted in a
/// warning on \p Warn.
void write(const select::Plan &P, Format F, const WriteOptions &O,
           llvm::raw_ostream &OS, llvm::raw_ostream &Warn);

void writeIds(const select::Plan &P, const WriteOptions &O,
              llvm::raw_ostream &OS);

/// The selection as JSON (schema in docs/Formats.md, "version": 2).
void writeJson(const select::Plan &P, llvm::raw_ostream &OS);

/// Per selected test, in run order, every reason that selected it; then the
/// tests the budget cut, the changed elements no test covers and the
/// changes with no effect.
void writeExplain(const select::Plan &P, llvm::raw_ostream &OS);

/// The changes and reasons by kind, one per line, then the one-line
/// summary ("selected N of M tests ...", "selected all M tests because
/// CMakeLists.txt changed", "selected 0 of M tests because only docs
/// changed"). For stderr.
void writeSummary(const select::Plan &P, llvm::raw_ostream &OS);

/// The last line of writeSummary, without its newline.
std::string summaryLine(const select::Plan &P);

/// What cut a partial plan: "partial: the budget left out 2 more tests",
/// "partial, unsafe: --predict-top 10% left out 9 more tests".
std::string partialText(const select::Plan &P);

/// How the tests are ordered: "heuristic", "predicted by model #2",
/// "heuristic, not predicted: no model: run 'tia train'".
std::string orderText(const select::Plan &P);

/// For a predictive cut, what the model's validation says of it ("in
/// validation such a cut caught 93% of the failures"); empty otherwise.
std::string confidenceText(const select::Plan &P);

/// The pull request comment (docs/examples/report.md shows one).
void writeMarkdown(const select::Plan &P, llvm::raw_ostream &OS);

/// Appends the pull request comment (writeMarkdown) to the file
/// $GITHUB_STEP_SUMMARY names, the job summary of GitHub Actions; does
/// nothing when it is unset or empty. Fails, naming the file, when it
/// cannot be opened.
llvm::Error appendStepSummary(const select::Plan &P);

/// GitHub Actions step outputs ("name=value" lines, multi-line values in
/// the heredoc form), for `>> "$GITHUB_OUTPUT"`.
void writeGithubOutputs(const select::Plan &P, const WriteOptions &O,
                        llvm::raw_ostream &OS);

/// What `tia select` finds for reviewers, as SARIF 2.1.0 (one run, tool
/// tia with its rules; docs/Formats.md, "Findings"): each changed function
/// no test reaches, at its changed lines, with the shortest call paths from
/// public entry points as code flows; each fallback that selected every
/// test, at the file that caused it; with CoveredFindings each changed
/// function a selected test reaches, naming the tests. Paths are relative
/// to SRCROOT (O.Root); partialFingerprints stay the same while the
/// function (or the fallback's file and kind) does.
void writeSarif(const select::Plan &P, const WriteOptions &O,
                llvm::raw_ostream &OS);

/// The same findings as GitLab Code Quality JSON (description, check_name,
/// fingerprint, severity, location.path, location.lines.begin).
void writeCodeQuality(const select::Plan &P, const WriteOptions &O,
                      llvm::raw_ostream &OS);

/// The same findings as GitHub Actions workflow commands ("::warning
/// file=F,line=L,endLine=E,title=T::MESSAGE"), at most 10 of each level
/// (what GitHub shows per step), then a line saying how many were left out.
void writeGithubAnnotations(const select::Plan &P, const WriteOptions &O,
                            llvm::raw_ostream &OS);

/// tia's version ("0.1.0").
llvm::StringRef toolVersion();

/// One line for people about \p R of a test.
std::string describe(const select::Plan &P, const select::TestReason &R);

} // namespace report
} // namespace tia

#endif // TIA_REPORT_REPORT_H
