//===- ImportInternal.h - what the coverage importers share -----*- C++ -*-===//

#ifndef TIA_LIB_COVERAGE_IMPORTINTERNAL_H
#define TIA_LIB_COVERAGE_IMPORTINTERNAL_H

#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>

namespace tia {
namespace coverage {

/// The repository-relative path a coverage report's \p File names: an
/// absolute path below \p Root, an indexed relative path, or the one
/// indexed file (of \p Current, path -> content hash) a path relative to
/// another directory can name. Empty when outside the project or
/// ambiguous.
std::string
repositoryPath(llvm::StringRef File, llvm::StringRef Root,
               const std::map<std::string, std::string, std::less<>> &Current);

} // namespace coverage
} // namespace tia

#endif // TIA_LIB_COVERAGE_IMPORTINTERNAL_H
