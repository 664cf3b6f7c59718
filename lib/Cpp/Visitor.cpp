//===- Visitor.cpp - the AST walk, its consumer and the action ------------===//
//
// One RecursiveASTVisitor pass over the translation unit (template
// instantiations included, so that what an instantiation uses is charged
// to the template it came from) feeds the Collector: the declarations that
// become elements, and the references of the code: the variables,
// enumerators and functions named (DeclRefExpr), the members accessed
// (MemberExpr), the constructors run, the types spelt (TypeLoc) and the
// class and enum types of every expression's value, which catches a use by
// value that never names its type.
//
// For the reference graph of static selection (docs/Safety.md) it also
// records: the methods each virtual method overrides (Overrides), the
// destructor of each class (from the class element: whoever uses the class
// may destroy one), the destructors and allocation functions a new or
// delete expression runs, and the project functions a call into a system
// header's template instantiation reaches (std::make_unique<W> running W's
// constructor): those are charged to the call site.
//
//===----------------------------------------------------------------------===//

#include "Collector.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

/// What a call into a template instantiation of a system header reaches of
/// the project: the project functions its body (and the bodies of the
/// system instantiations it calls, a few levels deep) calls or constructs.
class SystemReach : public RecursiveASTVisitor<SystemReach> {
public:
  SystemReach(SourceManager &SM, std::vector<const Decl *> &Out,
              llvm::DenseSet<const FunctionDecl *> &Seen, unsigned Depth)
      : SM(SM), Out(Out), Seen(Seen), Depth(Depth) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  /// Scans \p FD's body when it is a system instantiation not seen yet.
  void scan(const FunctionDecl *FD) {
    if (!FD || Depth > 6 || Seen.size() > 2000)
      return;
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->hasBody() || !Seen.insert(Def).second)
      return;
    if (!inSystem(Def) || !isInstantiated(Def))
      return;
    SystemReach Inner(SM, Out, Seen, Depth + 1);
    Inner.TraverseStmt(Def->getBody());
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        Inner.TraverseStmt(Init->getInit());
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      target(FD);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      target(FD);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    target(E->getConstructor());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    QualType T = E->getDestroyedType();
    if (const CXXRecordDecl *RD =
            T.isNull() ? nullptr : T->getAsCXXRecordDecl())
      if (RD->hasDefinition())
        target(RD->getDestructor());
    return true;
  }

