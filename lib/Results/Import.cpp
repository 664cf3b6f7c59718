//===- Import.cpp - storing JUnit reports as a run ------------------------===//

#include "tia/Results/JUnit.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>

namespace tia {
namespace results {

namespace {

/// \p File (as a report wrote it) relative to \p Root when it names a file
/// there; empty otherwise.
std::string repositoryPath(llvm::StringRef File, llvm::StringRef Root) {
  if (File.empty() || Root.empty())
    return std::string();
  llvm::SmallString<256> Abs;
  if (llvm::sys::path::is_absolute(File))
    Abs = File;
  else
    llvm::sys::path::append(Abs, Root, File);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::StringRef Rel = Abs;
  if (!Rel.consume_front(Root) || !Rel.consume_front("/") ||
      !llvm::sys::fs::is_regular_file(Abs))
    return std::string();
  return Rel.str();
}

/// The known lit tests of each lit suite's ctest test, by its name.
llvm::Expected<std::map<std::string, std::vector<std::string>>>
litTestsByCTest(Store &S) {
  auto Infos = S.testInfos();
  if (!Infos)
    return Infos.takeError();
  std::map<std::string, std::vector<std::string>> Out;
  for (const TestInfo &T : *Infos)
    if (T.Command && !T.Command->EnclosingCTest.empty())
      Out[T.Command->EnclosingCTest].push_back(T.Id);
  return Out;
}

} // namespace

llvm::Expected<ImportSummary> importJUnit(Store &S,
                                          const std::vector<std::string> &Files,
                                          const ImportOptions &O) {
  auto Known = S.tests();
  if (!Known)
    return Known.takeError();
  std::vector<std::string> KnownIds;
  for (const TestRecord &T : *Known)
    KnownIds.push_back(T.Id);
  // Read once, and only for a ctest report, which may hold lit suites.
  std::optional<std::map<std::string, std::vector<std::string>>>
      LitTestsByCTest;

  ImportSummary Summary;
  std::vector<TestResult> Results;
  std::map<std::string, std::pair<std::string, unsigned>> Sources;
  for (const std::string &File : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false);
    if (!Buf)
      return makeErrorf("cannot read {0}: {1}", File, Buf.getError().message());
    auto Report = parseJUnit((*Buf)->getBuffer(), File, O.Hint);
    if (!Report)
      return Report.takeError();

    NamingOptions Naming;
    Naming.GtestBinary =
        O.GtestBinary.empty() ? binaryFromReportName(File) : O.GtestBinary;
    Naming.GtestBinaryGiven = !O.GtestBinary.empty();
    Naming.PytestDir = O.PytestDir;
    Naming.KnownIds = KnownIds;
    if (Report->Kind == Runner::Ctest || Report->Kind == Runner::Auto) {
      if (!LitTestsByCTest) {
        auto Lit = litTestsByCTest(S);
        if (!Lit)
          return Lit.takeError();
        LitTestsByCTest = std::move(*Lit);
      }
      Naming.LitTestsByCTest = &*LitTestsByCTest;
    }
    std::string Root = O.ProjectRoot;
    auto IsFile = [&](llvm::StringRef Rel) {
      return !Root.empty() &&
             llvm::sys::fs::is_regular_file(Root + "/" + Rel.str());
    };
    Naming.IsFile = IsFile;
    auto Named = testResults(*Report, File, Naming, Summary.Warnings);
    if (!Named)
      return Named.takeError();

    // Retries across files of one import count on from the earlier ones.
    std::map<std::string, unsigned> Earlier;
    for (const TestResult &R : Results)
      Earlier[R.TestId] = std::max(Earlier[R.TestId], R.Attempt + 1);
    for (size_t I = 0; I < Named->size(); ++I) {
      TestResult &R = (*Named)[I];
      R.Attempt += Earlier[R.TestId];
      // A GoogleTest report has one result per case, in order.
      if (Report->Kind == Runner::Gtest) {
        const JUnitCase &C = Report->Cases[I];
        std::string Path = repositoryPath(C.File, Root);
        if (!Path.empty())
          Sources[R.TestId] = {Path, C.Line};
      }
    }
    llvm::append_range(Results, std::move(*Named));
  }

  llvm::Error E = S.transaction([&]() -> llvm::Error {
    auto Run = S.addRun(O.Commit, O.Source);
    if (!Run)
      return Run.takeError();
    Summary.RunId = *Run;
    if (llvm::Error E = S.putResults(*Run, Results))
      return E;
    for (auto &[Id, Where] : Sources) {
      auto Info = S.testInfo(Id);
      if (!Info)
        return Info.takeError();
      if (*Info && !(*Info)->File.empty())
        continue;
      TestInfo T = Info->value_or(TestInfo{Id, "", 0, std::nullopt});
      T.File = Where.first;
      T.Line = Where.second;
      if (llvm::Error E = S.putTestInfo(T))
        return E;
    }
    return llvm::Error::success();
  });
  if (E)
    return E;
  Summary.Results = Results.size();
  for (const TestResult &R : Results)
    ++Summary.ByOutcome[static_cast<int>(R.Result)];
  return Summary;
}

std::string summaryText(const ImportSummary &Sum) {
  std::string Counts;
  for (Outcome O : {Outcome::Passed, Outcome::Failed, Outcome::Error,
                    Outcome::TimedOut, Outcome::Crashed, Outcome::Skipped}) {
    unsigned N = Sum.ByOutcome[static_cast<int>(O)];
    if (!N)
      continue;
    Counts += (Counts.empty() ? "" : ", ") + std::to_string(N) + " " +
              outcomeName(O).str();
  }
  return llvm::formatv("{0} result{1}{2}", Sum.Results, pluralS(Sum.Results),
                       Counts.empty() ? std::string() : " (" + Counts + ")")
      .str();
}

ImportOptions runImportOptions(Runner Kind, llvm::StringRef Binary,
                               llvm::StringRef Root, llvm::StringRef Commit) {
  ImportOptions O;
  O.Hint = Kind == Runner::Auto ? Runner::Gtest : Kind;
  O.GtestBinary = Binary.str();
  O.ProjectRoot = Root.str();
  O.Source = "run";
  O.Commit = Commit.str();
  return O;
}

std::optional<ImportSummary>
importRunnerReport(Store &S, llvm::StringRef Report, const ImportOptions &O,
                   llvm::StringRef Binary, llvm::raw_ostream &Err) {
  auto Sum = importJUnit(S, {Report.str()}, O);
  if (!Sum) {
    Err << "tia: warning: the results of " << Binary
        << " were not imported: " << llvm::toString(Sum.takeError()) << "\n";
    return std::nullopt;
  }
  for (const std::string &W : Sum->Warnings)
    Err << "tia: warning: " << W << "\n";
  return std::move(*Sum);
}

} // namespace results
} // namespace tia
