//===- tia/Select/Selection.h - which tests a change can affect -----------===//
//
// Reads a change from git, finds the elements it changes (from the store
// where the file versions were indexed, else by parsing them), and maps
// them to the tests whose coverage reaches them. When it cannot reason about
// a change it selects every known test and says why.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_SELECTION_H
#define TIA_SELECT_SELECTION_H

#include "tia/Cpp/FrontEnd.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Select/Changes.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
class Store;
namespace git {
class Repository;
}

namespace select {

/// Why tia could not reason about part of a change (and so selects all).
enum class FallbackKind {
  NonSourceFile,   ///< a build file, a document, a file type with no front end
  BinaryFile,      ///< a binary file
  NotIndexed,      ///< a source file no indexed translation unit reads
  Incomplete,      ///< a version that parsed with errors
  OutsideElements, ///< tokens outside every element changed
  CompileTime,     ///< a constexpr/consteval function changed: compile-time
                   ///< calls are invisible to coverage (no longer produced:
                   ///< the constexpr-caller rule follows the callers)
  IncludeResolution, ///< a file added, deleted or renamed may change what an
                     ///< #include directive finds
};

/// Returns a short stable name: "non-source-file", "binary-file",
/// "not-indexed", "incomplete", "outside-elements", "compile-time",
/// "include-resolution".
llvm::StringRef fallbackName(FallbackKind K);

/// How far a fallback reaches.
enum class FallbackScope {
  All,       ///< every known test
  Includers, ///< the tests covering code of the translation units (main
             ///< file and every project header they read) that read the
             ///< file
};

/// Returns "all" or "includers".
llvm::StringRef scopeName(FallbackScope S);

struct Fallback {
  FallbackKind Kind;
  std::string File;   ///< repository-relative
  std::string Detail; ///< one line for people
  FallbackScope Scope = FallbackScope::All;
  /// For Includers: the translation units (main files), sorted.
  std::vector<std::string> TranslationUnits;
};

/// A file whose change selects nothing, and why ("comment or whitespace
/// only", "renamed without changes").
struct Note {
  std::string File;
  std::string Text;
};

/// The rule that links a changed element to a test (docs/Safety.md).
enum class Rule {
  Covers,          ///< the test covers the changed function itself
  SameName,        ///< a new element may take calls from a same-named one
  Declaration,     ///< the test covers the function a declaration declares
  TypeUse,         ///< ... a function that uses the changed class, enum or
                   ///< alias (by value, its members, its name)
  VariableUse,     ///< ... a function that reads or writes the variable
  Initializer,     ///< ... a function the variable's initialiser calls
  MacroUse,        ///< ... a function that expands or tests the macro
  MacroName,       ///< ... a function that spells a newly defined name
  Region,          ///< ... a function inside the changed #if region
  ConstexprCaller, ///< ... a function that calls the changed constexpr
                   ///< function (compile-time calls leave no coverage)
  Fallback,        ///< a fallback (FallbackIndex) selected it
};

/// Returns "covers", "same-name", "declaration", "type-use",
/// "variable-use", "initializer", "macro-use", "macro-name", "region",
/// "constexpr-caller", "fallback".
llvm::StringRef ruleName(Rule R);

/// One reason a test was selected.
struct Reason {
  /// Index into Selection::Elements; npos for a fallback reason.
  size_t Element = static_cast<size_t>(-1);
  /// Index into Selection::Fallbacks when Element is npos.
  size_t FallbackIndex = static_cast<size_t>(-1);
  /// Empty when the test covers the element itself; otherwise how it is
  /// linked ("covers overload ns::f(int)").
  std::string Via;
  /// The rule that linked them.
  Rule Applied = Rule::Covers;
};

struct SelectedTest {
  std::string Id;
  std::vector<Reason> Reasons;
};

struct Selection {
  std::string BaseCommit; ///< as resolved from --base
  std::string DiffBase;   ///< merge base of base and head (or HEAD)
  std::string HeadCommit; ///< empty when the work tree was compared
  unsigned ChangedFiles = 0;
  /// Changed elements of every kind (functions, and the classes,
  /// variables, macros ... whose users the rules follow).
  std::vector<ChangedElement> Elements;
  std::vector<Fallback> Fallbacks;
  std::vector<Note> Notes;
  std::vector<SelectedTest> Tests; ///< sorted by id
  unsigned TotalTests = 0;
  /// Changed elements no test covers.
  std::vector<size_t> Uncovered;

  /// True when a fallback with scope All applies.
  bool selectsAll() const {
    for (const Fallback &F : Fallbacks)
      if (F.Scope == FallbackScope::All)
        return true;
    return false;
  }
};

struct SelectOptions {
  std::string Base;
  /// std::nullopt: compare the work tree with Base.
  std::optional<std::string> Head;
  cpp::FrontEndOptions FrontEnd;
  /// How Python versions that are not in the store are parsed.
  python::FrontEndOptions Python;
};

/// Selects the tests \p Options' change can affect. Fails for an unknown
/// revision, a store that was never indexed ("no index in the database: run
/// 'tia index' first"), or a git or store error; never for source that does
/// not parse (that selects all).
llvm::Expected<Selection> selectTests(git::Repository &Repo, Store &S,
                                      const SelectOptions &Options);

/// True for the file names the C++ front end reads (.cpp, .h, ...).
bool isCppSource(llvm::StringRef Path);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_SELECTION_H
