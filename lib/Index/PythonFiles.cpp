//===- PythonFiles.cpp - the Python files `tia index` indexes -------------===//

#include "tia/Index/Workspace.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Support/Paths.h"

namespace tia {
namespace index {

llvm::Expected<std::vector<std::string>>
listPythonFiles(const config::Workspace &C,
                const std::vector<std::string> &Paths) {
  std::vector<std::string> Wanted;
  if (!C.Repo)
    return Wanted;
  auto Tracked = C.Repo->trackedFiles();
  if (!Tracked)
    return Tracked.takeError();
  for (const std::string &F : *Tracked) {
    if (!python::isPythonSource(F) || !C.Config.isIncluded(F))
      continue;
    std::string Abs = C.Root + "/" + F;
    if (!Paths.empty() && llvm::none_of(Paths, [&](const std::string &P) {
          return isAtOrBelow(Abs, P);
        }))
      continue;
    Wanted.push_back(F);
  }
  return Wanted;
}

} // namespace index
} // namespace tia
