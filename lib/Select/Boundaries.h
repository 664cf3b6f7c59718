//===- Boundaries.h - C and C++ behind a boundary no coverage crossed -----===//
//
// Private to lib/Select. A pytest test that loaded an extension module or
// ran a program of the build, when tia could not record per-test coverage
// of it (not built for coverage, a runtime tia could not reach), has no
// coverage of the C and C++ it may have run there: a change to the
// object's sources selects it (Store::testsBehindBoundary), under a
// fallback of scope Readers that names the object.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_BOUNDARIES_H
#define TIA_LIB_SELECT_BOUNDARIES_H

#include "SelectInternal.h"
#include "tia/Git/Repository.h"

namespace tia {
namespace select {
namespace detail {

/// Selects into \p ByTest the tests behind a boundary without coverage into
/// an object built from the file \p C changes (either path).
llvm::Error selectBehindBoundaries(Store &S, Selection &Sel,
                                   const git::FileChange &C,
                                   TestReasons &ByTest);

/// Names, on each reason of \p ByTest by which a test covers a changed C
/// or C++ element, the build object the test ran it in when the test
/// crossed into one to do so (a Python test's extension module or program):
/// Reason::Through.
llvm::Error nameObjectsCrossed(Store &S, const Selection &Sel,
                               TestReasons &ByTest);

} // namespace detail
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_BOUNDARIES_H
