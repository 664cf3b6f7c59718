//===- tia/Select/Changes.h - from changed lines to changed elements ------===//
//
// Compares two versions of one file, as front ends indexed them, together
// with the lines git says changed, and names the elements that changed.
// Pure functions over plain data, so range intersection and hunk mapping
// are unit-tested without git, Clang or SQLite.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_CHANGES_H
#define TIA_SELECT_CHANGES_H

#include "tia/Support/Model.h"
#include <string>
#include <vector>

namespace tia {
namespace select {

enum class ElementChange { Modified, Added, Deleted };

/// Returns "modified", "added" or "deleted".
llvm::StringRef changeName(ElementChange C);

/// One element that differs between the two versions.
struct ChangedElement {
  ElementChange Change = ElementChange::Modified;
  /// The new version's element, or the old one when deleted.
  Element Elem;
  /// The changed lines inside it: new-side lines for modified and added
  /// elements, old-side lines for deleted ones; ascending.
  std::vector<unsigned> Lines;
};

/// What differs between two versions of one file.
struct FileComparison {
  std::vector<ChangedElement> Elements; ///< sorted by (file, line, key)
  /// True when a token outside every element differs (a global, a class
  /// body, a macro, an include...): the elements alone do not explain it.
  bool OutsideElements = false;
  /// The changed lines that fall in no element (new side, then old side);
  /// conditional regions do not count as holding the lines between their
  /// directives.
  std::vector<unsigned> LinesOutsideNew, LinesOutsideOld;
  /// Elements on both sides that the diff's lines touch but whose tokens
  /// are the same (comments, whitespace, layout): no semantic change.
  std::vector<Element> Unchanged;
};

/// Compares \p Old and \p New (either may be null: an added or deleted
/// file). \p DeletedLines are old-side and \p AddedLines new-side line
/// numbers. An element is changed when its key is on one side only, or its
/// token hash differs; comment and whitespace edits therefore change none.
/// Residual (outside-element) tokens are compared only when both versions
/// exist.
FileComparison compareVersions(const FileIndex *Old, const FileIndex *New,
                               const std::vector<unsigned> &DeletedLines,
                               const std::vector<unsigned> &AddedLines);

/// The lines of \p Lines inside [E.BeginLine, E.EndLine].
std::vector<unsigned> linesIn(const Element &E,
                              const std::vector<unsigned> &Lines);

/// The name part of a display signature: "ns::f(int) const" -> "ns::f".
std::string qualifiedName(llvm::StringRef Display);

/// The bare name: "ns::S::f(int) const" -> "f", "ns::twice<int>(int)" ->
/// "twice", "ns::operator<(A, A)" -> "operator<".
std::string unqualifiedName(llvm::StringRef Display);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_CHANGES_H
