//===- PythonInternal.h - the commands' Python side -------------*- C++ -*-===//

#ifndef TIA_LIB_TOOL_PYTHONINTERNAL_H
#define TIA_LIB_TOOL_PYTHONINTERNAL_H

#include "CommandsInternal.h"
#include "tia/Python/FrontEnd.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace tia {
namespace tool {

/// The Python front end's options: .tia.yaml's python section and pytest's
/// settings from the configuration files at the repository root (read
/// from the work tree).
llvm::Expected<python::FrontEndOptions> pythonOptions(const Context &C);

/// What indexing the repository's Python files produced.
struct PythonIndexResult {
  /// Versions parsed now, to be stored.
  std::vector<FileIndex> Parsed;
  /// Every Python file version of this revision (parsed or unchanged).
  std::vector<FileVersionRef> Files;
  unsigned Unchanged = 0;
  unsigned Elements = 0;
  unsigned Tests = 0;
  /// "PATH: PROBLEM" of the files that did not parse.
  std::vector<std::string> Incomplete;
};

/// The Python files git tracks (repository-relative, sorted), as
/// paths.include and paths.exclude allow, or only those at or below
/// \p Paths (absolute) when given. Empty outside git.
llvm::Expected<std::vector<std::string>>
listPythonFiles(const Context &C, const std::vector<std::string> &Paths);

/// Indexes \p Files (from listPythonFiles). Versions stored with the same
/// settings are not parsed again. Nothing is written to \p S.
llvm::Expected<PythonIndexResult>
indexPythonFiles(const Context &C, Store &S,
                 const std::vector<std::string> &Files, bool Quiet,
                 llvm::raw_ostream &Err);

} // namespace tool
} // namespace tia

#endif // TIA_LIB_TOOL_PYTHONINTERNAL_H
