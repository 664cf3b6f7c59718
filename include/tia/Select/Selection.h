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
#include "tia/Git/Repository.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Select/Changes.h"
#include "tia/Select/Static.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;

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
  TriggerPath,       ///< a path configured (or by default) to select all
  StaleCoverage,     ///< no coverage snapshot fit to compare with the base
  FullSuiteMarker,   ///< the head commit message asks for every test
  Requested,         ///< --all or TIA_ALL=1
  NoCoverage,        ///< no coverage was ever recorded
  Registry,          ///< a registry decorator changed (static selection): what
                     ///< it registers may run from anywhere
  DataFile,          ///< a file no front end reads, which tests read when
                     ///< traced: scoped to them (docs/Safety.md)
  Boundary,          ///< C or C++ source of a build object that tests
                     ///< crossed into without per-test coverage: scoped to
                     ///< them (docs/Safety.md, "Across languages")
};

/// Returns a short stable name: "non-source-file", "binary-file",
/// "not-indexed", "incomplete", "outside-elements", "compile-time",
/// "include-resolution", "trigger", "stale-coverage", "full-suite-marker",
/// "requested", "no-coverage", "registry", "data-file", "boundary".
llvm::StringRef fallbackName(FallbackKind K);

/// How far a fallback reaches.
enum class FallbackScope {
  All,       ///< every known test
  Includers, ///< the tests covering code of the translation units (main
             ///< file and every project header they read) that read the
             ///< file
  Readers,   ///< the tests that read the file when traced, and those whose
             ///< reads are not known
};

/// Returns "all", "includers" or "readers".
llvm::StringRef scopeName(FallbackScope S);

struct Fallback {
  FallbackKind Kind;
  std::string File;   ///< repository-relative
  std::string Detail; ///< one line for people
  FallbackScope Scope = FallbackScope::All;
  /// For Includers: the translation units (main files), sorted.
  std::vector<std::string> TranslationUnits;
};

/// What kind of change a note stands for, so that code that decides reads
/// the kind and never the text.
enum class NoteKind {
  CommentOnly,    ///< only comments or whitespace changed in the file
  LayoutOnly,     ///< an element changed in comments or layout only
  Renamed,        ///< renamed without changes
  NotCompiled,    ///< not in the compilation database: parsed on its own
  OutsideBuild,   ///< a C/C++ file no translation unit of the build reads
  CoverageData,   ///< a coverage data file
  BytecodeCache,  ///< a Python bytecode cache
  Configuration,  ///< tia's own configuration (.tia.yaml)
  Ignored,        ///< a path select.ignore names (configured)
  DefaultIgnored, ///< a path select.ignore names by default (documents)
  NewImports,     ///< a Python file gained standard-library imports only
};

/// A file whose change selects nothing, and why ("comment or whitespace
/// only", "renamed without changes").
struct Note {
  std::string File;
  std::string Text; ///< one line for people
  NoteKind Kind;
};

/// The text of a NoteKind::OutsideBuild note.
constexpr llvm::StringLiteral OutsideBuildNote =
    "not part of this build: no translation unit of the compilation "
    "database compiles or reads it, at the base or the head";

/// The text of a NoteKind::CommentOnly note.
constexpr llvm::StringLiteral CommentOnlyNote =
    "comment or whitespace changes only";

/// What links a test to a reason.
enum class Evidence {
  Coverage, ///< the coverage map
  Static,   ///< static analysis (Python: name-based propagation)
  Source,   ///< the test's own code changed, or it is new
  Fallback, ///< tia cannot reason about a change
};

/// Returns "coverage", "static", "source" or "fallback".
llvm::StringRef evidenceName(Evidence E);

/// The rule that links a changed element to a test (docs/Safety.md).
enum class Rule {
  Covers,          ///< the test covers the changed function itself
  SameName,        ///< a new element may take calls from a same-named one
  Override,        ///< a new override may run where an object of its class
                   ///< calls a method it overrides (docs/Safety.md)
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
  NameUse,         ///< the names the test uses reach the element (Python
                   ///< static selection, docs/Safety.md)
  Reaches,         ///< the test's code reaches the element through the C++
                   ///< reference graph (static selection, docs/Safety.md)
  Reads,           ///< the test read the changed data file (or listed its
                   ///< folder) when traced, or its reads are not known
  Boundary,        ///< the test crossed into a build object made from the
                   ///< changed file without per-test coverage of it
};

