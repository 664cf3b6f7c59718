//===- DumpCommand.cpp - tia dump -----------------------------------------===//
//
// Stable, sorted text of what the store holds, for people and lit tests.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Predict/Predict.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

namespace {

/// Calls \p Each with every file of the latest index (or only O.File) and
/// its stored index, in path order.
llvm::Error forEachFile(Store &S, const DumpOptions &O,
                        llvm::function_ref<void(const FileIndex &)> Each) {
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  bool Found = false;
  for (auto &[Path, Hash] : *Files) {
    if (!O.File.empty() && Path != O.File)
      continue;
    auto FI = S.getFileIndex(Path, Hash);
    if (!FI)
      return FI.takeError();
    if (!*FI)
      continue;
    Found = true;
    Each(**FI);
  }
  if (!O.File.empty() && !Found)
    return makeErrorf("{0} is not in the index: check the path (relative to "
                      "the repository root) or run 'tia index'",
                      O.File);
  return llvm::Error::success();
}

llvm::Error dumpElements(Store &S, const DumpOptions &O,
                         llvm::raw_ostream &Out) {
  return forEachFile(S, O, [&](const FileIndex &F) {
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
      if (O.Hashes)
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

llvm::Error dumpReferences(Store &S, const DumpOptions &O,
                           llvm::raw_ostream &Out) {
  return forEachFile(S, O, [&](const FileIndex &F) {
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

llvm::Error dumpTests(Store &S, llvm::raw_ostream &Out) {
  auto Tests = S.tests();
  if (!Tests)
    return Tests.takeError();
  for (const TestRecord &T : *Tests)
    Out << T.Id << " elements=" << T.CoveredElements << " commit="
        << (T.CoverageCommit.empty() ? "-" : shortId(T.CoverageCommit)) << "\n";
  return llvm::Error::success();
}

llvm::Error dumpCoverage(Store &S, llvm::raw_ostream &Out) {
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

llvm::Error dumpDefinitions(Store &S, llvm::raw_ostream &Out) {
  auto Defs = S.currentTestDefinitions();
  if (!Defs)
    return Defs.takeError();
  for (const auto &[Path, D] : *Defs)
    Out << Path << ":" << D.BeginLine << "-" << D.EndLine << " " << D.Framework
        << " " << D.Name << "\n";
  return llvm::Error::success();
}

llvm::Error dumpResults(Store &S, llvm::raw_ostream &Out) {
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

llvm::Error dumpFlaky(Store &S, const config::Config &C,
                      llvm::raw_ostream &Out) {
  auto Flaky = predict::flakyTests(S, C.Predict);
  if (!Flaky)
    return Flaky.takeError();
  for (const FlakyTest &F : *Flaky)
    Out << F.TestId << llvm::formatv(" flip-rate={0:f2}", F.FlipRate)
        << " flips=" << F.Flips << " reruns=" << F.Pairs
        << " last-run=" << F.LastFlipRun << "\n";
  return llvm::Error::success();
}

/// One line per observed run: its id, the record's version and the record.
llvm::Error dumpObservations(Store &S, llvm::raw_ostream &Out) {
  auto Observed = S.observations();
  if (!Observed)
    return Observed.takeError();
  for (const StoredObservation &O : *Observed)
    Out << "run=" << O.RunId << " version=" << O.FormatVersion << " "
        << O.Record << "\n";
  return llvm::Error::success();
}

/// Each traced test with the files it read and the directories it listed.
llvm::Error dumpFiles(Store &S, llvm::raw_ostream &Out) {
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
  }
  return llvm::Error::success();
}

/// Each test that crossed into a build object, with the objects, then the
/// recorded sources of every object.
llvm::Error dumpBoundaries(Store &S, llvm::raw_ostream &Out) {
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

} // namespace

llvm::Error runDump(const GlobalOptions &G, const DumpOptions &O,
                    llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  switch (O.What) {
  case DumpWhat::Elements:
    return dumpElements(**S, O, Out);
  case DumpWhat::Tests:
    return dumpTests(**S, Out);
  case DumpWhat::Coverage:
    return dumpCoverage(**S, Out);
  case DumpWhat::Results:
    return dumpResults(**S, Out);
  case DumpWhat::References:
    return dumpReferences(**S, O, Out);
  case DumpWhat::Definitions:
    return dumpDefinitions(**S, Out);
  case DumpWhat::Names:
    return dumpNames(**S, O, Out);
  case DumpWhat::Evidence:
    return dumpEvidence(**S, Out);
  case DumpWhat::Flaky:
    return dumpFlaky(**S, Ctx->Config, Out);
  case DumpWhat::Observations:
    return dumpObservations(**S, Out);
  case DumpWhat::Files:
    return dumpFiles(**S, Out);
  case DumpWhat::Boundaries:
    return dumpBoundaries(**S, Out);
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    DumpSubcommand("dump",
                   "'tia dump elements|references|tests|coverage|"
                   "results|definitions|names|evidence|flaky|observations|"
                   "files|boundaries': "
                   "print what the database holds, sorted and stable");

namespace {
llvm::cl::list<std::string>
    Args(llvm::cl::Positional,
         llvm::cl::desc("elements|references|tests|coverage|results|"
                        "definitions|names|evidence|flaky|observations|files|"
                        "boundaries"),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(DumpSubcommand));
llvm::cl::opt<std::string>
    File("file", llvm::cl::desc("Only this file (repository-relative)"),
         llvm::cl::value_desc("path"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(DumpSubcommand));
llvm::cl::opt<bool> Hashes("hashes",
                           llvm::cl::desc("Print element token hashes (names: "
                                          "bytecode checksums)"),
                           llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
                           llvm::cl::sub(DumpSubcommand));
} // namespace

int dumpMain(const GlobalOptions &G) {
  DumpOptions O;
  if (Args.size() != 1)
    return usageError("'tia dump' needs one of: elements, references, "
                      "tests, coverage, results, definitions, names, "
                      "evidence, flaky, observations, files, boundaries");
  if (Args[0] == "elements")
    O.What = DumpWhat::Elements;
  else if (Args[0] == "tests")
    O.What = DumpWhat::Tests;
  else if (Args[0] == "coverage")
    O.What = DumpWhat::Coverage;
  else if (Args[0] == "results")
    O.What = DumpWhat::Results;
  else if (Args[0] == "references")
    O.What = DumpWhat::References;
  else if (Args[0] == "definitions")
    O.What = DumpWhat::Definitions;
  else if (Args[0] == "names")
    O.What = DumpWhat::Names;
  else if (Args[0] == "evidence")
    O.What = DumpWhat::Evidence;
  else if (Args[0] == "flaky")
    O.What = DumpWhat::Flaky;
  else if (Args[0] == "observations")
    O.What = DumpWhat::Observations;
  else if (Args[0] == "files")
    O.What = DumpWhat::Files;
  else if (Args[0] == "boundaries")
    O.What = DumpWhat::Boundaries;
  else
    return usageError("unknown dump '" + Args[0] +
                      "': use elements, references, tests, coverage, "
                      "results, definitions, names, evidence, flaky, "
                      "observations, files or boundaries");
  O.File = File;
  O.Hashes = Hashes;
  return exitCode(runDump(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
