//===- LibraryHooks.cpp - collect and select for eval ---------------------===//

#include "tia/Eval/LibraryHooks.h"
#include "tia/Collect/Request.h"
#include "tia/Index/Workspace.h"
#include "tia/Select/Request.h"

namespace tia {
namespace eval {

namespace {

/// The workspace of \p Tree with the database \p Db, as a command run there
/// with --db finds it.
llvm::Expected<config::Workspace> workspaceOf(llvm::StringRef Tree,
                                              llvm::StringRef Db) {
  return config::findWorkspace(Tree, Db, /*NeedGit=*/false);
}

} // namespace

CommandHooks libraryHooks(const CollectSettings &C,
                          llvm::StringRef ResourceDir) {
  CommandHooks H;
  H.Index = [ResourceDir =
                 ResourceDir.str()](llvm::StringRef Tree, llvm::StringRef Db,
                                    llvm::StringRef BuildDir) -> llvm::Error {
    auto W = workspaceOf(Tree, Db);
    if (!W)
      return W.takeError();
    index::IndexOptions O;
    O.BuildDir = BuildDir.str();
    return index::indexIn(*W, O, /*Quiet=*/true, ResourceDir, llvm::nulls());
  };
  H.CollectCTest = [C, ResourceDir = ResourceDir.str()](
                       llvm::StringRef Tree, llvm::StringRef Db,
                       llvm::StringRef BuildDir) -> llvm::Error {
    auto W = workspaceOf(Tree, Db);
    if (!W)
      return W.takeError();
    collect::CollectRequest R;
    R.BuildDir = BuildDir.str();
    R.Jobs = C.Jobs;
    R.Only = C.Only;
    return collect::collectIn(*W, R, /*Quiet=*/true, ResourceDir,
                              llvm::nulls());
  };
  H.CollectPytest =
      [C, ResourceDir = ResourceDir.str()](llvm::StringRef Tree,
                                           llvm::StringRef Db) -> llvm::Error {
    auto W = workspaceOf(Tree, Db);
    if (!W)
      return W.takeError();
    collect::PytestRequest R;
    R.Jobs = C.Jobs ? C.Jobs : 1;
    R.Python = C.Python;
    return collect::collectPytestIn(*W, R, /*Quiet=*/true, ResourceDir,
                                    llvm::nulls());
  };
  H.Select = [ResourceDir = ResourceDir.str()](
                 llvm::StringRef Tree, llvm::StringRef Db, llvm::StringRef Base,
                 llvm::StringRef Head,
                 select::SelectionMode Mode) -> llvm::Expected<select::Plan> {
    auto W = workspaceOf(Tree, Db);
    if (!W)
      return W.takeError();
    select::Request R;
    R.Base = Base.str();
    R.Head = Head.str();
    R.Mode = Mode;
    R.ResourceDir = ResourceDir;
    auto Made = select::planRequest(std::move(*W), R);
    if (!Made)
      return Made.takeError();
    return std::move(Made->Plan);
  };
  return H;
}

} // namespace eval
} // namespace tia
