//===- Extractor.cpp - code elements from a Clang AST ---------------------===//
//
// A RecursiveASTVisitor finds every function-like definition of a project
// file (free functions, methods, constructors, destructors, operators,
// conversions, lambdas, templates). Template instantiations do not become
// elements: their mangled names are added to the pattern they came from.
// When the AST is complete each element gets its key, display, range and
// token hash, and each project file its content and residual hashes.
//
// Keys (docs/Formats.md):
//  - "cpp:" + the mangled name for entities with a linker name; for
//    constructors the complete-object (C1) name and for destructors the
//    complete-object (D1) name, which is what ASTNameGenerator::getName
//    returns.
//  - "cpp:" + file + ":" + the mangled name for functions that are not
//    externally visible (static, anonymous namespace, local classes).
//  - "cpp:" + the USR for templates, members of class templates and other
//    dependent declarations, which have no mangled name (with the file in
//    front when not externally visible).
//  - lambdas: the key of their context (the enclosing element, else the
//    variable or field the lambda initialises) + "::lambda#N", N counting
//    the lambdas of that context in source order. Clang numbers the lambdas
//    of non-inline functions across the whole TU ("$_N"), which would change
//    a key whenever a lambda is added anywhere above.
//
//===----------------------------------------------------------------------===//

#include "Collector.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Index/USRGeneration.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

bool isBelowDir(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir == "/")
    return Path.starts_with("/");
  return Path == Dir || (Path.starts_with(Dir) && Path.size() > Dir.size() &&
                         Path[Dir.size()] == '/');
}

std::string normalized(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> P;
  if (llvm::sys::path::is_absolute(Path) || Base.empty()) {
    P = Path;
  } else {
    P = Base;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  llvm::sys::path::native(P, llvm::sys::path::Style::posix);
  std::string S(P.str());
  while (S.size() > 1 && S.back() == '/')
    S.pop_back();
  return S;
}

std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return std::string();
  return normalized(Real, "");
}

} // namespace

//===----------------------------------------------------------------------===//
// ProjectPaths
//===----------------------------------------------------------------------===//

ProjectPaths::ProjectPaths(llvm::StringRef RootDir,
                           const std::vector<std::string> &ExcludedDirs,
                           llvm::StringRef WorkingDir)
    : Directory(normalized(WorkingDir, "")) {
  if (!RootDir.empty()) {
    Root = normalized(RootDir, Directory);
    RealRoot = realPath(Root);
  }
  // Excluded directories are kept relative to the root, so that either
  // spelling of the root (as given or with symlinks resolved) matches.
  for (const std::string &X : ExcludedDirs) {
    std::string Abs = normalized(X, Directory);
    for (const std::string &Spelling : {Abs, realPath(Abs)})
      for (const std::string *R : {&Root, &RealRoot})
        if (!R->empty() && !Spelling.empty() && isBelowDir(Spelling, *R))
          Excluded.push_back(
              Spelling.size() > R->size()
                  ? Spelling.substr(R->size() == 1 ? 1 : R->size() + 1)
                  : std::string());
  }
}

std::string ProjectPaths::absolute(llvm::StringRef Path) const {
  return normalized(Path, Directory);
}

std::optional<std::string> ProjectPaths::below(llvm::StringRef Abs,
                                               llvm::StringRef R) const {
  if (R.empty() || !isBelowDir(Abs, R) || Abs.size() <= R.size())
    return std::nullopt;
  std::string Rel = Abs.substr(R == "/" ? 1 : R.size() + 1).str();
  for (const std::string &X : Excluded)
    if (X.empty() || isBelowDir(Rel, X))
      return std::nullopt;
  return Rel;
}

std::optional<std::string> ProjectPaths::relative(llvm::StringRef Path) const {
  std::string Abs = absolute(Path);
  if (Root.empty())
    return Abs;
  if (isBelowDir(Abs, Root))
    return below(Abs, Root);
  if (!RealRoot.empty() && isBelowDir(Abs, RealRoot))
    return below(Abs, RealRoot);
  std::string Real = realPath(Abs);
  if (!Real.empty() && Real != Abs && !RealRoot.empty())
    return below(Real, RealRoot);
  return std::nullopt;
}

