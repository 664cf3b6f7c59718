//===- Causes.cpp - which changed files can cause a failure ---------------===//
//
// A documentation file or an edit of comments and layout cannot make a test
// fail, so such files are no failure cause: they neither count as the change
// a failure is learnt from nor as the change a test is ranked for.
//
//===----------------------------------------------------------------------===//

#include "PredictInternal.h"
#include "tia/Cpp/FrontEnd.h"
#include "tia/Select/Changes.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tia {
namespace predict {

namespace {

bool isCpp(llvm::StringRef Path) {
  unsigned C = extensionClass(Path);
  return C == 1 || C == 2;
}

bool isPython(llvm::StringRef Path) { return extensionClass(Path) == 3; }

/// \p Source without comment lines, blank lines and trailing blanks: two
/// Python versions equal under it differ in comments and blank lines only.
/// A '#' inside a line is kept (it may be in a string), so this errs on the
/// side of seeing a change.
std::string pythonCode(llvm::StringRef Source) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Source.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    llvm::StringRef T = L.rtrim(" \t\r");
    llvm::StringRef Lead = T.ltrim(" \t");
    if (Lead.empty() || Lead.starts_with("#"))
      continue;
    Out += T;
    Out += '\n';
  }
  return Out;
}

/// True when the two stored indexes have the same elements with the same
/// token hashes and the same tokens outside them.
bool sameTokens(const FileIndex &A, const FileIndex &B) {
  if (!A.Complete || !B.Complete || A.ResidualHash != B.ResidualHash ||
      A.Elements.size() != B.Elements.size())
    return false;
  for (size_t I = 0; I != A.Elements.size(); ++I)
    if (A.Elements[I].Key != B.Elements[I].Key ||
        A.Elements[I].Hash != B.Elements[I].Hash)
      return false;
  return true;
}

} // namespace

llvm::Expected<std::string> CauseFilter::content(const git::FileStat &F,
                                                 bool New) {
  const std::string &Blob = New ? F.NewBlob : F.OldBlob;
  auto Text = Repo.readBlob(Blob);
  if (Text || !New)
    return Text;
  // A work-tree file's blob is not in the object database yet.
  llvm::consumeError(Text.takeError());
  auto Buf = llvm::MemoryBuffer::getFile(Repo.workdir() + "/" + F.NewPath,
                                         /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeErrorf("cannot read {0}: {1}", F.NewPath,
                      Buf.getError().message());
  return (*Buf)->getBuffer().str();
}

llvm::Expected<std::optional<std::string>>
CauseFilter::whyIgnored(const git::FileStat &F) {
  if (Config.Docs.matches(F.path()) &&
      (F.OldPath.empty() || Config.Docs.matches(F.OldPath)))
    return std::optional<std::string>("documentation");
  bool Edited =
      F.Status == git::ChangeStatus::Modified ||
      (F.Status == git::ChangeStatus::Renamed && F.OldPath == F.NewPath);
  if (!Edited || F.Binary || F.OldBlob.empty() || F.NewBlob.empty() ||
      !(isCpp(F.path()) || isPython(F.path())))
    return std::nullopt;
  auto Key = std::make_pair(F.OldBlob, F.NewBlob);
  auto Known = Memo.find(Key);
  if (Known != Memo.end())
    return Known->second;

  std::optional<std::string> Why;
  const std::string CommentsOnly = "comments or layout only";
  bool Decided = false;
  if (isCpp(F.path())) {
    auto Old = S.getFileIndex(F.OldPath, F.OldBlob);
    if (!Old)
      return Old.takeError();
    auto New = S.getFileIndex(F.NewPath, F.NewBlob);
    if (!New)
      return New.takeError();
    if (*Old && *New) {
      Decided = true;
      if (sameTokens(**Old, **New))
        Why = CommentsOnly;
    }
  }
  if (!Decided) {
    auto Old = content(F, /*New=*/false);
    auto New = content(F, /*New=*/true);
    if (!Old || !New) {
      // An unreadable version is a change tia cannot reason about: it stays
      // a possible cause.
      llvm::consumeError(Old.takeError());
      llvm::consumeError(New.takeError());
    } else if (isCpp(F.path())) {
      if (cpp::tokenHash(*Old) == cpp::tokenHash(*New))
        Why = CommentsOnly;
    } else if (pythonCode(*Old) == pythonCode(*New)) {
      Why = CommentsOnly;
    }
  }
  Memo.emplace(Key, Why);
  return Why;
}

llvm::Expected<std::optional<llvm::StringMap<unsigned>>>
CauseFilter::coveredModified(const std::vector<git::FileStat> &Files) {
  bool Known = false;
  llvm::StringMap<unsigned> Counts;
  for (const git::FileStat &F : Files) {
    if (!isCpp(F.path()))
      continue;
    std::optional<FileIndex> Old, New;
    if (!F.OldBlob.empty()) {
      auto I = S.getFileIndex(F.OldPath, F.OldBlob);
      if (!I)
        return I.takeError();
      Old = std::move(*I);
      if (!Old)
        continue;
    }
    if (!F.NewBlob.empty()) {
      auto I = S.getFileIndex(F.NewPath, F.NewBlob);
      if (!I)
        return I.takeError();
      New = std::move(*I);
      if (!New)
        continue;
    }
    Known = true;
    select::FileComparison C = select::compareVersions(
        Old ? &*Old : nullptr, New ? &*New : nullptr, {}, {});
    for (const select::ChangedElement &E : C.Elements) {
      auto Tests = S.testsCovering(E.Elem.Key);
      if (!Tests)
        return Tests.takeError();
      for (const std::string &T : *Tests)
        ++Counts[T];
    }
  }
  if (!Known)
    return std::nullopt;
  return std::optional<llvm::StringMap<unsigned>>(std::move(Counts));
}

} // namespace predict
} // namespace tia
