//===- PythonSettings.cpp - the Python settings ---------------------------===//

#include "tia/Select/PythonSettings.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tia {
namespace select {

namespace {

std::optional<std::string> readText(const std::string &Abs) {
  auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

} // namespace

llvm::Expected<python::FrontEndOptions>
pythonOptions(const config::Workspace &W,
              const python::PytestSettingsMemo &Memo) {
  python::FrontEndOptions O;
  O.Docstrings = W.Config.Python.Docstrings;
  O.MaxFileSize = W.Config.Python.MaxFileSize;
  auto Pytest = python::loadPytestSettings(
      [&](llvm::StringRef Name) { return readText(W.Root + "/" + Name.str()); },
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

StaticOptions staticOptions(const config::Workspace &W,
                            const python::FrontEndOptions &Python) {
  StaticOptions O;
  O.CriticalFunctions = W.Config.Python.CriticalFunctions;
  O.RegistryKeywords = W.Config.Python.RegistryDecorators;
  O.TestFunctionPatterns = Python.Pytest.PythonFunctions;
  return O;
}

} // namespace select
} // namespace tia
