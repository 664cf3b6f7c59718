//===- RunnerProcess.cpp - starting a test runner -------------------------===//
//
// `tia run` starts the runner as the shell would: a program named with a
// path is taken from where tia runs, any other is looked up on PATH. Its
// output goes straight to the terminal, after tia's own lines.
//
//===----------------------------------------------------------------------===//

#include "tia/Results/Runners.h"
#include "tia/Support/Error.h"
#include "tia/Support/Paths.h"
#include "tia/Support/Quote.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

namespace tia {
namespace results {

llvm::Expected<std::string> findRunnerProgram(llvm::StringRef Program,
                                              llvm::StringRef WorkingDir) {
  if (Program.contains('/'))
    return absolutePath(Program, WorkingDir);
  auto Found = llvm::sys::findProgramByName(Program);
  if (!Found)
    return makeErrorf("cannot find {0} on PATH: install it or give its "
                      "path",
                      Program);
  return *Found;
}

Runner recogniseCommand(const std::vector<std::string> &Command,
                        llvm::StringRef WorkingDir) {
  auto Program = findRunnerProgram(Command.front(), WorkingDir);
  if (!Program) {
    llvm::consumeError(Program.takeError()); // Running it will say why.
    return recogniseRunner(Command, "");
  }
  return recogniseRunner(Command, *Program);
}

std::string shownCommand(const std::vector<std::string> &Args) {
  std::vector<std::string> Parts;
  for (const std::string &A : Args)
    Parts.push_back(A.size() > 200 ? shellQuoted(A.substr(0, 120)) + "...(" +
                                         std::to_string(A.size()) + " bytes)"
                                   : shellQuoted(A));
  return llvm::join(Parts, " ");
}

llvm::Expected<std::string> temporaryReportPath() {
  llvm::SmallString<128> Report;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("tia-run", "xml", Report))
    return makeErrorf("cannot make a temporary file: {0}", EC.message());
  // Only the name is wanted: a runner that writes no report must leave no
  // file behind, or an empty one would be read as its report.
  llvm::sys::fs::remove(Report);
  return std::string(Report);
}

llvm::Expected<int> runRunner(llvm::StringRef Program,
                              const std::vector<std::string> &Args,
                              llvm::StringRef Binary, bool Quiet,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (!Quiet)
    Err << "running " << shownCommand(Args) << "\n";
  Err.flush();
  Out.flush();
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::string Message;
  bool Failed = false;
  int RC = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, {}, 0, 0,
                                     &Message, &Failed);
  if (Failed)
    return makeErrorf("cannot run {0}: {1}", Program, Message);
  if (RC < 0) {
    Err << "tia: warning: " << Binary << " did not exit normally (" << Message
        << ")\n";
    RC = 1;
  }
  return RC;
}

} // namespace results
} // namespace tia
