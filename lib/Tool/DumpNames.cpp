//===- DumpNames.cpp - tia dump names, tia dump evidence ------------------===//
//
// What name-based static selection keeps: the name graph of each Python
// file of the latest index, the critical names and the runtime evidence.
//
//===----------------------------------------------------------------------===//

#include "PythonInternal.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"

namespace tia {
namespace tool {

llvm::Error dumpNames(Store &S, const DumpOptions &O, llvm::raw_ostream &Out) {
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  bool Found = false;
  for (auto &[Path, Hash] : *Files) {
    if (!python::isPythonSource(Path) || (!O.File.empty() && Path != O.File))
      continue;
    auto FI = S.getPythonGraph(Path, Hash);
    if (!FI)
      return FI.takeError();
    if (!*FI || !(*FI)->Python)
      continue;
    Found = true;
    const PythonFileInfo &P = *(*FI)->Python;
    Out << Path << " (module " << P.Module << ")";
    if (!(*FI)->Complete)
      Out << " (incomplete: " << P.Problem << ")";
    Out << "\n";
    for (const NameNode &N : P.Nodes) {
      Out << "  " << N.BeginLine << "-" << N.EndLine << " " << N.Id;
      if (!N.Class.empty())
        Out << " in " << N.Class;
      if (!N.Bases.empty())
        Out << " bases " << llvm::join(N.Bases, ",");
      if (!N.Decorators.empty())
        Out << " @" << llvm::join(N.Decorators, " @");
      if (!N.Flags.empty())
        Out << " [" << llvm::join(N.Flags, ",") << "]";
      if (!N.Aliases.empty())
        Out << " aka " << llvm::join(N.Aliases, ",");
      if (O.Hashes)
        Out << " #" << N.Checksum;
      Out << "\n";
      if (!N.Uses.empty())
        Out << "    uses " << N.Uses << "\n";
    }
    for (const NameBinding &B : P.Bindings)
      Out << "  binds " << B.Local << " = " << B.Module
          << (B.Name.empty() ? "" : ":" + B.Name) << "\n";
  }
  if (!O.File.empty() && !Found)
    return makeErrorf("{0} is not a Python file of the index: check the path "
                      "(relative to the repository root) or run 'tia index'",
                      O.File);
  return llvm::Error::success();
}

llvm::Error dumpEvidence(Store &S, llvm::raw_ostream &Out) {
  auto Critical = S.criticalNames();
  if (!Critical)
    return Critical.takeError();
  for (auto &[Name, Gain] : *Critical)
    Out << "critical " << Name << " " << Gain << "\n";
  auto Runs = S.runtimeEvidence();
  if (!Runs)
    return Runs.takeError();
  for (const RuntimeEvidence &R : *Runs) {
    Out << "run " << R.Id << " "
        << (R.Commit.empty() ? "-" : shortId(R.Commit))
        << (R.Isolated ? " isolated" : " shared") << ": "
        << llvm::join(R.TestFiles, " ") << "\n";
    for (const std::string &K : R.Probed)
      Out << "  probed " << K << "\n";
    for (const RuntimeEvidence::Access &A : R.Accesses)
      Out << "  " << A.Scope << " " << A.Kind << " " << A.Value << "\n";
  }
  return llvm::Error::success();
}

} // namespace tool
} // namespace tia
