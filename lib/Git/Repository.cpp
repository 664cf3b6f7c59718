//===- Repository.cpp - reading changes from git --------------------------===//
//
// Every libgit2 call goes through check(), which turns its return code into an
// llvm::Error carrying libgit2's own message, and every libgit2 object lives
// in an Owned<> pointer that frees it.
//
//===----------------------------------------------------------------------===//

#include "tia/Git/Repository.h"
#include "GitInternal.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cstdlib>
#include <git2.h>
#include <mutex>
#include <unistd.h>

namespace tia {
namespace git {

using namespace detail;

namespace {

/// Owns the contents of a git_buf.
struct BufOwner {
  git_buf Buf = GIT_BUF_INIT;
  ~BufOwner() { git_buf_dispose(&Buf); }
};

/// Shortens a full commit id for messages; anything else is shown as given.
std::string shortRev(llvm::StringRef Rev) {
  if (Rev.size() == GIT_OID_HEXSZ && llvm::all_of(Rev, llvm::isHexDigit))
    return shortId(Rev);
  return Rev.str();
}

} // namespace

namespace detail {

void initLibgit2() {
  static std::once_flag Once;
  // libgit2 stays initialised for the life of the process, so there is no
  // matching git_libgit2_shutdown.
  std::call_once(Once, [] {
    linkLocalOnly();
    git_libgit2_init();
  });
}

/// libgit2's message for the last failure on this thread.
static std::string lastMessage(int Rc) {
  const git_error *E = git_error_last();
  if (!E || !E->message || !*E->message)
    return "libgit2 error " + std::to_string(Rc);
  llvm::StringRef Msg = llvm::StringRef(E->message).rtrim(" \t\r\n.");
  return Msg.str();
}

llvm::Error check(int Rc, const llvm::Twine &What) {
  if (Rc >= 0)
    return llvm::Error::success();
  return makeError(What + ": " + lastMessage(Rc));
}

std::string oidHex(const git_oid &Id) {
  char Hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(Hex, sizeof(Hex), &Id);
  return Hex;
}

ChangeStatus toStatus(git_delta_t D) {
  switch (D) {
  case GIT_DELTA_ADDED:
  case GIT_DELTA_UNTRACKED:
    return ChangeStatus::Added;
  case GIT_DELTA_DELETED:
    return ChangeStatus::Deleted;
  case GIT_DELTA_RENAMED:
    return ChangeStatus::Renamed;
  case GIT_DELTA_COPIED:
    return ChangeStatus::Copied;
  case GIT_DELTA_TYPECHANGE:
    return ChangeStatus::TypeChanged;
  default:
    // Modified, and conflicted entries, whose content changed in some way.
    return ChangeStatus::Modified;
  }
}

llvm::Expected<CommitPtr> lookupCommit(git_repository *Repo,
                                       llvm::StringRef Rev) {
  std::string RevStr = Rev.str();
  git_object *Raw = nullptr;
  int Rc = Rev.empty() ? GIT_ENOTFOUND
                       : git_revparse_single(&Raw, Repo, RevStr.c_str());
  ObjectPtr Obj(Raw);
  if (Rc == GIT_EAMBIGUOUS)
    return makeErrorf("ambiguous revision '{0}': use more hex digits or a "
                      "branch or tag name",
                      Rev);
  if (Rc < 0)
    return makeErrorf(
        "unknown revision '{0}': check the name with 'git rev-parse {0}'", Rev);
  git_object *Peeled = nullptr;
  if (git_object_peel(&Peeled, Obj.get(), GIT_OBJECT_COMMIT) < 0)
    return makeErrorf("revision '{0}' does not name a commit: check it with "
                      "'git cat-file -t {0}'",
                      Rev);
  return CommitPtr(reinterpret_cast<git_commit *>(Peeled));
}

} // namespace detail

llvm::StringRef statusName(ChangeStatus S) {
  switch (S) {
  case ChangeStatus::Added:
    return "added";
  case ChangeStatus::Deleted:
    return "deleted";
  case ChangeStatus::Modified:
    return "modified";
  case ChangeStatus::Renamed:
    return "renamed";
  case ChangeStatus::Copied:
    return "copied";
  case ChangeStatus::TypeChanged:
    return "type-changed";
  }
  llvm_unreachable("unknown change status");
}

struct Repository::Impl {
  RepoPtr Repo;
  std::string Workdir;

  /// Resolves \p Rev and peels it to a commit.
  llvm::Expected<CommitPtr> lookupCommit(llvm::StringRef Rev) const {
    return detail::lookupCommit(Repo.get(), Rev);
  }

