//===- tia/Git/Repository.h - reading changes from git --------------------===//
//
// A thin, error-checked view of a git repository through libgit2: resolving
// revisions, diffing two commits or a commit and the work tree, and reading
// file contents at a commit.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_GIT_REPOSITORY_H
#define TIA_GIT_REPOSITORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace git {

/// One hunk of a diff, with the exact lines it removes and adds.
struct Hunk {
  unsigned OldStart = 0, OldCount = 0; ///< as in "@@ -OldStart,OldCount"
  unsigned NewStart = 0, NewCount = 0; ///< as in "+NewStart,NewCount @@"
  std::vector<unsigned> DeletedLines;  ///< old-side line numbers, ascending
  std::vector<unsigned> AddedLines;    ///< new-side line numbers, ascending
};

enum class ChangeStatus {
  Added,
  Deleted,
  Modified,
  Renamed,
  Copied,
  TypeChanged
};

/// Returns "added", "deleted", "modified", "renamed", "copied", "type-changed".
llvm::StringRef statusName(ChangeStatus S);

/// One changed file.
struct FileChange {
  ChangeStatus Status = ChangeStatus::Modified;
  std::string OldPath; ///< repository-relative; empty when added
  std::string NewPath; ///< repository-relative; empty when deleted
  std::string OldBlob; ///< 40-hex blob id; empty when added
  std::string NewBlob; ///< 40-hex blob id (computed for work-tree files); empty
                       ///< when deleted
  bool Binary = false;
  unsigned Similarity = 0; ///< for renames and copies, 0..100
  std::vector<Hunk>
      Hunks; ///< in file order; empty for binary files and pure renames
};

/// An open repository. Move-only.
class Repository {
public:
  /// Finds the repository containing \p Dir (like `git rev-parse`).
  /// Fails with "not a git repository: DIR (run tia inside a git work tree)"
  /// and for bare repositories.
  static llvm::Expected<Repository> discover(llvm::StringRef Dir);

  Repository(Repository &&);
  Repository &operator=(Repository &&);
  ~Repository();

  /// Absolute path of the work tree, without a trailing '/'.
  const std::string &workdir() const;

  /// Resolves \p Rev (sha, branch, tag, HEAD~2, ...) to a commit id.
  /// Fails with "unknown revision 'REV': ..." naming what to do.
  llvm::Expected<std::string> resolveCommit(llvm::StringRef Rev) const;

  /// The commit HEAD points to; std::nullopt on an unborn branch.
  llvm::Expected<std::optional<std::string>> headCommit() const;

  /// The merge base of two commit ids.
  llvm::Expected<std::string> mergeBase(llvm::StringRef A,
                                        llvm::StringRef B) const;

  /// Diffs the tree of commit \p Base against the tree of commit \p Head, or,
  /// when \p Head is std::nullopt, against the work tree (staged, unstaged and
  /// untracked files that are not ignored). Renames are detected (50%
  /// similarity). Zero context lines. Files sorted by (NewPath or OldPath).
  llvm::Expected<std::vector<FileChange>>
  diff(llvm::StringRef Base, std::optional<llvm::StringRef> Head) const;

  /// Contents of \p Path (repository-relative) at commit \p Commit.
  /// Fails with "PATH does not exist at COMMIT".
  llvm::Expected<std::string> readFile(llvm::StringRef Commit,
                                       llvm::StringRef Path) const;

  /// Contents of the blob \p BlobId (40 hex digits).
  llvm::Expected<std::string> readBlob(llvm::StringRef BlobId) const;

  /// The paths of the regular files in git's index (what `git ls-files`
  /// lists, without symbolic links and submodules), sorted.
  llvm::Expected<std::vector<std::string>> trackedFiles() const;

  /// True when the work tree or index differs from HEAD in a tracked file,
  /// or has an untracked file that is not ignored.
  llvm::Expected<bool> isDirty() const;

private:
  struct Impl;
  explicit Repository(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> P;
};

} // namespace git
} // namespace tia

#endif // TIA_GIT_REPOSITORY_H
