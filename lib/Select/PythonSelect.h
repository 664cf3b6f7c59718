//===- PythonSelect.h - selection rules for Python files --------*- C++ -*-===//
//
// Private to lib/Select: what the selection does differently for Python
// files, kept out of Selection.cpp so that its C++ path reads as before.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_PYTHONSELECT_H
#define TIA_LIB_SELECT_PYTHONSELECT_H

#include "tia/Git/Repository.h"
#include "tia/Select/Changes.h"
#include "tia/Support/Model.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace select {

/// True for an element of the Python front end ("py:" keys).
bool isPythonElement(const Element &E);

/// Why a change to Python file \p C cannot be reasoned about by its
/// elements: a conftest.py or a package __init__.py that appears (pytest
/// loads every conftest.py above a test; importing anything of a package
/// runs its __init__.py first, so neither needs an import that changed).
/// std::nullopt otherwise.
std::optional<std::string> pythonFileFallback(const git::FileChange &C);

/// The test function a parametrized pytest id is an instance of:
/// "pytest:f.py::K::test_x" of "pytest:f.py::K::test_x[a-1]" (parametrize,
/// pytest.param ids, pytest_generate_tests, indirect parametrization all
/// name instances so); std::nullopt for an id without parameters.
std::optional<std::string> pytestFunctionId(llvm::StringRef Id);

/// The ids ("pytest:<node id>") of the tests \p New defines inside changed
/// element \p CE: a test whose own code changed, or that is new, is
/// selected even before any coverage links it to its code.
std::vector<std::string> testsDefinedIn(const FileIndex &New,
                                        const ChangedElement &CE);

/// A top-level function deleted from a Python module may still be named by
/// the modules that import it (`from m import f` fails at import): adds
/// \p New's module element to \p Cmp as modified, so that every test
/// importing the module is selected. Does nothing when the module element
/// changed anyway.
void addLostNames(FileComparison &Cmp, const FileIndex *New,
                  const std::vector<unsigned> &DeletedLines);

/// A module that lost an import (a name it bound, or a module it ran) is
/// modified, as a whole: its code may still use the name. Imports of the
/// standard library that only bind names are not part of the module's
/// hash (extractor.py), so one added changes nothing by itself, and one
/// removed is found here.
void addLostImports(FileComparison &Cmp, const FileIndex *Old,
                    const FileIndex *New,
                    const std::vector<unsigned> &DeletedLines);

/// The name a new Python element shares with the elements it may take
/// calls from: a new method may override a method of that name in a base
/// class. Empty for other Python elements (a new function, class or
/// variable is only reached through code that changed to reach it; one
/// that shadows an import or a builtin changes its module's hash).
std::string pythonSiblingName(const Element &E);

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_PYTHONSELECT_H
