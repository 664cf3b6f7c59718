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

/// The source a bytecode cache \p Rel was compiled from: "D/m.py" for
/// "D/__pycache__/m.cpython-311.pyc" and for "D/m.pyc".
std::string sourceOfBytecode(llvm::StringRef Rel) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Rel);
  llvm::StringRef Name = llvm::sys::path::filename(Rel).drop_back(4);
  if (llvm::sys::path::filename(Dir) == "__pycache__") {
    Dir = llvm::sys::path::parent_path(Dir);
    Name = Name.split('.').first; // m.cpython-311.opt-1 -> m
  }
  return ((Dir.empty() ? "" : Dir.str() + "/") + Name + ".py").str();
}

/// The path test \p TestId's read of \p Rel is kept as; empty: none. A
/// pytest test's Python sources are left out (its coverage and the import
/// graph follow them); another test keeps them, and a bytecode cache counts
/// as a read of its source: a warm cache is all an import opens.
std::string keptRead(llvm::StringRef Rel, llvm::StringRef TestId) {
  bool Pytest = TestId.starts_with("pytest:");
  if (Rel.ends_with(".pyc"))
    return Pytest ? "" : sourceOfBytecode(Rel);
  if (Pytest && Rel.ends_with(".py"))
    return "";
  return Rel.str();
}

/// A path of the tracer's reads file, where '%', CR and LF are escaped.
std::string unescapePath(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    llvm::StringRef Code = Text.substr(I, 3);
    if (Code == "%25" || Code == "%0A" || Code == "%0D") {
      Out += Code == "%25" ? '%' : (Code == "%0A" ? '\n' : '\r');
      I += 2;
    } else {
      Out += Text[I];
    }
  }
  return Out;
}

} // namespace

void RawReads::add(const llvm::json::Object &Record) {
  addStrings(Record.getArray("read"), Read);
  addStrings(Record.getArray("listed"), Listed);
  addStrings(Record.getArray("executed"), Executed);
  if (Record.getBoolean("incomplete").value_or(false))
    Incomplete = true;
}

bool RawReads::allEnded() const {
  return llvm::all_of(
      Started, [&](const std::string &Pid) { return Ended.count(Pid) != 0; });
}

unsigned RawReads::addTrace(llvm::StringRef Text) {
  unsigned Processes = 0;
  std::set<std::string> Written;
  // A line without its end was cut short by a crash: its path may be too.
  for (size_t End; (End = Text.find('\n')) != llvm::StringRef::npos;) {
    llvm::StringRef Line = Text.take_front(End);
    Text = Text.drop_front(End + 1);
    if (Line.size() < 3 || Line[1] != ' ')
      continue;
    std::string Path = unescapePath(Line.drop_front(2));
    switch (Line[0]) {
    case 'p':
      ++Processes;
      Started.insert(Path);
      break;
    case 'e':
      Ended.insert(Path);
      break;
    case 'i':
      Incomplete = true;
      break;
    case 'w':
      if (!Read.count(Path))
        Written.insert(Path);
      break;
    case 'r':
      if (!Written.count(Path))
        Read.insert(Path);
      break;
    case 'l':
      Listed.insert(Path);
      ListedByRunner.erase(Path);
      break;
    case 'L':
      if (!Listed.count(Path))
        ListedByRunner.insert(Path);
      break;
    case 'x':
      Executed.insert(Path);
      break;
    }
  }
  return Processes;
}

TrackedTree trackedTree(const std::string &Root,
                        std::vector<std::string> Files) {
  return TrackedTree{FolderPaths(Root), std::move(Files)};
}

FileReads keepTracked(const std::string &TestId, const std::string &Commit,
                      const RawReads &Raw, const TrackedTree &Tree) {
  FileReads R;
  R.TestId = TestId;
  R.Commit = Commit;
  R.Complete = !Raw.Incomplete;
  std::set<std::string> Files, Dirs, RunnerDirs;
  for (const std::string &P : Raw.Read) {
    std::string Rel = keptRead(Tree.Root.relative(P), TestId);
    if (!Rel.empty() && isTracked(Rel, Tree))
      Files.insert(Rel);
  }
  for (const std::string &P : Raw.Listed) {
    std::string Rel = Tree.Root.relative(P);
    if (!Rel.empty() && holdsTracked(Rel, Tree))
      Dirs.insert(Rel);
  }
  for (const std::string &P : Raw.ListedByRunner) {
    std::string Rel = Tree.Root.relative(P);
    if (!Rel.empty() && holdsTracked(Rel, Tree) && !Dirs.count(Rel))
      RunnerDirs.insert(Rel);
  }
  R.Files.assign(Files.begin(), Files.end());
  R.Directories.assign(Dirs.begin(), Dirs.end());
  R.RunnerDirectories.assign(RunnerDirs.begin(), RunnerDirs.end());
  return R;
}

} // namespace collect
} // namespace tia
