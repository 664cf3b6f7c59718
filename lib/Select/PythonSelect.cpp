//===- PythonSelect.cpp - selection rules for Python files ----------------===//

#include "PythonSelect.h"
#include "llvm/Support/Path.h"
#include <set>

namespace tia {
namespace select {

bool isPythonElement(const Element &E) {
  return llvm::StringRef(E.Key).starts_with("py:");
}

std::optional<std::string> pythonFileFallback(const git::FileChange &C) {
  bool Appears = C.Status == git::ChangeStatus::Added ||
                 C.Status == git::ChangeStatus::Renamed ||
                 C.Status == git::ChangeStatus::Copied;
  if (!Appears)
    return std::nullopt;
  llvm::StringRef Name = llvm::sys::path::filename(C.NewPath);
  llvm::StringRef Dir = llvm::sys::path::parent_path(C.NewPath);
  std::string Where = Dir.empty() ? "the repository" : Dir.str() + "/";
  if (Name == "conftest.py")
    return "new conftest.py: pytest loads it for every test below " + Where +
           " without any import naming it";
  if (Name == "__init__.py")
    return "new package __init__.py: it runs before anything in " + Where +
           " is imported, and changes the module names below it";
  return std::nullopt;
}

std::optional<std::string> pytestFunctionId(llvm::StringRef Id) {
  if (!Id.starts_with("pytest:") || !Id.ends_with("]"))
    return std::nullopt;
  size_t Last = Id.rfind("::");
  if (Last == llvm::StringRef::npos)
    return std::nullopt;
  size_t Open = Id.find('[', Last);
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  return Id.take_front(Open).str();
}

std::vector<std::string> testsDefinedIn(const FileIndex &New,
                                        const ChangedElement &CE) {
  std::vector<std::string> Out;
  if (CE.Change == ElementChange::Deleted || !isPythonElement(CE.Elem))
    return Out;
  for (const TestDefinition &T : New.Tests)
    if (T.Framework == "pytest" && CE.Elem.BeginLine <= T.BeginLine &&
        T.EndLine <= CE.Elem.EndLine)
      Out.push_back("pytest:" + T.Name);
  return Out;
}

void addLostNames(FileComparison &Cmp, const FileIndex *New,
                  const std::vector<unsigned> &DeletedLines) {
  if (!New || !New->Python)
    return;
  const Element *Module = nullptr;
  for (const Element &E : New->Elements)
    if (E.Kind == ElementKind::Module)
      Module = &E;
  if (!Module)
    return;
  bool Lost = false;
  for (const ChangedElement &CE : Cmp.Elements) {
    if (CE.Elem.Key == Module->Key)
      return;
    llvm::StringRef Qualified = llvm::StringRef(CE.Elem.Key).rsplit(':').second;
    Lost |= CE.Change == ElementChange::Deleted &&
            CE.Elem.Kind == ElementKind::Function && !Qualified.contains('.');
  }
  if (!Lost)
    return;
  Cmp.Elements.push_back(
      {ElementChange::Modified, *Module, linesIn(*Module, DeletedLines)});
}

void addLostImports(FileComparison &Cmp, const FileIndex *Old,
                    const FileIndex *New,
                    const std::vector<unsigned> &DeletedLines) {
  if (!Old || !New || !Old->Python || !New->Python)
    return;
  auto Key = [](const ImportRecord &I) {
    return std::make_pair(I.Module, I.Name);
  };
  std::set<std::pair<std::string, std::string>> Kept;
  for (const ImportRecord &I : New->Python->Imports)
    Kept.insert(Key(I));
  if (llvm::all_of(Old->Python->Imports,
                   [&](const ImportRecord &I) { return Kept.count(Key(I)); }))
    return;
  auto Module = llvm::find_if(New->Elements, [](const Element &E) {
    return E.Kind == ElementKind::Module;
  });
  if (Module == New->Elements.end() ||
      llvm::any_of(Cmp.Elements, [&](const ChangedElement &CE) {
        return CE.Elem.Key == Module->Key;
      }))
    return;
  Cmp.Elements.push_back(
      {ElementChange::Modified, *Module, linesIn(*Module, DeletedLines)});
}

std::string pythonSiblingName(const Element &E) {
  if (E.Kind != ElementKind::Method)
    return std::string();
  llvm::StringRef Name = E.Display;
  return Name.rsplit('.').second.str();
}

} // namespace select
} // namespace tia
