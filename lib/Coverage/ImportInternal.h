//===- ImportInternal.h - what the coverage importers share -----*- C++ -*-===//

#ifndef TIA_LIB_COVERAGE_IMPORTINTERNAL_H
#define TIA_LIB_COVERAGE_IMPORTINTERNAL_H

#include "tia/Coverage/Coverage.h"
#include "tia/Support/Model.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace coverage {

/// Replaces, in one transaction, the coverage of each test of \p Keys
/// (test id -> element keys) collected at \p Commit, and counts it in
/// \p Summary (tests, links, unlinked tests).
llvm::Error storeCoverage(Store &S,
                          const std::map<std::string, std::set<std::string>> &Keys,
                          llvm::StringRef Commit, ImportSummary &Summary);

/// Adds to \p Keys the elements each test's function hits in \p Hits name
/// (only for the tests \p Keys already holds: those that ran), matched by
/// name, else by file and line, as importReports does. Returns the number
/// of links added.
llvm::Expected<unsigned>
addFunctionHits(Store &S, llvm::StringRef Root,
                const std::map<std::string, std::vector<FunctionHit>> &Hits,
                std::map<std::string, std::set<std::string>> &Keys);

/// The files of the store's latest index revision, with their indexes read
/// on first use.
class IndexedFiles {
public:
  IndexedFiles(Store &S, llvm::StringRef Root) : S(S), Root(Root.str()) {}

  /// Loads the file list. Fails when the store was never indexed ("no index
  /// in the database: run 'tia index' before importing coverage").
  llvm::Error load();

  /// The repository-relative path a coverage report's \p File names: an
  /// absolute path below the root, an indexed relative path, or the one
  /// indexed file a path relative to another directory can name. Empty
  /// when outside the project or ambiguous.
  std::string relative(llvm::StringRef File) const;

  /// The index of repository-relative \p Rel; null when not indexed.
  llvm::Expected<const FileIndex *> fileIndex(llvm::StringRef Rel);

  /// Path -> content hash of every indexed file.
  const std::map<std::string, std::string, std::less<>> &current() const {
    return Current;
  }

private:
  Store &S;
  std::string Root;
  std::map<std::string, std::string, std::less<>> Current;
  std::map<std::string, std::optional<FileIndex>, std::less<>> Files;
};

} // namespace coverage
} // namespace tia

#endif // TIA_LIB_COVERAGE_IMPORTINTERNAL_H
