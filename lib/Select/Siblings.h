//===- Siblings.h - what a new element may take calls from ------*- C++ -*-===//
//
// Private to lib/Select: the same-named elements (overloads, overrides,
// specialisations, constructors) whose tests a new element inherits.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_SIBLINGS_H
#define TIA_LIB_SELECT_SIBLINGS_H

#include "tia/Store/Store.h"
#include "tia/Support/Model.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace tia {
namespace select {
namespace detail {

/// The class or namespace \p E is declared in, as its display names it:
/// "calc::Vector" of "calc::Vector::length() const", "C" of the function
/// template "C::f<T>(T)", "textkit.words.Counter" of the Python method
/// "textkit.words.Counter.add"; empty at the top level.
std::string enclosingScope(const Element &E);

/// Every element a new element may take calls from: those with the same
/// unqualified name anywhere in the index or in the base versions of the
/// changed files (overloads, overridden virtual functions, the primary
/// template of a specialisation, other constructors of the class). Matching
/// by the bare name over-selects a little and never misses such a sibling.
class SiblingFinder {
public:
  SiblingFinder(Store &S, const std::vector<FileIndex> &OldVersions)
      : S(S), OldVersions(OldVersions) {}

  llvm::Expected<std::vector<Element>> find(const Element &New);

  /// The constructors of the C++ class whose display name is \p Class, in
  /// the index and the base versions of the changed files.
  llvm::Expected<std::vector<Element>> constructorsOf(llvm::StringRef Class);

private:
  llvm::Error load();
  llvm::Error loadOnce();

  /// C++ elements by their bare name, Python methods by theirs ("py."
  /// first, so the languages never mix); empty for elements that have no
  /// siblings.
  static std::string siblingKey(const Element &E);

  void add(const FileIndex &F);

  Store &S;
  const std::vector<FileIndex> &OldVersions;
  bool Loaded = false;
  std::map<std::string, std::vector<Element>> ByName;
};

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_SIBLINGS_H
