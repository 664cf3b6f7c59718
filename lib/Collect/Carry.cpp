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
  // Read every test's coverage before writing any: recording coverage at a
  // new commit starts a snapshot and may drop the oldest kept one, which
  // can be the snapshot read here.
  std::vector<std::pair<std::string, std::vector<std::string>>> Carry;
  for (const TestRecord &T : *Held) {
    // The snapshot's own coverage is what the selection checked, not the
    // test's newest (recorded on another branch, or since).
    if (!C.Tests.count(T.Id) || T.CoverageCommit == Commit)
      continue;
    auto Keys = S.coverageOf(T.Id, C.Snapshot);
    if (!Keys)
      return Keys.takeError();
    Carry.emplace_back(T.Id, std::move(*Keys));
  }
  for (const auto &[Id, Keys] : Carry)
    if (llvm::Error E = S.putCoverage(Id, Commit, Keys))
      return E;
  return static_cast<unsigned>(Carry.size());
}

} // namespace collect
} // namespace tia
