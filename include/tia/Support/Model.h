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
  // Elements that are not functions: what they change reaches tests through
  // the functions that reference them (FileIndex::References) or, for
  // Python, through the import graph.
  Module,   ///< Python: a module's import-time code (top-level statements
            ///< other than definitions and assignments)
  Class,    ///< a C++ class, struct or union definition (templates included);
            ///< a Python class's header and non-method body statements
  Variable, ///< a C++ namespace-scope variable or static data member; a
            ///< Python module-level assignment
  Enum,     ///< an enumeration with its enumerators
  Alias,    ///< a typedef or using-alias (alias templates included)
  Macro,    ///< a #define or #undef
  Conditional, ///< an #if/#ifdef/#ifndef ... #endif region at file scope
  Declaration, ///< a function declaration without a body (a prototype)
  /// A name an extension module makes visible to Python (a pybind11 or
  /// nanobind .def, a PyMethodDef entry): the binding call or table entry,
  /// referencing what the name runs. Keyed "cpp:<file>:binding:<name>".
  Binding,
};

/// True for the kinds that run code of their own (functions, methods,
/// constructors, lambdas, templates...): coverage reaches them directly.
bool isFunctionKind(ElementKind K);

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
  /// Python functions and methods: the first line of the body. The lines
  /// before it (decorators, signature) run when the enclosing code defines
  /// the function, not when it is called. 0 for other elements.
  unsigned BodyLine = 0;

  bool containsLine(unsigned Line) const {
    return BeginLine <= Line && Line <= EndLine;
  }
};

/// How one element depends on another (docs/Formats.md, "References").
enum class ReferenceKind {
  Type,     ///< names a type or uses a value of it (class, enum, alias)
  Variable, ///< reads or writes a variable
  Macro,    ///< expands a macro, or tests whether it is defined
  Call,     ///< calls or takes the address of a function
  Region,   ///< lies inside a conditional region
  Declares, ///< the function From is declared by the declaration To
  /// the virtual method From overrides the method To: a call of To may run
  /// From (the reference graph follows it backwards, docs/Safety.md)
  Overrides,
};

/// Returns "type", "variable", "macro", "call", "region", "declares",
/// "overrides".
llvm::StringRef referenceKindName(ReferenceKind K);
/// Parses a name returned by referenceKindName; std::nullopt otherwise.
std::optional<ReferenceKind> parseReferenceKind(llvm::StringRef Name);

/// An edge of the reference graph: the element From depends on the entity
/// To, an element key that may live in any file ("cpp:macro:NAME" for
/// macros). From is an element of the file that holds the reference, except
/// for Declares (the function may be defined elsewhere) and for code
/// outside every element ("cpp:file:PATH").
struct Reference {
  std::string From;
  std::string To;
  ReferenceKind Kind = ReferenceKind::Type;

  bool operator<(const Reference &O) const;
  bool operator==(const Reference &O) const;
};

/// One #include directive of a file.
struct IncludeDirective {
  unsigned Line = 0;
  std::string Spelling; ///< as written, without quotes or brackets
  bool Angled = false;
  /// Repository-relative path of the project file it found; empty for a
  /// system header or a file that was not found.
  std::string Resolved;
};

/// A test as its source defines it, known before any build or run: a
/// GoogleTest TEST/TEST_F/TEST_P/TYPED_TEST, a pytest test function or
/// method, a unittest.TestCase method.
struct TestDefinition {
  std::string Framework; ///< "gtest", "pytest"
  /// The name within its framework: "Suite.Name" for GoogleTest (for
  /// parameterized and typed tests the pattern as written, without the
  /// instantiation prefix or suffix); the node id for pytest
  /// ("tests/test_a.py::TestX::test_y").
  std::string Name;
  /// 1-based, inclusive: the whole definition, macro or decorators included.
  unsigned BeginLine = 0;
  unsigned EndLine = 0;
};

/// One import a Python file makes (at any depth: lazy imports in functions
/// too).
struct ImportRecord {
  /// The absolute dotted module ("pkg.sub"), relative imports resolved.
  std::string Module;
  /// `from Module import Name`: Name ("*" for a star import; it may name a
  /// submodule); empty for `import Module`.
  std::string Name;
  unsigned Line = 0;
};

/// One code element of name-based dependency propagation (NameRTS, see
/// lib/Select/NameRTS.h): a module's import-time statements, a class
/// header, a top-level function or method (with what is nested in it), or
/// a shared variable (one module- or class-level assignment). Finer than
/// the elements of Element: its names come from the bytecode.
struct NameNode {
  /// Unique within its file: "<kind>:<qualified name>" with "#2", "#3"...
  /// for a name defined twice ("function:A1.magnify", "variable:X#2",
  /// "module:<module>").
  std::string Id;
  /// "module", "class", "function" or "variable".
  std::string Kind;
  /// The name it is defined under ("magnify"; "<module>" for the module).
  std::string Name;
  /// The name of the class defining it (functions and variables); empty
  /// outside classes.
  std::string Class;
  /// The key of the Element holding it (a method's own key, the module's
  /// for a definition inside an `if`).
  std::string Key;
  unsigned BeginLine = 0, EndLine = 0;
  /// Hash of its bytecode with positions normalised away.
  std::string Checksum;
  /// The same without a function's body: its decorators, default values
  /// and binding. A registered function whose header changed is
  /// registered differently.
  std::string HeaderChecksum;
  /// The external names it uses, in order of first use, space-separated,
  /// each prefixed by its kind: "n:" (no dot), "s:" (attribute of self or
  /// cls), "a:" (any other attribute): "n:compute a:magnify s:get_value".
  std::string Uses;
  /// Its decorators' dotted names ("app.route", "pytest.fixture").
  std::vector<std::string> Decorators;
  /// "fixture" (a pytest fixture), "root" (run for every test that can see
  /// it: an autouse fixture, a conftest.py hook, pytestmark).
  std::vector<std::string> Flags;
  /// Other names it is reached by (a fixture's name= argument).
  std::vector<std::string> Aliases;
  /// Classes: the names of its bases, as written ("Base" of "mod.Base").
  std::vector<std::string> Bases;
};

