//===- Doctest.cpp - doctest test cases from the AST ----------------------===//
//
// Every doctest (2.4) macro that defines a test case defines a function whose
// body is the body written after the macro:
//  - TEST_CASE("name" [* decorators]), SCENARIO("name"): a static function
//    DOCTEST_ANON_FUNC_<n>; SCENARIO names the case "  Scenario: name";
//  - TEST_CASE_FIXTURE(Class, "name"): the method f() of a struct
//    DOCTEST_ANON_CLASS_<n> that derives from Class (the DOCTEST_ANON_FUNC_
//    that calls it is doctest's, no body of the user's);
//  - TEST_CASE_TEMPLATE("name", T, types...): a function template
//    DOCTEST_ANON_TMP_<n>, whose cases doctest names "name<type>".
// The name is read from the macro's string literal as written (DOCTEST_-
// prefixed macros too). Cases decorated with doctest::skip() never run
// unless asked for: no tests to select.
//
//===----------------------------------------------------------------------===//

#include "CaseMacros.h"
#include "Extractor.h"
#include "clang/AST/DeclCXX.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

/// The function kinds doctest's macros define.
enum class Body { Function, FixtureMethod, Template };

std::optional<Body> bodyKind(const FunctionDecl &FD) {
  if (!FD.getIdentifier() || FD.getNumParams() != 0)
    return std::nullopt;
  llvm::StringRef Name = FD.getName();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD)) {
    const CXXRecordDecl *Class = MD->getParent();
    if (Name == "f" && Class && Class->getIdentifier() &&
        Class->getName().starts_with("DOCTEST_ANON_CLASS_"))
      return Body::FixtureMethod;
    return std::nullopt;
  }
  if (Name.starts_with("DOCTEST_ANON_FUNC_"))
    return Body::Function;
  if (Name.starts_with("DOCTEST_ANON_TMP_"))
    return Body::Template;
  return std::nullopt;
}

} // namespace

std::optional<std::string> doctestTestName(const FunctionDecl &FD,
                                           const SourceManager &SM,
                                           const LangOptions &LangOpts) {
  std::optional<Body> Kind = bodyKind(FD);
  SourceLocation Begin = FD.getBeginLoc();
  if (!Kind || !Begin.isMacroID())
    return std::nullopt;
  auto Found =
      readCaseMacro(SM.getExpansionLoc(Begin), SM, LangOpts, "DOCTEST_");
  if (!Found || llvm::is_contained(Found->Decorators, "skip"))
    return std::nullopt;
  const std::string &Macro = Found->Macro;
  if (Macro == "TEST_CASE_FIXTURE")
    return Kind == Body::FixtureMethod ? std::optional(Found->Name)
                                       : std::nullopt;
  if (Macro == "TEST_CASE" || Macro == "TEST_CASE_TEMPLATE")
    return Found->Name;
  if (Macro == "SCENARIO" || Macro == "SCENARIO_TEMPLATE")
    return "  Scenario: " + Found->Name;
  return std::nullopt;
}

} // namespace detail
} // namespace cpp
} // namespace tia
