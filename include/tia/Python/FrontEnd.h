//===- tia/Python/FrontEnd.h - the Python front end -----------------------===//
//
// Indexes Python files with Python's own parser: an extractor written in
// Python (lib/Python/extractor.py, compiled into tia) runs in a CPython
// embedded in tia. It yields code elements (module, class, function,
// method, variable) keyed "py:<module>:<qualified name>", the tests pytest
// would collect, and the imports each file makes.
//
// The interpreter is Debian's libpython, started once per process in
// isolated mode (no environment variables, no site-packages, no signal
// handlers); its output never reaches the terminal and a Python exception
// never ends tia.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_PYTHON_FRONTEND_H
#define TIA_PYTHON_FRONTEND_H

#include "tia/Support/Model.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace python {

/// pytest's test-discovery options, as the project's configuration sets
/// them (pytest's defaults otherwise).
struct PytestSettings {
  /// The file they came from ("pytest.ini", "pyproject.toml", "tox.ini",
  /// "setup.cfg"); empty for the defaults.
  std::string ConfigFile;
  std::vector<std::string> PythonFiles{"test_*.py", "*_test.py"};
  std::vector<std::string> PythonClasses{"Test"};
  std::vector<std::string> PythonFunctions{"test"};
  std::vector<std::string> TestPaths;
};

struct FrontEndOptions {
  /// A docstring change is a change of its element (python.docstrings).
  bool Docstrings = true;
  /// Larger files are not parsed and are recorded as incomplete
  /// (python.max-file-size).
  uint64_t MaxFileSize = 4 << 20;
  PytestSettings Pytest;
};

/// True for the files the Python front end reads (".py").
bool isPythonSource(llvm::StringRef Path);

/// The dotted module name of \p Path (repository-relative): the directories
/// above it that hold an __init__.py (\p IsFile says which files exist) are
/// its packages, the first one without is where imports start (so
/// "src/pkg/mod.py" is "pkg.mod" and "tests/test_a.py" without
/// tests/__init__.py is "test_a", as pytest imports it); a package's
/// __init__.py is the package itself.
std::string moduleName(llvm::StringRef Path,
                       llvm::function_ref<bool(llvm::StringRef)> IsFile);

/// Reads pytest's options from the first of pytest.ini, pyproject.toml
/// ([tool.pytest.ini_options]), tox.ini ([pytest]) and setup.cfg
/// ([tool:pytest]) that \p ReadFile finds (it returns a repository-relative
/// file's text, std::nullopt when absent) and that holds pytest's section.
/// Fails with "cannot read pytest's settings from FILE[:LINE]: REASON".
///
/// Reading them starts the embedded Python (60 ms of a command that needs
/// nothing else of it), so a reading can be remembered: \p Memo's Find
/// returns the extractor's answer remembered for a key (the files' names
/// and texts, and a hash of the extractor), Remember keeps one that was
/// read. A remembered answer that does not parse is read again.
struct PytestSettingsMemo {
  std::function<std::optional<std::string>(llvm::StringRef Key)> Find;
  std::function<void(llvm::StringRef Key, llvm::StringRef Answer)> Remember;
};
llvm::Expected<PytestSettings> loadPytestSettings(
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)> ReadFile,
    const PytestSettingsMemo &Memo = {});

/// The fingerprint of \p Options and \p Module together with the
/// extractor's own source: FileIndex::Python->Settings of an index made
/// with them.
std::string settingsFingerprint(llvm::StringRef Module,
                                const FrontEndOptions &Options);

/// Indexes one version of one file: \p Content is its text as stored (any
/// encoding; PEP 263 coding declarations are honoured), \p Path its
/// repository-relative path, \p Module its dotted name (moduleName()).
/// A file that does not parse (syntax error, syntax newer than the
/// embedded Python, not valid in its encoding, larger than MaxFileSize) is
/// not an error: it comes back with Complete false, no elements, and the
/// reason in Python->Problem. Fails only when the interpreter cannot start
/// or the extractor itself fails ("python extractor failed on PATH:
/// WHERE: EXCEPTION").
llvm::Expected<FileIndex> indexFile(llvm::StringRef Path,
                                    llvm::StringRef Module,
                                    llvm::StringRef Content,
                                    const FrontEndOptions &Options);

/// What indexFile() makes of the extractor's answer \p Answer (its JSON
/// text) for \p Path, \p Module and \p Content: the FileIndex, or "python
/// extractor failed on PATH: ..." when the answer reports an error, or "the
/// python extractor returned malformed JSON for PATH: ..." when it is not
/// JSON. Members of the wrong type are skipped. Split out of indexFile()
/// so that it can be tested and fuzzed without an interpreter.
llvm::Expected<FileIndex> decodeIndexAnswer(llvm::StringRef Answer,
                                            llvm::StringRef Path,
                                            llvm::StringRef Module,
                                            llvm::StringRef Content,
                                            const FrontEndOptions &Options);

/// Plain `ast.parse` of \p Content in the same interpreter, for the
/// benchmark's baseline. Returns false when it did not parse.
llvm::Expected<bool> parseOnly(llvm::StringRef Path, llvm::StringRef Content);

/// The version of the embedded Python ("3.11.2").
llvm::Expected<std::string> embeddedVersion();

} // namespace python
} // namespace tia

#endif // TIA_PYTHON_FRONTEND_H
