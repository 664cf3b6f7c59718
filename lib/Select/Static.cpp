//===- Static.cpp - static selection and its evidence ---------------------===//
//
// The modes, and what index and collect ask of name-based selection: the
// critical names of the current revision and the functions to probe.
//
//===----------------------------------------------------------------------===//

#include "tia/Select/Static.h"
#include "NameRTS.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Model.h"
#include "llvm/Support/ThreadPool.h"
#include <algorithm>
#include <map>
#include <mutex>

namespace tia {
namespace select {

llvm::StringRef modeName(SelectionMode M) {
  switch (M) {
  case SelectionMode::Combined:
    return "combined";
  case SelectionMode::Coverage:
    return "coverage";
  case SelectionMode::Static:
    return "static";
  }
  return "combined";
}

std::optional<SelectionMode> parseMode(llvm::StringRef Name) {
  for (SelectionMode M : {SelectionMode::Combined, SelectionMode::Coverage,
                          SelectionMode::Static})
    if (modeName(M) == Name)
      return M;
  return std::nullopt;
}

llvm::Expected<std::vector<SelectionMode>>
parseModeList(llvm::StringRef Text, llvm::StringRef Option) {
  std::vector<SelectionMode> Modes;
  llvm::SmallVector<llvm::StringRef, 4> Names;
  Text.split(Names, ',');
  for (llvm::StringRef Name : Names) {
    Name = Name.trim();
    std::optional<SelectionMode> M = parseMode(Name);
    if (!M)
      return makeErrorf("{0} takes static, coverage and combined, "
                        "comma-separated, not '{1}'",
                        Option, Name);
    if (llvm::is_contained(Modes, *M))
      return makeErrorf("{0} names '{1}' twice", Option, Name);
    Modes.push_back(*M);
  }
  return Modes;
}

namespace {

/// The name graph of the store's current revision (no change marked).
llvm::Expected<std::vector<namerts::GraphFile>> currentGraph(Store &S) {
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  std::vector<namerts::GraphFile> Out;
  for (auto &[Path, Hash] : *Files) {
    if (!python::isPythonSource(Path))
      continue;
    auto FI = S.getPythonGraph(Path, Hash);
    if (!FI)
      return FI.takeError();
    if (!*FI || !(*FI)->Complete || !(*FI)->Python)
      continue;
    namerts::GraphFile GF;
    GF.Path = Path;
    GF.Module = (*FI)->Python->Module;
    GF.Nodes = std::move((*FI)->Python->Nodes);
    GF.Bindings = std::move((*FI)->Python->Bindings);
    GF.Imports = std::move((*FI)->Python->Imports);
    GF.Tests = std::move((*FI)->Tests);
    Out.push_back(std::move(GF));
  }
  return Out;
}

namerts::GraphOptions graphOptions(const StaticOptions &O) {
  namerts::GraphOptions G;
  G.RegistryKeywords = O.RegistryKeywords;
  G.TestFunctionPatterns = O.TestFunctionPatterns;
  G.ContextMatching = O.ContextMatching;
  return G;
}

} // namespace

llvm::Expected<std::vector<std::pair<std::string, uint64_t>>>
computeCriticalNames(Store &S, const StaticOptions &O) {
  auto Files = currentGraph(S);
  if (!Files)
    return Files.takeError();
  namerts::Graph G(std::move(*Files), graphOptions(O));
  std::vector<uint32_t> Tests = G.testFiles();
  std::map<std::string, uint64_t> Gain;
  std::mutex Lock;
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(O.Jobs));
    for (uint32_t F : Tests)
      Pool.async([&, F] {
        std::map<std::string, uint64_t> Mine;
        G.addExpansion(F, Mine);
        std::lock_guard<std::mutex> Guard(Lock);
        for (auto &[Name, N] : Mine)
          Gain[Name] += N;
      });
    Pool.wait();
  }
  // Only names that define a function or method can be pruned.
  std::set<std::string> Functions;
  for (uint32_t F = 0; F < G.numFiles(); ++F)
    for (const NameNode &N : G.file(F).Nodes)
      if (N.Kind == "function")
        Functions.insert(N.Name);
  std::vector<std::pair<std::string, uint64_t>> Ranked;
  for (auto &[Name, N] : Gain)
    if (Functions.count(Name))
      Ranked.emplace_back(Name, N);
  std::sort(Ranked.begin(), Ranked.end(), [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  });
  if (Ranked.size() > O.CriticalFunctions)
    Ranked.resize(O.CriticalFunctions);
  return Ranked;
}

llvm::Expected<ProbePlan> probePlan(Store &S, const StaticOptions &O) {
  auto Files = currentGraph(S);
  if (!Files)
    return Files.takeError();
  auto Critical = S.criticalNames();
  if (!Critical)
    return Critical.takeError();
  namerts::GraphOptions GO = graphOptions(O);
  for (auto &[Name, Gain] : *Critical)
    GO.CriticalNames.push_back(Name);
  namerts::Graph G(std::move(*Files), GO);
  std::vector<std::string> Keys = G.probeKeys();
  std::set<std::string> Wanted(Keys.begin(), Keys.end());
  ProbePlan Plan;
  for (uint32_t N = 0; N < G.numNodes(); ++N) {
    std::string Key = G.nodeKey(N);
    if (!Wanted.count(Key))
      continue;
    auto [F, I] = G.where(N);
    const NameNode &Node = G.file(F).Nodes[I];
    llvm::StringRef Qual = llvm::StringRef(Node.Id).split(':').second;
    Plan.Probes.push_back(
        {G.file(F).Path, Qual.split('#').first.str(), Node.BeginLine, Key});
  }
  std::sort(Plan.Probes.begin(), Plan.Probes.end(),
            [](const Probe &A, const Probe &B) {
              return std::tie(A.File, A.Line, A.Key) <
                     std::tie(B.File, B.Line, B.Key);
            });
  Plan.Names = G.definedNames();
  for (uint32_t F : G.testFiles())
    Plan.TestFiles.push_back(G.file(F).Path);
  std::sort(Plan.TestFiles.begin(), Plan.TestFiles.end());
  return Plan;
}

} // namespace select
} // namespace tia
