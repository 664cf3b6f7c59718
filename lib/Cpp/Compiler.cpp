//===- Compiler.cpp - a compiler told by its version, not its path --------===//
//
// A database made on another machine names the compiler by that machine's
// path (/usr/bin/c++, /opt/llvm/bin/clang++). What matters to selection is
// which compiler it is, so two commands that differ only in the compiler's
// path compile alike when both paths name the same version.
//
//===----------------------------------------------------------------------===//

#include "tia/Cpp/FrontEnd.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <map>
#include <mutex>

namespace tia {
namespace cpp {

std::optional<std::string> compilerVersion(llvm::StringRef Program) {
  static std::mutex M;
  static std::map<std::string, std::optional<std::string>> Known;
  std::lock_guard<std::mutex> Lock(M);
  auto [It, New] = Known.try_emplace(Program.str());
  if (!New)
    return It->second;
  auto Path = llvm::sys::findProgramByName(Program);
  if (!Path)
    return std::nullopt;
  llvm::SmallString<128> Out;
  if (llvm::sys::fs::createTemporaryFile("tia-compiler", "txt", Out))
    return std::nullopt;
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), Out.str(),
                                                llvm::StringRef("")};
  int Exit = llvm::sys::ExecuteAndWait(*Path, {*Path, "--version"},
                                       std::nullopt, Redirects,
                                       /*SecondsToWait=*/30);
  auto Text = llvm::MemoryBuffer::getFile(Out);
  llvm::sys::fs::remove(Out);
  if (Exit != 0 || !Text)
    return std::nullopt;
  // The first line names the compiler and its version; later lines may
  // name the install directory, which is the path again.
  llvm::StringRef First = (*Text)->getBuffer().split('\n').first.trim();
  if (First.empty())
    return std::nullopt;
  It->second = First.str();
  return It->second;
}

bool sameCompileCommand(
    const CompileCommand &Old, const CompileCommand &New,
    llvm::function_ref<bool(llvm::StringRef, llvm::StringRef)> SameCompiler) {
  if (Old.Directory != New.Directory ||
      Old.Arguments.size() != New.Arguments.size())
    return false;
  if (Old.Arguments.empty())
    return true;
  if (!std::equal(Old.Arguments.begin() + 1, Old.Arguments.end(),
                  New.Arguments.begin() + 1))
    return false;
  return Old.Arguments[0] == New.Arguments[0] ||
         SameCompiler(Old.Arguments[0], New.Arguments[0]);
}

} // namespace cpp
} // namespace tia
