//===- tia/Support/Model.h - what front ends, store and selection share ---===//
//
// Plain data that crosses library boundaries: code elements, the index of one
// file version and the index of one translation unit. Front ends produce it,
// the store keeps it, selection compares it. None of it knows about Clang or
// SQLite.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_MODEL_H
#define TIA_SUPPORT_MODEL_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {

/// What kind of code an element is.
enum class ElementKind {
  Function, ///< free function
  Method,   ///< member function
  Constructor,
  Destructor,
  Operator,         ///< overloaded operator (free or member)
  Conversion,       ///< conversion function
  Lambda,           ///< the call operator of a lambda
  FunctionTemplate, ///< a function template or a member of a class template
};

/// Returns the stable lowercase name of \p K ("function", "method", ...).
llvm::StringRef kindName(ElementKind K);
/// Parses a name returned by kindName; std::nullopt for anything else.
std::optional<ElementKind> parseKind(llvm::StringRef Name);

/// One code element of one file version.
struct Element {
  /// Stable identity: "cpp:<mangled name>" or, for templates and other
  /// elements without a linker name, "cpp:<USR>".
  std::string Key;
  ElementKind Kind = ElementKind::Function;
  /// Qualified signature for people: "ns::Class::f(int) const".
  std::string Display;
  /// Repository-relative path with '/' separators.
  std::string File;
  /// 1-based, inclusive; template headers and attributes included.
  unsigned BeginLine = 0;
  unsigned EndLine = 0;
  /// Token hash (16 hex digits); comments and layout do not change it.
  std::string Hash;
  /// constexpr or consteval: calls may run at compile time, where coverage
  /// never sees them.
  bool CompileTime = false;
  /// Every name coverage tools may report for it (all manglings, including
  /// those of the template instantiations seen); sorted, unique.
  std::vector<std::string> Names;

  bool containsLine(unsigned Line) const {
    return BeginLine <= Line && Line <= EndLine;
  }
};

/// What a front end learnt about one version of one file.
struct FileIndex {
  std::string Path;        ///< repository-relative
  std::string ContentHash; ///< gitBlobHash of the content parsed
  /// Token hash of every token outside all elements: when it differs between
  /// two versions, something outside the known elements changed.
  std::string ResidualHash;
  /// False when the file was parsed in a translation unit with errors.
  bool Complete = true;
  /// Sorted by (BeginLine, EndLine, Key).
  std::vector<Element> Elements;
};

/// How a translation unit is compiled, as compile_commands.json says.
struct CompileCommand {
  std::string File;                   ///< absolute path of the main file
  std::string Directory;              ///< absolute working directory
  std::vector<std::string> Arguments; ///< argv, compiler first
};

/// What a front end learnt from one translation unit.
struct TranslationUnitIndex {
  CompileCommand Command;
  /// Every project file the TU read (main file and headers), as
  /// repository-relative path and content hash; sorted by path.
  std::vector<std::pair<std::string, std::string>> Dependencies;
  /// The project files' indexes, sorted by path.
  std::vector<FileIndex> Files;
  unsigned ErrorCount = 0;
  unsigned WarningCount = 0;
  /// The first error Clang reported ("file:line:col: message"), if any.
  std::string FirstError;
};

/// Sorts \p F's elements and each element's names into their stable order.
void normalize(FileIndex &F);

} // namespace tia

#endif // TIA_SUPPORT_MODEL_H
