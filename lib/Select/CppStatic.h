//===- CppStatic.h - static selection for C++, untested changes -*- C++ -*-===//
//
// Private to lib/Select. After coverage and the mode's Python part decided
// their reasons: the C++ reference graph decides the C++ tests of the
// static mode (and those without coverage, and the new elements, in the
// combined mode); then, in every mode, whether a test reaches each changed
// function (with the public entry points and call paths of those none
// reaches) and the share of changed lines the selected tests covered.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_CPPSTATIC_H
#define TIA_LIB_SELECT_CPPSTATIC_H

#include "tia/Select/Selection.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;
namespace git {
class Repository;
}
namespace select {

llvm::Error applyCppGraph(const git::Repository &Repo, Store &S,
                          const SelectOptions &O,
                          const std::vector<FileIndex> &OldVersions,
                          const std::vector<FileIndex> &NewVersions,
                          Selection &Sel,
                          std::map<std::string, std::vector<Reason>> &ByTest);

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_CPPSTATIC_H
