//===- Collector.h - elements and references of one TU ----------*- C++ -*-===//
//
// Private to lib/Cpp. The Collector gathers, while the AST visitor walks one
// translation unit, every element of the project files it reads (functions
// and, around them, variables, classes, enums, aliases, declarations,
// macros and conditional regions) and every reference between them; when
// the AST is complete it turns them into FileIndexes with keys, ranges,
// token hashes and the reference graph.
//
// Its parts live in several files: Extractor.cpp (functions, displays,
// keys), Declarations.cpp (the elements that are not functions, reference
// targets), Preprocessor.cpp (what the preprocessor reports) and Files.cpp
// (ownership of tokens, hashes, the residual and the references per file).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_CPP_COLLECTOR_H
#define TIA_LIB_CPP_COLLECTOR_H

#include "Extractor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace cpp {
namespace detail {

/// How one FileID of the TU is treated.
struct FileRecord {
  bool Project = false;
  std::string Path; ///< repository-relative, when Project
};

/// What the preprocessor reported, kept until the AST is complete (the
/// Collector only exists then).
struct PreprocessorRecord {
  /// Every file the preprocessor entered, headers without elements included.
  std::vector<clang::FileID> Entered;

  /// A #define or #undef.
  struct MacroDirective {
    clang::SourceLocation NameLoc;
    std::string Name;
    std::string Display; ///< "#define NAME(a, b)", "#undef NAME"
  };
  std::vector<MacroDirective> Macros;

  /// An #if/#ifdef/#ifndef ... #endif region, closed.
  struct Conditional {
    /// The directive-name tokens: #if first, #endif last, #elif/#else
    /// between.
    std::vector<clang::SourceLocation> Directives;
    /// Ranges the preprocessor skipped inside the region (inactive code).
    std::vector<clang::SourceRange> Skipped;
  };
  std::vector<Conditional> Conditionals;

  /// A macro expanded (Definition valid) or tested by #ifdef, #ifndef or
  /// defined() (Definition invalid).
  struct MacroUse {
    clang::SourceLocation Loc;
    clang::SourceLocation Definition;
    std::string Name;
  };
  std::vector<MacroUse> Uses;

  struct Include {
    clang::SourceLocation HashLoc;
    std::string Spelling;
    bool Angled = false;
    std::string File; ///< what it found, as the file manager names it
  };
  std::vector<Include> Includes;
};

/// An element of a project file before it is an Element.
struct Candidate {
  // Functions.
  const clang::FunctionDecl *FD = nullptr;
  const clang::LambdaExpr *Lambda = nullptr;
  /// For lambdas: the declaration whose lambdas are numbered together.
  const clang::Decl *LambdaContext = nullptr;
  unsigned LambdaOrdinal = 0;
  /// Where the body starts (constructor initialisers included); EndOffset
  /// when the function has none.
  unsigned BodyOffset = 0;
  /// A method whose declaration shapes its class (virtual, a special member,
  /// a conversion, a friend): the class keeps its declarator, not its body.
  bool ShapesClass = false;

  // Elements that are not functions: the variable, class, enum, alias or
  // function declaration (for Declaration) they stand for.
  const clang::NamedDecl *Decl = nullptr;
  /// Macros and conditionals: key body and display, known up front.
  std::string FixedKey, FixedDisplay;
  /// Conditionals own only their directive lines and the inactive code the
  /// preprocessor skipped, [first, second) each.
  std::vector<std::pair<unsigned, unsigned>> OwnOnly;

  clang::FileID File;
  unsigned BeginOffset = 0, EndOffset = 0; ///< [Begin, End) in File
  unsigned BeginLine = 0, EndLine = 0;
  ElementKind Kind = ElementKind::Function;
  bool CompileTime = false;
  std::vector<std::string> Names;
};

/// A reference seen in the AST or the preprocessor, before its source is
/// known to be an element and its target has a key.
struct RawReference {
  clang::FileID File;
  unsigned Offset = 0;
  /// The referenced declaration, or FixedTo (macros) when null.
  const clang::Decl *Target = nullptr;
  std::string FixedTo;
  ReferenceKind Kind = ReferenceKind::Type;
  /// A type that shapes a class's layout (a base, a field held by value):
  /// the only type references a class element keeps.
  bool Layout = false;
};

/// The callbacks that fill \p Out while \p SM's translation unit is
/// preprocessed.
std::unique_ptr<clang::PPCallbacks>
makePreprocessorRecorder(clang::SourceManager &SM,
                         std::shared_ptr<PreprocessorRecord> Out);

bool isInstantiation(clang::TemplateSpecializationKind K);
/// True when \p DC or one of its parents was made by instantiating a
/// template: what is declared there is a copy of something in a pattern.
bool inInstantiatedContext(const clang::DeclContext *DC);
bool isInstantiated(const clang::FunctionDecl *FD);
ElementKind kindOf(const clang::FunctionDecl *FD, bool IsLambda);

class Collector {
public:
  Collector(clang::CompilerInstance &CI, const ProjectPaths &Paths);

