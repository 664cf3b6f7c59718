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

/// `tia dump names`: the name graph of each Python file of the latest
/// index (only \p O.File when given; fails when it is not one).
llvm::Error dumpNames(Store &S, const DumpOptions &O, llvm::raw_ostream &Out);

/// `tia dump evidence`: the critical names, then each run of runtime
/// evidence with the test files it holds, what it probed and recorded.
llvm::Error dumpEvidence(Store &S, llvm::raw_ostream &Out);

} // namespace tool
} // namespace tia

#endif // TIA_LIB_TOOL_PYTHONINTERNAL_H
