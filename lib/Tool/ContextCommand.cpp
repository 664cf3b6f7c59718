//===- ContextCommand.cpp - tia context -----------------------------------===//
//
// What a reviewer or a test generator needs to reach one function: where
// it is, how special members run, the public entry points it is reachable
// from with the shortest call paths (the reference graph of the latest
// index, tia/Select/Graph.h), and its body at the base and now.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Select/Graph.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tia {
namespace tool {

namespace {

struct ContextOptions {
  std::string Function;
  std::string Base;
  unsigned MaxPaths = 5;
};

/// Lines [Begin, End] of \p Text, each prefixed with its number.
std::string linesOf(llvm::StringRef Text, unsigned Begin, unsigned End) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (unsigned L = Begin; L <= End && L <= Lines.size(); ++L)
    Out += "    " + std::to_string(L) + " | " + Lines[L - 1].rtrim('\r').str() +
           "\n";
  return Out;
}

/// Writes \p N's public entry points with the shortest call paths to them
/// (at most \p MaxPaths); returns how many there are.
size_t writeEntryPoints(const select::ReferenceGraph &Graph,
                        const select::ReferenceGraph::Node &N,
                        const config::PathPatterns &Public, unsigned MaxPaths,
                        llvm::raw_ostream &Out) {
  auto IsPublic = [&](llvm::StringRef P) { return Public.matches(P); };
  auto Next = Graph.reachersOf({N.Key});
  std::vector<select::CallPath> Paths;
  for (const auto &[Key, Step] : Next)
    if (Graph.isEntryPoint(Key, IsPublic))
      Paths.push_back(Graph.path(Next, Key));
  std::sort(Paths.begin(), Paths.end(),
            [](const select::CallPath &A, const select::CallPath &B) {
              return std::make_pair(A.Keys.size(), A.Displays) <
                     std::make_pair(B.Keys.size(), B.Displays);
            });
  Out << "  public entry points: " << Paths.size()
      << " (cpp.public-headers: " << llvm::join(Public.patterns(), ", ")
      << ")\n";
  for (size_t I = 0; I < Paths.size() && I < MaxPaths; ++I) {
    Out << "    ";
    for (size_t J = 0; J < Paths[I].Displays.size(); ++J)
      Out << (J ? " -> " : "") << Paths[I].Displays[J];
    Out << "\n";
  }
  if (Paths.size() > MaxPaths)
    Out << "    ... and " << Paths.size() - MaxPaths << " more\n";
  return Paths.size();
}

/// Writes \p N's body now (the work tree) and at \p BaseCommit (none:
/// outside git).
llvm::Error writeBodies(const Context &Ctx, Store &S,
                        const select::ReferenceGraph::Node &N,
                        const std::optional<std::string> &BaseCommit,
                        llvm::raw_ostream &Out) {
  std::string Abs = Ctx.Root + "/" + N.File;
  auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false);
  if (Buf)
    Out << "  new body (" << N.File << ":" << N.BeginLine << "-" << N.EndLine
        << "):\n"
        << linesOf((*Buf)->getBuffer(), N.BeginLine, N.EndLine);
  else
    Out << "  new body: cannot read " << N.File << "\n";
  if (!BaseCommit) {
    Out << "  old body: outside git, no base\n";
    return llvm::Error::success();
  }
  auto Old = Ctx.Repo->readFile(*BaseCommit, N.File);
  if (!Old) {
    llvm::consumeError(Old.takeError());
    Out << "  old body: " << N.File << " does not exist at "
        << shortId(*BaseCommit) << "\n";
    return llvm::Error::success();
  }
  if (Buf && (*Buf)->getBuffer() == *Old) {
    Out << "  old body: unchanged at " << shortId(*BaseCommit) << "\n";
    return llvm::Error::success();
  }
  auto OldIndex = S.getFileIndex(N.File, gitBlobHash(*Old));
  if (!OldIndex)
    return OldIndex.takeError();
  const Element *OldE = nullptr;
  if (*OldIndex)
    for (const Element &E : (*OldIndex)->Elements)
      if (E.Key == N.Key)
        OldE = &E;
  if (!OldE) {
    Out << "  old body: "
        << (*OldIndex ? "not in " + N.File
                      : "the version of " + N.File + " is not indexed")
        << " at " << shortId(*BaseCommit) << "\n";
    return llvm::Error::success();
  }
  Out << "  old body (" << N.File << ":" << OldE->BeginLine << "-"
      << OldE->EndLine << " at " << shortId(*BaseCommit) << "):\n"
      << linesOf(*Old, OldE->BeginLine, OldE->EndLine);
  return llvm::Error::success();
}