std::string ProjectPaths::shown(llvm::StringRef Path) const {
  if (auto Rel = relative(Path))
    return *Rel;
  return absolute(Path);
}

//===----------------------------------------------------------------------===//
// Collecting elements
//===----------------------------------------------------------------------===//

bool isInstantiation(TemplateSpecializationKind K) {
  return K == TSK_ImplicitInstantiation ||
         K == TSK_ExplicitInstantiationDeclaration ||
         K == TSK_ExplicitInstantiationDefinition;
}

/// True when \p DC or one of its parents was made by instantiating a
/// template: what is declared there is a copy of something in a pattern.
bool inInstantiatedContext(const DeclContext *DC) {
  for (; DC; DC = DC->getParent()) {
    if (const auto *F = dyn_cast<FunctionDecl>(DC)) {
      if (F->isTemplateInstantiation())
        return true;
    } else if (const auto *R = dyn_cast<CXXRecordDecl>(DC)) {
      if (isInstantiation(R->getTemplateSpecializationKind()))
        return true;
    }
  }
  return false;
}

bool isInstantiated(const FunctionDecl *FD) {
  return FD->isTemplateInstantiation() ||
         inInstantiatedContext(FD->getDeclContext()) ||
         inInstantiatedContext(FD->getLexicalDeclContext());
}

ElementKind kindOf(const FunctionDecl *FD, bool IsLambda) {
  if (FD->isDependentContext())
    return ElementKind::FunctionTemplate;
  if (IsLambda)
    return ElementKind::Lambda;
  if (isa<CXXConstructorDecl>(FD))
    return ElementKind::Constructor;
  if (isa<CXXDestructorDecl>(FD))
    return ElementKind::Destructor;
  if (isa<CXXConversionDecl>(FD))
    return ElementKind::Conversion;
  if (FD->isOverloadedOperator())
    return ElementKind::Operator;
  if (isa<CXXMethodDecl>(FD))
    return ElementKind::Method;
  return ElementKind::Function;
}

Collector::Collector(CompilerInstance &CI, const ProjectPaths &Paths)
    : SM(CI.getSourceManager()), Ctx(CI.getASTContext()),
      LangOpts(CI.getLangOpts()), Paths(Paths), Gen(Ctx),
      Policy(Ctx.getPrintingPolicy()) {
  Policy.SuppressScope = false;
  Policy.SuppressUnwrittenScope = false;
  Policy.FullyQualifiedName = true;
  Policy.AnonymousTagLocations = false; // no machine paths in displays
}

const FileRecord &Collector::record(FileID FID) {
  auto It = Records.find(FID);
  if (It != Records.end())
    return It->second;
  FileRecord R;
  if (FID.isValid() &&
      !SrcMgr::isSystem(SM.getFileCharacteristic(SM.getLocForStartOfFile(FID))))
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID))
      if (auto Rel = Paths.relative(FE->getName())) {
        R.Project = true;
        R.Path = std::move(*Rel);
      }
  return Records[FID] = std::move(R);
}

const std::vector<RawToken> &Collector::tokens(FileID FID) {
  llvm::StringRef Buf = SM.getBufferData(FID);
  auto It = Tokens.find(Buf.data());
  if (It != Tokens.end())
    return It->second;
  return Tokens[Buf.data()] = lexRawTokens(Buf);
}

/// The offset just past the token that starts at \p Offset.
unsigned Collector::tokenEnd(FileID FID, unsigned Offset, SourceLocation Loc) {
  const std::vector<RawToken> &Toks = tokens(FID);
  auto It = Toks.begin() + firstTokenAt(Toks, Offset);
  for (; It != Toks.end() && It->Offset == Offset; ++It)
    if (It->Length)
      return Offset + It->Length;
  return Offset + Lexer::MeasureTokenLength(Loc, SM, LangOpts);
}

