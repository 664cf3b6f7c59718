//===- FrontEnd.cpp - one translation unit through Clang ------------------===//
//
// Runs the extractor over one compile command. Everything a call needs is
// its own (file system, file manager, diagnostics), so calls may run on
// several threads at once.
//
//===----------------------------------------------------------------------===//

#include "tia/Cpp/FrontEnd.h"
#include "Extractor.h"
#include "tia/Support/Error.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticDriver.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdlib>

#ifndef TIA_CLANG_RESOURCE_DIR
#define TIA_CLANG_RESOURCE_DIR ""
#endif

namespace tia {
namespace cpp {

std::string defaultResourceDir() {
  if (const char *Env = std::getenv("TIA_RESOURCE_DIR"))
    if (*Env)
      return Env;
  return TIA_CLANG_RESOURCE_DIR;
}

namespace {

/// Counts diagnostics and keeps the first error, printing nothing.
class DiagnosticCollector : public clang::DiagnosticConsumer {
public:
  explicit DiagnosticCollector(const detail::ProjectPaths &Paths)
      : Paths(Paths) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    // Databases written for GCC carry flags Clang does not know. The driver
    // drops them and the parse goes on unharmed, so they only warn here;
    // counting them as errors would mark every such file incomplete.
    if (Info.getID() == clang::diag::err_drv_unknown_argument ||
        Info.getID() == clang::diag::err_drv_unknown_argument_with_suggestion)
      Level = clang::DiagnosticsEngine::Warning;
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error || !FirstError.empty())
      return;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      clang::PresumedLoc P = SM.getPresumedLoc(
          SM.getExpansionLoc(Info.getLocation()), /*UseLineDirectives=*/false);
      if (P.isValid())
        Where = Paths.shown(P.getFilename()) + ":" +
                std::to_string(P.getLine()) + ":" +
                std::to_string(P.getColumn()) + ": ";
    }
    FirstError = Where + std::string(Message.str());
  }

  std::string FirstError;

private:
  const detail::ProjectPaths &Paths;
};

/// Runs the extract action with its own compiler instance, the way
/// FrontendActionFactory does, but with clang's closing "N errors
/// generated." line sent nowhere.
class ExtractToolAction : public clang::tooling::ToolAction {
public:
  ExtractToolAction(const detail::ProjectPaths &Paths, detail::Extracted &Out)
      : Paths(Paths), Out(Out) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCH,
                     clang::DiagnosticConsumer *Diags) override {
    // Template bodies are needed even where the target would delay them.
    Invocation->getLangOpts().DelayedTemplateParsing = false;
    Invocation->getFrontendOpts().SkipFunctionBodies = false;
    clang::CompilerInstance CI(std::move(PCH));
    CI.setInvocation(std::move(Invocation));
    CI.setFileManager(Files);
    CI.createDiagnostics(Diags, /*ShouldOwnClient=*/false);
    if (!CI.hasDiagnostics())
      return false;
    CI.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());
    CI.createSourceManager(*Files);
    detail::ExtractAction Action(Paths, Out);
    bool Ok = CI.ExecuteAction(Action);
    Files->clearStatCache();
    return Ok;
  }

private:
  const detail::ProjectPaths &Paths;
  detail::Extracted &Out;
};

} // namespace

llvm::Expected<TranslationUnitIndex>
indexTranslationUnit(const CompileCommand &Command,
                     const FrontEndOptions &Options,
                     const llvm::StringMap<std::string> &Overlays) {
  detail::ProjectPaths Paths(Options.ProjectRoot, Options.ExcludedDirs,
                             Command.Directory);
  std::string Main = Paths.absolute(Command.File);
  if (Command.Arguments.empty())
    return makeErrorf("cannot index {0}: its compile command is empty; "
                      "regenerate compile_commands.json",
                      Command.File);

  // A file system of this call's own: a physical one with its own working
  // directory (the process's is never changed) under the overlays.
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &O : Overlays)
    Memory->addFile(
        Paths.absolute(O.getKey()), /*ModificationTime=*/0,
        llvm::MemoryBuffer::getMemBufferCopy(O.getValue(), O.getKey()));
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->pushOverlay(Memory);
  if (!Command.Directory.empty())
    if (std::error_code EC = FS->setCurrentWorkingDirectory(Command.Directory))
      return makeErrorf("cannot read {0}: compile directory {1}: {2}; "
                        "regenerate compile_commands.json",
                        Command.File, Command.Directory, EC.message());
  if (auto Buf = FS->getBufferForFile(Main); !Buf)
    return makeErrorf("cannot read {0}: {1}", Command.File,
                      Buf.getError().message());

  using namespace clang::tooling;
  CommandLineArguments Args = Command.Arguments;
  ArgumentsAdjuster Adjust =
      combineAdjusters(combineAdjusters(getClangStripOutputAdjuster(),
                                        getClangStripDependencyFileAdjuster()),
                       getClangSyntaxOnlyAdjuster());
  Args = Adjust(Args, Main);
  if (!Options.ResourceDir.empty())
    // Last, so that it wins over one in the command: the builtin headers
    // must be those of the Clang tia is linked with.
    Args = getInsertArgumentAdjuster(
        CommandLineArguments{"-resource-dir=" + Options.ResourceDir},
        ArgumentInsertPosition::END)(Args, Main);
  addTargetAndModeForProgramName(Args, Args.front());

  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), FS);
  DiagnosticCollector Diags(Paths);
  detail::Extracted Got;
  ExtractToolAction Action(Paths, Got);
  ToolInvocation Invocation(std::move(Args), &Action, Files.get(),
                            std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Diags);
  Invocation.run();

  TranslationUnitIndex Out;
  Out.Command = Command;
  Out.ErrorCount = Diags.getNumErrors();
  Out.WarningCount = Diags.getNumWarnings();
  Out.FirstError = Diags.FirstError;
  if (!Got.Ran && Out.ErrorCount == 0) {
    // Nothing was parsed and clang did not say why: still not complete.
    Out.ErrorCount = 1;
    Out.FirstError = Paths.shown(Main) + ": clang did not parse this file";
  }
  Out.Dependencies = std::move(Got.Dependencies);
  Out.Files = std::move(Got.Files);
  for (FileIndex &F : Out.Files)
    F.Complete = Out.ErrorCount == 0;
  return Out;
}

} // namespace cpp
} // namespace tia
