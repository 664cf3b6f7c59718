//===- CompilationDatabase.cpp - reading compile_commands.json ------------===//

#include "tia/Cpp/FrontEnd.h"
#include "tia/Support/Error.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace tia {
namespace cpp {

namespace {

/// \p Path made absolute against \p Base, dots removed.
std::string absoluteIn(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> P;
  if (llvm::sys::path::is_absolute(Path)) {
    P = Path;
  } else {
    P = Base;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P.str());
}

/// The loader's message on one line.
std::string oneLine(llvm::StringRef Message) {
  std::string Out;
  for (char C : Message.trim())
    Out.push_back(C == '\n' || C == '\r' ? ' ' : C);
  return Out;
}

} // namespace

llvm::Expected<std::vector<CompileCommand>>
loadCompilationDatabase(llvm::StringRef BuildDir) {
  llvm::StringRef Dir = BuildDir;
  while (Dir.size() > 1 && Dir.ends_with("/"))
    Dir = Dir.drop_back();
  std::string File = (Dir + "/compile_commands.json").str();
  if (!llvm::sys::fs::exists(File))
    return makeErrorf("no compile_commands.json in {0}: configure with "
                      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON or pass -p BUILD_DIR",
                      Dir);

  std::string Err;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromFile(
      File, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB)
    return makeErrorf("malformed {0}: {1}", File, oneLine(Err));

  llvm::SmallString<256> AbsDir(Dir);
  llvm::sys::fs::make_absolute(AbsDir);
  std::vector<CompileCommand> Out;
  for (clang::tooling::CompileCommand &C : DB->getAllCompileCommands()) {
    CompileCommand Cmd;
    Cmd.Directory = absoluteIn(C.Directory, AbsDir);
    Cmd.File = absoluteIn(C.Filename, Cmd.Directory);
    Cmd.Arguments = std::move(C.CommandLine);
    Out.push_back(std::move(Cmd));
  }
  // The first entry of a file wins, as in clang's own tools.
  std::stable_sort(Out.begin(), Out.end(),
                   [](const CompileCommand &A, const CompileCommand &B) {
                     return A.File < B.File;
                   });
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [](const CompileCommand &A, const CompileCommand &B) {
                          return A.File == B.File;
                        }),
            Out.end());
  return Out;
}

} // namespace cpp
} // namespace tia