/// An attribute's range starts at its name: this is where the "[[",
/// "__attribute__((" or "__declspec(" before the name at \p Offset starts.
unsigned Collector::attributeOpener(FileID FID, unsigned Offset) {
  const std::vector<RawToken> &Toks = tokens(FID);
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t I = firstTokenAt(Toks, Offset);
  auto Is = [&](size_t Back, llvm::StringRef Spelling) {
    return I >= Back && Toks[I - Back].Length &&
           Buf.substr(Toks[I - Back].Offset, Toks[I - Back].Length) == Spelling;
  };
  if (Is(1, "[") && Is(2, "["))
    return Toks[I - 2].Offset;
  if (Is(1, "(") && Is(2, "(") &&
      (Is(3, "__attribute__") || Is(3, "__attribute")))
    return Toks[I - 3].Offset;
  if (Is(1, "(") && Is(2, "__declspec"))
    return Toks[I - 2].Offset;
  return Offset;
}

bool Collector::range(const Decl *D, const LambdaExpr *LE, Candidate &C) {
  SourceRange R = LE ? LE->getSourceRange() : D->getSourceRange();
  if (R.isInvalid())
    return false;
  std::pair<FileID, unsigned> B =
      SM.getDecomposedLoc(SM.getExpansionRange(R.getBegin()).getBegin());
  FileID FID = B.first;
  unsigned Begin = B.second;
  CharSourceRange EndRange = SM.getExpansionRange(R.getEnd());
  auto [EndFID, EndTok] = SM.getDecomposedLoc(EndRange.getEnd());
  if (FID.isInvalid() || EndFID != FID || EndTok < Begin)
    return false;

  // The template header and leading attributes belong to the element.
  if (!LE) {
    auto Earliest = [&](SourceLocation S) {
      if (S.isInvalid())
        return false;
      auto [SFID, SOff] =
          SM.getDecomposedLoc(SM.getExpansionRange(S).getBegin());
      if (SFID != FID || SOff >= Begin)
        return false;
      Begin = SOff;
      return true;
    };
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
        Earliest(FTD->getBeginLoc());
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
        Earliest(CTD->getBeginLoc());
    } else if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (const VarTemplateDecl *VTD = VD->getDescribedVarTemplate())
        Earliest(VTD->getBeginLoc());
    } else if (const auto *TA = dyn_cast<TypeAliasDecl>(D)) {
      if (const TypeAliasTemplateDecl *TAT = TA->getDescribedAliasTemplate())
        Earliest(TAT->getBeginLoc());
    }
    if (const auto *DD = dyn_cast<DeclaratorDecl>(D))
      for (unsigned I = 0, N = DD->getNumTemplateParameterLists(); I < N; ++I)
        Earliest(DD->getTemplateParameterList(I)->getTemplateLoc());
    if (const auto *TD = dyn_cast<TagDecl>(D))
      for (unsigned I = 0, N = TD->getNumTemplateParameterLists(); I < N; ++I)
        Earliest(TD->getTemplateParameterList(I)->getTemplateLoc());
    bool ByAttr = false;
    for (const Attr *A : D->attrs())
      if (!A->isImplicit() && !A->isInherited() &&
          Earliest(A->getRange().getBegin()))
        ByAttr = true;
    if (ByAttr)
      Begin = attributeOpener(FID, Begin);
  }

  C.File = FID;
  C.BeginOffset = Begin;
  C.EndOffset = EndRange.isTokenRange()
                    ? tokenEnd(FID, EndTok, EndRange.getEnd())
                    : EndTok;
  // A declaration's closing ';' is its own: adding a declaration then adds
  // nothing outside the elements.
  const auto *FD = dyn_cast<FunctionDecl>(D);
  if (!LE && !(FD && FD->doesThisDeclarationHaveABody())) {
    const std::vector<RawToken> &Toks = tokens(FID);
    auto Next = Toks.begin() + firstTokenAt(Toks, C.EndOffset);
    if (Next != Toks.end() && Next->Length == 1 &&
        SM.getBufferData(FID)[Next->Offset] == ';')
      C.EndOffset = Next->Offset + 1;
  }
  C.BeginLine = SM.getLineNumber(FID, Begin);
  C.EndLine = SM.getLineNumber(
      FID, EndRange.isTokenRange() || EndTok == Begin ? EndTok : EndTok - 1);
  return C.EndOffset > C.BeginOffset;
}

