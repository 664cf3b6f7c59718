//===- Sharding.cpp - what --shard and --balance-from share ---------------===//
//
// The costs a shard plan balances: those recorded in the database of an
// earlier run (--balance-from), else a proxy each command picks.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include <set>

namespace tia {
namespace tool {

namespace {

llvm::Expected<std::unique_ptr<Store>> openBalance(const Context &C,
                                                   llvm::StringRef File) {
  auto S = Store::open(absolutePath(File, C.WorkingDir), Store::Mode::ReadOnly);
  if (!S)
    return makeErrorf("--balance-from: {0}", llvm::toString(S.takeError()));
  return S;
}

} // namespace

llvm::Expected<std::map<std::string, double>>
recordedParseTimes(const Context &C, llvm::StringRef File) {
  auto S = openBalance(C, File);
  if (!S)
    return S.takeError();
  auto TUs = (*S)->translationUnits();
  if (!TUs)
    return TUs.takeError();
  std::map<std::string, double> Out;
  for (const StoredTranslationUnit &TU : *TUs)
    if (TU.ParseSeconds > 0) // 0: indexed before parse times were kept
      Out[TU.Path] = TU.ParseSeconds;
  return Out;
}

llvm::Expected<std::map<std::string, double>>
recordedDurations(const Context &C, llvm::StringRef File) {
  auto S = openBalance(C, File);
  if (!S)
    return S.takeError();
  auto Results = (*S)->latestResults();
  if (!Results)
    return Results.takeError();
  std::map<std::string, double> Out;
  for (const TestResult &R : *Results)
    Out[R.TestId] = R.Seconds;
  return Out;
}

llvm::Expected<shard::ShardPlan>
keepIndexShare(const Context &C, const IndexOptions &O,
               std::vector<CompileCommand> &Wanted, bool HasPython,
               llvm::raw_ostream &Err, bool Quiet) {
  auto Relative = [&](llvm::StringRef File) {
    llvm::StringRef Rel = File;
    if (Rel.consume_front(C.Root) && Rel.consume_front("/"))
      return Rel.str();
    return File.str();
  };
  std::map<std::string, double> Recorded;
  if (!O.BalanceFrom.empty()) {
    auto Times = recordedParseTimes(C, O.BalanceFrom);
    if (!Times)
      return Times.takeError();
    Recorded = std::move(*Times);
  }
  std::vector<std::string> Units;
  std::map<std::string, double> Sizes; // KB of the main file
  for (const CompileCommand &Cmd : Wanted) {
    std::string Rel = Relative(Cmd.File);
    uint64_t Bytes = 0;
    if (llvm::sys::fs::file_size(Cmd.File, Bytes))
      Bytes = 0; // Unreadable: parsing it will say so.
    Sizes[Rel] = Bytes / 1024.0;
    Units.push_back(Rel);
  }
  shard::ShardPlan Plan = shard::planByCost(
      Units, Recorded, [&](const std::string &U) { return Sizes[U]; },
      O.Shard->N);
  std::vector<std::string> Mine = Plan.unitsOf(O.Shard->K);
  std::set<std::string> Keep(Mine.begin(), Mine.end());
  llvm::erase_if(Wanted, [&](const CompileCommand &Cmd) {
    return !Keep.count(Relative(Cmd.File));
  });
  if (!Quiet)
    Err << shard::describeShare(Plan, O.Shard->K, "translation units",
                                Recorded.empty() ? "KB of source (by size)"
                                                 : "s of parse time (recorded)")
        << (O.Shard->K == 1 && HasPython ? "; and the Python files" : "")
        << "\n";
  return Plan;
}

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