/// Returns "covers", "same-name", "override", "declaration", "type-use",
/// "variable-use", "initializer", "macro-use", "macro-name", "region",
/// "constexpr-caller", "fallback", "name-use", "reaches", "reads",
/// "boundary".
llvm::StringRef ruleName(Rule R);

/// The index that points at nothing (an element or fallback index that
/// does not apply).
constexpr size_t NoIndex = static_cast<size_t>(-1);

/// One reason a test was selected.
struct Reason {
  /// Index into Selection::Elements; NoIndex for a fallback reason.
  size_t Element = NoIndex;
  /// Index into Selection::Fallbacks when Element is NoIndex.
  size_t FallbackIndex = NoIndex;
  /// Empty when the test covers the element itself; otherwise how it is
  /// linked ("covers overload ns::f(int)"; for static evidence, the names
  /// that lead from the test to the element).
  std::string Via;
  /// The rule that linked them.
  Rule Applied = Rule::Covers;
  /// What the link rests on.
  Evidence By = Evidence::Coverage;
  /// The build object the test reached the element through, when it is
  /// not the test's own program: a Python test's extension module or the
  /// program it ran ("extension build/_geom.so", "program build/geomcli").
  std::string Through;
  /// For a covered Python element that runs when a module is imported:
  /// static analysis' chain from the import-time code to it ("module code
  /// of pkg uses setup -> pkg.setup"), which tells why every test that
  /// imports the module ran it.
  std::string AtImport;
};

struct SelectedTest {
  std::string Id;
  std::vector<Reason> Reasons;
};

/// One changed file of the diff.
struct ChangedFile {
  std::string Path;    ///< the new path; the old one for a deleted file
  std::string OldPath; ///< empty for an added file
  git::ChangeStatus Status = git::ChangeStatus::Modified;
};

/// The tests a changed source file defines, in both versions, with the
/// lines the diff changed.
struct TestFileChange {
  std::string Path;    ///< new path; empty when deleted
  std::string OldPath; ///< empty when added
  std::vector<TestDefinition> Old, New;
  std::vector<unsigned> DeletedLines, AddedLines;
  /// pytest classes of the new version ("tests/a.py::TestX") that may
  /// inherit tests from a class of another file (openTestClasses).
  std::vector<std::string> OpenClasses;
};

/// A call path of the reference graph: element keys and what people read,
/// from an entry point (first) to a changed function (last).
struct CallPath {
  std::vector<std::string> Keys;
  std::vector<std::string> Displays;
  /// Where each function is defined: its file (empty when unknown) and
  /// first line (0 when unknown).
  std::vector<std::string> Files;
  std::vector<unsigned> Lines;
};

/// Whether the tests reach one changed function, and if none does, how a
/// new test could (docs/Formats.md, "Untested changes").
struct FunctionReach {
  size_t Element = 0; ///< into Selection::Elements
  /// "coverage", "static": what links some selected test to it; empty when
  /// no test reaches it.
  std::vector<std::string> By;
  /// When no test reaches it: the public entry points it is reachable
  /// from, one shortest path each, shortest first, at most 5.
  std::vector<CallPath> Paths;
  /// The entry points found in all (Paths holds at most 5).
  unsigned EntryPoints = 0;
  /// Constructors, destructors, operators and conversions: what runs them
  /// ("runs when a calc::Vector is constructed"); empty for the others.
  std::string Trigger;

  bool reached() const { return !By.empty(); }
};

/// One file's changed executable lines (the lines of changed functions)
/// and those a selected test covered in the coverage map.
struct FileChangeCoverage {
  std::string Path;
  unsigned Lines = 0;
  unsigned Covered = 0;
};

/// The share of changed executable lines the selected tests covered in the
/// last collect ("union coverage", docs/Formats.md).
struct ChangeCoverage {
  /// False when no coverage was ever recorded: the shares mean nothing.
  bool Known = false;
  std::vector<FileChangeCoverage> Files; ///< sorted by path
  unsigned Lines = 0, Covered = 0;
};

