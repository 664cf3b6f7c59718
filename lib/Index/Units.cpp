//===- Units.cpp - what tia index indexes ---------------------------------===//

#include "tia/Index/Units.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace tia {
namespace index {

namespace {

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (isAtOrBelow(Path, Root) && Path.size() > Root.size())
    return Path.substr(Root.size() + 1).str();
  return Path.str();
}

} // namespace

llvm::Expected<std::string> findBuildDir(llvm::StringRef Given,
                                         llvm::StringRef WorkingDir,
                                         llvm::StringRef Root) {
  if (!Given.empty()) {
    std::string Dir = absolutePath(Given, WorkingDir);
    // Accept the file itself too: -p build/compile_commands.json.
    if (llvm::sys::path::filename(Dir) == "compile_commands.json" &&
        !llvm::sys::fs::is_directory(Dir))
      return llvm::sys::path::parent_path(Dir).str();
    return Dir;
  }
  if (std::optional<std::string> Dir =
          findBuildDirHolding("compile_commands.json", WorkingDir, Root))
    return *Dir;
  return makeError("no compile_commands.json in ./build or .: configure with "
                   "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON and pass -p BUILD_DIR");
}

ProjectUnits
projectUnits(std::vector<CompileCommand> Commands, llvm::StringRef Root,
             llvm::ArrayRef<std::string> Excluded, const config::Config &Config,
             llvm::ArrayRef<std::string> Paths, std::vector<bool> &PathUsed) {
  ProjectUnits Out;
  for (CompileCommand &Cmd : Commands) {
    if (!isAtOrBelow(Cmd.File, Root))
      continue;
    if (llvm::any_of(Excluded, [&](const std::string &D) {
          return isAtOrBelow(Cmd.File, D);
        }))
      continue;
    if (!Config.isIncluded(relativeTo(Cmd.File, Root))) {
      Out.ConfigLeftOut = true;
      continue;
    }
    bool Match = Paths.empty();
    for (size_t I = 0; I < Paths.size(); ++I)
      if (isAtOrBelow(Cmd.File, Paths[I]))
        Match = PathUsed[I] = true;
    if (Match)
      Out.Units.push_back(std::move(Cmd));
  }
  return Out;
}

void ignoreDatabaseDir(llvm::StringRef DbPath, llvm::StringRef Root) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(DbPath);
  if (Dir != (Root + "/.tia").str())
    return;
  std::string Ignore = (Dir + "/.gitignore").str();
  if (llvm::sys::fs::exists(Ignore))
    return;
  std::error_code EC;
  llvm::raw_fd_ostream OS(Ignore, EC);
  if (!EC)
    OS << "# tia's database; not for version control\n*\n";
}

} // namespace index
} // namespace tia