  llvm::Expected<TreePtr> lookupTree(llvm::StringRef Rev) const {
    auto Commit = lookupCommit(Rev);
    if (!Commit)
      return Commit.takeError();
    git_tree *Raw = nullptr;
    int Rc = git_commit_tree(&Raw, Commit->get());
    TreePtr Tree(Raw);
    if (llvm::Error E = check(Rc, "cannot read the tree of " + shortRev(Rev)))
      return E;
    return Tree;
  }

  /// The blob id of the work-tree file \p Path as git would store it
  /// unfiltered.
  llvm::Expected<std::string> hashWorkFile(llvm::StringRef Path,
                                           uint16_t Mode) const {
    std::string Abs = Workdir + "/" + Path.str();
    std::string Content;
    if (Mode == GIT_FILEMODE_LINK) {
      // git stores a symbolic link as a blob holding its target.
      char Target[4096];
      ssize_t N = ::readlink(Abs.c_str(), Target, sizeof(Target));
      if (N < 0)
        return makeErrorf("cannot read the symbolic link {0}: check that it "
                          "still exists",
                          Path);
      Content.assign(Target, N);
    } else {
      auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      if (!Buf)
        return makeErrorf("cannot read {0}: {1}", Path,
                          Buf.getError().message());
      Content = (*Buf)->getBuffer().str();
    }
    git_oid Id;
    if (llvm::Error E = check(
            git_odb_hash(&Id, Content.data(), Content.size(), GIT_OBJECT_BLOB),
            "cannot hash " + Path))
      return E;
    return oidHex(Id);
  }