  /// Declarations wholly inside system headers hold no project code.
  bool skip(const clang::Decl *D) {
    if (clang::isa<clang::TranslationUnitDecl>(D))
      return false;
    clang::SourceLocation L = D->getLocation();
    return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L));
  }

  /// A function definition or, without a body, a declaration.
  void function(const clang::FunctionDecl *FD, const clang::LambdaExpr *LE);
  /// A namespace-scope variable or a static data member.
  void variable(const clang::VarDecl *VD);
  /// A class, struct, union or enum definition.
  void tag(const clang::TagDecl *TD);
  /// A typedef or using-alias.
  void alias(const clang::TypedefNameDecl *TD);

  /// A call that binds a name for Python (pybind11's or nanobind's .def
  /// family, Bindings.cpp).
  void bindingCall(const clang::CXXMemberCallExpr *Call);
  /// An entry of a CPython PyMethodDef or PyGetSetDef table.
  void bindingTableEntry(const clang::InitListExpr *Entry);

  /// Records the brackets of a namespace or extern "C" block, which are left
  /// out of the residual: what they change is the names of what they hold,
  /// and a renamed element is an added and a deleted one already.
  void brackets(clang::SourceLocation Begin, clang::SourceLocation RBrace);

  /// Records that the code at \p Loc references \p Target.
  void reference(clang::SourceLocation Loc, const clang::Decl *Target,
                 ReferenceKind Kind, bool Layout = false);
  /// Records the classes, enums and aliases \p T is made of (through
  /// pointers and references too when \p ThroughPointers).
  void typeReferences(clang::SourceLocation Loc, clang::QualType T,
                      bool ThroughPointers, bool Layout = false);

  /// The variables and fields whose initialisers are being traversed: a
  /// lambda outside any function is named after the innermost one.
  std::vector<const clang::ValueDecl *> Initializing;

  void finish(const PreprocessorRecord &PP, Extracted &Out);

