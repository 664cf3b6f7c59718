//===- Scratch.h - the scratch clone tia eval works in ----------*- C++ -*-===//
//
// `tia eval` works in a clone of the repository (git clone --shared into a
// temporary directory, with a database of its own), so the user's work tree
// and database are never touched. The clone is removed when it goes, on an
// error, and on SIGINT or SIGTERM (the build or test command running then is
// killed first, whole process group).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_SCRATCH_H
#define TIA_EVAL_SCRATCH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace eval {

class ScratchClone {
public:
  /// Clones \p RepoDir (sharing its objects) into a new temporary
  /// directory, without a checkout. The steps' own temporary files go into
  /// it too (TMPDIR), and leave with it.
  static llvm::Expected<std::unique_ptr<ScratchClone>>
  create(llvm::StringRef RepoDir);
  ~ScratchClone();

  std::string Dir;  ///< the temporary directory
  std::string Tree; ///< DIR/tree: the clone's work tree
  std::string Db;   ///< DIR/tia.db

  /// Runs git with \p Args in \p Cwd (the tree by default).
  llvm::Error git(std::vector<std::string> Args, llvm::StringRef Cwd = "");
  /// Checks \p Commit out, and removes the Python bytecode caches a run at
  /// another commit left.
  llvm::Error checkout(llvm::StringRef Commit);
  /// Runs \p Cmd with /bin/sh at the tree's root, in a process group of
  /// its own; returns its exit code (-1 when it could not start or was
  /// killed) and leaves its output in DIR/<Name>.log.
  int shell(llvm::StringRef Cmd, llvm::StringRef Name);
  /// The last line of DIR/<Name>.log, for a one-line error.
  std::string logLine(llvm::StringRef Name) const;

private:
  explicit ScratchClone(std::string Dir);
  std::string GitPath;
  std::optional<std::string> OldTmpDir;
};

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_SCRATCH_H
