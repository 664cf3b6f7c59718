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

#include "Extractor.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

constexpr llvm::StringLiteral CasePrefix = "C_A_T_C_H_T_E_S_T_";
constexpr llvm::StringLiteral TemplatePrefix =
    "C_A_T_C_H_T_E_M_P_L_A_T_E_T_E_S_T_F_U_N_C_";

/// The text of a string literal token, its escapes undone (\\ \" \' \n \t;
/// others kept as written). std::nullopt for a prefixed or raw literal.
std::optional<std::string> literalText(llvm::StringRef Spelling) {
  if (Spelling.size() < 2 || Spelling.front() != '"' || Spelling.back() != '"')
    return std::nullopt;
  Spelling = Spelling.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < Spelling.size(); ++I) {
    char C = Spelling[I];
    if (C != '\\' || I + 1 == Spelling.size()) {
      Out += C;
      continue;
    }
    char Next = Spelling[++I];
    Out += Next == 'n' ? '\n' : Next == 't' ? '\t' : Next;
  }
  return Out;
}

/// What a case-defining macro invocation says.
struct Invocation {
  std::string Macro; ///< without a CATCH_ prefix
  std::string Name;
  std::string Tags; ///< the literal after the name; may be empty
};

/// The macro invoked at \p Loc, the string literal that names its case (the
/// first argument, or the second for the _METHOD macros) and its tags.
std::optional<Invocation>
macroAndName(SourceLocation Loc, const SourceManager &SM,
             const LangOptions &LangOpts) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset >= Buf.size())
    return std::nullopt;
  Lexer Lex(SM.getLocForStartOfFile(FID), LangOpts, Buf.begin(),
            Buf.begin() + Offset, Buf.end());
  Token T;
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::raw_identifier))
    return std::nullopt;
  std::string Macro = T.getRawIdentifier().str();
  llvm::StringRef Bare = Macro;
  Bare.consume_front("CATCH_");
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::l_paren))
    return std::nullopt;
  if (Bare.ends_with("_METHOD")) {
    // Skip the class, up to the comma outside brackets.
    int Depth = 0;
    for (int I = 0; I < 64; ++I) {
      if (Lex.LexFromRawLexer(T) && T.is(tok::eof))
        return std::nullopt;
      if (T.isOneOf(tok::l_paren, tok::less, tok::l_square))
        ++Depth;
      else if (T.isOneOf(tok::r_paren, tok::greater, tok::r_square))
        --Depth;
      else if (T.is(tok::comma) && Depth == 0)
        break;
    }
    if (!T.is(tok::comma))
      return std::nullopt;
  }
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::string_literal))
    return std::nullopt;
  std::optional<std::string> Name = literalText(
      llvm::StringRef(SM.getCharacterData(T.getLocation()), T.getLength()));
  if (!Name)
    return std::nullopt;
  Invocation Out{Bare.str(), *Name, ""};
  if (!Lex.LexFromRawLexer(T) && T.is(tok::comma) &&
      !Lex.LexFromRawLexer(T) && T.is(tok::string_literal))
    Out.Tags = literalText(llvm::StringRef(
                               SM.getCharacterData(T.getLocation()),
                               T.getLength()))
                   .value_or("");
  return Out;
}

/// Hidden cases ("[.]", "[.tag]", "[!hide]", or a name starting with "./")
/// run only when asked for by name or tag, like GoogleTest's DISABLED_.
bool isHidden(const Invocation &I) {
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
  auto Found = macroAndName(SM.getExpansionLoc(Begin), SM, LangOpts);
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