private:
  bool inSystem(const Decl *D) const {
    SourceLocation L = D->getLocation();
    return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L));
  }
  void target(const FunctionDecl *FD) {
    if (!FD)
      return;
    if (inSystem(FD))
      scan(FD);
    else
      Out.push_back(FD);
  }

  SourceManager &SM;
  std::vector<const Decl *> &Out;
  llvm::DenseSet<const FunctionDecl *> &Seen;
  unsigned Depth;
};

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(Collector &C, SourceManager &SM) : C(C), SM(SM) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && C.skip(D))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool TraverseVarDecl(VarDecl *D) {
    C.Initializing.push_back(D);
    bool Ok = RecursiveASTVisitor::TraverseVarDecl(D);
    C.Initializing.pop_back();
    return Ok;
  }

  bool TraverseFieldDecl(FieldDecl *D) {
    C.Initializing.push_back(D);
    bool Ok = RecursiveASTVisitor::TraverseFieldDecl(D);
    C.Initializing.pop_back();
    return Ok;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    C.function(FD, nullptr);
    // A call of an overridden method may run this one.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (MD->isVirtual() && MD->isThisDeclarationADefinition())
        for (const CXXMethodDecl *Base : MD->overridden_methods())
          C.reference(MD->getLocation(), Base, ReferenceKind::Overrides);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    C.variable(VD);
    return true;
  }

  bool VisitTagDecl(TagDecl *TD) {
    C.tag(TD);
    const auto *RD = dyn_cast<CXXRecordDecl>(TD);
    if (RD && RD->isThisDeclarationADefinition() && RD->hasDefinition()) {
      for (const CXXBaseSpecifier &B : RD->bases()) {
        C.typeReferences(B.getBeginLoc(), B.getType(),
                         /*ThroughPointers=*/false, /*Layout=*/true);
        implicitConstructors(B.getBeginLoc(), B.getType());
      }
      // Whoever makes or holds a value of the class may destroy it: the
      // class reaches its destructor (the graph reaches the class through
      // every use of its type).
      const CXXDestructorDecl *Dtor = RD->getDestructor();
      if (Dtor && Dtor->isUserProvided())
        C.reference(RD->getLocation(), Dtor, ReferenceKind::Call);
    }
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    C.typeReferences(FD->getLocation(), FD->getType(),
                     /*ThroughPointers=*/false, /*Layout=*/true);
    implicitConstructors(FD->getLocation(), FD->getType());
    return true;
  }

  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    C.alias(TD);
    return true;
  }

  bool VisitNamespaceDecl(NamespaceDecl *D) {
    C.brackets(D->getBeginLoc(), D->getRBraceLoc());
    return true;
  }

  bool VisitLinkageSpecDecl(LinkageSpecDecl *D) {
    if (D->hasBraces())
      C.brackets(D->getBeginLoc(), D->getRBraceLoc());
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr *LE) {
    C.function(LE->getCallOperator(), LE);
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
    C.bindingCall(E);
    return true;
  }

  bool VisitInitListExpr(InitListExpr *E) {
    C.bindingTableEntry(E);
    return true;
  }

  // --- References ---

  bool VisitTypeLoc(TypeLoc TL) {
    SourceLocation Loc = TL.getBeginLoc();
    const Type *T = TL.getTypePtr();
    if (const auto *TT = dyn_cast<TypedefType>(T))
      C.reference(Loc, TT->getDecl(), ReferenceKind::Type);
    else if (const auto *Tag = dyn_cast<TagType>(T))
      C.reference(Loc, Tag->getDecl(), ReferenceKind::Type);
    else if (const auto *Inj = dyn_cast<InjectedClassNameType>(T))
      C.reference(Loc, Inj->getDecl(), ReferenceKind::Type);
    else if (const auto *TS = dyn_cast<TemplateSpecializationType>(T)) {
      if (const TemplateDecl *TD = TS->getTemplateName().getAsTemplateDecl())
        C.reference(Loc, TD, ReferenceKind::Type);
      if (!TS->isDependentType())
        C.typeReferences(Loc, QualType(TS, 0), /*ThroughPointers=*/false);
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      C.reference(E->getLocation(), D, ReferenceKind::Call);
      throughSystem(E->getLocation(), FD);
    } else if (isa<VarDecl>(D))
      C.reference(E->getLocation(), D, ReferenceKind::Variable);
    else if (isa<EnumConstantDecl>(D))
      C.reference(E->getLocation(), D, ReferenceKind::Type);
    return true;
  }

  bool VisitMemberExpr(MemberExpr *E) {
    const ValueDecl *D = E->getMemberDecl();
    SourceLocation Loc = E->getMemberLoc();
    if (Loc.isInvalid())
      Loc = E->getBeginLoc();
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      C.reference(Loc, MD, ReferenceKind::Call);
      throughSystem(Loc, MD);
      // A virtual call goes through the class's vtable.
      if (MD->isVirtual())
        C.reference(Loc, MD->getParent(), ReferenceKind::Type);
    } else if (isa<VarDecl>(D)) {
      C.reference(Loc, D, ReferenceKind::Variable);
    } else {
      C.reference(Loc, D, ReferenceKind::Type); // a field: its class
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    C.reference(E->getBeginLoc(), E->getConstructor(), ReferenceKind::Call);
    throughSystem(E->getBeginLoc(), E->getConstructor());
    return true;
  }

  bool VisitCXXNewExpr(CXXNewExpr *E) {
    if (const FunctionDecl *New = E->getOperatorNew())
      if (!New->isImplicit())
        C.reference(E->getBeginLoc(), New, ReferenceKind::Call);
    return true;
  }

  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    if (const FunctionDecl *Delete = E->getOperatorDelete())
      if (!Delete->isImplicit())
        C.reference(E->getBeginLoc(), Delete, ReferenceKind::Call);
    QualType T = E->getDestroyedType();
    if (const CXXRecordDecl *RD =
            T.isNull() ? nullptr : T->getAsCXXRecordDecl())
      if (RD->hasDefinition())
        if (const CXXDestructorDecl *Dtor = RD->getDestructor())
          C.reference(E->getBeginLoc(), Dtor, ReferenceKind::Call);
    return true;
  }

  bool VisitExpr(Expr *E) {
    QualType T = E->getType();
    if (T.isNull() || T->isDependentType())
      return true;
    const Type *Canon = T.getCanonicalType().getTypePtr();
    if (!isa<RecordType>(Canon) && !isa<EnumType>(Canon) &&
        !isa<ArrayType>(Canon))
      return true;
    SourceLocation Loc = E->getExprLoc();
    if (Loc.isInvalid())
      Loc = E->getBeginLoc();
    C.typeReferences(Loc, T, /*ThroughPointers=*/false);
    return true;
  }