/// Where the body of \p FD starts: its first constructor initialiser (with
/// the ':' before it), its function-try-block or its braces.
unsigned Collector::bodyOffset(const FunctionDecl *FD, const Candidate &C) {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return C.EndOffset;
  auto InFile = [&](SourceLocation L) -> std::optional<unsigned> {
    if (L.isInvalid())
      return std::nullopt;
    auto [FID, Off] = SM.getDecomposedLoc(SM.getExpansionLoc(L));
    if (FID != C.File || Off < C.BeginOffset || Off >= C.EndOffset)
      return std::nullopt;
    return Off;
  };
  std::optional<unsigned> Start = InFile(Body->getBeginLoc());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten())
        if (auto Off = InFile(Init->getSourceLocation())) {
          // Back to the ':' that opens the initialisers.
          const std::vector<RawToken> &Toks = tokens(C.File);
          llvm::StringRef Buf = SM.getBufferData(C.File);
          auto It = Toks.begin() + firstTokenAt(Toks, *Off);
          while (It != Toks.begin() && It->Offset > C.BeginOffset) {
            --It;
            if (It->Length && Buf.substr(It->Offset, It->Length) == ":") {
              *Off = It->Offset;
              break;
            }
          }
          if (!Start || *Off < *Start)
            Start = *Off;
          break;
        }
  return Start ? *Start : C.BeginOffset;
}

std::vector<std::string> Collector::names(const FunctionDecl *FD) {
  if (FD->isDependentContext() || FD->isInvalidDecl())
    return {};
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isInvalidDecl())
      return {};
  std::vector<std::string> Out = Gen.getAllManglings(FD);
  std::string Name = Gen.getName(FD);
  if (!Name.empty())
    Out.push_back(std::move(Name));
  return Out;
}

namespace {

/// True when the declaration of \p FD shapes its class beyond adding a
/// name: a virtual function (the vtable), a special member or conversion
/// (what the class can do implicitly), a friend (what lookup finds).
bool shapesClass(const FunctionDecl *FD) {
  if (FD->getFriendObjectKind() != Decl::FOK_None)
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD)
    return false;
  return MD->isVirtual() || isa<CXXConstructorDecl>(MD) ||
         isa<CXXDestructorDecl>(MD) || isa<CXXConversionDecl>(MD) ||
         MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator() ||
         MD->isDeleted() || MD->isDefaulted();
}

} // namespace

void Collector::function(const FunctionDecl *FD, const LambdaExpr *LE) {
  if (!FD || (!LE && FD->isImplicit()) || FD->isDefaulted() ||
      FD->isDeletedAsWritten())
    return;
  // Generic lambdas' instantiations are not reached by the traversal.
  if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
    for (const FunctionDecl *Spec : FTD->specializations())
      Instantiations.push_back(Spec);
  if (isInstantiated(FD)) {
    Instantiations.push_back(FD);
    return;
  }
  if (!FD->doesThisDeclarationHaveABody()) {
    // A declaration of its own: what it says (default arguments, noexcept,
    // attributes) reaches the function. Local declarations belong to their
    // function; those that shape a class stay part of it.
    if (FD->getParentFunctionOrMethod() || shapesClass(FD))
      return;
    Candidate C;
    if (!range(FD, nullptr, C) || !record(C.File).Project)
      return;
    C.Decl = FD;
    C.Kind = ElementKind::Declaration;
    C.CompileTime = FD->isConstexpr();
    C.BodyOffset = C.EndOffset;
    Candidates.push_back(std::move(C));
    return;
  }
  const FunctionDecl *Canon = FD->getCanonicalDecl();
  if (ByDecl.count(Canon))
    return;

  Candidate C;
  if (!range(FD, LE, C) || !record(C.File).Project)
    return;
  C.FD = FD;
  C.Lambda = LE;
  C.Kind = kindOf(FD, LE != nullptr);
  C.CompileTime = FD->isConstexpr(); // constexpr and consteval alike
  C.Names = names(FD);
  C.ShapesClass = !LE && shapesClass(FD);
  C.BodyOffset = LE ? C.BeginOffset : bodyOffset(FD, C);
  ByDecl[Canon] = Candidates.size();
  // A method works on its class's layout, whether it names a member or not.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !LE)
    reference(MD->getLocation(), MD->getParent(), ReferenceKind::Type);
  if (LE) {
    const CXXRecordDecl *Class = LE->getLambdaClass();
    const Decl *Context = nullptr;
    for (const DeclContext *DC = Class->getDeclContext(); DC && !Context;
         DC = DC->getParent()) {
      if (const auto *F = dyn_cast<FunctionDecl>(DC))
        Context = F;
      else if (!isa<BlockDecl>(DC) && !isa<CapturedDecl>(DC))
        break;
    }
    if (!Context)
      Context = Class->getLambdaContextDecl();
    if (!Context && !Initializing.empty())
      Context = Initializing.back();
    if (!Context)
      Context = cast<Decl>(Class->getDeclContext());
    C.LambdaContext = Context;
  }
  Candidates.push_back(std::move(C));
}

