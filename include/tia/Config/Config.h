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
///  - a pattern with '/' matches from the repository root, the whole path
///    or a directory above it ("docs", "src/generated/", ".github/**").
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
};

/// `predict:` history-based failure prediction (tia train, tia rank).
struct PredictConfig {
  /// `docs:` files whose changes never cause a test failure (documentation):
  /// a commit changing only these, or only comments, is not used as a
  /// failure cause. Default: *.md, *.rst, docs/**, LICENSE*.
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

/// The default documentation patterns of predict.docs.
std::vector<std::string> defaultDocPatterns();

/// The whole configuration. Sections are added by the features they steer.
struct Config {
  /// The file it was read from; empty when there was none (defaults).
  std::string File;
  PathsConfig Paths;
  PythonConfig Python;
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