private:
  /// A base or field of class type: the class's implicit (or defaulted)
  /// constructors run its user-provided default, copy and move
  /// constructors, so the class reaches them.
  void implicitConstructors(SourceLocation Loc, QualType T) {
    if (T.isNull() || T->isDependentType())
      return;
    T = T.getCanonicalType();
    while (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
      T = AT->getElementType().getCanonicalType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition())
      return;
    for (const CXXConstructorDecl *Ctor : RD->getDefinition()->ctors())
      if (Ctor->isUserProvided() &&
          (Ctor->isDefaultConstructor() || Ctor->isCopyOrMoveConstructor()))
        C.reference(Loc, Ctor, ReferenceKind::Call);
  }

  /// A call into a system header's template instantiation: charges what
  /// it reaches of the project to the call site.
  void throughSystem(SourceLocation Loc, const FunctionDecl *FD) {
    if (!FD || Loc.isInvalid())
      return;
    SourceLocation L = FD->getLocation();
    if (L.isInvalid() || !SM.isInSystemHeader(SM.getExpansionLoc(L)) ||
        !isInstantiated(FD))
      return;
    auto [It, New] = Reached.try_emplace(FD->getCanonicalDecl());
    if (New) {
      llvm::DenseSet<const FunctionDecl *> Seen;
      SystemReach(SM, It->second, Seen, 0).scan(FD);
    }
    for (const Decl *D : It->second)
      C.reference(Loc, D, ReferenceKind::Call);
  }

  Collector &C;
  SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, std::vector<const Decl *>> Reached;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, const ProjectPaths &Paths, Extracted &Out,
           std::shared_ptr<PreprocessorRecord> PP)
      : CI(CI), Paths(Paths), Out(Out), PP(std::move(PP)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Collector C(CI, Paths);
    Visitor V(C, CI.getSourceManager());
    V.TraverseAST(Ctx);
    C.finish(*PP, Out);
  }

private:
  CompilerInstance &CI;
  const ProjectPaths &Paths;
  Extracted &Out;
  std::shared_ptr<PreprocessorRecord> PP;
};

} // namespace

std::unique_ptr<ASTConsumer>
ExtractAction::CreateASTConsumer(CompilerInstance &CI, llvm::StringRef InFile) {
  auto PP = std::make_shared<PreprocessorRecord>();
  CI.getPreprocessor().addPPCallbacks(
      makePreprocessorRecorder(CI.getSourceManager(), PP));
  return std::make_unique<Consumer>(CI, Paths, Out, std::move(PP));
}

} // namespace detail
} // namespace cpp
} // namespace tia