  /// Converts delta \p Index of \p Diff; \p WorkTree says its new side is the
  /// work tree.
  llvm::Expected<FileChange> change(git_diff *Diff, size_t Index,
                                    bool WorkTree) const {
    git_patch *RawPatch = nullptr;
    int Rc = git_patch_from_diff(&RawPatch, Diff, Index);
    PatchPtr Patch(RawPatch);
    const git_diff_delta *Delta = git_diff_get_delta(Diff, Index);
    if (llvm::Error E =
            check(Rc, llvm::Twine("cannot diff ") +
                          (Delta->new_file.path ? Delta->new_file.path
                                                : Delta->old_file.path)))
      return E;
    // Loading the content for the patch decides whether the file is binary.
    if (Patch)
      Delta = git_patch_get_delta(Patch.get());

    FileChange C;
    C.Status = toStatus(Delta->status);
    if (C.Status != ChangeStatus::Added) {
      C.OldPath = Delta->old_file.path;
      C.OldBlob = oidHex(Delta->old_file.id);
    }
    if (C.Status != ChangeStatus::Deleted) {
      C.NewPath = Delta->new_file.path;
      if (!WorkTree || (Delta->new_file.flags & GIT_DIFF_FLAG_VALID_ID)) {
        C.NewBlob = oidHex(Delta->new_file.id);
      } else {
        auto Id = hashWorkFile(C.NewPath, Delta->new_file.mode);
        if (!Id)
          return Id.takeError();
        C.NewBlob = std::move(*Id);
      }
    }
    C.Binary = Delta->flags & GIT_DIFF_FLAG_BINARY;
    for (const git_diff_file *F : {&Delta->old_file, &Delta->new_file}) {
      C.Symlink |= F->mode == GIT_FILEMODE_LINK;
      C.Submodule |= F->mode == GIT_FILEMODE_COMMIT;
    }
    if (C.Status == ChangeStatus::Renamed || C.Status == ChangeStatus::Copied)
      C.Similarity = Delta->similarity;
    if (C.Binary || !Patch)
      return C;

    const std::string &Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
    for (size_t H = 0, NH = git_patch_num_hunks(Patch.get()); H != NH; ++H) {
      const git_diff_hunk *GH = nullptr;
      size_t Lines = 0;
      if (llvm::Error E = check(git_patch_get_hunk(&GH, &Lines, Patch.get(), H),
                                "cannot read a hunk of " + Shown))
        return E;
      Hunk Out;
      Out.OldStart = GH->old_start;
      Out.OldCount = GH->old_lines;
      Out.NewStart = GH->new_start;
      Out.NewCount = GH->new_lines;
      for (size_t L = 0; L != Lines; ++L) {
        const git_diff_line *Line = nullptr;
        if (llvm::Error E =
                check(git_patch_get_line_in_hunk(&Line, Patch.get(), H, L),
                      "cannot read a line of " + Shown))
          return E;
        // The "\ No newline at end of file" markers ('=', '>', '<') only
        // annotate the line before them; they are not lines of the file.
        if (Line->origin == GIT_DIFF_LINE_DELETION)
          Out.DeletedLines.push_back(Line->old_lineno);
        else if (Line->origin == GIT_DIFF_LINE_ADDITION)
          Out.AddedLines.push_back(Line->new_lineno);
      }
      C.Hunks.push_back(std::move(Out));
    }
    return C;
  }
};

Repository::Repository(std::unique_ptr<Impl> I) : P(std::move(I)) {}
Repository::Repository(Repository &&) = default;
Repository &Repository::operator=(Repository &&) = default;
Repository::~Repository() = default;

llvm::Expected<Repository> Repository::discover(llvm::StringRef Dir) {
  initLibgit2();
  std::string DirStr = Dir.str();
  BufOwner Found;
  // Like git, stop below the directories GIT_CEILING_DIRECTORIES lists.
  const char *Ceiling = std::getenv("GIT_CEILING_DIRECTORIES");
  int Rc = git_repository_discover(&Found.Buf, DirStr.c_str(),
                                   /*across_fs=*/0,
                                   Ceiling && *Ceiling ? Ceiling : nullptr);
  if (Rc < 0)
    return makeErrorf(
        "not a git repository: {0} (run tia inside a git work tree)", Dir);

  git_repository *Raw = nullptr;
  Rc = git_repository_open(&Raw, Found.Buf.ptr);
  RepoPtr Repo(Raw);
  if (llvm::Error E = check(Rc, llvm::Twine("cannot open the git repository "
                                            "at ") +
                                    Found.Buf.ptr))
    return E;
  if (git_repository_is_bare(Repo.get()) || !git_repository_workdir(Repo.get()))
    return makeErrorf("{0} is in a bare git repository, which has no work "
                      "tree (run tia inside a git work tree)",
                      Dir);

  auto I = std::make_unique<Impl>();
  I->Workdir = llvm::StringRef(git_repository_workdir(Repo.get())).str();
  while (I->Workdir.size() > 1 && I->Workdir.back() == '/')
    I->Workdir.pop_back();
  I->Repo = std::move(Repo);
  return Repository(std::move(I));
}

const std::string &Repository::workdir() const { return P->Workdir; }

llvm::Expected<std::string>
Repository::resolveCommit(llvm::StringRef Rev) const {
  auto Commit = P->lookupCommit(Rev);
  if (!Commit)
    return Commit.takeError();
  return oidHex(*git_commit_id(Commit->get()));
}

llvm::Expected<std::optional<std::string>> Repository::headCommit() const {
  int Unborn = git_repository_head_unborn(P->Repo.get());
  if (llvm::Error E = check(Unborn, "cannot read HEAD"))
    return E;
  if (Unborn == 1)
    return std::nullopt;
  git_oid Id;
  if (llvm::Error E =
          check(git_reference_name_to_id(&Id, P->Repo.get(), "HEAD"),
                "cannot resolve HEAD"))
    return E;
  return oidHex(Id);
}

llvm::Expected<std::string> Repository::mergeBase(llvm::StringRef A,
                                                  llvm::StringRef B) const {
  auto CA = P->lookupCommit(A);
  if (!CA)
    return CA.takeError();
  auto CB = P->lookupCommit(B);
  if (!CB)
    return CB.takeError();
  git_oid Base;
  int Rc = git_merge_base(&Base, P->Repo.get(), git_commit_id(CA->get()),
                          git_commit_id(CB->get()));
  if (Rc == GIT_ENOTFOUND)
    return makeErrorf("{0} and {1} have no common ancestor: pass a base "
                      "revision that shares history with the head",
                      shortRev(A), shortRev(B));
  if (llvm::Error E = check(Rc, "cannot find the merge base of " + shortRev(A) +
                                    " and " + shortRev(B)))
    return E;
  return oidHex(Base);
}

llvm::Expected<bool> Repository::isAncestor(llvm::StringRef Ancestor,
                                            llvm::StringRef Descendant) const {
  auto A = P->lookupCommit(Ancestor);
  if (!A)
    return A.takeError();
  auto D = P->lookupCommit(Descendant);
  if (!D)
    return D.takeError();
  const git_oid *AId = git_commit_id(A->get());
  const git_oid *DId = git_commit_id(D->get());
  if (git_oid_equal(AId, DId))
    return true;
  int Rc = git_graph_descendant_of(P->Repo.get(), DId, AId);
  if (llvm::Error E =
          check(Rc, "cannot tell whether " + shortRev(Ancestor) +
                        " is an ancestor of " + shortRev(Descendant)))
    return E;
  return Rc == 1;
}

bool Repository::hasCommit(llvm::StringRef Rev) const {
  auto C = P->lookupCommit(Rev);
  if (!C) {
    llvm::consumeError(C.takeError()); // Absent is the answer, not a failure.
    return false;
  }
  return true;
}

llvm::Expected<std::string>
Repository::commitMessage(llvm::StringRef Rev) const {
  auto C = P->lookupCommit(Rev);
  if (!C)
    return C.takeError();
  const char *Message = git_commit_message(C->get());
  return std::string(Message ? Message : "");
}

llvm::Expected<int64_t> Repository::commitTime(llvm::StringRef Rev) const {
  auto C = P->lookupCommit(Rev);
  if (!C)
    return C.takeError();
  return static_cast<int64_t>(git_commit_time(C->get()));
}

llvm::Expected<unsigned> Repository::countCommits(llvm::StringRef From,
                                                  llvm::StringRef To) const {
  auto F = P->lookupCommit(From);
  if (!F)
    return F.takeError();
  auto T = P->lookupCommit(To);
  if (!T)
    return T.takeError();
  git_revwalk *Raw = nullptr;
  if (llvm::Error E = check(git_revwalk_new(&Raw, P->Repo.get()),
                            "cannot walk the history"))
    return E;
  Owned<git_revwalk, git_revwalk_free> Walk(Raw);
  if (llvm::Error E =
          check(git_revwalk_push(Walk.get(), git_commit_id(T->get())),
                "cannot walk the history of " + shortRev(To)))
    return E;
  if (llvm::Error E =
          check(git_revwalk_hide(Walk.get(), git_commit_id(F->get())),
                "cannot walk the history of " + shortRev(From)))
    return E;
  unsigned N = 0;
  git_oid Id;
  int Rc;
  while ((Rc = git_revwalk_next(&Id, Walk.get())) == 0)
    ++N;
  if (Rc != GIT_ITEROVER)
    if (llvm::Error E = check(Rc, "cannot walk the history of " + shortRev(To)))
      return E;
  return N;
}

llvm::Expected<std::vector<FileChange>>
Repository::diff(llvm::StringRef Base,
                 std::optional<llvm::StringRef> Head) const {
  auto BaseTree = P->lookupTree(Base);
  if (!BaseTree)
    return BaseTree.takeError();

  git_diff_options Opts;
  git_diff_options_init(&Opts, GIT_DIFF_OPTIONS_VERSION);
  Opts.context_lines = 0;
  Opts.interhunk_lines = 0;
  Opts.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
  git_diff *Raw = nullptr;
  int Rc;
  if (Head) {
    auto HeadTree = P->lookupTree(*Head);
    if (!HeadTree)
      return HeadTree.takeError();
    Rc = git_diff_tree_to_tree(&Raw, P->Repo.get(), BaseTree->get(),
                               HeadTree->get(), &Opts);
  } else {
    Opts.flags |= GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
                  GIT_DIFF_SHOW_UNTRACKED_CONTENT;
    Rc = git_diff_tree_to_workdir_with_index(&Raw, P->Repo.get(),
                                             BaseTree->get(), &Opts);
  }
  DiffPtr Diff(Raw);
  if (llvm::Error E = check(
          Rc, "cannot diff " + shortRev(Base) + " against " +
                  (Head ? shortRev(*Head) : std::string("the work tree"))))
    return E;

  git_diff_find_options Find;
  git_diff_find_options_init(&Find, GIT_DIFF_FIND_OPTIONS_VERSION);
  Find.flags = GIT_DIFF_FIND_RENAMES;
  if (!Head)
    Find.flags |= GIT_DIFF_FIND_FOR_UNTRACKED;
  Find.rename_threshold = 50;
  if (llvm::Error E = check(git_diff_find_similar(Diff.get(), &Find),
                            "cannot detect renames"))
    return E;

  std::vector<FileChange> Out;
  for (size_t I = 0, N = git_diff_num_deltas(Diff.get()); I != N; ++I) {
    git_delta_t Status = git_diff_get_delta(Diff.get(), I)->status;
    if (Status == GIT_DELTA_UNMODIFIED || Status == GIT_DELTA_IGNORED)
      continue;
    if (Status == GIT_DELTA_UNREADABLE)
      return makeErrorf("cannot read {0} in the work tree: check its "
                        "permissions",
                        git_diff_get_delta(Diff.get(), I)->new_file.path);
    auto C = P->change(Diff.get(), I, /*WorkTree=*/!Head);
    if (!C)
      return C.takeError();
    Out.push_back(std::move(*C));
  }
  auto Key = [](const FileChange &C) -> const std::string & {
    return C.NewPath.empty() ? C.OldPath : C.NewPath;
  };
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const FileChange &L, const FileChange &R) {
                     return Key(L) < Key(R);
                   });
  return Out;
}

