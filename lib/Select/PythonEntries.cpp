//===- PythonEntries.cpp - where a Python test enters C and C++ -----------===//

#include "PythonEntries.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {

namespace {

constexpr llvm::StringLiteral BindingMark = ":binding:";

/// The Python name of binding key "cpp:FILE:binding:NAME[#N]".
std::string boundName(llvm::StringRef Key) {
  size_t At = Key.rfind(BindingMark);
  llvm::StringRef Name = Key.drop_front(At + BindingMark.size());
  return Name.take_front(Name.find('#')).str();
}

/// A binding no test spells: Python calls it for an operator, a protocol
/// or a construction (dunder methods), or its name is not known.
bool reachedUnnamed(llvm::StringRef Name) {
  return Name == "*" || (Name.starts_with("__") && Name.ends_with("__"));
}

/// The names of NameNode::Uses ("n:compute a:magnify s:get_value").
void addUses(llvm::StringRef Uses, std::set<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Uses.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef U : Parts)
    Out.insert(U.split(':').second.str());
}

} // namespace

llvm::Expected<PythonEntries>
PythonEntries::load(Store &S, const std::vector<FileIndex> &NewVersions) {
  PythonEntries P(S);
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  for (auto &[Path, Hash] : *Files)
    P.HashOf[Path] = Hash;
  if (llvm::Error E = P.loadImports())
    return E;
  auto Defs = S.currentTestDefinitions();
  if (!Defs)
    return Defs.takeError();
  std::set<std::string> Changed;
  for (const FileIndex &F : NewVersions)
    Changed.insert(F.Path);
  for (auto &[Path, D] : *Defs)
    if (D.Framework == "pytest" && !Changed.count(Path))
      P.TestsIn[Path].push_back(D);
  // A changed file's new version: its tests, imports and name nodes.
  for (const FileIndex &F : NewVersions) {
    if (!F.Python)
      continue;
    P.Loaded[F.Path] = F;
    P.PathOfModule[F.Python->Module] = F.Path;
    P.ImportsOf[F.Path] = F.Python->Imports;
    for (const TestDefinition &D : F.Tests)
      if (D.Framework == "pytest")
        P.TestsIn[F.Path].push_back(D);
  }
  for (auto &[Path, List] : P.TestsIn)
    for (const TestDefinition &D : List) {
      P.FileOf["pytest:" + D.Name] = Path;
      P.DefOf["pytest:" + D.Name] = D;
    }
  return P;
}

llvm::Error PythonEntries::loadImports() {
  auto Modules = S.currentPythonModules();
  if (!Modules)
    return Modules.takeError();
  for (auto &[Path, Module] : *Modules)
    PathOfModule[Module] = Path;
  auto Imports = S.currentImports();
  if (!Imports)
    return Imports.takeError();
  for (auto &[Path, I] : *Imports)
    ImportsOf[Path].push_back(I);
  return llvm::Error::success();
}

std::set<std::string>
PythonEntries::projectFiles(const std::string &Path) const {
  std::vector<std::string> Work = {Path};
  // pytest imports the conftest.py files of the test's folder and those
  // above it first.
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(Path);;
       Dir = llvm::sys::path::parent_path(Dir)) {
    std::string Conftest =
        Dir.empty() ? "conftest.py" : Dir.str() + "/conftest.py";
    if (ImportsOf.count(Conftest) || HashOf.count(Conftest))
      Work.push_back(Conftest);
    if (Dir.empty())
      break;
  }
  std::set<std::string> Seen;
  while (!Work.empty()) {
    std::string File = Work.back();
    Work.pop_back();
    if (!Seen.insert(File).second)
      continue;
    auto It = ImportsOf.find(File);
    if (It == ImportsOf.end())
      continue;
    for (const ImportRecord &I : It->second) {
      for (const std::string &M : {I.Module, I.Module + "." + I.Name}) {
        auto F = PathOfModule.find(M);
        if (F != PathOfModule.end())
          Work.push_back(F->second);
      }
    }
  }
  return Seen;
}

