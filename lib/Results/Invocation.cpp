//===- Invocation.cpp - recognising a runner and asking it for a report ---===//

#include "tia/Results/Runners.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace tia {
namespace results {

Runner recogniseRunner(const std::vector<std::string> &Command,
                       llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Command.front());
  if (Name == "ctest")
    return Runner::Ctest;
  if (Name == "pytest" || Name == "py.test" || Name == "pytest-3")
    return Runner::Pytest;
  if (Name.starts_with("python") && Command.size() > 2 && Command[1] == "-m" &&
      Command[2] == "pytest")
    return Runner::Pytest;
  if (runsLit(Command))
    return Runner::Lit;
  if (Program.empty())
    return Runner::Gtest; // Running it will say why it cannot.
  std::optional<CaseFramework> F = caseFrameworkOfBinary(Program);
  if (F == CaseFramework::Catch2)
    return Runner::Catch2;
  if (F == CaseFramework::Doctest)
    return Runner::Doctest;
  if (F == CaseFramework::Boost)
    return Runner::Boost;
  return Runner::Gtest;
}

void askForReport(Runner Kind, llvm::StringRef Report,
                  std::vector<std::string> &Args) {
  switch (Kind) {
  case Runner::Ctest:
    Args.push_back("--output-junit");
    Args.push_back(Report.str());
    break;
  case Runner::Pytest:
    Args.push_back(("--junitxml=" + Report).str());
    break;
  case Runner::Catch2:
    llvm::append_range(Args, std::vector<std::string>{"--reporter", "junit",
                                                      "--out", Report.str()});
    break;
  case Runner::Doctest:
    Args.push_back("--reporters=junit");
    Args.push_back(("--out=" + Report).str());
    break;
  case Runner::Boost:
    // Boost's console log stays, a JUnit logger joins it.
    Args.push_back(("--logger=HRF,error,stdout:JUNIT,error," + Report).str());
    break;
  case Runner::Lit:
    Args.push_back(("--xunit-xml-output=" + Report).str());
    break;
  case Runner::Gtest:
  case Runner::Auto:
    Args.push_back(("--gtest_output=xml:" + Report).str());
    break;
  }
}

namespace {

/// What `PROGRAM --version` prints on stdout; empty when it cannot run.
std::string versionOf(llvm::StringRef Program) {
  llvm::SmallString<128> Out;
  if (llvm::sys::fs::createTemporaryFile("tia-version", "txt", Out))
    return std::string();
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(Out), llvm::StringRef("")};
  int RC = llvm::sys::ExecuteAndWait(Program, {Program, "--version"},
                                     std::nullopt, Redirects, 30);
  std::string Text;
  if (RC == 0)
    if (auto Buf = llvm::MemoryBuffer::getFile(Out))
      Text = (*Buf)->getBuffer().str();
  llvm::sys::fs::remove(Out);
  return Text;
}

} // namespace

void useCtestNameFile(const select::Plan &P, bool Exclusion,
                      llvm::StringRef Program,
                      std::vector<std::string> &Selection,
                      std::string &NameFile) {
  if (Selection.empty() || Selection == std::vector<std::string>{"-R", "^$"})
    return;
  if (!Exclusion && llvm::any_of(P.Selected, [](const select::PlannedTest &T) {
        return T.FromDefinition;
      }))
    return;
  if (!ctestReadsNameFiles(versionOf(Program)))
    return;
  llvm::SmallString<128> Path;
  int FD;
  if (llvm::sys::fs::createTemporaryFile("tia-tests", "txt", FD, Path))
    return;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    for (const std::string &Name : ctestNames(P, Exclusion).Arguments)
      OS << Name << "\n";
  }
  NameFile = std::string(Path);
  Selection = {Exclusion ? "--exclude-from-file" : "--tests-from-file",
               NameFile};
}

} // namespace results
} // namespace tia
