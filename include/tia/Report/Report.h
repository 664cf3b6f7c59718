//===- tia/Report/Report.h - selection outputs ----------------------------===//
//
// Every output format of a selection, from the same Selection object.
// Output is sorted and stable.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_REPORT_REPORT_H
#define TIA_REPORT_REPORT_H

#include "tia/Select/Selection.h"
#include "llvm/Support/raw_ostream.h"

namespace tia {
namespace report {

/// One selected test id per line.
void writeIds(const select::Selection &Sel, llvm::raw_ostream &OS);

/// The selection as JSON (schema in docs/Formats.md, "version": 1).
void writeJson(const select::Selection &Sel, llvm::raw_ostream &OS);

/// Per selected test, the changed elements and lines (or the fallback)
/// that selected it; then the changed elements no test covers.
void writeExplain(const select::Selection &Sel, llvm::raw_ostream &OS);

/// The reasons by kind, one per line, then the one-line summary
/// ("selected N of M tests ..."). For stderr.
void writeSummary(const select::Selection &Sel, llvm::raw_ostream &OS);

} // namespace report
} // namespace tia

#endif // TIA_REPORT_REPORT_H
