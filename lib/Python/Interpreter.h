//===- Interpreter.h - the CPython embedded in tia --------------*- C++ -*-===//
//
// Private to lib/Python. One interpreter per process, started on first use
// in isolated mode, with the extractor module loaded from the source
// compiled into tia. Every call takes the GIL, so any thread may call.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_PYTHON_INTERPRETER_H
#define TIA_LIB_PYTHON_INTERPRETER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace tia {
namespace python {

/// One argument of an extractor call.
struct CallArg {
  enum Type { Bytes, Text } T;
  llvm::StringRef Value;
};

/// Calls the extractor's function \p Function with \p Args and returns the
/// text it returns. Text arguments are decoded as UTF-8 with
/// surrogateescape, so any bytes pass. Fails with "cannot start the
/// embedded Python: REASON" or "the python extractor failed in FUNCTION:
/// TYPE: MESSAGE" when an exception escapes it.
llvm::Expected<std::string> callExtractor(llvm::StringRef Function,
                                          llvm::ArrayRef<CallArg> Args);

/// The extractor's source, as compiled into tia.
const std::string &extractorSource();

/// The embedded interpreter's version ("3.11.2").
llvm::Expected<std::string> interpreterVersion();

} // namespace python
} // namespace tia

#endif // TIA_LIB_PYTHON_INTERPRETER_H
