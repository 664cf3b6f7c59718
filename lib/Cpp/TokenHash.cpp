//===- TokenHash.cpp - hashes of raw token streams ------------------------===//
//
// Element and residual hashes are made of the tokens Clang's raw lexer sees:
// comments, whitespace and layout never reach the hash, every other edit
// does. Line breaks count only where they end a preprocessor directive.
//
//===----------------------------------------------------------------------===//

#include "Extractor.h"
#include "tia/Cpp/FrontEnd.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>

namespace tia {
namespace cpp {
namespace detail {

namespace {

/// The same options for every file, whatever its translation unit uses, so
/// that one file version always yields the same hashes.
clang::LangOptions rawLangOptions() {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.CPlusPlus20 = LO.CPlusPlus23 = 1;
  LO.LineComment = LO.Digraphs = LO.Bool = LO.WChar = 1;
  LO.DollarIdents = 1;
  return LO;
}

/// The end-of-directive marker's spelling; no real token spells like this.
constexpr llvm::StringLiteral DirectiveEnd = "\n";

} // namespace

std::vector<RawToken> lexRawTokens(llvm::StringRef Buffer) {
  static const clang::LangOptions LO = rawLangOptions();
  std::vector<RawToken> Out;
  const char *Begin = Buffer.data();
  clang::Lexer L(clang::SourceLocation(), LO, Begin, Begin,
                 Begin + Buffer.size());
  bool InDirective = false;
  clang::Token Tok;
  while (true) {
    L.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    // The lexer stands right after the token it returned.
    unsigned End = L.getBufferLocation() - Begin;
    RawToken T;
    T.Length = Tok.getLength();
    T.Offset = End - T.Length;
    T.NeedsCleaning = Tok.needsCleaning();
    if (Tok.isAtStartOfLine()) {
      if (InDirective && !Out.empty()) {
        // The marker sits with the directive's last token, so that it falls
        // inside exactly the element (or residual) that holds the directive.
        RawToken Marker;
        Marker.Offset = Out.back().Offset;
        Out.push_back(Marker);
      }
      InDirective = Tok.is(clang::tok::hash);
    }
    Out.push_back(T);
  }
  return Out;
}

size_t firstTokenAt(const std::vector<RawToken> &Toks, unsigned Offset) {
  return std::lower_bound(
             Toks.begin(), Toks.end(), Offset,
             [](const RawToken &T, unsigned O) { return T.Offset < O; }) -
         Toks.begin();
}

void addToken(TokenHasher &H, llvm::StringRef Buffer, const RawToken &T) {
  if (T.Length == 0) {
    H.add(DirectiveEnd);
    return;
  }
  llvm::StringRef Spelling = Buffer.substr(T.Offset, T.Length);
  if (!T.NeedsCleaning) {
    H.add(Spelling);
    return;
  }
  // Drop backslash-newline splices (a backslash, optional horizontal
  // whitespace, a line break), as translation phase 2 does.
  std::string Clean;
  for (size_t I = 0; I < Spelling.size(); ++I) {
    if (Spelling[I] == '\\') {
      size_t J = I + 1;
      while (J < Spelling.size() && (Spelling[J] == ' ' || Spelling[J] == '\t'))
        ++J;
      if (J < Spelling.size() && (Spelling[J] == '\n' || Spelling[J] == '\r')) {
        if (Spelling[J] == '\r' && J + 1 < Spelling.size() &&
            Spelling[J + 1] == '\n')
          ++J;
        I = J;
        continue;
      }
    }
    Clean.push_back(Spelling[I]);
  }
  H.add(Clean);
}

} // namespace detail

std::vector<unsigned> identifierLines(llvm::StringRef Source,
                                      llvm::StringRef Name) {
  std::string Buffer = Source.str(); // NUL-terminated for the lexer
  std::vector<unsigned> Lines;
  unsigned Line = 1;
  size_t Counted = 0;
  for (const detail::RawToken &T : detail::lexRawTokens(Buffer)) {
    if (T.Length != Name.size() && !T.NeedsCleaning)
      continue;
    std::string Clean;
    llvm::StringRef Spelling =
        llvm::StringRef(Buffer).substr(T.Offset, T.Length);
    if (T.NeedsCleaning) {
      // Splices are rare; compare the spelling without them.
      for (char Ch : Spelling)
        if (Ch != '\\' && Ch != '\n' && Ch != '\r')
          Clean.push_back(Ch);
      Spelling = Clean;
    }
    if (Spelling != Name)
      continue;
    Line +=
        llvm::StringRef(Buffer).substr(Counted, T.Offset - Counted).count('\n');
    Counted = T.Offset;
    if (Lines.empty() || Lines.back() != Line)
      Lines.push_back(Line);
  }
  return Lines;
}

std::string tokenHash(llvm::StringRef Source) {
  std::string Buffer = Source.str(); // NUL-terminated for the lexer
  TokenHasher H;
  for (const detail::RawToken &T : detail::lexRawTokens(Buffer))
    detail::addToken(H, Buffer, T);
  return H.hex();
}

} // namespace cpp
} // namespace tia
