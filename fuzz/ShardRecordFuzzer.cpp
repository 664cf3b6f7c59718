//===- ShardRecordFuzzer.cpp - fuzz the shard records merge reads ---------===//
//
// A `--shard K/N` database says what it is in a meta row of JSON holding
// the share, the plan's hash and the plan's text; `tia merge` reads the
// rows of databases made by other CI jobs (merge::parseShardRecord) and
// matches the shares, reading each plan (merge::matchShares). The input is
// one row's value; it is matched alone, then beside share 1 of the same
// plan held by another file.
//
//===----------------------------------------------------------------------===//

#include "tia/Store/Merge.h"

using namespace tia;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto R = merge::parseShardRecord("shard collect", Text);
  if (!R) {
    llvm::consumeError(R.takeError()); // Rejecting bad input is fine.
    return 0;
  }
  std::vector<merge::InputRecords> Inputs = {{"a.db", {*R}}};
  auto M = merge::matchShares(Inputs, R->Schema);
  if (!M)
    llvm::consumeError(M.takeError());
  ShardRecord First = *R;
  First.K = 1;
  Inputs.push_back({"b.db", {First}});
  auto Both = merge::matchShares(Inputs, R->Schema);
  if (!Both)
    llvm::consumeError(Both.takeError());
  return 0;
}
