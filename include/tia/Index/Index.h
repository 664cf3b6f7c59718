//===- Index.h - indexing a project into the store --------------*- C++ -*-===//
//
// What `tia index` does once the command line is resolved: the Python
// files parsed with the embedded Python (those whose version is stored with
// the same settings skipped), the translation units whose command,
// compiler and files changed parsed in parallel with Clang (the others
// skipped), and everything stored in one transaction as a new revision of
// the index, with the critical names of static selection when a Python
// file changed.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_INDEX_INDEX_H
#define TIA_INDEX_INDEX_H

#include "tia/Cpp/FrontEnd.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Select/Static.h"
#include "tia/Store/Store.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace index {

/// What indexing the repository's Python files produced.
struct PythonIndexResult {
  /// Versions parsed now, to be stored.
  std::vector<FileIndex> Parsed;
  /// Every Python file version of this revision (parsed or unchanged).
  std::vector<FileVersionRef> Files;
  unsigned Unchanged = 0;
  unsigned Elements = 0;
  unsigned Tests = 0;
  /// "PATH: PROBLEM" of the files that did not parse.
  std::vector<std::string> Incomplete;
};

/// Indexes the Python files \p Files (repository-relative, under \p Root)
/// with \p Options; \p Tracked (every file git tracks) tells packages from
/// plain folders for module names. Versions stored with the same settings
/// are not parsed again. Nothing is written to \p S.
llvm::Expected<PythonIndexResult> indexPythonFiles(
    Store &S, const std::string &Root, const std::vector<std::string> &Files,
    const std::vector<std::string> &Tracked,
    const python::FrontEndOptions &Options, bool Quiet, llvm::raw_ostream &Err);

/// One index run, resolved from the command line.
struct IndexRequest {
  std::string Root;     ///< the repository root, absolute
  std::string BuildDir; ///< holds compile_commands.json; empty: none
  /// The translation units to index (of the project, this share).
  std::vector<CompileCommand> Units;
  /// Units holds every translation unit of the compilation database: a
  /// file none of them reads is then not part of the build (Safety.md).
  bool WholeDatabase = false;
  /// Units holds this share's translation units of a sharded index of the
  /// whole compilation database: the merge of every share holds it whole.
  bool ShareOfWholeDatabase = false;
  /// Only some paths were asked for: the files of the latest revision
  /// outside them stay in the new one, and no unit is dropped.
  bool Narrowed = false;
  cpp::FrontEndOptions FrontEnd;
  /// The Python files to index (repository-relative), git's tracked
  /// files, and the settings.
  std::vector<std::string> PythonFiles;
  std::vector<std::string> Tracked;
  python::FrontEndOptions Python;
  /// The reading of pytest's configuration files made for Python, (key,
  /// answer), to remember for the commands after (PytestSettingsMemo);
  /// none when pytest's settings were not read.
  std::optional<std::pair<std::string, std::string>> PytestReading;
  select::StaticOptions Static;
  std::string Commit; ///< HEAD; empty: none
  bool Dirty = false; ///< the work tree differs from HEAD
  /// --shard: what this share is (Store::putShardRecord).
  std::optional<ShardRecord> Shard;
  unsigned Jobs = 0; ///< units parsed at once; 0: one per core
  bool Quiet = false;
};

struct IndexSummary {
  unsigned Units = 0;     ///< translation units indexed (parsed or kept)
  unsigned Parsed = 0;    ///< parsed now
  unsigned Unchanged = 0; ///< skipped: command and files unchanged
  unsigned Unreadable = 0, WithErrors = 0;
  unsigned Elements = 0, FilesParsed = 0; ///< of the units parsed now
  PythonIndexResult Python;
  size_t CriticalNames = 0;
};

/// Indexes \p R into \p S: progress and a warning per unit that could not
/// be read or did not parse cleanly go to \p Err. Stores nothing when it
/// fails.
llvm::Expected<IndexSummary> indexProject(Store &S, const IndexRequest &R,
                                          llvm::raw_ostream &Err);

/// "indexed 12 translation units (3 parsed, 9 unchanged) in 1.2s: ...".
std::string summaryLine(const IndexSummary &Sum, bool HasCpp, double Seconds);

} // namespace index
} // namespace tia

#endif // TIA_INDEX_INDEX_H
