//===- tia/Config/Config.h - .tia.yaml ------------------------------------===//
//
// The project's configuration: `.tia.yaml` at the repository root, read with
// LLVM's YAML I/O. Every key is optional; a missing file means the defaults.
// An unknown key, a wrong type or a bad pattern is an error that names
// FILE:LINE:COLUMN. The keys are documented in docs/Config.md.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_CONFIG_CONFIG_H
#define TIA_CONFIG_CONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace config {

/// A list of repository-relative path patterns, gitignore-like:
///  - `*` and `?` do not cross '/', `**` does ("docs/**", "**/*.md");
///    `[abc]` and `[a-z]` match one character of the set;
///  - a pattern without '/' matches any one path component: the file name
///    or a directory name at any depth ("*.md", "conftest.py", "vendor");
///  - a pattern with '/' (a leading one included) matches from the
///    repository root, the whole path or a directory above it ("/docs",
///    "src/generated/", ".github/**", "/conftest.py": only the root's).
class PathPatterns {
public:
  PathPatterns() = default;
  /// Compiles \p Patterns; fails with "bad pattern 'P': REASON".
  static llvm::Expected<PathPatterns>
  compile(std::vector<std::string> Patterns);

  /// True when any pattern matches \p Path (repository-relative, '/').
  bool matches(llvm::StringRef Path) const;
  /// The first pattern matching \p Path; empty when none does.
  llvm::StringRef firstMatch(llvm::StringRef Path) const;
  const std::vector<std::string> &patterns() const { return Patterns; }
  bool empty() const { return Patterns.empty(); }

private:
  std::vector<std::string> Patterns;
};

/// `paths:` which files of the repository tia indexes.
struct PathsConfig {
  /// `include:`: only these (empty: everything).
  PathPatterns Include;
  /// `exclude:`: never these (vendored code, generated files).
  PathPatterns Exclude;
};

/// `python:` the Python front end.
struct PythonConfig {
  /// `docstrings:` whether a docstring change is a change of its element
  /// (doctest and __doc__ can observe docstrings). Default true.
  bool Docstrings = true;
  /// `max-file-size:` files larger than this many bytes are not parsed and
  /// count as incomplete. Default 4 MiB.
  uint64_t MaxFileSize = 4 << 20;
  /// `interpreter:` the Python that runs the tests (`tia collect
  /// --pytest`); empty: the first of `python3` on PATH and
  /// /usr/bin/python3 that has pytest and pytest-cov.
  std::string Interpreter;
  /// `critical-functions:` how many names static selection follows only
  /// with runtime evidence (the names whose definitions expand the most).
  /// Default 500; 0 turns critical pruning off.
  unsigned CriticalFunctions = 500;
  /// `registry-decorators:` keywords of decorators that register what
  /// they decorate (matched case-insensitively against each part of a
  /// decorator's dotted name). Default register, route, router, hook.
  std::vector<std::string> RegistryDecorators{"register", "route", "router",
                                              "hook"};
};

/// `cpp:` the C++ reference graph.
struct CppConfig {
  /// `public-headers:` the headers whose functions are the project's public
  /// entry points (untested changes, `tia context`). Default: every header
  /// under a directory named `include`.
  PathPatterns PublicHeaders;
};

/// The build, environment and CI files whose change selects every test
/// unless `select.default_triggers` is false (docs/Config.md lists them).
const std::vector<std::string> &defaultTriggers();

/// The files that never affect a test unless `select.default_ignore` is
/// false: "*.md", "*.rst", "docs/**", "LICENSE*".
const std::vector<std::string> &defaultIgnored();

