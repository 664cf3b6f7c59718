//===- Python.cpp - indexing the Python files -----------------------------===//
//
// Derives each Python file's module name from the package layout and
// parses the versions the store does not hold yet (or holds with other
// settings) with the embedded Python.
//
//===----------------------------------------------------------------------===//

#include "tia/Index/Index.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Progress.h"
#include "llvm/Support/MemoryBuffer.h"
#include <set>

namespace tia {
namespace index {

llvm::Expected<PythonIndexResult>
indexPythonFiles(Store &S, const std::string &Root,
                 const std::vector<std::string> &Files,
                 const std::vector<std::string> &Tracked,
                 const python::FrontEndOptions &Options, bool Quiet,
                 llvm::raw_ostream &Err) {
  PythonIndexResult R;
  if (Files.empty())
    return R;
  std::set<std::string, std::less<>> AllFiles(Tracked.begin(), Tracked.end());
  auto IsFile = [&](llvm::StringRef P) { return AllFiles.count(P) != 0; };

  Progress Prog("indexing python", Files.size(), Err, Quiet);
  for (const std::string &F : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(Root + "/" + F, /*IsText=*/false);
    if (!Buf) {
      // Tracked but deleted from the work tree: not part of this revision.
      Prog.step(F);
      continue;
    }
    std::string Content = (*Buf)->getBuffer().str();
    std::string Module = python::moduleName(F, IsFile);
    std::string Hash = gitBlobHash(Content);
    R.Files.emplace_back(F, Hash);
    auto Stored = S.pythonSettings(F, Hash);
    if (!Stored)
      return Stored.takeError();
    if (*Stored && **Stored == python::settingsFingerprint(Module, Options)) {
      ++R.Unchanged;
      Prog.step(F);
      continue;
    }
    auto FI = python::indexFile(F, Module, Content, Options);
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

} // namespace index
} // namespace tia