void Collector::brackets(SourceLocation Begin, SourceLocation RBrace) {
  if (Begin.isInvalid() || RBrace.isInvalid() || !Begin.isFileID() ||
      !RBrace.isFileID())
    return; // a macro's brackets stay in the residual
  auto [FID, BeginOffset] = SM.getDecomposedLoc(Begin);
  auto [RFID, RBraceOffset] = SM.getDecomposedLoc(RBrace);
  if (FID != RFID || RBraceOffset < BeginOffset || !record(FID).Project)
    return;
  const std::vector<RawToken> &Toks = tokens(FID);
  llvm::StringRef Buf = SM.getBufferData(FID);
  auto It = Toks.begin() + firstTokenAt(Toks, BeginOffset);
  for (; It != Toks.end() && It->Offset < RBraceOffset; ++It)
    if (It->Length && Buf.substr(It->Offset, It->Length) == "{") {
      Brackets.push_back({FID, {BeginOffset, It->Offset + 1}});
      Brackets.push_back({FID, {RBraceOffset, RBraceOffset + 1}});
      return;
    }
}

void Collector::resolveInstantiations() {
  for (const FunctionDecl *Inst : Instantiations) {
    const FunctionDecl *Pattern = Inst->getTemplateInstantiationPattern();
    if (!Pattern)
      continue;
    auto It = ByDecl.find(Pattern->getCanonicalDecl());
    if (It == ByDecl.end())
      continue;
    for (std::string &Name : names(Inst))
      Candidates[It->second].Names.push_back(std::move(Name));
  }
}

void Collector::numberLambdas() {
  std::map<const Decl *, std::vector<size_t>> Groups;
  for (size_t I = 0; I < Candidates.size(); ++I)
    if (Candidates[I].Lambda)
      Groups[Candidates[I].LambdaContext].push_back(I);
  for (auto &[Context, Members] : Groups) {
    std::sort(Members.begin(), Members.end(), [&](size_t A, size_t B) {
      return SM.isBeforeInTranslationUnit(Candidates[A].Lambda->getBeginLoc(),
                                          Candidates[B].Lambda->getBeginLoc());
    });
    for (size_t K = 0; K < Members.size(); ++K)
      Candidates[Members[K]].LambdaOrdinal = K + 1;
  }
}

//===----------------------------------------------------------------------===//
// Displays
//===----------------------------------------------------------------------===//

std::string Collector::typeName(QualType T) {
  if (T.isNull())
    return "?";
  if (T->isDependentType())
    return T.getAsString(Policy);
  return TypeName::getFullyQualifiedName(T, Ctx, Policy);
}

