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

/// \p Path (absolute) relative to \p Root, compared as given, then with
/// symbolic links resolved in both; empty when it lies outside.
std::string relativeInside(llvm::StringRef Path, llvm::StringRef Root);

/// Where a build directory is when none is given: the first of
/// \p WorkingDir/build, \p Root/build, \p WorkingDir and \p Root (all
/// absolute) that holds \p FileName; std::nullopt when none does.
std::optional<std::string> findBuildDirHolding(llvm::StringRef FileName,
                                               llvm::StringRef WorkingDir,
                                               llvm::StringRef Root);

} // namespace tia

#endif // TIA_SUPPORT_PATHS_H
