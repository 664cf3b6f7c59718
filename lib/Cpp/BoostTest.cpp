//===- BoostTest.cpp - Boost.Test test cases from the AST -----------------===//
//
// Every Boost.Test (1.74) macro that defines a test case defines a class
// named after the case and the method that holds the body written after
// the macro:
//  - BOOST_AUTO_TEST_CASE(name), BOOST_FIXTURE_TEST_CASE(name, F): a struct
//    `name` (deriving from F) and its `void test_method()`;
//  - BOOST_AUTO_TEST_CASE_TEMPLATE(name, T, types) and the _FIXTURE_ form:
//    a class template `name<T>` and its test_method(), whose cases Boost
//    names "name<type>";
//  - BOOST_DATA_TEST_CASE(name, dataset, vars) and the _F form: a struct
//    `namecase` and its `_impl(vars)`; the case is a suite `name` of one
//    case per sample, "_0", "_1", ...
// BOOST_AUTO_TEST_SUITE(s) and BOOST_FIXTURE_TEST_SUITE(s, F) open a
// namespace `s`: the suites of a case are the namespaces around it that
// such a macro opened. A case decorated with disabled() runs only when
// named: no test to select.
//
//===----------------------------------------------------------------------===//

#include "CaseMacros.h"
#include "Extractor.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/StringExtras.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

/// The macro invoked where \p Loc was expanded, if any.
std::optional<MacroCall> macroAt(SourceLocation Loc, const SourceManager &SM,
                                 const LangOptions &LangOpts) {
  if (!Loc.isMacroID())
    return std::nullopt;
  return readMacroCall(SM.getExpansionLoc(Loc), SM, LangOpts);
}

/// The case name a method of \p Class defined by \p Macro stands for.
std::optional<std::string>
caseName(llvm::StringRef Macro, llvm::StringRef Method, llvm::StringRef Class) {
  llvm::StringRef M = Macro;
  if (M.consume_front("BOOST_DATA_TEST_CASE")) {
    if ((M.empty() || M == "_F") && Method == "_impl" &&
        Class.consume_back("case") && !Class.empty())
      return Class.str();
    return std::nullopt;
  }
  static const char *const CaseMacros[] = {
      "BOOST_AUTO_TEST_CASE", "BOOST_FIXTURE_TEST_CASE",
      "BOOST_AUTO_TEST_CASE_TEMPLATE", "BOOST_FIXTURE_TEST_CASE_TEMPLATE"};
  if (Method == "test_method" && llvm::is_contained(CaseMacros, Macro))
    return Class.str();
  return std::nullopt;
}

/// The suites around \p DC, outermost first.
std::vector<std::string> suitesOf(const DeclContext *DC,
                                  const SourceManager &SM,
                                  const LangOptions &LangOpts) {
  std::vector<std::string> Out;
  for (; DC; DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS || NS->isAnonymousNamespace())
      continue;
    std::optional<MacroCall> Opened = macroAt(NS->getLocation(), SM, LangOpts);
    if (Opened && (Opened->Macro == "BOOST_AUTO_TEST_SUITE" ||
                   Opened->Macro == "BOOST_FIXTURE_TEST_SUITE"))
      Out.insert(Out.begin(), NS->getName().str());
  }
  return Out;
}

} // namespace

std::optional<std::string> boostTestName(const FunctionDecl &FD,
                                         const SourceManager &SM,
                                         const LangOptions &LangOpts) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || !MD->getIdentifier() || !MD->getParent() ||
      !MD->getParent()->getIdentifier())
    return std::nullopt;
  std::optional<MacroCall> Call = macroAt(FD.getBeginLoc(), SM, LangOpts);
  if (!Call || !llvm::StringRef(Call->Macro).starts_with("BOOST_"))
    return std::nullopt;
  std::optional<std::string> Name =
      caseName(Call->Macro, MD->getName(), MD->getParent()->getName());
  if (!Name || llvm::is_contained(Call->Identifiers, "disabled"))
    return std::nullopt;
  std::vector<std::string> Path =
      suitesOf(MD->getParent()->getDeclContext(), SM, LangOpts);
  Path.push_back(*Name);
  return llvm::join(Path, "/");
}

} // namespace detail
} // namespace cpp
} // namespace tia
