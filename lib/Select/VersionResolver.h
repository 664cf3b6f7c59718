//===- VersionResolver.h - the elements of changed versions -----*- C++ -*-===//
//
// Private to lib/Select: where the elements of a changed file's base and
// head versions come from: the store where the version was indexed, else a
// parse (Python: its content; C++: a translation unit that reads it, with
// the changed files of that side overlaid).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_VERSIONRESOLVER_H
#define TIA_LIB_SELECT_VERSIONRESOLVER_H

#include "tia/Git/Repository.h"
#include "tia/Select/Selection.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace select {
namespace detail {

enum class Side { Old, New };

/// Finds the index of every file version the change touches, from the store
/// where it was indexed, else by parsing a translation unit that reads it
/// with the changed files of that side overlaid.
class VersionResolver {
public:
  VersionResolver(git::Repository &Repo, Store &S, const SelectOptions &O,
                  const std::vector<git::FileChange> &Changes)
      : Repo(Repo), S(S), O(O), Changes(Changes) {}

  /// The index of \p Path at \p Blob on \p Which side; std::nullopt when no
  /// indexed translation unit could produce it.
  llvm::Expected<std::optional<FileIndex>> get(Side Which, llvm::StringRef Path,
                                               llvm::StringRef Blob,
                                               llvm::StringRef RenamedFrom);

  /// Whether \p Path, which no indexed translation unit reads on either
  /// side, is not part of the build at all: the index holds every
  /// translation unit of the compilation database as it is now, their
  /// compile directories exist, and no #include the index knows may find
  /// the file.
  llvm::Expected<bool> outsideTheBuild(llvm::StringRef Path);

  /// The content of the changed file on one side.
  llvm::Expected<std::string> content(Side Which, const git::FileChange &C);

  std::string absolute(llvm::StringRef Rel) const {
    return (llvm::Twine(Repo.workdir()) + "/" + Rel).str();
  }

private:
  llvm::Expected<std::optional<FileIndex>>
  parsePython(Side Which, llvm::StringRef Path, llvm::StringRef Blob);

  /// The files of one side, as far as module names need them: the index's
  /// files with the change applied.
  llvm::Expected<const std::set<std::string, std::less<>> *>
  pythonFiles(Side Which);

  llvm::Expected<const llvm::StringMap<std::string> *> overlays(Side Which);

  llvm::Expected<std::optional<FileIndex>>
  parse(Side Which, llvm::StringRef Path, llvm::StringRef RenamedFrom);

  /// The stored translation units that read another changed file of the
  /// same side: a new header is read by the files changed to include it.
  llvm::Expected<std::vector<StoredTranslationUnit>>
  readersOfOtherChanges(Side Which, llvm::StringRef Path);

  /// The stored translation unit whose main file is nearest to \p Path (same
  /// directory first, then the longest common directory prefix).
  llvm::Expected<std::optional<StoredTranslationUnit>>
  nearestTranslationUnit(llvm::StringRef Path);

  static bool isMainFileName(llvm::StringRef Path);

public:
  /// New source files parsed with a neighbour's compile command.
  std::map<std::string, std::string> InferredFrom;
  /// The translation units whose parse produced each file, per side.
  std::map<std::string, std::vector<StoredTranslationUnit>, std::less<>>
      ReadBy[2];
  /// Clang's first error in the parse that produced each incomplete file,
  /// per side: a header missing on this machine, a flag this clang lacks.
  std::map<std::string, std::string, std::less<>> FirstError[2];
  /// Files left unparsed, per side, because the compile directory of their
  /// translation units does not exist: that directory.
  std::map<std::string, std::string, std::less<>> MissingDirectory[2];

private:
  /// Whether the index covers the whole compilation database of
  /// SelectOptions::CompileDatabase; computed once.
  std::optional<bool> CompleteBuild;

public:
private:
  git::Repository &Repo;
  Store &S;
  const SelectOptions &O;
  const std::vector<git::FileChange> &Changes;
  std::optional<llvm::StringMap<std::string>> OldOverlays, NewOverlays;
  std::optional<std::set<std::string, std::less<>>> OldFiles, NewFiles;
  std::map<std::string, std::optional<FileIndex>, std::less<>> Parsed[2];
};

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_VERSIONRESOLVER_H
