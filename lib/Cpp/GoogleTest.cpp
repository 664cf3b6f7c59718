//===- GoogleTest.cpp - GoogleTest tests from the AST ---------------------===//
//
// Every GoogleTest macro that defines a test (TEST, TEST_F, TEST_P,
// TYPED_TEST, TYPED_TEST_P, GTEST_TEST) defines a class whose TestBody() is
// the body written after the macro:
//  - TEST(S, N), TEST_F, TEST_P, TYPED_TEST: class S_N_Test (a template for
//    TYPED_TEST);
//  - TYPED_TEST_P(S, N): class template N in namespace gtest_suite_S_.
// The class name alone is ambiguous ("A_B_C_Test" is A.B_C or A_B.C), so the
// names are read from the macro's arguments as written and accepted only
// when they rebuild that class name.
//
//===----------------------------------------------------------------------===//

#include "CaseMacros.h"
#include "Extractor.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

/// The first two arguments of the macro invocation at \p Loc (the macro's
/// name in a file), when both are single identifiers.
std::optional<std::pair<std::string, std::string>>
macroArguments(SourceLocation Loc, const SourceManager &SM,
               const LangOptions &LangOpts) {
  std::unique_ptr<Lexer> Raw = rawLexerAt(Loc, SM, LangOpts);
  if (!Raw)
    return std::nullopt;
  Lexer &Lex = *Raw;
  std::vector<Token> Toks;
  for (int I = 0; I < 6; ++I) {
    Token T;
    if (Lex.LexFromRawLexer(T) && T.is(tok::eof))
      break;
    Toks.push_back(T);
  }
  if (Toks.size() < 6 || !Toks[0].is(tok::raw_identifier) ||
      !Toks[1].is(tok::l_paren) || !Toks[2].is(tok::raw_identifier) ||
      !Toks[3].is(tok::comma) || !Toks[4].is(tok::raw_identifier) ||
      !(Toks[5].is(tok::r_paren) || Toks[5].is(tok::comma)))
    return std::nullopt;
  return std::make_pair(Toks[2].getRawIdentifier().str(),
                        Toks[4].getRawIdentifier().str());
}

} // namespace

std::optional<std::string> googleTestName(const CXXMethodDecl &TestBody,
                                          const SourceManager &SM,
                                          const LangOptions &LangOpts) {
  if (!TestBody.getIdentifier() || TestBody.getName() != "TestBody" ||
      TestBody.getNumParams() != 0)
    return std::nullopt;
  SourceLocation Begin = TestBody.getBeginLoc();
  if (!Begin.isMacroID())
    return std::nullopt;
  const CXXRecordDecl *Class = TestBody.getParent();
  if (!Class || !Class->getIdentifier())
    return std::nullopt;
  llvm::StringRef ClassName = Class->getName();

  auto Args = macroArguments(SM.getExpansionLoc(Begin), SM, LangOpts);
  if (!Args)
    return std::nullopt;
  auto &[Suite, Name] = *Args;
  bool Matches = false;
  if (ClassName == Suite + "_" + Name + "_Test") {
    Matches = true;
  } else if (const auto *NS =
                 dyn_cast<NamespaceDecl>(Class->getDeclContext())) {
    // TYPED_TEST_P.
    Matches = NS->getIdentifier() &&
              NS->getName() == "gtest_suite_" + Suite + "_" &&
              ClassName == Name;
  }
  if (!Matches)
    return std::nullopt;
  // Disabled tests never run unless asked to, so they never get coverage.
  if (llvm::StringRef(Suite).starts_with("DISABLED_") ||
      llvm::StringRef(Name).starts_with("DISABLED_"))
    return std::nullopt;
  return Suite + "." + Name;
}

} // namespace detail
} // namespace cpp
} // namespace tia
