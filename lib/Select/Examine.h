//===- Examine.h - what changed in one changed source file ------*- C++ -*-===//
//
// Private to lib/Select: compares the base and head versions of one changed
// source file and records its changed elements, notes and fallbacks in the
// selection, for selectTests to map to tests.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_EXAMINE_H
#define TIA_LIB_SELECT_EXAMINE_H

#include "SelectInternal.h"
#include "VersionResolver.h"
#include "tia/Select/Selection.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/Twine.h"
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace select {
namespace detail {

/// Adds a fallback to every test, for \p K at \p File.
void addFallback(Selection &Sel, FallbackKind K, llvm::StringRef File,
                 const llvm::Twine &Detail);

/// Examines one changed source file and adds what changed to \p Sel. The
/// base version, however it was found (store or parse), goes to
/// \p OldVersions: a new element's siblings may live there. Both versions
/// go to \p Im, whose rules follow their references.
llvm::Error examine(Selection &Sel, Store &S, VersionResolver &R,
                    detail::Impact &Im, const git::FileChange &C,
                    std::vector<FileIndex> &OldVersions,
                    std::vector<FileIndex> &NewVersions,
                    std::vector<detail::NameScan> &Scans,
                    std::vector<std::pair<size_t, std::string>> &OwnTests);

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_EXAMINE_H
