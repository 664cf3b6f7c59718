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
#include "tia/Support/Paths.h"
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
  /// Directories the test's runner (lit) listed to find its tests ("L"
  /// lines), and no process listed otherwise.
  std::set<std::string> ListedByRunner;
  /// The programs the test's processes ran ("x PATH" lines: an exec, or a
  /// process that loaded the tracer), absolute.
  std::set<std::string> Executed;
  /// Some read may have been missed (a process that could not be traced,
  /// a crash, a failure cutting the test short, a program handed to the
  /// tracer of a tia collect the test ran: an "i" line).
  bool Incomplete = false;
  /// The processes that announced themselves ("p PID") and those that
  /// said they ended normally ("e PID").
  std::set<std::string> Started, Ended;

  /// True when every process that announced itself ended normally: none
  /// was killed, crashed or left by _exit, so none can have run code of
  /// the build without writing its profile.
  bool allEnded() const;

  /// Adds a record {"read": [...], "listed": [...], "incomplete": bool}.
  void add(const llvm::json::Object &Record);

  /// Adds what runtime/FileReadTracer.c wrote to a reads file (lines
  /// "r PATH", "l PATH", "w PATH", "x PATH", "p PID", in the order they
  /// happened): a
  /// path written before it was read is not read. Returns the number of
  /// processes that announced themselves ("p" lines).
  unsigned addTrace(llvm::StringRef Text);
};

/// Where the repository is and what git tracks in it.
struct TrackedTree {
  FolderPaths Root;               ///< as the tests see it, and resolved
  std::vector<std::string> Files; ///< repository-relative, sorted
};

/// The tree at \p Root whose tracked files are \p Files (sorted).
TrackedTree trackedTree(const std::string &Root,
                        std::vector<std::string> Files);

/// \p Raw as the store keeps it for test \p TestId at \p Commit: the files
/// git tracks, and the directories inside the repository that hold a
/// tracked file ("." for the root); both sorted. A pytest test's Python
/// sources and bytecode caches are left out (its coverage and the import
/// graph follow them); any other test keeps them, a cache as a read of its
/// source: a script a ctest or lit test runs, or lit's configuration, runs
/// with no coverage, so its reads are what selects the test when it
/// changes.
FileReads keepTracked(const std::string &TestId, const std::string &Commit,
                      const RawReads &Raw, const TrackedTree &Tree);

/// Writes the file read tracer (runtime/FileReadTracer.c, carried inside
/// tia) to \p Dir; returns its path.
llvm::Expected<std::string> writeFileReadTracer(llvm::StringRef Dir);

/// The variables that preload \p Tracer into a test whose own variables
/// are \p TestEnvironment (its LD_PRELOAD stays, after the tracer; its
/// ASAN_OPTIONS too, with the link order check off) and make it append its
/// reads to \p ReadsFile (empty: no reads file yet, for a process that
/// names it after it started, as tia's pytest fork server's children do).
std::vector<std::string>
tracerVariables(const std::string &Tracer, const std::string &ReadsFile,
                const std::vector<std::string> &TestEnvironment);

} // namespace collect
} // namespace tia

#endif // TIA_LIB_COLLECT_FILEREADSINTERNAL_H
