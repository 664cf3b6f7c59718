//===- FileReads.cpp - the files a traced test read -----------------------===//

#include "FileReadsInternal.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace tia {
namespace collect {

namespace {

void addStrings(const llvm::json::Array *A, std::set<std::string> &Out) {
  if (!A)
    return;
  for (const llvm::json::Value &V : *A)
    if (auto S = V.getAsString())
      Out.insert(S->str());
}

/// \p Path relative to the repository, "." for the root; empty when it lies
/// outside. Tried as given, then with symbolic links resolved (a test may
/// reach the repository through a link, or a link inside it point in).
std::string insideRepository(llvm::StringRef Path, const TrackedTree &Tree) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  for (llvm::StringRef Root :
       {llvm::StringRef(Tree.Root), llvm::StringRef(Tree.RealRoot)}) {
    llvm::StringRef R = P;
    if (Root.empty() || !R.consume_front(Root))
      continue;
    if (R.empty())
      return ".";
    if (R.consume_front("/"))
      return R.str();
  }
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(P, Real) && Real != P)
    return insideRepository(Real, Tree);
  return "";
}

bool isTracked(const std::string &Rel, const TrackedTree &Tree) {
  return std::binary_search(Tree.Files.begin(), Tree.Files.end(), Rel);
}

/// True when a tracked file lies below directory \p Rel.
bool holdsTracked(const std::string &Rel, const TrackedTree &Tree) {
  if (Rel == ".")
    return !Tree.Files.empty();
  std::string Prefix = Rel + "/";
  auto It = std::lower_bound(Tree.Files.begin(), Tree.Files.end(), Prefix);
  return It != Tree.Files.end() && llvm::StringRef(*It).starts_with(Prefix);
}

bool isPythonSource(llvm::StringRef Rel) {
  return Rel.ends_with(".py") || Rel.ends_with(".pyc") || Rel.ends_with(".pyi");
}

} // namespace

void RawReads::add(const llvm::json::Object &Record) {
  addStrings(Record.getArray("read"), Read);
  addStrings(Record.getArray("listed"), Listed);
  if (Record.getBoolean("incomplete").value_or(false))
    Incomplete = true;
}

FileReads keepTracked(const std::string &TestId, const std::string &Commit,
                      const RawReads &Raw, const TrackedTree &Tree) {
  FileReads R;
  R.TestId = TestId;
  R.Commit = Commit;
  R.Complete = !Raw.Incomplete;
  std::set<std::string> Files, Dirs;
  for (const std::string &P : Raw.Read) {
    std::string Rel = insideRepository(P, Tree);
    if (!Rel.empty() && !isPythonSource(Rel) && isTracked(Rel, Tree))
      Files.insert(Rel);
  }
  for (const std::string &P : Raw.Listed) {
    std::string Rel = insideRepository(P, Tree);
    if (!Rel.empty() && holdsTracked(Rel, Tree))
      Dirs.insert(Rel);
  }
  R.Files.assign(Files.begin(), Files.end());
  R.Directories.assign(Dirs.begin(), Dirs.end());
  return R;
}

} // namespace collect
} // namespace tia
