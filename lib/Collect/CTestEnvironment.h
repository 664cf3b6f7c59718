//===- CTestEnvironment.h - a ctest test's environment, as ctest makes it -===//
//
// ctest starts a test with its own environment, then the test's
// ENVIRONMENT property (NAME=VALUE), then its ENVIRONMENT_MODIFICATION
// (NAME=OPERATION:VALUE, CMake 3.22): a project that prepends its build's
// folders to PATH or PYTHONPATH, or unsets a variable, writes it there.
// tia runs the test's command itself, so it makes the same environment.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_COLLECT_CTESTENVIRONMENT_H
#define TIA_LIB_COLLECT_CTESTENVIRONMENT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace collect {

/// The value of a variable before the modifications: ctest's environment
/// with the ENVIRONMENT property over it; none when it is not set.
using EnvironmentLookup =
    llvm::function_ref<std::optional<std::string>(llvm::StringRef Name)>;

/// The value of \p Name after the entries \p Environment ("NAME=VALUE";
/// "NAME" alone: unset), the last of its name winning, over \p Outer.
std::optional<std::string> valueIn(const std::vector<std::string> &Environment,
                                   llvm::StringRef Name,
                                   std::optional<std::string> Outer);

/// What \p Modifications (ctest's ENVIRONMENT_MODIFICATION, in order)
/// leave in the variables they name, as entries to put after the
/// ENVIRONMENT property's: "NAME=VALUE", or "NAME" alone for a variable
/// they unset (buildEnvironment drops it). Operations: reset, set, unset,
/// string_append, string_prepend, path_list_append, path_list_prepend
/// (':'), cmake_list_append, cmake_list_prepend (';'); the separator is
/// left out when the value is empty, as ctest does. An append to a
/// variable unset before reads its value before the modifications, as
/// ctest 3.22 to 4.3 do (4.4 starts it empty). An entry without a name is
/// ignored, as ctest does. Fails with "'ENTRY': REASON" for the first entry
/// ctest refuses (no '=', no ':', an unknown operation): ctest then fails
/// the test without starting it.
llvm::Expected<std::vector<std::string>>
modifiedEnvironment(const std::vector<std::string> &Modifications,
                    EnvironmentLookup Before);

} // namespace collect
} // namespace tia

#endif // TIA_LIB_COLLECT_CTESTENVIRONMENT_H
