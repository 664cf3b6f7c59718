//===- Paths.cpp - absolute paths and containment -------------------------===//

#include "tia/Support/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace tia {

bool isAtOrBelow(llvm::StringRef Path, llvm::StringRef Dir) {
  return Path == Dir || (Path.starts_with(Dir) && Path.size() > Dir.size() &&
                         Path[Dir.size()] == '/');
}

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> P;
  if (llvm::sys::path::is_absolute(Path))
    P = Path;
  else
    llvm::sys::path::append(P, Base, Path);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  while (P.size() > 1 && llvm::sys::path::is_separator(P.back()))
    P.pop_back();
  return std::string(P);
}

std::optional<std::string> findBuildDirHolding(llvm::StringRef FileName,
                                               llvm::StringRef WorkingDir,
                                               llvm::StringRef Root) {
  for (const std::string &Dir :
       {(WorkingDir + "/build").str(), (Root + "/build").str(),
        WorkingDir.str(), Root.str()})
    if (llvm::sys::fs::exists(Dir + "/" + FileName))
      return absolutePath(Dir, "/");
  return std::nullopt;
}

} // namespace tia
