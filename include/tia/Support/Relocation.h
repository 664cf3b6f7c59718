//===- tia/Support/Relocation.h - stored paths that survive a move --------===//
//
// A database travels between checkouts (a CI artifact, a laptop, shards
// built on other machines), so the paths it keeps must not name the
// directories it was made in. Text that holds paths (a compile command's
// directory and arguments, a test's executable and working directory) is
// stored with the repository root and the build directory replaced by the
// markers "${root}" and "${build}", and resolved against the current
// checkout's root and build directory when it is read. Paths elsewhere (the
// compiler, system headers) stay as they are.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_RELOCATION_H
#define TIA_SUPPORT_RELOCATION_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace tia {

/// The directories stored paths are relative to.
struct PathBases {
  /// Absolute repository root (the work tree); empty when unknown.
  std::string Root;
  /// Absolute build directory; empty when unknown. It may lie inside the
  /// root or anywhere else.
  std::string BuildDir;
};

/// \p Text with every path that starts at \p B.Root or \p B.BuildDir
/// rewritten to start at "${root}" or "${build}" (the more specific of the
/// two wins: a build directory inside the root is "${build}"). A path
/// counts where it starts the text, follows one of " ,:;='\"", or follows a
/// leading option spelling ("-I/repo/include", "--sysroot=/repo/sdk"); it
/// must end at the base or continue with '/' or one of those separators, so
/// that "/repo2" is not "/repo". Nothing else changes, so that text made
/// relocatable twice, or read without the bases and written back, stays
/// the same. (A command that spells "${root}" or "${build}" itself would be
/// misread; build systems expand such variables before they write one.)
std::string relocatable(llvm::StringRef Text, const PathBases &B);

/// The inverse of relocatable(): the markers replaced by \p B's
/// directories. A marker whose base \p B does not know stays as it is.
std::string resolved(llvm::StringRef Text, const PathBases &B);

} // namespace tia

#endif // TIA_SUPPORT_RELOCATION_H