std::string Collector::templateParams(const TemplateParameterList *TPL) {
  std::string Out = "<";
  for (unsigned I = 0; I < TPL->size(); ++I) {
    const NamedDecl *P = TPL->getParam(I);
    if (I)
      Out += ", ";
    std::string Name = P->getName().str();
    if (Name.empty()) {
      if (const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(P))
        Name = typeName(NT->getType());
      else if (isa<TemplateTemplateParmDecl>(P))
        Name = "template";
      else
        Name = "typename";
    }
    Out += Name;
    if (P->isTemplateParameterPack())
      Out += "...";
  }
  return Out + ">";
}

std::string Collector::recordName(const CXXRecordDecl *RD) {
  std::string Name = RD->getName().str();
  if (Name.empty()) {
    if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
      Name = TD->getName().str();
    else
      Name = (llvm::Twine("(anonymous ") + RD->getKindName() + ")").str();
  }
  if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
    return Name + templateParams(CTD->getTemplateParameters());
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    std::string Args;
    llvm::raw_string_ostream OS(Args);
    if (const auto *Partial =
            dyn_cast<ClassTemplatePartialSpecializationDecl>(Spec))
      printTemplateArgumentList(
          OS, Partial->getTemplateArgsAsWritten()->arguments(), Policy);
    else
      printTemplateArgumentList(OS, Spec->getTemplateArgs().asArray(), Policy);
    return Name + Args;
  }
  return Name;
}

std::string Collector::contextPrefix(const DeclContext *DC) {
  if (!DC || DC->isTranslationUnit())
    return "";
  if (const auto *F = dyn_cast<FunctionDecl>(DC)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(F);
    if (MD && isLambdaCallOperator(MD))
      if (const auto *Class = MD->getParent())
        if (Class->isLambda()) {
          // Find the LambdaExpr's display through the candidate, if any.
          auto It = ByDecl.find(F->getCanonicalDecl());
          if (It != ByDecl.end() && Candidates[It->second].Lambda)
            return lambdaDisplay(Candidates[It->second]) + "::";
        }
    return functionDisplay(F) + "::";
  }
  std::string Parent = contextPrefix(DC->getParent());
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    return Parent +
           (NS->isAnonymousNamespace() ? std::string("(anonymous namespace)")
                                       : NS->getName().str()) +
           "::";
  if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
    return Parent +
           (RD->isLambda() ? std::string("(lambda)") : recordName(RD)) + "::";
  if (const auto *ND = dyn_cast<NamedDecl>(DC))
    if (!ND->getName().empty())
      return Parent + ND->getName().str() + "::";
  return Parent;
}

std::string Collector::functionDisplay(const FunctionDecl *FD) {
  auto It = Displays.find(FD);
  if (It != Displays.end())
    return It->second;
  std::string Out = contextPrefix(FD->getDeclContext());
  if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD)) {
    Out += CD->getParent()->getName().str();
  } else if (const auto *DD = dyn_cast<CXXDestructorDecl>(FD)) {
    Out += "~" + DD->getParent()->getName().str();
  } else if (const auto *Conv = dyn_cast<CXXConversionDecl>(FD)) {
    Out += "operator " + typeName(Conv->getConversionType());
  } else {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    FD->getDeclName().print(OS, Policy);
    Out += Name;
  }
  if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate()) {
    Out += templateParams(FTD->getTemplateParameters());
  } else if (const TemplateArgumentList *Args =
                 FD->getTemplateSpecializationArgs()) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    printTemplateArgumentList(OS, Args->asArray(), Policy);
    Out += S;
  }
  Out += "(";
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    if (I)
      Out += ", ";
    Out += typeName(FD->getParamDecl(I)->getOriginalType());
  }
  if (FD->isVariadic())
    Out += FD->getNumParams() ? ", ..." : "...";
  Out += ")";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->isConst())
      Out += " const";
    if (MD->isVolatile())
      Out += " volatile";
    if (MD->getRefQualifier() == RQ_LValue)
      Out += " &";
    else if (MD->getRefQualifier() == RQ_RValue)
      Out += " &&";
  }
  return Displays[FD] = Out;
}

