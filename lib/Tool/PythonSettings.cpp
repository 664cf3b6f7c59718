//===- PythonSettings.cpp - the Python settings of the commands -----------===//
//
// The Python front end's and static selection's settings from .tia.yaml
// and pytest's configuration files, and the Python files git tracks that
// `tia index` indexes (lib/Index parses them).
//
//===----------------------------------------------------------------------===//

#include "PythonInternal.h"
#include "llvm/Support/MemoryBuffer.h"

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

llvm::Expected<python::FrontEndOptions>
pythonOptions(const Context &C, const python::PytestSettingsMemo &Memo) {
  python::FrontEndOptions O;
  O.Docstrings = C.Config.Python.Docstrings;
  O.MaxFileSize = C.Config.Python.MaxFileSize;
  auto Pytest = python::loadPytestSettings(
      [&](llvm::StringRef Name) { return readText(C.Root + "/" + Name.str()); },
      Memo);
  if (!Pytest)
    return Pytest.takeError();
  O.Pytest = std::move(*Pytest);
  return O;
}

python::PytestSettingsMemo rememberedIn(Store &S) {
  python::PytestSettingsMemo Memo;
  Memo.Find = [&S](llvm::StringRef Key) -> std::optional<std::string> {
    auto Known = S.rememberedPytestSettings(Key);
    if (!Known) {
      llvm::consumeError(Known.takeError()); // read the files instead
      return std::nullopt;
    }
    return *Known;
  };
  return Memo;
}

select::StaticOptions staticOptions(const Context &C,
                                    const python::FrontEndOptions &Python) {
  select::StaticOptions O;
  O.CriticalFunctions = C.Config.Python.CriticalFunctions;
  O.RegistryKeywords = C.Config.Python.RegistryDecorators;
  O.TestFunctionPatterns = Python.Pytest.PythonFunctions;
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

} // namespace tool
} // namespace tia
