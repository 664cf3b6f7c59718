//===- Shard.cpp - deterministic shares of work ---------------------------===//

#include "tia/Support/Shard.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>

namespace tia {
namespace shard {

namespace {

const char *const ShardForm = "give K/N with 1 <= K <= N, such as --shard 2/4";

std::string hashOf(const ShardPlan &P) {
  return gitBlobHash("tia shard plan " + std::to_string(P.N) + "\n" +
                     planText(P));
}

} // namespace

llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text) {
  auto [KText, NText] = Text.trim().split('/');
  ShardSpec S;
  if (KText.getAsInteger(10, S.K) || NText.getAsInteger(10, S.N))
    return makeErrorf("bad --shard '{0}': not two numbers K/N; {1}", Text,
                      ShardForm);
  if (S.N == 0 || S.K == 0 || S.K > S.N)
    return makeErrorf("bad --shard '{0}': share {1} of {2} does not exist; "
                      "{3}",
                      Text, S.K, S.N, ShardForm);
  return S;
}

std::vector<std::string> ShardPlan::unitsOf(unsigned K) const {
  std::vector<std::string> Out;
  for (const auto &[Name, Share] : Units)
    if (Share == K)
      Out.push_back(Name);
  return Out;
}

ShardPlan partition(std::vector<WorkUnit> Units, unsigned N) {
  ShardPlan P;
  P.N = std::max(1u, N);
  P.Costs.assign(P.N, 0);
  for (WorkUnit &U : Units)
    U.Cost = std::max(0.0, U.Cost);
  // Sorting by name first makes "the first of duplicates" independent of
  // the order the units came in.
  llvm::stable_sort(Units, [](const WorkUnit &A, const WorkUnit &B) {
    return A.Name < B.Name;
  });
  Units.erase(std::unique(Units.begin(), Units.end(),
                          [](const WorkUnit &A, const WorkUnit &B) {
                            return A.Name == B.Name;
                          }),
              Units.end());
  std::vector<const WorkUnit *> ByCost;
  for (const WorkUnit &U : Units)
    ByCost.push_back(&U);
  llvm::stable_sort(ByCost, [](const WorkUnit *A, const WorkUnit *B) {
    return A->Cost > B->Cost;
  });
  // Among shares of equal cost, the one with fewer units: units that cost
  // nothing (or were never timed alike) still spread out.
  std::vector<size_t> Counts(P.N, 0);
  std::map<std::string, unsigned> ShareOf;
  for (const WorkUnit *U : ByCost) {
    size_t Least = 0;
    for (size_t K = 1; K < P.N; ++K)
      if (std::make_pair(P.Costs[K], Counts[K]) <
          std::make_pair(P.Costs[Least], Counts[Least]))
        Least = K;
    P.Costs[Least] += U->Cost;
    ++Counts[Least];
    ShareOf[U->Name] = Least + 1;
  }
  for (const auto &[Name, Share] : ShareOf)
    P.Units.emplace_back(Name, Share);
  P.Hash = hashOf(P);
  return P;
}

std::vector<double>
estimateUnknownCosts(const std::vector<std::optional<double>> &Known) {
  double Sum = 0;
  size_t Count = 0;
  for (const std::optional<double> &C : Known)
    if (C) {
      Sum += *C;
      ++Count;
    }
  double Mean = Count ? Sum / Count : 1;
  std::vector<double> Out;
  for (const std::optional<double> &C : Known)
    Out.push_back(C ? *C : Mean);
  return Out;
}

ShardPlan planByCost(const std::vector<std::string> &Units,
                     const std::map<std::string, double> &Recorded,
                     llvm::function_ref<double(const std::string &)> Proxy,
                     unsigned N) {
  std::vector<std::optional<double>> Known;
  for (const std::string &U : Units) {
    auto It = Recorded.find(U);
    if (Recorded.empty())
      Known.push_back(Proxy(U));
    else if (It != Recorded.end())
      Known.push_back(It->second);
    else
      Known.push_back(std::nullopt);
  }
  std::vector<double> Costs = estimateUnknownCosts(Known);
  std::vector<WorkUnit> Work;
  for (size_t I = 0; I < Units.size(); ++I)
    Work.push_back({Units[I], Costs[I]});
  return partition(std::move(Work), N);
}

std::string describeShare(const ShardPlan &P, unsigned K, llvm::StringRef Units,
                          llvm::StringRef CostUnit) {
  double Total = 0;
  for (double C : P.Costs)
    Total += C;
  double Mine = K >= 1 && K <= P.Costs.size() ? P.Costs[K - 1] : 0;
  return llvm::formatv("shard {0}/{1}: {2} of {3} {4}, expected cost {5:f1} "
                       "of {6:f1} {7}, plan {8}",
                       K, P.N, P.unitsOf(K).size(), P.Units.size(), Units, Mine,
                       Total, CostUnit, P.Hash.substr(0, 12))
      .str();
}

std::string planText(const ShardPlan &P) {
  std::string Out;
  for (const auto &[Name, Share] : P.Units)
    Out += std::to_string(Share) + "\t" + Name + "\n";
  return Out;
}

llvm::Expected<ShardPlan> parsePlanText(llvm::StringRef Text, unsigned N) {
  ShardPlan P;
  P.N = std::max(1u, N);
  P.Costs.assign(P.N, 0);
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    auto [ShareText, Name] = Line.split('\t');
    unsigned Share = 0;
    if (ShareText.getAsInteger(10, Share) || Share == 0 || Share > P.N ||
        Name.empty())
      return makeErrorf("bad shard plan line '{0}'", Line);
    P.Units.emplace_back(Name.str(), Share);
  }
  llvm::sort(P.Units);
  P.Hash = hashOf(P);
  return P;
}

} // namespace shard
} // namespace tia
