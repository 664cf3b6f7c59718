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
//===----------------------------------------------------------------------===//

#include "Collector.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(Collector &C) : C(C) {}

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
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    C.variable(VD);
    return true;
  }

  bool VisitTagDecl(TagDecl *TD) {
    C.tag(TD);
    const auto *RD = dyn_cast<CXXRecordDecl>(TD);
    if (RD && RD->isThisDeclarationADefinition() && RD->hasDefinition())
      for (const CXXBaseSpecifier &B : RD->bases())
        C.typeReferences(B.getBeginLoc(), B.getType(),
                         /*ThroughPointers=*/false, /*Layout=*/true);
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    C.typeReferences(FD->getLocation(), FD->getType(),
                     /*ThroughPointers=*/false, /*Layout=*/true);
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
    if (isa<FunctionDecl>(D))
      C.reference(E->getLocation(), D, ReferenceKind::Call);
    else if (isa<VarDecl>(D))
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
  Collector &C;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, const ProjectPaths &Paths, Extracted &Out,
           std::shared_ptr<PreprocessorRecord> PP)
      : CI(CI), Paths(Paths), Out(Out), PP(std::move(PP)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Collector C(CI, Paths);
    Visitor V(C);
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
