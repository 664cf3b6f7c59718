//===- tia/Collect/BuildDirs.h - where collect runs the tests ---*- C++ -*-===//
//
// `tia collect` runs ctest in the tests' build directory, and the Python
// tests against the build that made their extension modules and programs.
// Without -p, each is found where a CMake project usually puts it, or where
// the latest index recorded it.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COLLECT_BUILDDIRS_H
#define TIA_COLLECT_BUILDDIRS_H

#include "tia/Store/Store.h"
#include "llvm/Support/Error.h"
#include <string>

namespace tia {
namespace collect {

/// The tests' build directory: \p Given made absolute against
/// \p WorkingDir, else the first of ./build, ROOT/build, . and ROOT that
/// holds CTestTestfile.cmake. Fails, saying to pass -p, when none does.
llvm::Expected<std::string> findTestBuildDir(llvm::StringRef Given,
                                             llvm::StringRef WorkingDir,
                                             llvm::StringRef Root);

/// The build whose extension modules and programs the Python tests use:
/// \p Given made absolute against \p WorkingDir, else the one the index
/// recorded in \p S; empty when neither is known (the objects below the
/// repository root are found all the same). Fails for a \p Given that is no
/// directory.
llvm::Expected<std::string> pytestBuildDir(Store &S, llvm::StringRef Given,
                                           llvm::StringRef WorkingDir);

} // namespace collect
} // namespace tia

#endif // TIA_COLLECT_BUILDDIRS_H
