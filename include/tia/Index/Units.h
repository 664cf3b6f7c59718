//===- tia/Index/Units.h - what tia index indexes ---------------*- C++ -*-===//
//
// `tia index` indexes the project's part of a compilation database: the
// translation units whose main file lies in the repository, outside its
// build directory, that .tia.yaml's paths include and, when PATHs are
// given, below one of them. Each PATH must name something, so that a typo
// is an error rather than an index of nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_INDEX_UNITS_H
#define TIA_INDEX_UNITS_H

#include "tia/Config/Config.h"
#include "tia/Support/Model.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace tia {
namespace index {

/// The directory of the compilation database: \p Given (the directory, or
/// its compile_commands.json) made absolute against \p WorkingDir; without
/// it, the first of WorkingDir/build, Root/build, WorkingDir and Root that
/// holds a compile_commands.json. Fails, saying how to make one, when none
/// does.
llvm::Expected<std::string> findBuildDir(llvm::StringRef Given,
                                         llvm::StringRef WorkingDir,
                                         llvm::StringRef Root);

/// The project's translation units of a compilation database.
struct ProjectUnits {
  std::vector<CompileCommand> Units;
  /// .tia.yaml's paths left a unit of the project out: the index then does
  /// not hold the whole database.
  bool ConfigLeftOut = false;
};

/// The units of \p Commands whose main file lies at or below \p Root and
/// below none of \p Excluded, that \p Config includes and, when \p Paths
/// (absolute) is not empty, lie at or below one of them. Sets
/// \p PathUsed[I] (one per path) when a unit lies below Paths[I].
ProjectUnits
projectUnits(std::vector<CompileCommand> Commands, llvm::StringRef Root,
             llvm::ArrayRef<std::string> Excluded, const config::Config &Config,
             llvm::ArrayRef<std::string> Paths, std::vector<bool> &PathUsed);

/// Keeps the database's folder out of git's view, so that the database is
/// never mistaken for a change: writes a .gitignore of "*" into the folder
/// of \p DbPath when it is ROOT/.tia and has none. Best effort: a folder
/// that cannot be written only leaves the database visible to git.
void ignoreDatabaseDir(llvm::StringRef DbPath, llvm::StringRef Root);

} // namespace index
} // namespace tia

#endif // TIA_INDEX_UNITS_H
