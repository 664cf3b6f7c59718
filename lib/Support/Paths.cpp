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

namespace {

std::string below(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path == Root || !isAtOrBelow(Path, Root))
    return "";
  return Path.substr(Root.size() + 1).str();
}

std::string resolved(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

} // namespace

std::string relativeInside(llvm::StringRef Path, llvm::StringRef Root) {
  std::string P = absolutePath(Path, "/"), R = absolutePath(Root, "/");
  std::string Rel = below(P, R);
  if (Rel.empty())
    Rel = below(resolved(P), resolved(R));
  return Rel;
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
