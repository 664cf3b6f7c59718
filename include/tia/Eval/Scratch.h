//===- Scratch.h - the scratch clone tia eval works in ----------*- C++ -*-===//
//
// `tia eval` works in a clone of the repository (git clone --shared into a
// temporary directory, with a database of its own), so the user's work tree
// and database are never touched. The clone is removed when it goes, on an
// error, and on SIGINT or SIGTERM (the build or test command running then is
// killed first, whole process group).
//
// A kept clone (--scratch DIR) lives in a folder the user names and stays:
// the next run in it builds incrementally and reuses its database, so a
// replay of hours can stop and go on.
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
  /// The clone of \p RepoDir kept in \p Dir: made there when \p Dir is
  /// missing or empty, else reused as an earlier run left it. An error when
  /// \p Dir holds anything else, a clone of another repository, or another
  /// tia eval's clone that is still at work.
  static llvm::Expected<std::unique_ptr<ScratchClone>>
  keep(llvm::StringRef RepoDir, llvm::StringRef Dir);
  ~ScratchClone();

  std::string Dir;  ///< the temporary directory, or the kept one
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
  ScratchClone(std::string Dir, bool Kept);
  llvm::Error findGit();
  llvm::Error cloneFrom(llvm::StringRef RepoDir);
  llvm::Error holdLock();
  bool Kept;
  int LockFd = -1;
  std::string GitPath;
  std::optional<std::string> OldTmpDir;
};

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_SCRATCH_H
