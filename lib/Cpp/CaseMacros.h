//===- CaseMacros.h - the macros that define test cases ---------*- C++ -*-===//
//
// Private to lib/Cpp. Catch2 and doctest define a case with a macro whose
// first argument (after a fixture class, for the _METHOD and _FIXTURE
// forms) starts with the case's name as a string literal. The front end
// reads the invocation back from the source, where the case's function
// was expanded.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_CPP_CASEMACROS_H
#define TIA_LIB_CPP_CASEMACROS_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace cpp {
namespace detail {

/// A raw lexer of the file of \p Loc (a file location), starting there;
/// null when the file's text cannot be read.
std::unique_ptr<clang::Lexer> rawLexerAt(clang::SourceLocation Loc,
                                         const clang::SourceManager &SM,
                                         const clang::LangOptions &LangOpts);

/// What a case-defining macro invocation says.
struct CaseMacro {
  std::string Macro; ///< without the framework's prefix (CATCH_, DOCTEST_)
  std::string Name;  ///< the name's string literal, its escapes undone
  /// The string literal after the name (Catch2's tags); may be empty.
  std::string Tags;
  /// The identifiers in the rest of the name's argument (doctest's
  /// decorators: "name" * doctest::skip()).
  std::vector<std::string> Decorators;
};

/// The macro invoked at \p Loc (an expansion location) and its case's name,
/// the macro's name without \p Prefix; std::nullopt when the name is no
/// plain string literal.
std::optional<CaseMacro> readCaseMacro(clang::SourceLocation Loc,
                                       const clang::SourceManager &SM,
                                       const clang::LangOptions &LangOpts,
                                       llvm::StringRef Prefix);

/// A macro invocation read back from the source: the macro's name and the
/// identifiers among its arguments, in order.
struct MacroCall {
  std::string Macro;
  std::vector<std::string> Identifiers;
};

/// The invocation of a function-like macro at \p Loc (an expansion
/// location); std::nullopt when no identifier and '(' start there, or the
/// invocation does not end within 256 tokens.
std::optional<MacroCall> readMacroCall(clang::SourceLocation Loc,
                                       const clang::SourceManager &SM,
                                       const clang::LangOptions &LangOpts);

} // namespace detail
} // namespace cpp
} // namespace tia

#endif // TIA_LIB_CPP_CASEMACROS_H
