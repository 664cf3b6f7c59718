//===- tia/Report/Explain.h - why a test is selected or not -----*- C++ -*-===//
//
// What `tia explain TEST` prints, and what an observed run records of a
// test the selection missed: the chain from changed lines to an element to
// the test for each reason that selected it, what cut it, or why nothing
// selected it (the head does not define it, it was never recorded, it
// depends on nothing changed).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_REPORT_EXPLAIN_H
#define TIA_REPORT_EXPLAIN_H

#include "tia/Select/Policy.h"
#include "tia/Store/Store.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace tia {
namespace report {

/// The test \p Wanted names among \p P's tests: itself when it is an id
/// there, else the one id that ends in ":" and \p Wanted (so a GoogleTest
/// case needs no binary). \p Wanted unchanged when nothing matches, so
/// that an unknown test is explained as never recorded. Fails, naming
/// them, when several ids end in it.
llvm::Expected<std::string> findTest(const select::Plan &P,
                                     llvm::StringRef Wanted);

/// Writes why \p P selects test \p Id or not: the chain of each reason,
/// what cut it, or why nothing selected it. Reads \p S for the test's
/// coverage in the plan's snapshot and for its definition; fails like the
/// store.
llvm::Error explainTest(const select::Plan &P, Store &S, llvm::StringRef Id,
                        llvm::raw_ostream &Out);

} // namespace report
} // namespace tia

#endif // TIA_REPORT_EXPLAIN_H
