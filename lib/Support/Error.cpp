//===- Error.cpp ----------------------------------------------------------===//

#include "tia/Support/Error.h"

namespace tia {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

} // namespace tia
