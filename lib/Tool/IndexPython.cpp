//===- IndexPython.cpp - tia index, the Python files ----------------------===//
//
// Lists the Python files git tracks, derives each one's module name from
// the package layout, and parses the versions the store does not hold yet
// (or holds with other settings) with the embedded Python.
//
//===----------------------------------------------------------------------===//

#include "PythonInternal.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Progress.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <set>

namespace tia {
namespace tool {

namespace {

std::optional<std::string> readText(const std::string &Abs) {
  auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

} // namespace

llvm::Expected<python::FrontEndOptions> pythonOptions(const Context &C) {
  python::FrontEndOptions O;
  O.Docstrings = C.Config.Python.Docstrings;
  O.MaxFileSize = C.Config.Python.MaxFileSize;
  auto Pytest = python::loadPytestSettings([&](llvm::StringRef Name) {
    return readText(C.Root + "/" + Name.str());
  });
  if (!Pytest)
    return Pytest.takeError();
  O.Pytest = std::move(*Pytest);
  return O;
}

llvm::Expected<std::vector<std::string>>
listPythonFiles(const Context &C, const std::vector<std::string> &Paths) {
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

llvm::Expected<PythonIndexResult>
indexPythonFiles(const Context &C, Store &S,
                 const std::vector<std::string> &Wanted, bool Quiet,
                 llvm::raw_ostream &Err) {
  PythonIndexResult R;
  if (Wanted.empty())
    return R;
  auto Tracked = C.Repo->trackedFiles();
  if (!Tracked)
    return Tracked.takeError();
  std::set<std::string, std::less<>> AllFiles(Tracked->begin(), Tracked->end());
  auto Options = pythonOptions(C);
  if (!Options)
    return Options.takeError();
  auto IsFile = [&](llvm::StringRef P) { return AllFiles.count(P) != 0; };

  Progress Prog("indexing python", Wanted.size(), Err, Quiet);
  for (const std::string &F : Wanted) {
    std::optional<std::string> Content = readText(C.Root + "/" + F);
    if (!Content) {
      // Tracked but deleted from the work tree: not part of this revision.
      Prog.step(F);
      continue;
    }
    std::string Module = python::moduleName(F, IsFile);
    std::string Hash = gitBlobHash(*Content);
    R.Files.emplace_back(F, Hash);
    auto Stored = S.pythonSettings(F, Hash);
    if (!Stored)
      return Stored.takeError();
    if (*Stored && **Stored == python::settingsFingerprint(Module, *Options)) {
      ++R.Unchanged;
      Prog.step(F);
      continue;
    }
    auto FI = python::indexFile(F, Module, *Content, *Options);
    if (!FI)
      return FI.takeError();
    R.Elements += FI->Elements.size();
    R.Tests += FI->Tests.size();
    if (!FI->Complete)
      R.Incomplete.push_back(F + ": " + FI->Python->Problem);
    R.Parsed.push_back(std::move(*FI));
    Prog.step(F);
  }
  Prog.finish();
  return R;
}

} // namespace tool
} // namespace tia
