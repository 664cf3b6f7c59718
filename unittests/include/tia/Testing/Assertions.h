//===- tia/Testing/Assertions.h - GoogleTest helpers for llvm::Error ------===//
//
// Shared by the unit tests: assertions that stream an llvm::Error's message
// into the failure, and the message of an error as a string.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_TESTING_ASSERTIONS_H
#define TIA_TESTING_ASSERTIONS_H

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <string>

/// Fails the test, with the error's message, unless \p Expr succeeds.
#define ASSERT_OK(Expr)                                                        \
  do {                                                                         \
    llvm::Error Err_ = (Expr);                                                 \
    ASSERT_FALSE(Err_) << llvm::toString(std::move(Err_));                     \
  } while (false)

/// Declares \p Var as the llvm::Expected \p Expr and fails the test, with
/// the error's message, when it holds an error.
#define ASSERT_VALUE(Var, Expr)                                                \
  auto Var = (Expr);                                                           \
  ASSERT_TRUE(static_cast<bool>(Var)) << llvm::toString(Var.takeError())

namespace tia {
namespace testing {

/// The message of \p E, "" for success.
inline std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

/// The message of \p V's error, "(no error)" when it holds a value.
template <typename T> std::string errorText(llvm::Expected<T> V) {
  return V ? std::string("(no error)") : llvm::toString(V.takeError());
}

} // namespace testing
} // namespace tia

#endif // TIA_TESTING_ASSERTIONS_H
