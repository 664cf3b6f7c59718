//===- tia/Support/Paths.h - absolute paths and containment -----*- C++ -*-===//
//
// The commands take paths relative to where tia runs and compare them with
// the repository's root and build directory, always as absolute paths with
// '/' separators and no dots.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_PATHS_H
#define TIA_SUPPORT_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tia {

/// \p Path made absolute against \p Base, dots removed, without a trailing
/// separator (but "/" itself).
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base);

/// True when \p Path is \p Dir or lies below it ('/' separators); a
/// sibling that shares \p Dir's spelling as a prefix ("/a/bc" for "/a/b")
/// is not below it.
bool isAtOrBelow(llvm::StringRef Path, llvm::StringRef Dir);

/// A folder (a repository's root) as given and with its symbolic links
/// resolved: a path may reach it through a link, or a link inside it may
/// point in, so both spellings count as inside.
class FolderPaths {
public:
  /// \p Root is absolute; its links are resolved once, here.
  explicit FolderPaths(llvm::StringRef Root);

  /// \p Path (absolute) relative to the folder, "." for the folder itself;
  /// empty when it lies outside. Compared as given, then with the links of
  /// \p Path resolved.
  std::string relative(llvm::StringRef Path) const;

private:
  std::string Root;
  std::string RealRoot;
};

/// Where a build directory is when none is given: the first of
/// \p WorkingDir/build, \p Root/build, \p WorkingDir and \p Root (all
/// absolute) that holds \p FileName; std::nullopt when none does.
std::optional<std::string> findBuildDirHolding(llvm::StringRef FileName,
                                               llvm::StringRef WorkingDir,
                                               llvm::StringRef Root);

} // namespace tia

#endif // TIA_SUPPORT_PATHS_H