llvm::Expected<std::string> Repository::readFile(llvm::StringRef Commit,
                                                 llvm::StringRef Path) const {
  auto Tree = P->lookupTree(Commit);
  if (!Tree)
    return Tree.takeError();
  std::string PathStr = Path.str();
  git_tree_entry *RawEntry = nullptr;
  int Rc = git_tree_entry_bypath(&RawEntry, Tree->get(), PathStr.c_str());
  TreeEntryPtr Entry(RawEntry);
  if (Rc == GIT_ENOTFOUND)
    return makeErrorf("{0} does not exist at {1}", Path, shortRev(Commit));
  if (llvm::Error E =
          check(Rc, "cannot look up " + Path + " at " + shortRev(Commit)))
    return E;
  if (git_tree_entry_type(Entry.get()) != GIT_OBJECT_BLOB)
    return makeErrorf("{0} is not a file at {1}", Path, shortRev(Commit));
  return readBlob(oidHex(*git_tree_entry_id(Entry.get())));
}

llvm::Expected<std::string> Repository::readBlob(llvm::StringRef BlobId) const {
  git_oid Id;
  if (BlobId.size() != GIT_OID_HEXSZ ||
      git_oid_fromstrn(&Id, BlobId.data(), BlobId.size()) < 0)
    return makeErrorf("invalid blob id '{0}': expected 40 hex digits", BlobId);
  git_blob *Raw = nullptr;
  int Rc = git_blob_lookup(&Raw, P->Repo.get(), &Id);
  BlobPtr Blob(Raw);
  if (llvm::Error E = check(Rc, "cannot read blob " + BlobId))
    return E;
  const char *Data = static_cast<const char *>(git_blob_rawcontent(Blob.get()));
  return std::string(Data, git_blob_rawsize(Blob.get()));
}

