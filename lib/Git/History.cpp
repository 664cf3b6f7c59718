//===- History.cpp - commits with their changed files ---------------------===//
//
// Opens its own libgit2 handle on the repository's work tree, so that the
// Repository class keeps its small interface; the libgit2 helpers are
// Repository.cpp's (GitInternal.h).
//
//===----------------------------------------------------------------------===//

#include "tia/Git/History.h"
#include "GitInternal.h"
#include "tia/Support/Error.h"
#include <algorithm>

namespace tia {
namespace git {

using namespace detail;

namespace {

llvm::Expected<RepoPtr> openRepo(const Repository &Repo) {
  initLibgit2();
  git_repository *Raw = nullptr;
  int Rc = git_repository_open(&Raw, Repo.workdir().c_str());
  RepoPtr R(Raw);
  if (llvm::Error E =
          check(Rc, "cannot open the git repository at " + Repo.workdir()))
    return E;
  return R;
}

/// What \p C changed against its first parent.
llvm::Expected<CommitInfo> describe(git_repository *R, git_commit *C) {
  CommitInfo Info;
  Info.Id = oidHex(*git_commit_id(C));
  Info.Time = git_commit_time(C);
  if (const git_signature *A = git_commit_author(C))
    Info.AuthorEmail = A->email ? A->email : "";
  if (const char *S = git_commit_summary(C))
    Info.Summary = S;
  for (unsigned I = 0, N = git_commit_parentcount(C); I != N; ++I)
    Info.Parents.push_back(oidHex(*git_commit_parent_id(C, I)));

  git_tree *RawTree = nullptr;
  if (llvm::Error E = check(git_commit_tree(&RawTree, C),
                            "cannot read the tree of " + Info.Id))
    return E;
  TreePtr Tree(RawTree);
  TreePtr ParentTree;
  if (!Info.Parents.empty()) {
    git_commit *RawParent = nullptr;
    if (llvm::Error E = check(git_commit_parent(&RawParent, C, 0),
                              "cannot read the parent of " + Info.Id))
      return E;
    CommitPtr Parent(RawParent);
    git_tree *RawPT = nullptr;
    if (llvm::Error E = check(git_commit_tree(&RawPT, Parent.get()),
                              "cannot read the tree of " + Info.Parents[0]))
      return E;
    ParentTree.reset(RawPT);
  }

  git_diff_options Opts;
  git_diff_options_init(&Opts, GIT_DIFF_OPTIONS_VERSION);
  Opts.context_lines = 0;
  Opts.interhunk_lines = 0;
  Opts.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
  git_diff *RawDiff = nullptr;
  if (llvm::Error E = check(git_diff_tree_to_tree(&RawDiff, R, ParentTree.get(),
                                                  Tree.get(), &Opts),
                            "cannot diff " + Info.Id))
    return E;
  DiffPtr Diff(RawDiff);
  git_diff_find_options Find;
  git_diff_find_options_init(&Find, GIT_DIFF_FIND_OPTIONS_VERSION);
  Find.flags = GIT_DIFF_FIND_RENAMES;
  Find.rename_threshold = 50;
  if (llvm::Error E = check(git_diff_find_similar(Diff.get(), &Find),
                            "cannot detect renames in " + Info.Id))
    return E;

  for (size_t I = 0, N = git_diff_num_deltas(Diff.get()); I != N; ++I) {
    git_patch *RawPatch = nullptr;
    int Rc = git_patch_from_diff(&RawPatch, Diff.get(), I);
    PatchPtr Patch(RawPatch);
    if (llvm::Error E = check(Rc, "cannot diff a file of " + Info.Id))
      return E;
    const git_diff_delta *D = Patch ? git_patch_get_delta(Patch.get())
                                    : git_diff_get_delta(Diff.get(), I);
    if (D->status == GIT_DELTA_UNMODIFIED)
      continue;
    FileStat F;
    F.Status = toStatus(D->status);
    if (F.Status != ChangeStatus::Added) {
      F.OldPath = D->old_file.path;
      F.OldBlob = oidHex(D->old_file.id);
    }
    if (F.Status != ChangeStatus::Deleted) {
      F.NewPath = D->new_file.path;
      F.NewBlob = oidHex(D->new_file.id);
    }
    F.Binary = D->flags & GIT_DIFF_FLAG_BINARY;
    if (Patch && !F.Binary) {
      size_t Context = 0, Added = 0, Deleted = 0;
      if (llvm::Error E = check(
              git_patch_line_stats(&Context, &Added, &Deleted, Patch.get()),
              "cannot count the lines of " + F.path()))
        return E;
      F.Added = static_cast<unsigned>(Added);
      F.Deleted = static_cast<unsigned>(Deleted);
    }
    Info.Files.push_back(std::move(F));
  }
  std::stable_sort(
      Info.Files.begin(), Info.Files.end(),
      [](const FileStat &L, const FileStat &R) { return L.path() < R.path(); });
  return Info;
}

} // namespace

llvm::Expected<std::vector<CommitInfo>>
firstParentHistory(const Repository &Repo, llvm::StringRef Head, int64_t Since,
                   unsigned MaxCount) {
  auto R = openRepo(Repo);
  if (!R)
    return R.takeError();
  auto C = lookupCommit(R->get(), Head);
  if (!C)
    return C.takeError();
  std::vector<CommitInfo> Out;
  CommitPtr Current = std::move(*C);
  while (Current) {
    if (Since && git_commit_time(Current.get()) < Since)
      break;
    auto Info = describe(R->get(), Current.get());
    if (!Info)
      return Info.takeError();
    Out.push_back(std::move(*Info));
    if (MaxCount && Out.size() >= MaxCount)
      break;
    if (git_commit_parentcount(Current.get()) == 0)
      break;
    git_commit *Parent = nullptr;
    if (llvm::Error E = check(git_commit_parent(&Parent, Current.get(), 0),
                              "cannot read the parent of " + Out.back().Id))
      return E;
    Current.reset(Parent);
  }
  std::reverse(Out.begin(), Out.end());
  return Out;
}

llvm::Expected<std::vector<CommitInfo>> commitRange(const Repository &Repo,
                                                    llvm::StringRef From,
                                                    llvm::StringRef To,
                                                    bool FirstParent) {
  auto R = openRepo(Repo);
  if (!R)
    return R.takeError();
  auto FromC = lookupCommit(R->get(), From);
  if (!FromC)
    return FromC.takeError();
  auto ToC = lookupCommit(R->get(), To);
  if (!ToC)
    return ToC.takeError();
  git_revwalk *RawWalk = nullptr;
  if (llvm::Error E =
          check(git_revwalk_new(&RawWalk, R->get()), "cannot walk the history"))
    return E;
  Owned<git_revwalk, git_revwalk_free> Walk(RawWalk);
  git_revwalk_sorting(Walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
  if (FirstParent)
    git_revwalk_simplify_first_parent(Walk.get());
  if (llvm::Error E =
          check(git_revwalk_push(Walk.get(), git_commit_id(ToC->get())),
                "cannot walk the history of " + To))
    return E;
  if (llvm::Error E =
          check(git_revwalk_hide(Walk.get(), git_commit_id(FromC->get())),
                "cannot walk the history of " + From))
    return E;
  std::vector<CommitInfo> Out;
  git_oid Id;
  int Rc;
  while ((Rc = git_revwalk_next(&Id, Walk.get())) == 0) {
    git_commit *Raw = nullptr;
    if (llvm::Error E = check(git_commit_lookup(&Raw, R->get(), &Id),
                              "cannot read commit " + oidHex(Id)))
      return E;
    CommitPtr C(Raw);
    auto Info = describe(R->get(), C.get());
    if (!Info)
      return Info.takeError();
    Out.push_back(std::move(*Info));
  }
  if (Rc != GIT_ITEROVER)
    if (llvm::Error E = check(Rc, "cannot walk " + From + ".." + To))
      return E;
  return Out;
}

std::vector<FileStat> fileStats(const std::vector<FileChange> &Changes) {
  std::vector<FileStat> Out;
  for (const FileChange &C : Changes) {
    FileStat F;
    F.Status = C.Status;
    F.OldPath = C.OldPath;
    F.NewPath = C.NewPath;
    F.OldBlob = C.OldBlob;
    F.NewBlob = C.NewBlob;
    F.Binary = C.Binary;
    for (const Hunk &H : C.Hunks) {
      F.Added += H.AddedLines.size();
      F.Deleted += H.DeletedLines.size();
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

llvm::Expected<int64_t> commitTime(const Repository &Repo,
                                   llvm::StringRef Rev) {
  auto R = openRepo(Repo);
  if (!R)
    return R.takeError();
  auto C = lookupCommit(R->get(), Rev);
  if (!C)
    return C.takeError();
  return static_cast<int64_t>(git_commit_time(C->get()));
}

std::optional<std::pair<std::string, std::string>>
splitRange(llvm::StringRef Range) {
  size_t At = Range.find("..");
  if (At == llvm::StringRef::npos || At == 0 || At + 2 >= Range.size() ||
      Range.drop_front(At + 2).starts_with("."))
    return std::nullopt;
  return std::make_pair(Range.take_front(At).str(),
                        Range.drop_front(At + 2).str());
}

} // namespace git
} // namespace tia
