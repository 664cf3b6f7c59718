//===- Catch2.cpp - Catch2 test cases from the AST ------------------------===//
//
// Every Catch2 (2.x) macro that defines a test case defines a function whose
// body is the body written after the macro:
//  - TEST_CASE("name", ...), SCENARIO("name", ...): a static function
//    C_A_T_C_H_T_E_S_T_<n>; SCENARIO names the case "Scenario: name";
//  - TEST_CASE_METHOD(Class, "name", ...): the method test() of a struct
//    C_A_T_C_H_T_E_S_T_<n> that derives from Class;
//  - TEMPLATE_TEST_CASE("name", tags, T...): a function template
//    C_A_T_C_H_T_E_M_P_L_A_T_E_T_E_S_T_F_U_N_C_<n>, whose cases Catch2
//    names "name - T" for each type.
// The name is read from the macro's string literal as written (CATCH_-
// prefixed macros too). Hidden cases, which never run unless named, are
// no tests to select.
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

constexpr llvm::StringLiteral CasePrefix = "C_A_T_C_H_T_E_S_T_";
constexpr llvm::StringLiteral TemplatePrefix =
    "C_A_T_C_H_T_E_M_P_L_A_T_E_T_E_S_T_F_U_N_C_";

/// Hidden cases ("[.]", "[.tag]", "[!hide]", or a name starting with "./")
/// run only when asked for by name or tag, like GoogleTest's DISABLED_.
bool isHidden(const CaseMacro &I) {
  return llvm::StringRef(I.Tags).contains("[.") ||
         llvm::StringRef(I.Tags).contains("[!hide]") ||
         llvm::StringRef(I.Name).starts_with("./");
}

/// True when \p FD is the body of a case: what the macros name it.
bool isCaseBody(const FunctionDecl &FD) {
  if (!FD.getIdentifier())
    return false;
  llvm::StringRef Name = FD.getName();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD)) {
    const CXXRecordDecl *Class = MD->getParent();
    return Name == "test" && MD->getNumParams() == 0 && Class &&
           Class->getIdentifier() && Class->getName().starts_with(CasePrefix);
  }
  return FD.getNumParams() == 0 &&
         (Name.starts_with(CasePrefix) || Name.starts_with(TemplatePrefix));
}

} // namespace

std::optional<std::string> catch2TestName(const FunctionDecl &FD,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts) {
  if (!isCaseBody(FD))
    return std::nullopt;
  SourceLocation Begin = FD.getBeginLoc();
  if (!Begin.isMacroID())
    return std::nullopt;
  auto Found = readCaseMacro(SM.getExpansionLoc(Begin), SM, LangOpts, "CATCH_");
  if (!Found || isHidden(*Found))
    return std::nullopt;
  const std::string &Macro = Found->Macro, &Name = Found->Name;
  if (Macro == "TEST_CASE" || Macro == "TEST_CASE_METHOD" ||
      Macro == "TEMPLATE_TEST_CASE" || Macro == "TEMPLATE_TEST_CASE_METHOD")
    return Name;
  if (Macro == "SCENARIO" || Macro == "SCENARIO_METHOD")
    return "Scenario: " + Name;
  return std::nullopt;
}

} // namespace detail
} // namespace cpp
} // namespace tia
