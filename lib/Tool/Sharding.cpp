//===- Sharding.cpp - what --shard and --balance-from share ---------------===//
//
// --shard K/N and --balance-from as the command line gives them; the
// shares themselves are planned in lib/Index and lib/Collect.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"

namespace tia {
namespace tool {

std::optional<int> parseShardOptions(llvm::StringRef Shard,
                                     llvm::StringRef Balance,
                                     std::optional<shard::ShardSpec> &Spec,
                                     std::string &BalanceFrom) {
  if (Shard.empty()) {
    if (!Balance.empty())
      return usageError("--balance-from balances the shares of --shard K/N: "
                        "give --shard too");
    return std::nullopt;
  }
  auto S = shard::parseShard(Shard);
  if (!S)
    return usageError(llvm::toString(S.takeError()));
  Spec = *S;
  BalanceFrom = Balance.str();
  return std::nullopt;
}

} // namespace tool
} // namespace tia
