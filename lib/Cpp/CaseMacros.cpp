//===- CaseMacros.cpp - the macros that define test cases -----------------===//

#include "CaseMacros.h"
#include "clang/Lex/Lexer.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

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

bool opens(const Token &T) {
  return T.isOneOf(tok::l_paren, tok::less, tok::l_square, tok::l_brace);
}
bool closes(const Token &T) {
  return T.isOneOf(tok::r_paren, tok::greater, tok::r_square, tok::r_brace);
}

/// Lexes up to the comma that ends the current argument (outside
/// brackets), or the invocation's closing parenthesis; calls \p Each with
/// every token before it. False at the end of the file or after 64 tokens.
template <typename Fn> bool toArgumentEnd(Lexer &Lex, Token &T, Fn Each) {
  int Depth = 0;
  for (int I = 0; I < 64; ++I) {
    if (Lex.LexFromRawLexer(T) && T.is(tok::eof))
      return false;
    if (Depth == 0 && (T.is(tok::comma) || T.is(tok::r_paren)))
      return true;
    if (opens(T))
      ++Depth;
    else if (closes(T))
      --Depth;
    Each(T);
  }
  return false;
}

std::string stringOf(const Token &T, const SourceManager &SM) {
  return std::string(SM.getCharacterData(T.getLocation()), T.getLength());
}

} // namespace

std::unique_ptr<Lexer> rawLexerAt(SourceLocation Loc, const SourceManager &SM,
                                  const LangOptions &LangOpts) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset >= Buf.size())
    return nullptr;
  return std::make_unique<Lexer>(SM.getLocForStartOfFile(FID), LangOpts,
                                 Buf.begin(), Buf.begin() + Offset, Buf.end());
}

std::optional<CaseMacro> readCaseMacro(SourceLocation Loc,
                                       const SourceManager &SM,
                                       const LangOptions &LangOpts,
                                       llvm::StringRef Prefix) {
  std::unique_ptr<Lexer> Raw = rawLexerAt(Loc, SM, LangOpts);
  if (!Raw)
    return std::nullopt;
  Lexer &Lex = *Raw;
  Token T;
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::raw_identifier))
    return std::nullopt;
  CaseMacro Out;
  llvm::StringRef Macro = T.getRawIdentifier();
  Macro.consume_front(Prefix);
  Out.Macro = Macro.str();
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::l_paren))
    return std::nullopt;
  // The fixture class comes first.
  if (Macro.ends_with("_METHOD") || Macro.ends_with("_FIXTURE"))
    if (!toArgumentEnd(Lex, T, [](const Token &) {}) || !T.is(tok::comma))
      return std::nullopt;
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::string_literal))
    return std::nullopt;
  std::optional<std::string> Name = literalText(stringOf(T, SM));
  if (!Name)
    return std::nullopt;
  Out.Name = *Name;
  bool Ended = toArgumentEnd(Lex, T, [&](const Token &Tok) {
    if (Tok.is(tok::raw_identifier))
      Out.Decorators.push_back(Tok.getRawIdentifier().str());
  });
  if (Ended && T.is(tok::comma) && !Lex.LexFromRawLexer(T) &&
      T.is(tok::string_literal))
    Out.Tags = literalText(stringOf(T, SM)).value_or("");
  return Out;
}

std::optional<MacroCall> readMacroCall(SourceLocation Loc,
                                       const SourceManager &SM,
                                       const LangOptions &LangOpts) {
  std::unique_ptr<Lexer> Raw = rawLexerAt(Loc, SM, LangOpts);
  if (!Raw)
    return std::nullopt;
  Lexer &Lex = *Raw;
  Token T;
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::raw_identifier))
    return std::nullopt;
  MacroCall Out;
  Out.Macro = T.getRawIdentifier().str();
  Lex.LexFromRawLexer(T);
  if (!T.is(tok::l_paren))
    return std::nullopt;
  int Depth = 1;
  for (int I = 0; I < 256; ++I) {
    if (Lex.LexFromRawLexer(T) && T.is(tok::eof))
      return std::nullopt;
    if (T.is(tok::l_paren))
      ++Depth;
    else if (T.is(tok::r_paren) && --Depth == 0)
      return Out;
    else if (T.is(tok::raw_identifier))
      Out.Identifiers.push_back(T.getRawIdentifier().str());
  }
  return std::nullopt;
}

} // namespace detail
} // namespace cpp
} // namespace tia
