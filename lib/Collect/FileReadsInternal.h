//===- FileReadsInternal.h - the files a traced test read -------*- C++ -*-===//
//
// Private to lib/Collect: what the tracers (the Python audit hook, the C++
// interposer) saw a test open and list, as absolute paths, turned into the
// repository files git tracks that the store keeps (Store::putFileReads).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_COLLECT_FILEREADSINTERNAL_H
#define TIA_LIB_COLLECT_FILEREADSINTERNAL_H

#include "tia/Store/Store.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace collect {

/// What the tracers saw of one test, paths absolute.
struct RawReads {
  std::set<std::string> Read, Listed;
  /// Some read may have been missed (a process that could not be traced,
  /// a crash, a failure cutting the test short).
  bool Incomplete = false;

  /// Adds a record {"read": [...], "listed": [...], "incomplete": bool}.
  void add(const llvm::json::Object &Record);
};

/// Where the repository is and what git tracks in it.
struct TrackedTree {
  std::string Root;               ///< absolute, as the tests see it
  std::string RealRoot;           ///< with symbolic links resolved
  std::vector<std::string> Files; ///< repository-relative, sorted
};

/// \p Raw as the store keeps it for test \p TestId at \p Commit: the files
/// git tracks (Python sources left out: the coverage and the import graph
/// follow them), and the directories inside the repository that hold a
/// tracked file ("." for the root); both sorted.
FileReads keepTracked(const std::string &TestId, const std::string &Commit,
                      const RawReads &Raw, const TrackedTree &Tree);

} // namespace collect
} // namespace tia

#endif // TIA_LIB_COLLECT_FILEREADSINTERNAL_H