/// `select:` how a change becomes tests.
struct SelectConfig {
  /// `base:` the --base of select, explain and run when none is given;
  /// empty: none.
  std::string Base;
  /// Paths whose change selects every test: `triggers:` followed by
  /// defaultTriggers() (unless `default_triggers: false`).
  PathPatterns Triggers;
  /// Paths whose change never affects a test: `ignore:` followed by
  /// defaultIgnored() (unless `default_ignore: false`). A path that is
  /// also a trigger is a trigger.
  PathPatterns Ignore;
  /// `max_coverage_age:` coverage collected more than this many commits
  /// before the base is stale and selects every test; 0: no limit.
  unsigned MaxCoverageAge = 100;
  /// `max_tests:` the --max-tests of select and run; 0: no limit.
  unsigned MaxTests = 0;
  /// `time_budget:` the --time-budget of select and run, in seconds; 0: no
  /// limit.
  double TimeBudget = 0;
  /// `full_suite_marker:` a head commit message containing it selects every
  /// test; empty: never.
  std::string FullSuiteMarker = "[full-suite]";
  /// `unread_files_select_all:` a changed file that is not source code and
  /// that no test read when `tia collect` traced it selects every test;
  /// false: only the tests whose reads are not known.
  bool UnreadFilesSelectAll = true;
};

/// The names `output.format` and `select --format` accept, in --help order.
const std::vector<std::string> &outputFormatNames();

/// `output:` how select prints its result when the command line does not
/// say.
struct OutputConfig {
  /// `format:` one of outputFormatNames().
  std::string Format = "ids";
  /// `exclusion:` print the tests to skip instead of those to run.
  bool Exclusion = false;
};

/// `report:` how much each kind of finding of the sarif, codequality and
/// github formats weighs: "note", "warning" or "error".
struct ReportConfig {
  /// `untested:` a changed function no test reaches.
  std::string Untested = "warning";
  /// `selects-all:` a change that made tia run every test.
  std::string SelectsAll = "note";
  /// `covered:` a changed function selected tests reach (--covered-findings).
  std::string Covered = "note";
};

/// `predict:` history-based failure prediction (tia train, tia rank).
struct PredictConfig {
  /// The files whose changes never cause a test failure: select.ignore
  /// (with its defaults *.md, *.rst, docs/**, LICENSE*) followed by
  /// `docs:`. A commit changing only these, or only comments, is not used
  /// as a failure cause.
  PathPatterns Docs;
  /// `flaky-window-days:` a test is flaky when its outcome flipped in the
  /// runs of this many days before the newest run. Default 56.
  unsigned FlakyWindowDays = 56;
  /// `max-files:` the most frequently changed files that get a slot of
  /// their own in a commit's bag of files. Default 1000.
  unsigned MaxFiles = 1000;
  /// `validation-percent:` the newest share of the tested commits that
  /// chooses the hyperparameters. Default 25.
  unsigned ValidationPercent = 25;
};

/// The whole configuration. Sections are added by the features they steer.
struct Config {
  Config();
  /// The file it was read from; empty when there was none (defaults).
  std::string File;
  PathsConfig Paths;
  PythonConfig Python;
  CppConfig Cpp;
  SelectConfig Select;
  OutputConfig Output;
  ReportConfig Report;
  PredictConfig Predict;

  /// True when \p Path (repository-relative) passes paths.include and
  /// paths.exclude.
  bool isIncluded(llvm::StringRef Path) const;
};

/// True when \p Pattern (the glob syntax of PathPatterns) matches all of
/// \p Path. Exposed for tests.
bool globMatches(llvm::StringRef Pattern, llvm::StringRef Path);

/// Parses \p Text as the contents of \p FileName. Errors:
/// "FILE:LINE:COL: MESSAGE (see docs/Config.md)".
llvm::Expected<Config> parseConfig(llvm::StringRef Text,
                                   llvm::StringRef FileName);

/// Reads ROOT/.tia.yaml; the defaults when there is none. Fails when the
/// file exists but cannot be read or parsed.
llvm::Expected<Config> loadConfig(llvm::StringRef Root);

/// The configuration file's name at the repository root.
constexpr llvm::StringLiteral ConfigFileName = ".tia.yaml";

} // namespace config
} // namespace tia

#endif // TIA_CONFIG_CONFIG_H
