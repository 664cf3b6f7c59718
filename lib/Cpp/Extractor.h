//===- Extractor.h - code elements from a Clang AST -------------*- C++ -*-===//
//
// Private to lib/Cpp. The frontend action that walks one translation unit's
// AST and turns every function-like definition of a project file into a
// tia::Element, the raw-lexer token walk its hashes are made of, and the
// project-path rules both share.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_CPP_EXTRACTOR_H
#define TIA_LIB_CPP_EXTRACTOR_H

#include "tia/Support/Hash.h"
#include "tia/Support/Model.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace cpp {
namespace detail {

/// One token of a buffer as Clang's raw lexer sees it, or, with Length 0, the
/// end of a preprocessor directive line (the one place where a line break is
/// part of the meaning).
struct RawToken {
  unsigned Offset = 0;        ///< of the token's first byte in the buffer
  unsigned Length = 0;        ///< bytes in the buffer, line splices included
  bool NeedsCleaning = false; ///< spelling contains a backslash-newline
};

/// Lexes \p Buffer in raw mode (no preprocessing, comments and whitespace
/// skipped) with fixed C++ language options, so that a file hashes the same
/// in every translation unit. \p Buffer must be followed by a NUL byte, as
/// llvm::MemoryBuffer and std::string data are.
std::vector<RawToken> lexRawTokens(llvm::StringRef Buffer);

/// The index of the first token of \p Toks (sorted by offset) at or after
/// \p Offset; Toks.size() when there is none.
size_t firstTokenAt(const std::vector<RawToken> &Toks, unsigned Offset);

/// Feeds the spelling of \p T (line splices removed) to \p H.
void addToken(TokenHasher &H, llvm::StringRef Buffer, const RawToken &T);

/// Which files belong to the project and how their paths are shown.
class ProjectPaths {
public:
  /// \p Root and \p Excluded absolute; \p Directory is the compile command's
  /// working directory, against which relative paths are resolved.
  ProjectPaths(llvm::StringRef Root, const std::vector<std::string> &Excluded,
               llvm::StringRef Directory);

  /// \p Path made absolute against the working directory, dots removed,
  /// '/' separators.
  std::string absolute(llvm::StringRef Path) const;

  /// The repository-relative path of \p Path when it is a project file:
  /// below the root (lexically, or after resolving symlinks of both) and
  /// not below an excluded directory. With an empty root every file is a
  /// project file and keeps its absolute path.
  std::optional<std::string> relative(llvm::StringRef Path) const;

  /// The relative path of a project file, else the absolute path.
  std::string shown(llvm::StringRef Path) const;

private:
  std::optional<std::string> below(llvm::StringRef Abs,
                                   llvm::StringRef Root) const;

  std::string Root;
  std::string RealRoot;
  std::vector<std::string> Excluded;
  std::string Directory;
};

/// The "Suite.Name" of the GoogleTest test whose body \p TestBody is (a
/// TestBody() that TEST, TEST_F, TEST_P, TYPED_TEST, TYPED_TEST_P or
/// GTEST_TEST defined, or a macro that passes them its first two
/// arguments); std::nullopt for any other method, a disabled test, or when
/// the macro's arguments do not rebuild the class's name.
std::optional<std::string> googleTestName(const clang::CXXMethodDecl &TestBody,
                                          const clang::SourceManager &SM,
                                          const clang::LangOptions &LangOpts);

/// The name of the Catch2 case whose body \p FD is (the function TEST_CASE,
/// SCENARIO, TEST_CASE_METHOD or TEMPLATE_TEST_CASE defined: "name",
/// "Scenario: name"; a template case's instances are "name - T");
/// std::nullopt for any other function, a hidden case ("[.]" tags), or
/// when the macro's name is not a string literal.
std::optional<std::string> catch2TestName(const clang::FunctionDecl &FD,
                                          const clang::SourceManager &SM,
                                          const clang::LangOptions &LangOpts);

/// The name of the doctest case whose body \p FD is (the function
/// TEST_CASE, SCENARIO, TEST_CASE_FIXTURE or TEST_CASE_TEMPLATE defined:
/// "name", "  Scenario: name"; a template case's instances are
/// "name<type>"); std::nullopt for any other function, a case decorated
/// with doctest::skip(), or when the name is not a string literal.
std::optional<std::string> doctestTestName(const clang::FunctionDecl &FD,
                                           const clang::SourceManager &SM,
                                           const clang::LangOptions &LangOpts);

/// The path of the Boost.Test case whose body \p FD is, its suites first
/// ("math/adds"): the test_method() that BOOST_AUTO_TEST_CASE,
/// BOOST_FIXTURE_TEST_CASE and their _TEMPLATE forms defined (a template
/// case's instances are "name<type>"), or the _impl() of a
/// BOOST_DATA_TEST_CASE (a suite of samples "name/_0", ...). Suites are
/// the namespaces BOOST_AUTO_TEST_SUITE and BOOST_FIXTURE_TEST_SUITE open;
/// other namespaces name no suite. std::nullopt for any other function or
/// a case decorated with disabled().
std::optional<std::string> boostTestName(const clang::FunctionDecl &FD,
                                         const clang::SourceManager &SM,
                                         const clang::LangOptions &LangOpts);

/// What the action learnt from the translation unit.
struct Extracted {
  /// False when Clang never got to the AST (for example a driver error).
  bool Ran = false;
  /// Every project file the TU read, sorted by path; Complete is left true.
  std::vector<FileIndex> Files;
  /// (path, content hash) of the same files, sorted.
  std::vector<std::pair<std::string, std::string>> Dependencies;
};

/// A syntax-only action that fills \p Out when the AST is complete.
class ExtractAction : public clang::ASTFrontendAction {
public:
  ExtractAction(const ProjectPaths &Paths, Extracted &Out)
      : Paths(Paths), Out(Out) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI,
                    llvm::StringRef InFile) override;

private:
  const ProjectPaths &Paths;
  Extracted &Out;
};

} // namespace detail
} // namespace cpp
} // namespace tia

#endif // TIA_LIB_CPP_EXTRACTOR_H
