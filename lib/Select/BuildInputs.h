//===- BuildInputs.h - the files CMake read to configure the build -*- C++
//-*-===//
//
// Private to lib/Select. A file CMake read at configure time (a
// CMakeLists.txt, an included .cmake module, a configure_file() template)
// shapes how everything builds: its change selects every test, even when a
// traced test also read it.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_BUILDINPUTS_H
#define TIA_LIB_SELECT_BUILDINPUTS_H

#include "llvm/ADT/StringRef.h"
#include <set>
#include <string>

namespace tia {
namespace select {

/// The repository-relative files inside \p Root that CMake read when it
/// configured \p BuildDir, from its file API reply of kind "cmakeFiles"
/// (BUILD_DIR/.cmake/api/v1/reply): its inputs that are neither generated
/// nor outside the project nor CMake's own modules. Empty when the build
/// has no such reply (the query `.cmake/api/v1/query/cmakeFiles-v1` must
/// exist before CMake configures), or the reply cannot be read.
std::set<std::string> cmakeInputs(llvm::StringRef BuildDir,
                                  llvm::StringRef Root);

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_BUILDINPUTS_H
