//===- ModuleSource.cpp - where import-time code uses a name --------------===//

#include "ModuleSource.h"
#include "tia/Support/Hash.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tia {
namespace select {

llvm::Expected<std::string> ModuleSource::place(llvm::StringRef Chain,
                                                llvm::StringRef TestFile) {
  llvm::StringRef Rest = Chain;
  if (!Rest.consume_front("module code of "))
    return Chain.str();
  auto [Module, AfterModule] = Rest.split(" uses ");
  if (AfterModule.empty())
    return std::string(); // the module's own code changed
  llvm::StringRef Name =
      AfterModule.take_until([](char C) { return C == ' ' || C == '-'; });
  auto Path = pathOf(Module);
  if (!Path)
    return Path.takeError();
  if (*Path == TestFile)
    return std::string();
  if (Path->empty() || Name.empty())
    return Chain.str();
  auto Line = lineUsing(*Path, Name);
  if (!Line) {
    // Only where the statement is goes missing: no reason to fail the
    // selection over it.
    llvm::consumeError(Line.takeError());
    return Chain.str();
  }
  if (!*Line)
    return Chain.str();
  return ("module code of " + Module + " (" + *Path + ":" + llvm::Twine(*Line) +
          ") uses " + AfterModule)
      .str();
}

llvm::Expected<std::string> ModuleSource::pathOf(llvm::StringRef Module) {
  for (const FileIndex &F : NewVersions)
    if (F.Python && F.Python->Module == Module)
      return F.Path;
  if (!Modules) {
    auto Got = S.currentPythonModules();
    if (!Got)
      return Got.takeError();
    Modules.emplace();
    for (auto &[Path, M] : *Got)
      Modules->emplace(M, Path);
  }
  auto It = Modules->find(Module.str());
  return It == Modules->end() ? std::string() : It->second;
}

llvm::Expected<unsigned> ModuleSource::lineUsing(const std::string &Path,
                                                 llvm::StringRef Name) {
  auto Content = headContent(Path);
  if (!Content)
    return Content.takeError();
  auto Index = elementsOf(Path, *Content);
  if (!Index)
    return Index.takeError();
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(*Content).split(Lines, '\n');
  auto Inside = [&](unsigned L) {
    return llvm::any_of(*Index, [&](const Element &E) {
      return (isFunctionKind(E.Kind) || E.Kind == ElementKind::Class) &&
             E.containsLine(L);
    });
  };
  for (unsigned L = 1; L <= Lines.size(); ++L) {
    llvm::StringRef Text = Lines[L - 1].trim();
    if (Text.starts_with("#") || Text.starts_with("import ") ||
        Text.starts_with("from ") || Inside(L))
      continue;
    if (spells(Text, Name))
      return L;
  }
  return 0u;
}

bool ModuleSource::spells(llvm::StringRef Text, llvm::StringRef Name) {
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t At = Text.find(Name); At != llvm::StringRef::npos;
       At = Text.find(Name, At + 1)) {
    bool Before = At > 0 && IsIdent(Text[At - 1]);
    bool After =
        At + Name.size() < Text.size() && IsIdent(Text[At + Name.size()]);
    if (!Before && !After)
      return true;
  }
  return false;
}

llvm::Expected<std::string> ModuleSource::headContent(const std::string &Path) {
  if (!Head) {
    auto Buf = llvm::MemoryBuffer::getFile(Repo.workdir() + "/" + Path);
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  }
  if (!HeadBlobs) {
    auto Files = Repo.treeFiles(*Head);
    if (!Files)
      return Files.takeError();
    HeadBlobs.emplace(Files->begin(), Files->end());
  }
  auto It = HeadBlobs->find(Path);
  if (It == HeadBlobs->end())
    return std::string();
  return Repo.readBlob(It->second);
}

llvm::Expected<std::vector<Element>>
ModuleSource::elementsOf(const std::string &Path, const std::string &Content) {
  for (const FileIndex &F : NewVersions)
    if (F.Path == Path)
      return F.Elements;
  auto Got = S.getFileIndex(Path, gitBlobHash(Content));
  if (!Got)
    return Got.takeError();
  return *Got ? (*Got)->Elements : std::vector<Element>();
}

} // namespace select
} // namespace tia
