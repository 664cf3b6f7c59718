//===- PythonEntries.h - where a Python test enters C and C++ ---*- C++ -*-===//
//
// Private to lib/Select. For the static mode on a database that was only
// indexed: the points of the C++ reference graph at which a Python test's
// code may enter C or C++. Those are the initialisers (PyInit_NAME) of the
// extension modules its file imports, directly or through the project's
// modules and its conftest.py files, which run at import; and the binding
// elements (ElementKind::Binding: a pybind11 or nanobind .def, a
// PyMethodDef entry) whose Python name the test's code uses. A binding
// whose name a test never spells (an operator, a dunder method Python
// calls for it) is an entry of every test that imports an extension.
//
// Which names a test uses is read from the name nodes of the Python index
// (NameNode::Uses, and the names its imports bind): those of the test's own
// definition, of the rest of its file outside the other tests, and of every
// project module it imports. A name built at run time (getattr with a
// computed string) is not seen; docs/Safety.md says so.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_PYTHONENTRIES_H
#define TIA_LIB_SELECT_PYTHONENTRIES_H

#include "tia/Select/Graph.h"
#include "tia/Support/Model.h"
#include "llvm/Support/Error.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;
namespace select {

class PythonEntries {
public:
  /// The latest revision's Python files of \p S, with the changed files'
  /// new versions \p NewVersions instead of their stored ones.
  static llvm::Expected<PythonEntries>
  load(Store &S, const std::vector<FileIndex> &NewVersions);

  /// The pytest tests of the head: "pytest:ID" -> the file defining it.
  const std::map<std::string, std::string> &tests() const { return FileOf; }

  /// The keys of \p G at which test \p Id may enter C or C++; empty when
  /// its code imports no extension module \p G knows.
  llvm::Expected<std::vector<std::string>> entriesOf(const std::string &Id,
                                                     const ReferenceGraph &G);

private:
  PythonEntries(Store &S) : S(S) {}
  llvm::Error loadImports();
  /// The project files \p Path runs when imported by pytest: itself, its
  /// conftest.py files and the project modules they import, transitively.
  std::set<std::string> projectFiles(const std::string &Path) const;
  /// The modules outside the project that \p Files import (each candidate
  /// of `from M import N`: M, and M.N, which may be a submodule).
  std::set<std::string>
  externalModules(const std::set<std::string> &Files) const;
  /// Python info of the head version of \p Path; null when not indexed.
  llvm::Expected<const PythonFileInfo *> infoOf(const std::string &Path);
  /// The names test \p Id (defined in \p Path) and \p Files use.
  llvm::Expected<std::set<std::string>>
  namesUsed(const std::string &Id, const std::string &Path,
            const std::set<std::string> &Files);
  /// The binding elements of \p G by their Python name.
  const std::map<std::string, std::vector<std::string>> &
  bindingsOf(const ReferenceGraph &G);

  Store &S;
  std::map<std::string, std::string> FileOf;       ///< test id -> path
  std::map<std::string, TestDefinition> DefOf;     ///< test id -> definition
  std::map<std::string, std::string> PathOfModule; ///< module -> path
  std::map<std::string, std::vector<ImportRecord>> ImportsOf;
  std::map<std::string, std::string> HashOf; ///< head path -> blob
  std::map<std::string, FileIndex> Loaded;   ///< path -> Python graph
  std::map<std::string, std::vector<TestDefinition>> TestsIn;
  std::map<std::string, std::vector<std::string>> Bindings;
  bool BindingsFound = false;
};

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_PYTHONENTRIES_H
