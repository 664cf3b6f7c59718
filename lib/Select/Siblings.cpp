//===- Siblings.cpp - what a new element may take calls from --------------===//

#include "Siblings.h"
#include "PythonSelect.h"
#include "tia/Select/Changes.h"
#include <set>

namespace tia {
namespace select {
namespace detail {

llvm::Expected<std::vector<Element>> SiblingFinder::find(const Element &New) {
  if (!Loaded) {
    if (llvm::Error E = load())
      return std::move(E);
    Loaded = true;
  }
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
