//===- GitInternal.h - what lib/Git's files share ---------------*- C++ -*-===//
//
// Private to lib/Git: owning pointers for libgit2 objects, turning libgit2
// return codes into llvm::Error, and the conversions Repository.cpp and
// History.cpp both need.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_GIT_GITINTERNAL_H
#define TIA_LIB_GIT_GITINTERNAL_H

#include "tia/Git/Repository.h"
#include <git2.h>
#include <memory>

namespace tia {
namespace git {
namespace detail {

/// Frees a libgit2 object with its own free function.
template <typename T, void (*Free)(T *)> struct Deleter {
  void operator()(T *Ptr) const { Free(Ptr); }
};

template <typename T, void (*Free)(T *)>
using Owned = std::unique_ptr<T, Deleter<T, Free>>;

using RepoPtr = Owned<git_repository, git_repository_free>;
using ObjectPtr = Owned<git_object, git_object_free>;
using CommitPtr = Owned<git_commit, git_commit_free>;
using TreePtr = Owned<git_tree, git_tree_free>;
using TreeEntryPtr = Owned<git_tree_entry, git_tree_entry_free>;
using BlobPtr = Owned<git_blob, git_blob_free>;
using DiffPtr = Owned<git_diff, git_diff_free>;
using PatchPtr = Owned<git_patch, git_patch_free>;
using StatusListPtr = Owned<git_status_list, git_status_list_free>;

/// Initialises libgit2 once per process (it stays initialised).
void initLibgit2();

/// Does nothing; calling it links LocalOnly.cpp, whose definitions keep
/// git_libgit2_init from setting up the network transports.
void linkLocalOnly();

/// Turns a libgit2 return code into an error "WHAT: libgit2's message".
llvm::Error check(int Rc, const llvm::Twine &What);

/// The 40 hex digits of \p Id.
std::string oidHex(const git_oid &Id);

ChangeStatus toStatus(git_delta_t D);

/// Resolves \p Rev in \p Repo and peels it to a commit. Fails with
/// "unknown revision 'REV': ...", "ambiguous revision 'REV': ..." or
/// "revision 'REV' does not name a commit: ...".
llvm::Expected<CommitPtr> lookupCommit(git_repository *Repo,
                                       llvm::StringRef Rev);

} // namespace detail
} // namespace git
} // namespace tia

#endif // TIA_LIB_GIT_GITINTERNAL_H
