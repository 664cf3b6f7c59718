//===- tia/Cpp/FrontEnd.h - the C++ front end -----------------------------===//
//
// Parses C++ translation units with Clang (LibTooling, driven by a
// compilation database) and returns their code elements as plain data.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_CPP_FRONTEND_H
#define TIA_CPP_FRONTEND_H

#include "tia/Support/Model.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace cpp {

/// Loads BUILD_DIR/compile_commands.json. Entries are sorted by file and
/// de-duplicated (first entry of a file wins); paths are made absolute.
/// Errors:
///  - "no compile_commands.json in DIR: configure with
///     -DCMAKE_EXPORT_COMPILE_COMMANDS=ON or pass -p BUILD_DIR"
///  - "malformed DIR/compile_commands.json: REASON"
llvm::Expected<std::vector<CompileCommand>>
loadCompilationDatabase(llvm::StringRef BuildDir);

/// The first line \p Program prints for --version ("clang version 19.1.7
/// ..."), which tells a compiler apart from another whatever its path;
/// std::nullopt when it cannot be found or run. Cached per program.
std::optional<std::string> compilerVersion(llvm::StringRef Program);

/// Whether \p Old and \p New compile alike: the same directory and
/// arguments, except that the compilers (the first arguments) may differ in
/// path when \p SameCompiler says they are the same compiler.
bool sameCompileCommand(
    const CompileCommand &Old, const CompileCommand &New,
    llvm::function_ref<bool(llvm::StringRef, llvm::StringRef)> SameCompiler);

/// Clang's resource directory: $TIA_RESOURCE_DIR if set, else the one found
/// when tia was configured.
std::string defaultResourceDir();

/// The version of the reference graph the front end produces: 2 added
/// virtual overrides, destructors, new/delete, lambdas reached from the
/// code around them and the project functions system template
/// instantiations call; 3 added the names extension modules bind for Python
/// (ElementKind::Binding). 'tia index' parses the C++ file versions stored
/// by an older front end again (Store::cppGraphVersion).
constexpr int64_t GraphVersion = 3;

struct FrontEndOptions {
  /// Absolute repository root; only files below it are indexed, and paths
  /// are reported relative to it.
  std::string ProjectRoot;
  /// Directories below the root whose files are not project files (for
  /// example the build directory), absolute.
  std::vector<std::string> ExcludedDirs;
  /// Passed as -resource-dir to every invocation.
  std::string ResourceDir = defaultResourceDir();
};

/// Parses one translation unit and extracts the elements of every project
/// file it reads. \p Overlays maps absolute paths to the contents to parse
/// instead of what is on disk (other revisions of changed files).
///
/// Source errors do not fail: the TU is indexed as far as Clang got, its
/// files are marked incomplete and the diagnostics are counted. Fails only
/// when the main file cannot be read ("cannot read FILE: REASON").
llvm::Expected<TranslationUnitIndex>
indexTranslationUnit(const CompileCommand &Command,
                     const FrontEndOptions &Options,
                     const llvm::StringMap<std::string> &Overlays = {});

/// The 1-based lines of \p Source where \p Name appears as an identifier
/// token (not inside a comment, string or character literal), ascending
/// and unique. Used to find the code a newly defined macro now expands.
std::vector<unsigned> identifierLines(llvm::StringRef Source,
                                      llvm::StringRef Name);

/// Hashes of \p Source's tokens as Clang's raw lexer sees them (comments
/// and whitespace skipped). Exposed for tests.
std::string tokenHash(llvm::StringRef Source);

} // namespace cpp
} // namespace tia

#endif // TIA_CPP_FRONTEND_H
