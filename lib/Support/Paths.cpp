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

/// \p Path relative to \p Root ("." for \p Root itself); none when it
/// lies outside.
std::optional<std::string> below(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path == Root)
    return std::string(".");
  if (Root == "/")
    return Path.drop_front().str();
  if (!isAtOrBelow(Path, Root))
    return std::nullopt;
  return Path.substr(Root.size() + 1).str();
}

/// \p Path with its symbolic links resolved; \p Path when it cannot be.
std::string resolved(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

} // namespace

FolderPaths::FolderPaths(llvm::StringRef Folder)
    : Root(absolutePath(Folder, "/")), RealRoot(resolved(Root)) {}

std::string FolderPaths::relative(llvm::StringRef Path) const {
  std::string P = absolutePath(Path, "/");
  for (const std::string *R : {&Root, &RealRoot})
    if (std::optional<std::string> Rel = below(P, *R))
      return *Rel;
  std::string Real = resolved(P);
  if (Real != P)
    for (const std::string *R : {&Root, &RealRoot})
      if (std::optional<std::string> Rel = below(Real, *R))
        return *Rel;
  return "";
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