llvm::Error runContext(const GlobalOptions &G, const ContextOptions &O,
                       llvm::raw_ostream &Out) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  auto Graph = select::ReferenceGraph::load(**S);
  if (!Graph)
    return Graph.takeError();
  std::vector<const select::ReferenceGraph::Node *> Found =
      Graph->find(O.Function);
  if (Found.empty())
    return makeErrorf("no function named '{0}' in the index: give its "
                      "qualified name, display or key (tia dump elements "
                      "lists them), or run 'tia index'",
                      O.Function);
  std::string Base = O.Base.empty() ? Ctx->Config.Select.Base : O.Base;
  if (Base.empty())
    Base = "HEAD";
  std::optional<std::string> BaseCommit;
  if (Ctx->Repo) {
    auto C = Ctx->Repo->resolveCommit(Base);
    if (!C)
      return C.takeError();
    BaseCommit = *C;
  }

  size_t Entries = 0;
  for (const select::ReferenceGraph::Node *N : Found) {
    Out << kindName(N->Kind) << " " << N->Display << " [" << N->Key << "]\n";
    Out << "  defined at " << N->File << ":" << N->BeginLine << "-"
        << N->EndLine << "\n";
    std::string Trigger = select::ReferenceGraph::trigger(*N);
    if (!Trigger.empty())
      Out << "  special member: it " << Trigger << "\n";
    Entries += writeEntryPoints(*Graph, *N, Ctx->Config.Cpp.PublicHeaders,
                                O.MaxPaths, Out);
    if (llvm::Error E = writeBodies(*Ctx, **S, *N, BaseCommit, Out))
      return E;
  }
  Out.flush();
  if (!G.Quiet)
    llvm::errs() << "tia: " << Found.size() << " function"
                 << pluralS(Found.size()) << " named '" << O.Function << "', "
                 << Entries << " public entry point" << pluralS(Entries)
                 << "\n";
  return llvm::Error::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand ContextSubcommand(
    "context", "'tia context FUNCTION': the public entry points and call "
               "paths that reach a function, and its old and new bodies");

namespace {
llvm::cl::list<std::string> Args(llvm::cl::Positional,
                                 llvm::cl::desc("FUNCTION"),
                                 llvm::cl::cat(tiaCategory()),
                                 llvm::cl::sub(ContextSubcommand));
llvm::cl::opt<std::string>
    Base("base",
         llvm::cl::desc("Base revision of the old body (default: select.base "
                        "of .tia.yaml, else HEAD)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(ContextSubcommand));
llvm::cl::opt<unsigned>
    MaxPaths("max-paths",
             llvm::cl::desc("Call paths shown per function (default 5)"),
             llvm::cl::init(5), llvm::cl::cat(tiaCategory()),
             llvm::cl::sub(ContextSubcommand));
} // namespace

int contextMain(const GlobalOptions &G) {
  if (Args.size() != 1)
    return usageError("'tia context' needs one function: tia context "
                      "FUNCTION [--base REV]");
  ContextOptions O;
  O.Function = Args[0];
  O.Base = Base;
  O.MaxPaths = MaxPaths;
  return exitCode(runContext(G, O, llvm::outs()));
}

} // namespace tool
} // namespace tia