/// A name an import binds in a Python file: `from Module import Name as
/// Local`; Name is empty for `import Module [as Local]` and Local is "*"
/// for a star import.
struct NameBinding {
  std::string Local;
  std::string Module;
  std::string Name;
};

/// One function a test run should probe for static selection.
struct Probe {
  std::string File;      ///< repository-relative
  std::string Qualified; ///< "Class.method", "function"
  unsigned Line = 0;     ///< first line of the definition (decorators)
  std::string Key;       ///< "py:<module>:<qualified name>", what to report
};

/// What a test run should observe for static selection (see
/// RuntimeEvidence in tia/Store/Store.h for what it records).
struct ProbePlan {
  /// Functions of critical names, double-underscore methods and
  /// registry-decorated functions, sorted by (file, line).
  std::vector<Probe> Probes;
  /// Every name the project defines: dynamic accesses of other names are
  /// not recorded.
  std::vector<std::string> Names;
  /// The test files of the index, sorted.
  std::vector<std::string> TestFiles;
};

/// What the Python front end learnt about a file besides its elements.
struct PythonFileInfo {
  /// The dotted module name the file is imported as ("pkg.mod"; a
  /// package's __init__.py is the package), from its path and the packages
  /// (__init__.py files) above it.
  std::string Module;
  /// Fingerprint of everything besides the content that the index of the
  /// file depends on (module name, settings, extractor version): a stored
  /// version with another fingerprint is parsed again.
  std::string Settings;
  /// Why the file is incomplete (a syntax error, not UTF-8, too large);
  /// empty when it parsed.
  std::string Problem;
  /// Sorted by (Line, Module, Name).
  std::vector<ImportRecord> Imports;
  /// The elements of name-based propagation, in the order the analysis
  /// found them (the module first); empty for an incomplete file.
  std::vector<NameNode> Nodes;
  /// Sorted by (Local, Module, Name).
  std::vector<NameBinding> Bindings;
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
  /// The tests the file defines; sorted by (BeginLine, Framework, Name).
  std::vector<TestDefinition> Tests;
  /// Set for Python files only.
  std::optional<PythonFileInfo> Python;
  /// The references of this file's elements; sorted, unique.
  std::vector<Reference> References;
  /// The #include directives of the file, by line.
  std::vector<IncludeDirective> Includes;
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

/// Sorts \p F's elements, each element's names, \p F's tests, references
/// and includes into their stable order.
void normalize(FileIndex &F);

//===----------------------------------------------------------------------===//
// Tests and their outcomes
//===----------------------------------------------------------------------===//

/// How to run one test again, as discovery found it (ctest's properties,
/// a GoogleTest binary and its filter, a pytest node id).
struct TestCommand {
  std::string Executable;               ///< absolute path
  std::string WorkingDir;               ///< absolute
  std::vector<std::string> Arguments;   ///< after the executable
  std::vector<std::string> Environment; ///< "NAME=VALUE", in order
  double TimeoutSeconds = 0;            ///< 0: none given
  /// The ctest test that runs this test among others: the lit suite's
  /// ctest test a lit test was found in. Empty when ctest runs the test by
  /// its own name, or cannot run it, and when tia does not know one ctest
  /// test for it: two ctest tests run the suite (other parameters), or the
  /// database was collected by a tia that did not keep it.
  std::string EnclosingCTest;
  /// The repository folders below which EnclosingCTest runs every lit
  /// test: the folders its lit command names, as source folders ("." for
  /// the root). A new lit test file below one runs in it. Empty when the
  /// command names only files, or filters or shards its tests.
  std::vector<std::string> EnclosingCTestFolders;
};

/// What tia knows of a test besides its coverage.
struct TestInfo {
  /// "<framework>:<name>": "gtest:<binary>:<Suite.Name>", "ctest:<name>",
  /// "pytest:<node id>".
  std::string Id;
  /// Repository-relative source file that defines the test, and the line;
  /// empty and 0 when unknown.
  std::string File;
  unsigned Line = 0;
  /// How to run it; std::nullopt when only known from coverage or results.
  std::optional<TestCommand> Command;
};

/// The framework part of a test id: "gtest" of "gtest:bin:S.N"; empty
/// without a ':'.
llvm::StringRef testFramework(llvm::StringRef Id);

/// How one run of one test ended.
enum class Outcome {
  Passed,
  Failed,   ///< an assertion failed (non-zero exit)
  Error,    ///< the test could not run (setup error, missing binary)
  TimedOut, ///< killed after its timeout
  Crashed,  ///< ended by a signal
  Skipped,
};

/// Returns "passed", "failed", "error", "timed-out", "crashed", "skipped".
llvm::StringRef outcomeName(Outcome O);
/// Parses a name returned by outcomeName; std::nullopt for anything else.
std::optional<Outcome> parseOutcome(llvm::StringRef Name);
/// True for the outcomes that count as a failure of the test (failed,
/// error, timed-out, crashed).
bool isFailure(Outcome O);

/// One outcome of one test in one run.
struct TestResult {
  std::string TestId;
  Outcome Result = Outcome::Passed;
  double Seconds = 0;
  /// 0 for the first attempt; retries within the same run count up.
  unsigned Attempt = 0;
  /// The failure message or reason, one line; may be empty.
  std::string Message;
};

} // namespace tia

#endif // TIA_SUPPORT_MODEL_H
