//===- Siblings.cpp - what a new element may take calls from --------------===//

#include "Siblings.h"
#include "PythonSelect.h"
#include "tia/Select/Changes.h"
#include <set>

namespace tia {
namespace select {
namespace detail {

std::string enclosingScope(const Element &E) {
  if (isPythonElement(E))
    return llvm::StringRef(E.Display).rsplit('.').first.str();
  std::string Name = qualifiedName(E.Display);
  llvm::StringRef Qualified = Name;
  // A function template's display names its parameters: "C::f<T>".
  if (Qualified.ends_with(">") && !Qualified.contains("operator")) {
    int Depth = 0;
    for (size_t I = Qualified.size(); I-- > 0;) {
      Depth += Qualified[I] == '>' ? 1 : Qualified[I] == '<' ? -1 : 0;
      if (Depth == 0) {
        Qualified = Qualified.take_front(I);
        break;
      }
    }
  }
  size_t Colons = Qualified.rfind("::");
  return Colons == llvm::StringRef::npos ? std::string()
                                         : Qualified.take_front(Colons).str();
}

llvm::Error SiblingFinder::loadOnce() {
  if (Loaded)
    return llvm::Error::success();
  Loaded = true;
  return load();
}

llvm::Expected<std::vector<Element>>
SiblingFinder::constructorsOf(llvm::StringRef Class) {
  if (llvm::Error E = loadOnce())
    return E;
  // "ns::Box<T>" is constructed by "ns::Box<T>::Box(...)".
  llvm::StringRef Bare = Class.rsplit("::").second;
  if (Bare.empty())
    Bare = Class;
  Bare = Bare.take_until([](char C) { return C == '<'; });
  std::vector<Element> Out;
  std::set<std::string> Seen;
  auto It = ByName.find(Bare.str());
  if (It != ByName.end())
    for (const Element &E : It->second)
      if (E.Kind == ElementKind::Constructor && enclosingScope(E) == Class &&
          Seen.insert(E.Key).second)
        Out.push_back(E);
  return Out;
}

llvm::Expected<std::vector<Element>> SiblingFinder::find(const Element &New) {
  if (llvm::Error E = loadOnce())
    return E;
  std::vector<Element> Out;
  std::set<std::string> Seen{New.Key};
  auto It = ByName.find(siblingKey(New));
  if (It != ByName.end())
    for (const Element &E : It->second)
      if (Seen.insert(E.Key).second)
        Out.push_back(E);
  return Out;
}

llvm::Error SiblingFinder::load() {
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  for (auto &[Path, Hash] : *Files) {
    auto FI = S.getFileIndex(Path, Hash);
    if (!FI)
      return FI.takeError();
    if (*FI)
      add(**FI);
  }
  for (const FileIndex &F : OldVersions)
    add(F);
  return llvm::Error::success();
}

std::string SiblingFinder::siblingKey(const Element &E) {
  if (isPythonElement(E)) {
    std::string Name = pythonSiblingName(E);
    return Name.empty() ? Name : "py." + Name;
  }
  return E.Kind == ElementKind::Lambda ? std::string()
                                       : unqualifiedName(E.Display);
}

void SiblingFinder::add(const FileIndex &F) {
  for (const Element &E : F.Elements) {
    std::string Key = siblingKey(E);
    if (!Key.empty())
      ByName[Key].push_back(E);
  }
}

} // namespace detail
} // namespace select
} // namespace tia
