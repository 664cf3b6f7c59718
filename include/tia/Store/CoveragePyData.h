//===- tia/Store/CoveragePyData.h - reading coverage.py's data file -------===//
//
// coverage.py (5.0 and newer) keeps its data in an SQLite file, `.coverage`.
// Only lib/Store talks to SQLite, so the reader lives here; it hands out
// plain data, and lib/Coverage decodes and maps it. The file is opened
// read-only and never changed.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_STORE_COVERAGEPYDATA_H
#define TIA_STORE_COVERAGEPYDATA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace tia {

/// The contents of a coverage.py data file, as stored.
struct CoveragePyData {
  /// coverage_schema.version (7 for coverage.py 5.0 to 7.x).
  int64_t SchemaVersion = 0;
  /// meta 'version': the coverage.py that wrote it ("6.5.0"); may be empty.
  std::string CoverageVersion;
  /// meta 'has_arcs': branch data (the arc table) instead of lines.
  bool HasArcs = false;
  /// file.path by row: the measured files, as coverage.py saw them
  /// (absolute paths, unless its [paths] settings remapped them).
  std::vector<std::string> Files;
  /// context.context by row; "" is the context of code run outside any
  /// test (collection, imports).
  std::vector<std::string> Contexts;

  /// One line_bits row: the lines of one file run in one context, as
  /// coverage.py's numbits (bit N of byte B set: line B * 8 + N ran).
  struct LineBits {
    size_t File = 0;    ///< index into Files
    size_t Context = 0; ///< index into Contexts
    std::string Numbits;
  };
  std::vector<LineBits> Lines;

  /// One arc row (branch data): a transition between two lines; negative
  /// numbers are entries into and exits from code objects.
  struct Arc {
    size_t File = 0;
    size_t Context = 0;
    int64_t From = 0;
    int64_t To = 0;
  };
  std::vector<Arc> Arcs;
};

/// Reads the coverage.py data file \p Path. Fails with:
///  - "cannot read coverage file PATH: REASON" (missing, unreadable)
///  - "PATH is not a coverage.py data file: REASON" (not SQLite, corrupt, or
///    an SQLite file without coverage.py's tables)
///  - "PATH was written by an unsupported coverage.py (schema N): ..."
llvm::Expected<CoveragePyData> readCoveragePyData(llvm::StringRef Path);

} // namespace tia

#endif // TIA_STORE_COVERAGEPYDATA_H
