//===- tia/Support/Shard.h - deterministic shares of work ------*- C++ -*-===//
//
// `--shard K/N`: every CI worker computes the same partition of the same
// units of work (translation units, tests, test files) with no
// coordination, and does share K. The partition balances by cost: a
// recorded one (parse time, test duration) where known, else a proxy.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_SHARD_H
#define TIA_SUPPORT_SHARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace shard {

/// Share K (1-based) of N.
struct ShardSpec {
  unsigned K = 1;
  unsigned N = 1;
};

/// Parses "K/N" (1 <= K <= N). Fails with "bad --shard 'TEXT': ..." naming
/// what is wrong and the form wanted.
llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text);

/// A unit of work: a name unique among the units, and what it costs.
struct WorkUnit {
  std::string Name;
  double Cost = 0;
};

/// Which share each unit goes to.
struct ShardPlan {
  unsigned N = 1;
  /// The units sorted by name, each with its share (1-based).
  std::vector<std::pair<std::string, unsigned>> Units;
  /// The expected cost of each share (index K-1).
  std::vector<double> Costs;
  /// A hash of N and the units' shares (not of their costs): two workers
  /// that disagree on the plan disagree on it.
  std::string Hash;

  /// The names of share \p K's units, sorted.
  std::vector<std::string> unitsOf(unsigned K) const;
};

/// Partitions \p Units into \p N shares: the costliest unit first (ties by
/// name) goes to the share with the least cost so far (ties: the lowest K),
/// which keeps the costliest share within the cost of one unit of the
/// mean. The same units and costs give the same plan in any order; a
/// share may be empty when there are fewer units than shares. Negative
/// costs count as 0; duplicate names are kept once (the first).
ShardPlan partition(std::vector<WorkUnit> Units, unsigned N);

/// The costs of \p Known with each unknown (std::nullopt) one estimated
/// as the mean of the known ones, or 1 when none is known.
std::vector<double>
estimateUnknownCosts(const std::vector<std::optional<double>> &Known);

/// The plan of \p Units into \p N shares, each costing what \p Recorded
/// says (a unit it lacks: the mean of those it has); with nothing recorded,
/// what \p Proxy says.
ShardPlan planByCost(const std::vector<std::string> &Units,
                     const std::map<std::string, double> &Recorded,
                     llvm::function_ref<double(const std::string &)> Proxy,
                     unsigned N);

/// "shard K/N: U of T UNITS, expected cost C of TOTAL COSTUNIT, plan H":
/// what a worker says before it starts its share (H: the hash's first 12
/// digits). \p CostUnit names what the costs count ("s of parse time",
/// "KB of source", "tests").
std::string describeShare(const ShardPlan &P, unsigned K, llvm::StringRef Units,
                          llvm::StringRef CostUnit);

/// The plan as text, one "K<TAB>unit" line per unit in name order, and
/// back. parsePlanText fails on a line that is not of that form.
std::string planText(const ShardPlan &P);
llvm::Expected<ShardPlan> parsePlanText(llvm::StringRef Text, unsigned N);

} // namespace shard
} // namespace tia

#endif // TIA_SUPPORT_SHARD_H
