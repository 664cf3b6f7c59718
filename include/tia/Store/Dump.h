//===- tia/Store/Dump.h - stable text of what the store holds ---*- C++ -*-===//
//
// What `tia dump` prints: each kind of record the database holds as sorted,
// stable text, one record a line, for people and for lit tests' golden
// output. Each writer reads the store as it is and fails like the store.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_STORE_DUMP_H
#define TIA_STORE_DUMP_H

#include "tia/Store/Store.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace tia {
namespace dump {

/// The elements, test definitions and Python imports of every file of the
/// latest index, in path order (only \p File when given), with the
/// elements' token hashes when \p Hashes. Fails for a \p File that is not
/// in the index.
llvm::Error writeElements(Store &S, llvm::StringRef File, bool Hashes,
                          llvm::raw_ostream &Out);
/// The #include directives and references of every file of the latest
/// index (only \p File when given), as writeElements.
llvm::Error writeReferences(Store &S, llvm::StringRef File,
                            llvm::raw_ostream &Out);
/// Each test with how many elements it covers and at which commit.
llvm::Error writeTests(Store &S, llvm::raw_ostream &Out);
/// Each test and the element keys it covers.
llvm::Error writeCoverage(Store &S, llvm::raw_ostream &Out);
/// The test definitions of the latest index, "FILE:BEGIN-END FW NAME".
llvm::Error writeDefinitions(Store &S, llvm::raw_ostream &Out);
/// Every result of every run, in run order.
llvm::Error writeResults(Store &S, llvm::raw_ostream &Out);
/// \p Flaky, one test a line with its flip rate and counts.
void writeFlaky(const std::vector<FlakyTest> &Flaky, llvm::raw_ostream &Out);
/// One line per observed run: its id, the record's version and the record.
llvm::Error writeObservations(Store &S, llvm::raw_ostream &Out);
/// Each traced test with the files it read and the directories it listed.
llvm::Error writeFileReads(Store &S, llvm::raw_ostream &Out);
/// Each test that crossed into a build object, with the objects, then the
/// recorded sources of every object.
llvm::Error writeBoundaries(Store &S, llvm::raw_ostream &Out);

} // namespace dump
} // namespace tia

#endif // TIA_STORE_DUMP_H