llvm::Expected<bool> Repository::isDirty() const {
  git_status_options Opts;
  git_status_options_init(&Opts, GIT_STATUS_OPTIONS_VERSION);
  Opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  Opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
  git_status_list *Raw = nullptr;
  int Rc = git_status_list_new(&Raw, P->Repo.get(), &Opts);
  StatusListPtr List(Raw);
  if (llvm::Error E = check(Rc, "cannot read the status of " + P->Workdir))
    return E;
  return git_status_list_entrycount(List.get()) != 0;
}

namespace {

int collectBlob(const char *Root, const git_tree_entry *Entry, void *Payload) {
  auto *Out =
      static_cast<std::vector<std::pair<std::string, std::string>> *>(Payload);
  if (git_tree_entry_type(Entry) != GIT_OBJECT_BLOB ||
      git_tree_entry_filemode(Entry) == GIT_FILEMODE_LINK)
    return 0;
  Out->emplace_back(std::string(Root) + git_tree_entry_name(Entry),
                    oidHex(*git_tree_entry_id(Entry)));
  return 0;
}

} // namespace

llvm::Expected<std::vector<std::pair<std::string, std::string>>>
Repository::treeFiles(llvm::StringRef Commit) const {
  auto Tree = P->lookupTree(Commit);
  if (!Tree)
    return Tree.takeError();
  std::vector<std::pair<std::string, std::string>> Out;
  if (llvm::Error E =
          check(git_tree_walk(Tree->get(), GIT_TREEWALK_PRE, collectBlob, &Out),
                "cannot list the files of " + shortRev(Commit)))
    return E;
  std::sort(Out.begin(), Out.end());
  return Out;
}

llvm::Expected<std::vector<std::string>> Repository::trackedFiles() const {
  git_index *Raw = nullptr;
  int Rc = git_repository_index(&Raw, P->Repo.get());
  if (llvm::Error E = check(Rc, "cannot read the index of " + P->Workdir))
    return E;
  std::unique_ptr<git_index, void (*)(git_index *)> Index(Raw, git_index_free);
  std::vector<std::string> Out;
  size_t N = git_index_entrycount(Index.get());
  for (size_t I = 0; I < N; ++I) {
    const git_index_entry *Entry = git_index_get_byindex(Index.get(), I);
    // Regular files only: no symbolic links or submodules; each path once
    // (a conflicted file has several stages).
    if (!Entry || (Entry->mode != GIT_FILEMODE_BLOB &&
                   Entry->mode != GIT_FILEMODE_BLOB_EXECUTABLE))
      continue;
    if (Out.empty() || Out.back() != Entry->path)
      Out.push_back(Entry->path);
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

} // namespace git
} // namespace tia
