//===- CoverageCommand.cpp - tia coverage import --------------------------===//

#include "CommandsInternal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

llvm::Error runCoverageImport(const GlobalOptions &G,
                              const CoverageImportOptions &O,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (O.Files.empty())
    return makeError("no coverage files given: pass the lcov or llvm-cov "
                     "JSON files to import");
  if (O.Fmt == coverage::Format::LlvmCovJson && O.TestId.empty())
    return makeError("llvm-cov JSON does not name its test: pass --test ID");
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();

  coverage::ImportOptions Import;
  Import.Fmt = O.Fmt;
  Import.TestId = O.TestId;
  Import.ProjectRoot = Ctx->Root;
  if (!O.Commit.empty()) {
    if (!Ctx->Repo)
      return makeError("--commit needs a git repository: run tia inside the "
                       "work tree");
    auto C = Ctx->Repo->resolveCommit(O.Commit);
    if (!C)
      return C.takeError();
    Import.Commit = *C;
  } else if (Ctx->Repo) {
    auto H = Ctx->Repo->headCommit();
    if (!H)
      return H.takeError();
    Import.Commit = H->value_or("");
  }

  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  // Reopen for writing only once the database is known to be tia's.
  S = Store::open(Ctx->DbPath, Store::Mode::ReadWrite);
  if (!S)
    return S.takeError();

  std::vector<std::string> Files;
  for (const std::string &F : O.Files)
    Files.push_back(absolutePath(F, Ctx->WorkingDir));
  auto Sum = coverage::importCoverage(**S, Files, Import);
  if (!Sum)
    return Sum.takeError();
  for (const std::string &Id : Sum->Unlinked)
    Err << "tia: warning: the coverage of " << Id
        << " matched no indexed element: check that the report's paths are "
           "those of this checkout and that 'tia index' ran first\n";
  if (!G.Quiet)
    Err << llvm::formatv("imported the coverage of {0} test{1} ({2} "
                         "test-element links) from {3} file{4}{5}\n",
                         Sum->Tests, Sum->Tests == 1 ? "" : "s", Sum->Links,
                         O.Files.size(), O.Files.size() == 1 ? "" : "s",
                         Sum->UnmatchedNames
                             ? llvm::formatv("; {0} covered functions matched "
                                             "no indexed element",
                                             Sum->UnmatchedNames)
                                   .str()
                             : std::string());
  return llvm::Error::success();
}

} // namespace tool
} // namespace tia