std::string Collector::lambdaDisplay(const Candidate &C) {
  SourceLocation L = SM.getExpansionLoc(C.Lambda->getBeginLoc());
  std::string Prefix;
  const auto *Var = dyn_cast<ValueDecl>(C.LambdaContext);
  if (Var && !isa<FunctionDecl>(Var))
    Prefix = contextPrefix(Var->getDeclContext()) + Var->getName().str() + "::";
  else
    Prefix = contextPrefix(C.Lambda->getLambdaClass()->getDeclContext());
  return Prefix + "(lambda at " + record(C.File).Path + ":" +
         std::to_string(SM.getExpansionLineNumber(L)) + ":" +
         std::to_string(SM.getExpansionColumnNumber(L)) + ")";
}

std::string Collector::display(const Candidate &C) {
  if (!C.FixedDisplay.empty())
    return C.FixedDisplay;
  if (C.Kind == ElementKind::Declaration)
    return functionDisplay(cast<FunctionDecl>(C.Decl));
  if (C.Decl)
    return declDisplay(C.Decl);
  return C.Lambda ? lambdaDisplay(C) : functionDisplay(C.FD);
}

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

std::string Collector::usr(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(D, Buf))
    return std::string();
  return std::string(Buf.str());
}

/// The key body of the element \p D, else \p File and what names \p D.
std::string Collector::contextKeyBody(const Decl *D, llvm::StringRef File) {
  if (const auto *F = dyn_cast<FunctionDecl>(D)) {
    auto It = ByDecl.find(F->getCanonicalDecl());
    if (It != ByDecl.end())
      return keyBody(It->second);
  }
  std::string Name;
  if (!isa<TranslationUnitDecl>(D))
    Name = usr(D);
  if (Name.empty())
    if (const auto *ND = dyn_cast<NamedDecl>(D))
      Name = ND->getQualifiedNameAsString();
  return (File + ":" + Name).str();
}

std::string Collector::functionKeyBody(const FunctionDecl *FD,
                                       llvm::StringRef File) {
  std::string Mangled;
  if (!FD->isDependentContext() && !FD->isInvalidDecl())
    Mangled = Gen.getName(FD);
  if (!Mangled.empty())
    return FD->isExternallyVisible() && !FD->isMain()
               ? Mangled
               : (File + ":" + Mangled).str();
  std::string U = usr(FD);
  if (U.empty())
    U = functionDisplay(FD);
  return FD->isExternallyVisible() ? U : (File + ":" + U).str();
}

std::string Collector::keyBody(size_t I) {
  if (Keys[I])
    return *Keys[I];
  const Candidate &C = Candidates[I];
  const FunctionDecl *FD = C.FD;
  const std::string &File = record(C.File).Path;
  std::string Body;
  if (!C.FixedKey.empty()) {
    Body = C.FixedKey;
  } else if (C.Kind == ElementKind::Declaration) {
    Body = "decl:" + functionKeyBody(cast<FunctionDecl>(C.Decl), File);
  } else if (C.Decl) {
    Body = declKeyBody(C.Decl);
  } else if (C.Lambda) {
    Body = contextKeyBody(C.LambdaContext, File) + "::lambda#" +
           std::to_string(C.LambdaOrdinal);
  } else {
    std::string Mangled;
    if (!FD->isDependentContext() && !FD->isInvalidDecl())
      Mangled = Gen.getName(FD);
    const DeclContext *Parent = FD->getParentFunctionOrMethod();
    if (Mangled.empty() && Parent) {
      // A local class's USR carries a file offset; name it from its
      // enclosing function instead.
      std::string Prefix = contextPrefix(Parent);
      std::string Tail = DisplayOf[I];
      if (llvm::StringRef(Tail).starts_with(Prefix))
        Tail = Tail.substr(Prefix.size());
      Body = contextKeyBody(cast<Decl>(Parent), File) + "::" + Tail;
    } else if (!Mangled.empty()) {
      // Every program has its own main: keyed with its file, like a static
      // function, so that one test program's main is not another's.
      Body = FD->isExternallyVisible() && !FD->isMain() ? Mangled
                                                        : File + ":" + Mangled;
    } else {
      Body = functionKeyBody(FD, File);
    }
  }
  Keys[I] = Body;
  return Body;
}

} // namespace detail
} // namespace cpp
} // namespace tia
