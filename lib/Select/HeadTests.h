//===- HeadTests.h - the tests the head can run -----------------*- C++ -*-===//
//
// Private to lib/Select. The coverage map names the tests of the commit it
// was collected at; the head may have deleted, renamed or re-parametrized
// some. pytest answers an unknown node id with "not found", exit status 4,
// and runs nothing, not even the valid ids: a plan never hands it one.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_HEADTESTS_H
#define TIA_LIB_SELECT_HEADTESTS_H

#include "tia/Git/Repository.h"
#include "tia/Select/Policy.h"
#include "tia/Support/Model.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace tia {
class Store;
namespace select {

using Definitions = std::vector<std::pair<std::string, TestDefinition>>;

/// The pytest classes of a file ("PATH::Outer::Inner") whose tests may be
/// inherited from a class of another file: a base that is neither a class
/// of the file (itself closed), nor unittest's TestCase, nor object.
std::vector<std::string> openTestClasses(const std::string &Path,
                                         const PythonFileInfo &Info);

/// Keeps to the pytest ids the head defines (\p Defs, the head's test
/// definitions). An id whose file the head deleted or renamed, or whose
/// function its file no longer defines (and cannot inherit), leaves the
/// plan for Plan::Undefined; a file's definitions count when its head
/// version was parsed or is the one \p Repo's diff base and the index
/// share. An instance of a parametrized function
/// ("f.py::test_x[3]") whose file changed since its coverage was recorded
/// may be gone: the function's own id, which runs every instance the head
/// has, replaces it (Plan::Widened).
llvm::Error keepHeadTests(const git::Repository &Repo, Store &S,
                          const Definitions &Defs, Plan &P);

} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_HEADTESTS_H
