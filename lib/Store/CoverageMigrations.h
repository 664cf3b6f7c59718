//===- CoverageMigrations.h - moving coverage between layouts ---*- C++ -*-===//
//
// Private to lib/Store: the data steps of the schema migrations that change
// how the current coverage is laid out. Each reads one table in order and
// writes as it goes, so that memory holds one key's or one test's ids
// whatever the size of the database; the caller's transaction keeps the
// migration all-or-nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_STORE_COVERAGEMIGRATIONS_H
#define TIA_LIB_STORE_COVERAGEMIGRATIONS_H

#include "Database.h"
#include "llvm/Support/Error.h"

namespace tia {
namespace store {

/// Schema 8: fills coverage_keys (a CRoaring bitmap of tests per element
/// key) from the rows of the `coverage` table, one key at a time in key
/// order.
llvm::Error buildCoverageBitmaps(Database &DB);

/// Schema 13: copies test_coverage's JSON key lists into
/// test_coverage_lists and coverage_keys' bitmaps into coverage_blocks, both
/// as IdList encodings. A value that cannot be read is written as a damaged
/// list, so that it stays damaged (read around, then repaired) rather than
/// becoming an empty one.
llvm::Error convertCoverageToIdLists(Database &DB);

} // namespace store
} // namespace tia

#endif // TIA_LIB_STORE_COVERAGEMIGRATIONS_H
