//===- tia/Coverage/Gcov.h - gcov's JSON output, read in-process ----------===//
//
// What `tia collect` needs from gcov: the functions each data file (.gcda)
// says ran, from `gcov --json-format --stdout`.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COVERAGE_GCOV_H
#define TIA_COVERAGE_GCOV_H

#include "tia/Coverage/Coverage.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace tia {
namespace coverage {

/// The functions one gcov data file (.gcda) says ran.
struct GcovData {
  std::string DataFile; ///< as gcov names it ("data_file")
  std::vector<FunctionHit> Functions;
};

/// Parses the output of `gcov --json-format --stdout` (one JSON document per
/// line, one per data file): every function with an execution count above
/// zero, with its source made absolute against the document's
/// "current_working_directory". The per-line arrays, most of the text, are
/// skipped unparsed. Fails with "malformed gcov JSON from NAME: REASON".
llvm::Expected<std::vector<GcovData>> parseGcovJson(llvm::StringRef Text,
                                                    llvm::StringRef Name);

} // namespace coverage
} // namespace tia

#endif // TIA_COVERAGE_GCOV_H
