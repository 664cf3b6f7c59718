//===- Dump.cpp - stable text of what the store holds ---------------------===//

#include "tia/Store/Dump.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

namespace tia {
namespace dump {

namespace {

/// Calls \p Each with every file of the latest index (or only \p File) and
/// its stored index, in path order.
llvm::Error forEachFile(Store &S, llvm::StringRef File,
                        llvm::function_ref<void(const FileIndex &)> Each) {
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  bool Found = false;
  for (auto &[Path, Hash] : *Files) {
    if (!File.empty() && Path != File)
      continue;
    auto FI = S.getFileIndex(Path, Hash);
    if (!FI)
      return FI.takeError();
    if (!*FI)
      continue;
    Found = true;
    Each(**FI);
  }
  if (!File.empty() && !Found)
    return makeErrorf("{0} is not in the index: check the path (relative to "
                      "the repository root) or run 'tia index'",
                      File);
  return llvm::Error::success();
}

} // namespace

llvm::Error writeElements(Store &S, llvm::StringRef File, bool Hashes,
                          llvm::raw_ostream &Out) {
  return forEachFile(S, File, [&](const FileIndex &F) {
    Out << F.Path;
    if (!F.Complete)
      Out << (F.Python && !F.Python->Problem.empty()
                  ? " (incomplete: " + F.Python->Problem + ")"
                  : std::string(" (incomplete)"));
    Out << "\n";
    for (const Element &E : F.Elements) {
      Out << "  " << E.BeginLine << "-" << E.EndLine << " " << kindName(E.Kind)
          << " " << E.Display << " [" << E.Key << "]";
      if (E.BodyLine)
        Out << " body=" << E.BodyLine;
      if (Hashes)
        Out << " #" << E.Hash;
      Out << "\n";
      for (const std::string &N : E.Names)
        if (N != E.Display) // Python's one name is its display.
          Out << "    = " << N << "\n";
    }
    for (const TestDefinition &T : F.Tests)
      Out << "  test " << T.Framework << ":" << T.Name << " " << T.BeginLine
          << "-" << T.EndLine << "\n";
    if (F.Python)
      for (const ImportRecord &I : F.Python->Imports)
        Out << "  import " << I.Module << (I.Name.empty() ? "" : " " + I.Name)
            << " (line " << I.Line << ")\n";
  });
}

llvm::Error writeReferences(Store &S, llvm::StringRef File,
                            llvm::raw_ostream &Out) {
  return forEachFile(S, File, [&](const FileIndex &F) {
    Out << F.Path << "\n";
    for (const IncludeDirective &I : F.Includes)
      Out << "  " << I.Line << " #include " << (I.Angled ? "<" : "\"")
          << I.Spelling << (I.Angled ? ">" : "\"") << " -> "
          << (I.Resolved.empty() ? "(not a project file)" : I.Resolved) << "\n";
    for (const Reference &R : F.References)
      Out << "  " << R.From << " -> " << R.To << " ("
          << referenceKindName(R.Kind) << ")\n";
  });
}

llvm::Error writeTests(Store &S, llvm::raw_ostream &Out) {
  auto Tests = S.tests();
  if (!Tests)
    return Tests.takeError();
  for (const TestRecord &T : *Tests)
    Out << T.Id << " elements=" << T.CoveredElements << " commit="
        << (T.CoverageCommit.empty() ? "-" : shortId(T.CoverageCommit)) << "\n";
  return llvm::Error::success();
}

llvm::Error writeCoverage(Store &S, llvm::raw_ostream &Out) {
  auto Tests = S.tests();
  if (!Tests)
    return Tests.takeError();
  for (const TestRecord &T : *Tests) {
    auto Keys = S.coverageOf(T.Id);
    if (!Keys)
      return Keys.takeError();
    Out << T.Id << "\n";
    for (const std::string &K : *Keys)
      Out << "  " << K << "\n";
  }
  return llvm::Error::success();
}

llvm::Error writeDefinitions(Store &S, llvm::raw_ostream &Out) {
  auto Defs = S.currentTestDefinitions();
  if (!Defs)
    return Defs.takeError();
  for (const auto &[Path, D] : *Defs)
    Out << Path << ":" << D.BeginLine << "-" << D.EndLine << " " << D.Framework
        << " " << D.Name << "\n";
  return llvm::Error::success();
}

llvm::Error writeResults(Store &S, llvm::raw_ostream &Out) {
  auto Runs = S.runs();
  if (!Runs)
    return Runs.takeError();
  for (const RunRecord &R : *Runs) {
    auto Results = S.resultsOfRun(R.Id);
    if (!Results)
      return Results.takeError();
    for (const TestResult &T : *Results) {
      Out << "run=" << R.Id << " " << R.Source << " "
          << (R.Commit.empty() ? "-" : shortId(R.Commit)) << " " << T.TestId
          << " " << outcomeName(T.Result) << " attempt=" << T.Attempt
          << llvm::formatv(" {0:f3}s", T.Seconds);
      if (!T.Message.empty())
        Out << " " << T.Message;
      Out << "\n";
    }
  }
  return llvm::Error::success();
}

void writeFlaky(const std::vector<FlakyTest> &Flaky, llvm::raw_ostream &Out) {
  for (const FlakyTest &F : Flaky)
    Out << F.TestId << llvm::formatv(" flip-rate={0:f2}", F.FlipRate)
        << " flips=" << F.Flips << " reruns=" << F.Pairs
        << " last-run=" << F.LastFlipRun << "\n";
}

llvm::Error writeObservations(Store &S, llvm::raw_ostream &Out) {
  auto Observed = S.observations();
  if (!Observed)
    return Observed.takeError();
  for (const StoredObservation &O : *Observed)
    Out << "run=" << O.RunId << " version=" << O.FormatVersion << " "
        << O.Record << "\n";
  return llvm::Error::success();
}

llvm::Error writeFileReads(Store &S, llvm::raw_ostream &Out) {
  auto All = S.fileReads();
  if (!All)
    return All.takeError();
  for (const FileReads &R : *All) {
    Out << R.TestId
        << " commit=" << (R.Commit.empty() ? "-" : shortId(R.Commit));
    if (!R.Complete)
      Out << " incomplete (counts as reading every file)";
    Out << "\n";
    for (const std::string &F : R.Files)
      Out << "  read " << F << "\n";
    for (const std::string &D : R.Directories)
      Out << "  list " << D << "\n";
    for (const std::string &D : R.RunnerDirectories)
      Out << "  list to find tests " << D << "\n";
  }
  return llvm::Error::success();
}

llvm::Error writeBoundaries(Store &S, llvm::raw_ostream &Out) {
  auto All = S.boundaries();
  if (!All)
    return All.takeError();
  std::set<std::string> Objects;
  for (const TestBoundaries &B : *All) {
    Out << B.TestId << "\n";
    for (const Boundary &O : B.Objects) {
      Out << "  " << (O.Program ? "runs " : "loads ") << O.Object;
      if (O.Covered)
        Out << " (covered)\n";
      else
        Out << " (no coverage: " << O.Problem << ")\n";
      Objects.insert(O.Object);
    }
  }
  for (const std::string &Object : Objects) {
    auto Sources = S.boundarySources(Object);
    if (!Sources)
      return Sources.takeError();
    Out << "sources of " << Object << ":";
    for (const std::string &Path : *Sources)
      Out << " " << Path;
    Out << "\n";
  }
  return llvm::Error::success();
}

} // namespace dump
} // namespace tia
