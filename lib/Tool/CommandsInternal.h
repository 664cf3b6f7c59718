//===- CommandsInternal.h - what the commands share -----------------------===//

#ifndef TIA_LIB_TOOL_COMMANDSINTERNAL_H
#define TIA_LIB_TOOL_COMMANDSINTERNAL_H

#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include "tia/Tool/Commands.h"
#include <memory>
#include <optional>

namespace tia {
namespace tool {

/// Where a command runs: the repository (if any), its root, the database.
struct Context {
  std::optional<git::Repository> Repo;
  std::string Root;   ///< absolute; the work tree, or the working directory
  std::string DbPath; ///< absolute
  std::string WorkingDir;
};

/// Finds the repository and the database. With \p NeedGit, fails outside a
/// git work tree.
llvm::Expected<Context> makeContext(const GlobalOptions &G, bool NeedGit);

/// \p Path made absolute against \p Base, dots removed.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base);

} // namespace tool
} // namespace tia

#endif // TIA_LIB_TOOL_COMMANDSINTERNAL_H
