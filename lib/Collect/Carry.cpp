//===- Carry.cpp - coverage an incremental collect carries over -----------===//

#include "tia/Collect/Collect.h"
#include "tia/Store/Store.h"

namespace tia {
namespace collect {

llvm::Expected<unsigned> carryCoverage(Store &S, const CarryOver &C,
                                       llvm::StringRef Commit) {
  if (Commit.empty() || !C.Restamp)
    return 0;
  auto Held = S.snapshotTests(C.Snapshot);
  if (!Held)
    return Held.takeError();
  unsigned Carried = 0;
  for (const TestRecord &T : *Held) {
    // The snapshot's own coverage is what the selection checked, not the
    // test's newest (recorded on another branch, or since).
    if (!C.Tests.count(T.Id) || T.CoverageCommit == Commit)
      continue;
    auto Keys = S.coverageOf(T.Id, C.Snapshot);
    if (!Keys)
      return Keys.takeError();
    if (llvm::Error E = S.putCoverage(T.Id, Commit, *Keys))
      return E;
    ++Carried;
  }
  return Carried;
}

} // namespace collect
} // namespace tia
