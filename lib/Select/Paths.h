//===- Paths.h - what kind of file a changed path is ------------*- C++ -*-===//
//
// Private to lib/Select: the path classification selectTests makes before
// it examines a changed file (isCppSource, the public one, is in
// Selection.h).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_PATHS_H
#define TIA_LIB_SELECT_PATHS_H

#include "llvm/ADT/StringRef.h"

namespace tia {
namespace select {
namespace detail {

/// Files that instrumented test runs leave behind (often untracked in the
/// work tree); they cannot change what a test does.
bool isCoverageData(llvm::StringRef Path);

/// Python's bytecode caches: written by every import, derived from the
/// sources next to them.
bool isBytecodeCache(llvm::StringRef Path);

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_PATHS_H
