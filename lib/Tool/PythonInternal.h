//===- PythonInternal.h - the commands' Python side -------------*- C++ -*-===//

#ifndef TIA_LIB_TOOL_PYTHONINTERNAL_H
#define TIA_LIB_TOOL_PYTHONINTERNAL_H

#include "CommandsInternal.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Select/Static.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace tia {
namespace tool {

/// The Python front end's options: .tia.yaml's python section and pytest's
/// settings from the configuration files at the repository root (read
/// from the work tree, or as \p Memo remembers their reading).
llvm::Expected<python::FrontEndOptions>
pythonOptions(const Context &C, const python::PytestSettingsMemo &Memo = {});

/// Finds the reading of pytest's settings that the last `tia index` into
/// \p S remembered (a database that cannot tell: none).
python::PytestSettingsMemo rememberedIn(Store &S);

/// The settings of static selection: .tia.yaml's python section and
/// pytest's python_functions from \p Python.
select::StaticOptions staticOptions(const Context &C,
                                    const python::FrontEndOptions &Python);

/// The Python files git tracks (repository-relative, sorted), as
/// paths.include and paths.exclude allow, or only those at or below
/// \p Paths (absolute) when given. Empty outside git.
llvm::Expected<std::vector<std::string>>
listPythonFiles(const Context &C, const std::vector<std::string> &Paths);

/// `tia dump names`: the name graph of each Python file of the latest
/// index (only \p O.File when given; fails when it is not one).
llvm::Error dumpNames(Store &S, const DumpOptions &O, llvm::raw_ostream &Out);

/// `tia dump evidence`: the critical names, then each run of runtime
/// evidence with the test files it holds, what it probed and recorded.
llvm::Error dumpEvidence(Store &S, llvm::raw_ostream &Out);

} // namespace tool
} // namespace tia

#endif // TIA_LIB_TOOL_PYTHONINTERNAL_H