private:
  const FileRecord &record(clang::FileID FID);
  const std::vector<RawToken> &tokens(clang::FileID FID);
  unsigned tokenEnd(clang::FileID FID, unsigned Offset,
                    clang::SourceLocation Loc);
  unsigned attributeOpener(clang::FileID FID, unsigned Offset);
  /// The range of \p D (or \p LE) with template headers and leading
  /// attributes, in one project file.
  bool range(const clang::Decl *D, const clang::LambdaExpr *LE, Candidate &C);
  unsigned bodyOffset(const clang::FunctionDecl *FD, const Candidate &C);
  std::vector<std::string> names(const clang::FunctionDecl *FD);
  void resolveInstantiations();
  void numberLambdas();
  void implicitMemberNames();

  // Bindings.cpp
  /// A binding element spanning [\p Begin, the token at \p End].
  void binding(clang::SourceLocation Begin, clang::SourceLocation End,
               const std::string &Name, const std::string &How);

  // Preprocessor.cpp
  void preprocessor(const PreprocessorRecord &PP);
  /// [#, end of line) of the directive whose token starts at \p Offset.
  std::pair<unsigned, unsigned> directiveExtent(clang::FileID FID,
                                                unsigned Offset);
  /// True when [Begin, End) lies inside an element already collected.
  bool insideElement(clang::FileID FID, unsigned Begin, unsigned End) const;

  std::string display(const Candidate &C);
  std::string functionDisplay(const clang::FunctionDecl *FD);
  std::string declDisplay(const clang::NamedDecl *D);
  std::string contextPrefix(const clang::DeclContext *DC);
  std::string recordName(const clang::CXXRecordDecl *RD);
  std::string templateParams(const clang::TemplateParameterList *TPL);
  std::string typeName(clang::QualType T);
  std::string lambdaDisplay(const Candidate &C);

  std::string keyBody(size_t I);
  std::string contextKeyBody(const clang::Decl *D, llvm::StringRef File);
  std::string usr(const clang::Decl *D);
  /// The key body of a function that is not a lambda or in a local class.
  std::string functionKeyBody(const clang::FunctionDecl *FD,
                              llvm::StringRef File);

  // Declarations.cpp
  /// The key body of the element that holds \p D (a variable, a class or
  /// what a class holds, an enum, an alias); empty for local and system
  /// declarations.
  std::string declKeyBody(const clang::Decl *D);
  /// The project file path of \p D's location; empty outside the project.
  std::string projectFileOf(const clang::Decl *D);
  /// The full key ("cpp:...") a reference to \p Target names; empty when
  /// it names nothing tia indexes.
  std::string targetKey(const clang::Decl *Target);

  // Files.cpp
  void fileIndex(llvm::StringRef Path, clang::FileID FID,
                 const std::vector<size_t> &Members,
                 const std::vector<std::string> &FinalKeys,
                 const std::vector<const RawReference *> &Refs,
                 const PreprocessorRecord &PP, FileIndex &F);
  /// Token offsets [first, second) in one file.
  using Ranges = std::vector<std::pair<unsigned, unsigned>>;
  /// The ranges each of \p Members owns: a function or macro all it spans,
  /// a conditional region its own lines, anything else its extent less
  /// the elements nested in it.
  std::vector<Ranges> ownedRanges(const std::vector<size_t> &Members);
  /// The test candidate \p C defines, if any.
  std::optional<TestDefinition> testDefinedBy(const Candidate &C);
  /// The hash of the tokens of \p FID no element owns, brackets aside.
  std::string residualHash(llvm::StringRef Path, clang::FileID FID,
                           Ranges AllOwned);
  /// Adds the references of \p Refs, each from the innermost element of
  /// \p Members around it.
  void addOwnedReferences(llvm::StringRef Path,
                          const std::vector<size_t> &Members,
                          const std::vector<std::string> &FinalKeys,
                          const std::vector<Ranges> &Owned,
                          const std::vector<const RawReference *> &Refs,
                          FileIndex &F);
  /// Adds the references the elements' nesting makes: a region to what it
  /// holds, the element around a lambda to the lambda, a function to its
  /// declarations.
  void addNestingReferences(const std::vector<size_t> &Members,
                            const std::vector<std::string> &FinalKeys,
                            FileIndex &F);
  /// Adds the project's #include directives of \p Path.
  void addIncludes(llvm::StringRef Path, const PreprocessorRecord &PP,
                   FileIndex &F);

  clang::SourceManager &SM;
  clang::ASTContext &Ctx;
  const clang::LangOptions &LangOpts;
  const ProjectPaths &Paths;
  clang::ASTNameGenerator Gen;
  clang::PrintingPolicy Policy;

  // std::map: references to the values outlive later insertions.
  std::map<clang::FileID, FileRecord> Records;
  std::map<const char *, std::vector<RawToken>> Tokens;
  std::vector<Candidate> Candidates;
  /// Canonical declaration of each element's function -> its candidate.
  llvm::DenseMap<const clang::FunctionDecl *, size_t> ByDecl;
  /// Canonical declaration of each non-function element -> its candidate.
  llvm::DenseMap<const clang::Decl *, size_t> ByOtherDecl;
  std::vector<const clang::FunctionDecl *> Instantiations;
  /// Token ranges [first, second) of the brackets, per file.
  std::vector<std::pair<clang::FileID, std::pair<unsigned, unsigned>>> Brackets;
  std::vector<RawReference> Refs;
  /// Where the bindings already collected begin.
  std::set<std::pair<clang::FileID, unsigned>> BindingsSeen;
  llvm::DenseMap<const clang::FunctionDecl *, std::string> Displays;
  std::vector<std::optional<std::string>> Keys;
  std::vector<std::string> DisplayOf;
};

} // namespace detail
} // namespace cpp
} // namespace tia

#endif // TIA_LIB_CPP_COLLECTOR_H