std::set<std::string>
PythonEntries::externalModules(const std::set<std::string> &Files) const {
  std::set<std::string> Out;
  for (const std::string &File : Files) {
    auto It = ImportsOf.find(File);
    if (It == ImportsOf.end())
      continue;
    for (const ImportRecord &I : It->second) {
      std::vector<std::string> Candidates = {I.Module};
      if (!I.Name.empty() && I.Name != "*")
        Candidates.push_back(I.Module + "." + I.Name);
      for (const std::string &M : Candidates)
        if (!PathOfModule.count(M))
          Out.insert(M);
    }
  }
  return Out;
}

llvm::Expected<const PythonFileInfo *>
PythonEntries::infoOf(const std::string &Path) {
  auto It = Loaded.find(Path);
  if (It == Loaded.end()) {
    auto Hash = HashOf.find(Path);
    if (Hash == HashOf.end())
      return nullptr;
    auto Got = S.getPythonGraph(Path, Hash->second);
    if (!Got)
      return Got.takeError();
    if (!*Got)
      return nullptr;
    It = Loaded.emplace(Path, std::move(**Got)).first;
  }
  return It->second.Python ? &*It->second.Python : nullptr;
}

llvm::Expected<std::set<std::string>>
PythonEntries::namesUsed(const std::string &Id, const std::string &Path,
                         const std::set<std::string> &Files) {
  std::set<std::string> Names;
  const TestDefinition &Own = DefOf[Id];
  for (const std::string &File : Files) {
    auto Info = infoOf(File);
    if (!Info)
      return Info.takeError();
    if (!*Info)
      continue;
    // The other tests of the test's own file are not its code.
    std::vector<const TestDefinition *> Others;
    if (File == Path)
      for (const TestDefinition &D : TestsIn[Path])
        if (D.Name != Own.Name)
          Others.push_back(&D);
    for (const NameNode &N : (*Info)->Nodes) {
      bool InOther = llvm::any_of(Others, [&](const TestDefinition *D) {
        return D->BeginLine <= N.BeginLine && N.EndLine <= D->EndLine &&
               !(Own.BeginLine <= N.BeginLine && N.EndLine <= Own.EndLine);
      });
      if (!InOther)
        addUses(N.Uses, Names);
    }
    for (const NameBinding &B : (*Info)->Bindings) {
      Names.insert(B.Name);
      Names.insert(B.Local);
    }
  }
  return Names;
}

const std::map<std::string, std::vector<std::string>> &
PythonEntries::bindingsOf(const ReferenceGraph &G) {
  if (BindingsFound)
    return Bindings;
  BindingsFound = true;
  for (const std::string &File : G.files())
    for (const ReferenceGraph::Node *N : G.elementsOf(File))
      if (N->Kind == ElementKind::Binding)
        Bindings[boundName(N->Key)].push_back(N->Key);
  return Bindings;
}

llvm::Expected<std::vector<std::string>>
PythonEntries::entriesOf(const std::string &Id, const ReferenceGraph &G) {
  std::vector<std::string> Keys;
  auto File = FileOf.find(Id);
  if (File == FileOf.end())
    return Keys;
  std::set<std::string> Files = projectFiles(File->second);
  for (const std::string &Module : externalModules(Files)) {
    llvm::StringRef Last = llvm::StringRef(Module).rsplit('.').second;
    if (Last.empty())
      Last = Module;
    std::string Init = "cpp:PyInit_" + Last.str();
    if (G.node(Init) && !llvm::is_contained(Keys, Init))
      Keys.push_back(Init);
  }
  if (Keys.empty())
    return Keys; // no extension of the project: no C or C++ reached
  auto Names = namesUsed(Id, File->second, Files);
  if (!Names)
    return Names.takeError();
  for (const auto &[Name, Elements] : bindingsOf(G))
    if (reachedUnnamed(Name) || Names->count(Name))
      llvm::append_range(Keys, Elements);
  return Keys;
}

} // namespace select
} // namespace tia
