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

/// The value of the last of options \p Names in \p Args, as `--name=V` or
/// `--name V`.
std::optional<std::string>
lastOptionValue(const std::vector<std::string> &Args,
                llvm::ArrayRef<llvm::StringRef> Names) {
  std::optional<std::string> Value;
  for (size_t I = 1; I < Args.size(); ++I)
    for (llvm::StringRef Name : Names) {
      llvm::StringRef A = Args[I];
      if (A == Name && I + 1 < Args.size())
        Value = Args[I + 1];
      else if (A.consume_front(Name) && A.consume_front("="))
        Value = A.str();
    }
  return Value;
}

std::string absoluteFrom(llvm::StringRef Dir, llvm::StringRef Path) {
  if (llvm::sys::path::is_absolute(Path))
    return Path.str();
  llvm::SmallString<256> Out(Dir);
  llvm::sys::path::append(Out, Path);
  llvm::sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  return std::string(Out);
}

/// GoogleTest's report for --gtest_output value \p Spec: "xml" (the
/// default file), "xml:FILE" or "xml:DIR/" (a file named after the
/// binary); std::nullopt for another format.
std::optional<std::string> gtestReport(llvm::StringRef Spec,
                                       llvm::StringRef Binary) {
  if (Spec == "xml")
    return std::string("test_detail.xml");
  if (!Spec.consume_front("xml:"))
    return std::nullopt;
  if (Spec.ends_with("/"))
    return (Spec + llvm::sys::path::stem(Binary) + ".xml").str();
  return Spec.str();
}

} // namespace

std::optional<std::string> reportAskedFor(Runner Kind,
                                          const std::vector<std::string> &Args,
                                          llvm::StringRef WorkingDir) {
  std::optional<std::string> Path;
  std::string Dir = WorkingDir.str();
  switch (Kind) {
  case Runner::Pytest:
    Path = lastOptionValue(Args, {"--junitxml", "--junit-xml"});
    break;
  case Runner::Lit:
    Path = lastOptionValue(Args, {"--xunit-xml-output"});
    break;
  case Runner::Ctest:
    // ctest writes a relative report into the build directory.
    Path = lastOptionValue(Args, {"--output-junit"});
    if (auto TestDir = lastOptionValue(Args, {"--test-dir"}))
      Dir = absoluteFrom(WorkingDir, *TestDir);
    break;
  case Runner::Gtest: {
    std::optional<std::string> Spec = lastOptionValue(Args, {"--gtest_output"});
    if (!Spec)
      if (const char *Env = getenv("GTEST_OUTPUT"))
        Spec = Env;
    if (Spec)
      Path = gtestReport(*Spec, Args.front());
    break;
  }
  case Runner::Catch2:
  case Runner::Doctest:
  case Runner::Boost:
  case Runner::Auto:
    break;
  }
  if (!Path || Path->empty())
    return std::nullopt;
  return absoluteFrom(Dir, *Path);
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
