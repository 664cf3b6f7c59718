//===- CoveragePyFuzzer.cpp - fuzz the coverage.py data reader ------------===//
//
// The input is a whole coverage.py data file (an SQLite database): it is
// written to a temporary file, read with readCoveragePyData, and every
// numbits blob and context it yields is decoded as an import would.
//
//===----------------------------------------------------------------------===//

#include "tia/Coverage/Coverage.h"
#include "tia/Store/CoveragePyData.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <string>

namespace {

/// One temporary file per process, removed at exit.
const std::string &scratchPath() {
  static const std::string Path = [] {
    llvm::SmallString<128> P;
    if (llvm::sys::fs::createTemporaryFile("tia-fuzz", "coverage", P))
      std::abort();
    std::atexit([] { llvm::sys::fs::remove(scratchPath()); });
    return std::string(P);
  }();
  return Path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Path = scratchPath();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      std::abort();
    OS.write(reinterpret_cast<const char *>(Data), Size);
  }
  auto R = tia::readCoveragePyData(Path);
  if (!R) {
    llvm::consumeError(R.takeError()); // Rejecting bad input is fine.
    return 0;
  }
  for (const tia::CoveragePyData::LineBits &L : R->Lines) {
    if (L.File >= R->Files.size() || L.Context >= R->Contexts.size())
      std::abort(); // The reader promises valid indices.
    (void)tia::coverage::numbitsToLines(L.Numbits);
  }
  for (const tia::CoveragePyData::Arc &A : R->Arcs)
    if (A.File >= R->Files.size() || A.Context >= R->Contexts.size())
      std::abort();
  for (const std::string &C : R->Contexts)
    (void)tia::coverage::nodeIdOfContext(C);
  return 0;
}
