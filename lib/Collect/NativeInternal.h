//===- NativeInternal.h - C and C++ code a pytest test runs -----*- C++ -*-===//
//
// Private to lib/Collect: the build objects (shared libraries, extension
// modules, programs) a Python test can cross into, the plan tia's plugin
// reads to split their coverage at test boundaries (tia_native.py), and
// what a test's profiles and boundaries come to (docs/Collection.md,
// "Across languages and processes").
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_COLLECT_NATIVEINTERNAL_H
#define TIA_LIB_COLLECT_NATIVEINTERNAL_H

#include "CollectInternal.h"
#include "tia/Coverage/Profiles.h"
#include "tia/Store/Store.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace collect {

/// An ELF shared library or program found in the build.
struct BuildObject {
  std::string Path; ///< absolute, symbolic links resolved
  bool Library = false;
  /// How it was built. A library is looked at when found (the plugin needs
  /// its runtime); a program only once a test ran it (a build holds many,
  /// and large ones).
  std::optional<coverage::Instrumentation> Kind;
  /// Clang's profile runtime in a library, when its symbol table names it.
  std::optional<coverage::ProfileRuntime> Runtime;
  /// libgcov in a library, when its symbol table names it.
  std::optional<coverage::GcovRuntime> Gcov;
};

/// The ELF shared libraries and executables below \p Dirs (folders named
/// CMakeFiles and hidden ones skipped), sorted by path, each once.
std::vector<BuildObject> findBuildObjects(const std::vector<std::string> &Dirs);

/// The plan tia_native.py reads: \p ProfileDir, and the objects by path.
std::string nativePlanJson(const std::string &ProfileDir,
                           const std::vector<BuildObject> &Objects);

/// What the plugin says of one test's native code (its result's "native").
struct NativeRecord {
  std::string Folder, Outside; ///< below the profile folder
  std::vector<std::string> Loaded;
  /// Loaded objects whose runtime the plugin did not call: the file
  /// changed after tia read it (rebuilt while the tests ran).
  std::vector<std::string> Unreached;
};

/// Reads the profiles the tests left against the build's objects, and
/// tells which objects each test crossed into and whether it has coverage
/// of them.
class NativeCoverage {
public:
  /// \p Objects as findBuildObjects found them below \p Root and
  /// \p BuildDirs; \p S is the index their sources are matched against.
  NativeCoverage(Store &S, std::vector<BuildObject> Objects,
                 std::string ProfileDir, std::string Root,
                 std::vector<std::string> BuildDirs);

  /// The C and C++ functions a test ran: its folder's profiles and those of
  /// its process outside every test, read against the objects it loaded
  /// and the programs it ran (\p Executed). Fails on a profile that cannot
  /// be read.
  llvm::Expected<std::vector<coverage::FunctionHit>>
  hitsOf(const NativeRecord &R, const std::set<std::string> &Executed);

  /// The objects of the project a test loaded (\p R) or ran (\p Executed,
  /// absolute paths of every program its processes ran), each with its
  /// coverage; all without coverage, with \p Problem, when its profiles
  /// could not be read. An object outside the build directories that is
  /// built from no indexed file (a virtual environment's, a tool's) is
  /// none of the project's.
  std::vector<Boundary> boundariesOf(const NativeRecord &R,
                                     const std::set<std::string> &Executed,
                                     llvm::StringRef Problem = "");

  /// The files each object that boundariesOf named is built from, by its
  /// name there, repository-relative ("*": every C and C++ file).
  std::map<std::string, std::vector<std::string>> sources() const;

private:
  /// The object at \p Path (real), looked at if it was not yet; null when
  /// none of the build's.
  BuildObject *find(llvm::StringRef Path);
  /// The objects a test loaded or ran, each with whether it ran as a
  /// program.
  std::vector<std::pair<BuildObject *, bool>>
  crossed(const NativeRecord &R, const std::set<std::string> &Executed);
  std::string shown(const std::string &Path) const;
  std::string relative(llvm::StringRef Path) const;
  bool inBuildDir(llvm::StringRef Path) const;
  Boundary boundaryOf(const BuildObject &O, bool Program) const;
  /// The mappings of the clang-instrumented objects among \p Objects, read
  /// once per set.
  const Binary &
  mappingsOf(const std::vector<std::pair<BuildObject *, bool>> &Objects);
  llvm::Expected<std::vector<coverage::FunctionHit>>
  read(const Binary &Mappings, const std::string &Folder);
  /// The sources of \p O (cached); std::nullopt when it is none of the
  /// project's.
  const std::optional<std::vector<std::string>> &
  sourcesOf(const BuildObject &O);
  /// The indexed files the functions \p O defines lie in, and, when \p O
  /// is stripped and some lie in the index, "*".
  std::set<std::string> filesBySymbols(const BuildObject &O);
  /// \p Files with every file their translation units read.
  std::vector<std::string> withDependencies(const std::set<std::string> &Files);

  Store &S;
  std::vector<BuildObject> Objects;
  std::string ProfileDir, Root;
  std::vector<std::string> BuildDirs;
  /// The mappings of each set of clang-instrumented objects, by their
  /// paths; a Binary without Clang has a Problem saying why.
  std::map<std::string, std::unique_ptr<Binary>> Mappings;
  /// Reads the profiles, and gcov's data with gcov.
  CoverageReader Gcov;
  /// The hits of each process outside every test, by folder and mappings.
  std::map<std::string, std::vector<coverage::FunctionHit>> Outside;
  std::map<std::string, std::optional<std::vector<std::string>>> Sources;
  /// Translation unit -> the files it reads, read on first use.
  std::optional<std::map<std::string, std::vector<std::string>>> Units;
};

} // namespace collect
} // namespace tia

#endif // TIA_LIB_COLLECT_NATIVEINTERNAL_H
