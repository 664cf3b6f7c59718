//===- BuildDirs.cpp - where collect runs the tests -----------------------===//

#include "tia/Collect/BuildDirs.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"
#include "llvm/Support/FileSystem.h"

namespace tia {
namespace collect {

llvm::Expected<std::string> findTestBuildDir(llvm::StringRef Given,
                                             llvm::StringRef WorkingDir,
                                             llvm::StringRef Root) {
  if (!Given.empty())
    return absolutePath(Given, WorkingDir);
  if (std::optional<std::string> Dir =
          findBuildDirHolding("CTestTestfile.cmake", WorkingDir, Root))
    return *Dir;
  return makeError("no CTestTestfile.cmake in ./build or .: pass the build "
                   "directory of the tests with -p BUILD_DIR");
}

llvm::Expected<std::string> pytestBuildDir(Store &S, llvm::StringRef Given,
                                           llvm::StringRef WorkingDir) {
  if (!Given.empty()) {
    std::string Dir = absolutePath(Given, WorkingDir);
    if (!llvm::sys::fs::is_directory(Dir))
      return makeErrorf("no build directory at {0}: pass the folder your "
                        "extension modules and programs are built in",
                        Dir);
    return Dir;
  }
  auto Recorded = S.recordedBuildDir();
  if (!Recorded)
    return Recorded.takeError();
  return Recorded->value_or("");
}

} // namespace collect
} // namespace tia
