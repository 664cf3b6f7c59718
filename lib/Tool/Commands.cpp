//===- Commands.cpp - what the commands share -----------------------------===//

#include "CommandsInternal.h"

namespace tia {
namespace tool {

llvm::Expected<Context> makeContext(const GlobalOptions &G, bool NeedGit) {
  return config::findWorkspace(G.WorkingDir, G.Db, NeedGit);
}

} // namespace tool
} // namespace tia
