//===- Share.cpp - the translation units of `tia index --shard` -----------===//
//
// The costs a shard plan balances: the parse times recorded in the database
// of an earlier run (--balance-from), else the size of each main file.
//
//===----------------------------------------------------------------------===//

#include "tia/Index/Workspace.h"
#include "tia/Store/Balance.h"
#include "tia/Support/Paths.h"
#include "llvm/Support/FileSystem.h"
#include <map>
#include <set>

namespace tia {
namespace index {

llvm::Expected<shard::ShardPlan>
keepIndexShare(const config::Workspace &C, const IndexOptions &O,
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
    auto Times = recordedParseTimes(absolutePath(O.BalanceFrom, C.WorkingDir));
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

} // namespace index
} // namespace tia
