//===- PythonSelect.cpp - selection rules for Python files ----------------===//

#include "PythonSelect.h"
#include "llvm/Support/Path.h"

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

std::string pythonSiblingName(const Element &E) {
  if (E.Kind != ElementKind::Method)
    return std::string();
  llvm::StringRef Name = E.Display;
  return Name.rsplit('.').second.str();
}

} // namespace select
} // namespace tia
