//===- tia/Config/Workspace.h - where a command runs ------------*- C++ -*-===//
//
// Every command starts from the same three things: the repository it runs
// in (if any), its configuration (.tia.yaml at the root) and its database
// (.tia/tia.db at the root, unless --db or TIA_DB names another).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_CONFIG_WORKSPACE_H
#define TIA_CONFIG_WORKSPACE_H

#include "tia/Config/Config.h"
#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include <memory>
#include <optional>
#include <string>

namespace tia {
namespace config {

/// Where a command runs: the repository (if any), its root, the database.
struct Workspace {
  std::optional<git::Repository> Repo;
  std::string Root;   ///< absolute; the work tree, or the working directory
  std::string DbPath; ///< absolute
  std::string WorkingDir;
  /// ROOT/.tia.yaml, or the defaults.
  config::Config Config;
};

/// Finds the repository above \p WorkingDir (empty: the process's), its
/// configuration and the database: \p Db (relative to the working
/// directory), else $TIA_DB, else ROOT/.tia/tia.db. With \p NeedGit, fails
/// outside a git work tree; fails for a .tia.yaml that cannot be read or
/// parsed.
llvm::Expected<Workspace> findWorkspace(llvm::StringRef WorkingDir,
                                        llvm::StringRef Db, bool NeedGit);

/// Anchors the paths \p S stores and reads (Store::setPathBases) at \p W's
/// root and \p BuildDir (absolute), or, without one, at the build
/// directory the latest index recorded.
llvm::Error anchorPaths(Store &S, const Workspace &W, llvm::StringRef BuildDir);

/// Opens the database of \p W for writing, its paths anchored as
/// anchorPaths() does; fails, creating nothing, when it does not exist or
/// is not tia's.
llvm::Expected<std::unique_ptr<Store>>
openForUpdate(const Workspace &W, llvm::StringRef BuildDir = "");

/// The commit results or coverage are recorded at: \p Rev resolved, or
/// HEAD (empty on an unborn branch or outside git). Fails for an unknown
/// \p Rev, and for one given outside git.
llvm::Expected<std::string> recordedCommit(const Workspace &W,
                                           llvm::StringRef Rev);

} // namespace config
} // namespace tia

#endif // TIA_CONFIG_WORKSPACE_H
