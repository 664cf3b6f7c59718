//===- tia/Git/History.h - commits with their changed files ---------------===//
//
// The commit history that history-based failure prediction learns from: per
// commit its time, author and parents, and per changed file the kind of
// change and the number of lines added and deleted (git's numstat).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_GIT_HISTORY_H
#define TIA_GIT_HISTORY_H

#include "tia/Git/Repository.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace git {

/// One changed file of a commit, without its lines.
struct FileStat {
  ChangeStatus Status = ChangeStatus::Modified;
  std::string OldPath; ///< empty when added
  std::string NewPath; ///< empty when deleted
  std::string OldBlob; ///< empty when added
  std::string NewBlob; ///< empty when deleted
  unsigned Added = 0;
  unsigned Deleted = 0;
  bool Binary = false;

  /// The path the file has after the change (the old one when deleted).
  const std::string &path() const {
    return NewPath.empty() ? OldPath : NewPath;
  }
};

/// One commit and what it changed against its first parent (against the
/// empty tree for a root commit).
struct CommitInfo {
  std::string Id;
  std::vector<std::string> Parents;
  std::string AuthorEmail;
  int64_t Time = 0; ///< committer time, seconds since the epoch
  std::string Summary;
  std::vector<FileStat> Files; ///< sorted by path()
};

/// The first-parent history of \p Head, oldest first: at most \p MaxCount
/// commits (0: no limit), stopping at the first commit older than \p Since
/// (seconds since the epoch; 0: none). Renames are detected (50%
/// similarity). Fails for an unknown revision.
llvm::Expected<std::vector<CommitInfo>>
firstParentHistory(const Repository &Repo, llvm::StringRef Head,
                   int64_t Since = 0, unsigned MaxCount = 0);

/// The commits of \p From..\p To, as `git rev-list --reverse --topo-order
/// From..To` lists them (with \p FirstParent, `--first-parent`): reachable
/// from \p To but not from \p From, parents before children. Renames are
/// detected as in firstParentHistory. Fails for an unknown revision; an
/// empty range gives no commits.
llvm::Expected<std::vector<CommitInfo>> commitRange(const Repository &Repo,
                                                    llvm::StringRef From,
                                                    llvm::StringRef To,
                                                    bool FirstParent);

/// Splits the range "A..B" into A and B; std::nullopt when \p Range is
/// no such range: a side is empty, or it has three dots (a symmetric
/// difference, which commitRange does not take).
std::optional<std::pair<std::string, std::string>>
splitRange(llvm::StringRef Range);

/// Counts the lines \p Changes adds and deletes (from their hunks) into
/// FileStats; for a change read with Repository::diff.
std::vector<FileStat> fileStats(const std::vector<FileChange> &Changes);

/// The committer time of commit \p Rev.
llvm::Expected<int64_t> commitTime(const Repository &Repo, llvm::StringRef Rev);

} // namespace git
} // namespace tia

#endif // TIA_GIT_HISTORY_H
