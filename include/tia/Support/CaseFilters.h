//===- CaseFilters.h - running chosen cases of a C++ test binary ----------===//
//
// The C++ test frameworks whose cases tia runs and selects one by one, and
// how each is told to run exactly some cases, or all but some:
//  - GoogleTest: --gtest_filter=A.b:C.d (exclusion: --gtest_filter=-A.b);
//  - Catch2: one test spec "a,b" whose names escape the characters specs
//    treat specially with '\' (exclusion: one "~name" argument per case,
//    which Catch2 ANDs, and "~[.]" so that hidden cases stay hidden);
//  - doctest: --test-case=a,b, names with ',' and '\' escaped with '\'
//    (exclusion: --test-case-exclude=a,b). doctest reads '*' and '?' in
//    a name as wildcards and cannot escape them: such a name may run more
//    cases, never fewer.
//  - Boost.Test: --run_test=a/b:c (exclusion: --run_test=!a/b:!c), a
//    case named by its path of suites. Boost replaces the characters its
//    filters treat specially (: * @ + ! / ,) in names with '_', so a name
//    needs no escape; it cannot run no case at all (it exits 200).
// Ids are "<framework>:<binary>:<case>"; the case name is everything after
// the binary's name, so it may hold ':' (Catch2 names may).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_CASEFILTERS_H
#define TIA_SUPPORT_CASEFILTERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {

enum class CaseFramework { GTest, Catch2, Doctest, Boost };

/// "gtest", "catch2", "doctest" or "boost": the prefix of the framework's ids.
llvm::StringRef caseFrameworkName(CaseFramework F);

/// The framework of test id \p Id ("gtest:..." or "catch2:..."), or
/// std::nullopt for any other id.
std::optional<CaseFramework> caseFrameworkOfId(llvm::StringRef Id);

/// A case id split in its parts: "catch2:calc_test:adds, then subtracts" is
/// {Catch2, "calc_test", "adds, then subtracts"}. Binary names hold no ':'.
struct CaseId {
  CaseFramework Framework;
  std::string Binary, Name;
};
std::optional<CaseId> parseCaseId(llvm::StringRef Id);

/// \p Name with the characters a Catch2 test spec treats specially
/// (\ , [ ] " ~ *) escaped with '\', so that the spec names that case only.
std::string catch2Escape(llvm::StringRef Name);

/// The name of the doctest case \p Full is an instance of: "name" of a
/// TEST_CASE_TEMPLATE instance "name<int>", else \p Full.
llvm::StringRef doctestTemplateName(llvm::StringRef Full);

/// \p Name with ',' and '\' escaped with '\', as doctest's filters read
/// them.
std::string doctestEscape(llvm::StringRef Name);

/// The path of the Boost.Test case \p Full is an instance of: "suite/data"
/// of a BOOST_DATA_TEST_CASE's sample "suite/data/_2", "suite/name" of a
/// BOOST_AUTO_TEST_CASE_TEMPLATE instance "suite/name<int>", else \p Full.
llvm::StringRef boostDefinitionName(llvm::StringRef Full);

/// The arguments that make a binary of \p F run exactly \p Cases (none: no
/// case at all).
std::vector<std::string> caseFilterArguments(CaseFramework F,
                                             llvm::ArrayRef<std::string> Cases);

/// The arguments that make a binary of \p F run all its cases but \p Cases
/// (none: no argument, every case).
std::vector<std::string>
caseExclusionArguments(CaseFramework F, llvm::ArrayRef<std::string> Cases);

} // namespace tia

#endif // TIA_SUPPORT_CASEFILTERS_H