struct Selection {
  std::string BaseCommit; ///< as resolved from --base
  std::string DiffBase;   ///< merge base of base and head (or HEAD)
  std::string HeadCommit; ///< empty when the work tree was compared
  unsigned ChangedFiles = 0;
  std::vector<ChangedFile> Files; ///< in diff order (by path)
  /// Changed elements of every kind (functions, and the classes,
  /// variables, macros ... whose users the rules follow).
  std::vector<ChangedElement> Elements;
  std::vector<Fallback> Fallbacks;
  std::vector<Note> Notes;
  std::vector<SelectedTest> Tests; ///< sorted by id
  unsigned TotalTests = 0;
  /// Changed elements no test covers.
  std::vector<size_t> Uncovered;
  /// The changed source files that define tests (either version).
  std::vector<TestFileChange> TestFiles;
  /// The mode that mapped elements to tests.
  SelectionMode Mode = SelectionMode::Combined;
  /// What the mode did that the reader should know (tests decided by
  /// static analysis because their coverage is stale, test files without
  /// runtime evidence...), one line each.
  std::vector<std::string> ModeNotes;
  /// C++ tests whose reasons the reference graph decided (static mode: all
  /// with a known source; combined: those without coverage): the policy
  /// adds no "never covered" reason for them.
  std::set<std::string> GraphDecided;
  /// Every changed (modified, added or deleted) C++ function, in Elements
  /// order: whether a test reaches it.
  std::vector<FunctionReach> Reach;
  ChangeCoverage Coverage;
  /// Changed Python elements whose change only rebinds names (Safety.md,
  /// "Bindings"), by index into Elements: the keys of the functions and
  /// methods that use those names. What runs them is what the change
  /// affects, not every test whose import bound the names.
  std::map<size_t, std::vector<std::string>> NameBoundUsers;

  /// Puts \p First before the fallbacks there are, in its order, and moves
  /// every reason's FallbackIndex with its fallback, so that no index goes
  /// out of step with Fallbacks.
  void prependFallbacks(const std::vector<Fallback> &First);

  /// True when a fallback with scope All applies.
  bool selectsAll() const {
    for (const Fallback &F : Fallbacks)
      if (F.Scope == FallbackScope::All)
        return true;
    return false;
  }
};

/// What a changed path means before any front end looks at it.
struct PathVerdict {
  bool Trigger = false; ///< selects every test; else it never affects one
  std::string Detail;   ///< one line for people
  /// The kind of the note a path that never affects a test gets.
  NoteKind Kind = NoteKind::Ignored;
};

struct SelectOptions {
  std::string Base;
  /// std::nullopt: compare the work tree with Base.
  std::optional<std::string> Head;
  cpp::FrontEndOptions FrontEnd;
  /// How Python versions that are not in the store are parsed.
  python::FrontEndOptions Python;
  /// Diff from this commit instead of the merge base of base and head (the
  /// commit the coverage was collected at).
  std::optional<std::string> DiffFrom;
  /// The coverage snapshot that links elements to tests; std::nullopt: the
  /// latest coverage of each test.
  std::optional<int64_t> Snapshot;
  /// Decides what a changed file means before its contents are looked at;
  /// std::nullopt (or no function): nothing special.
  std::function<std::optional<PathVerdict>(const git::FileChange &)> Classify;
  /// Elements changed by something other than their text (a translation
  /// unit's compile command), mapped to tests like the others.
  std::vector<ChangedElement> ExtraElements;
  SelectionMode Mode = SelectionMode::Combined;
  StaticOptions Static;
  /// The public headers (cpp.public-headers): their functions are entry
  /// points of untested changes; null: headers under an `include`
  /// directory.
  std::function<bool(llvm::StringRef)> PublicHeader;
  /// Which repository-relative paths tia indexes (paths.include and
  /// paths.exclude); null: all.
  std::function<bool(llvm::StringRef)> Included;
  /// The build's compilation database (compile_commands.json); empty when
  /// there is no build directory. A C/C++ file that no translation unit of
  /// it reads is not part of the build when the index covered all of this
  /// database as it is now. Read only when such a file changed.
  std::string CompileDatabasePath;
  /// A changed file no front end reads that no traced test read selects
  /// every test (select.unread_files_select_all); otherwise only the tests
  /// whose reads are not known.
  bool UnreadFilesSelectAll = true;
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
