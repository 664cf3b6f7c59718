//===- Declarations.cpp - elements that are not functions, and references -===//
//
// Variables (namespace scope and static data members), classes, enums and
// aliases become elements of their own, so that a change to them reaches
// tests through the functions that reference them instead of selecting
// everything. What a class holds (fields, nested types, enumerators,
// member typedefs) belongs to the outermost class at namespace scope;
// static data members and the declarations of member functions that do not
// shape the class are elements of their own.
//
// Keys (docs/Formats.md):
//  - variables: "cpp:" + the mangled name, with the file in front when not
//    externally visible (like functions); the USR when dependent;
//  - classes, enums, aliases: "cpp:" + the USR when externally visible,
//    else "cpp:" + file + ":" + the qualified name;
//  - declarations: "cpp:decl:" + the key body of the function declared.
//
//===----------------------------------------------------------------------===//

#include "Collector.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

/// True for a variable that lives as long as the program and is not local
/// to a function: namespace-scope variables and static data members.
bool isGlobalVariable(const VarDecl *VD) {
  return VD->hasGlobalStorage() && !VD->isStaticLocal() &&
         !VD->getParentFunctionOrMethod() && !isa<ParmVarDecl>(VD);
}

bool inRecord(const Decl *D) { return isa<RecordDecl>(D->getDeclContext()); }

} // namespace

void Collector::variable(const VarDecl *VD) {
  if (VD->isImplicit() || !isGlobalVariable(VD) ||
      isInstantiation(VD->getTemplateSpecializationKind()) ||
      inInstantiatedContext(VD->getDeclContext()))
    return;
  Candidate C;
  if (!range(VD, nullptr, C) || !record(C.File).Project)
    return;
  C.Decl = VD;
  C.Kind = ElementKind::Variable;
  C.CompileTime = VD->isConstexpr();
  C.BodyOffset = C.EndOffset;
  // A dynamic initialiser runs in the translation unit's initialisation
  // function, the name gcov reports for it (clang's coverage skips it).
  if (VD->isThisDeclarationADefinition() && VD->hasInit() &&
      !VD->getType()->isDependentType() && !VD->hasConstantInitialization())
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      C.Names.push_back(
          ("_GLOBAL__sub_I_" + llvm::sys::path::filename(Main->getName()))
              .str());
  Candidates.push_back(std::move(C));
}

void Collector::tag(const TagDecl *TD) {
  if (!TD->isThisDeclarationADefinition() || TD->isImplicit() ||
      TD->getParentFunctionOrMethod() || inRecord(TD) ||
      inInstantiatedContext(TD->getDeclContext()))
    return;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(TD)) {
    if (RD->isLambda())
      return;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (isInstantiation(Spec->getSpecializationKind()))
        return;
  }
  Candidate C;
  if (!range(TD, nullptr, C) || !record(C.File).Project)
    return;
  C.Decl = TD;
  C.Kind = isa<EnumDecl>(TD) ? ElementKind::Enum : ElementKind::Class;
  C.BodyOffset = C.EndOffset;
  ByOtherDecl[TD->getCanonicalDecl()] = Candidates.size();
  Candidates.push_back(std::move(C));
}

void Collector::alias(const TypedefNameDecl *TD) {
  if (TD->isImplicit() || TD->getParentFunctionOrMethod() || inRecord(TD) ||
      inInstantiatedContext(TD->getDeclContext()))
    return;
  Candidate C;
  if (!range(TD, nullptr, C) || !record(C.File).Project)
    return;
  C.Decl = TD;
  C.Kind = ElementKind::Alias;
  C.BodyOffset = C.EndOffset;
  Candidates.push_back(std::move(C));
}

/// The special members a class gets from the compiler (or "= default")
/// have no element of their own; coverage that reaches them reaches the
/// class, whose fields and initialisers they run.
void Collector::implicitMemberNames() {
  for (Candidate &C : Candidates) {
    const auto *RD = dyn_cast_or_null<CXXRecordDecl>(C.Decl);
    if (!RD || C.Kind != ElementKind::Class)
      continue;
    for (const CXXMethodDecl *MD : RD->methods())
      if ((MD->isImplicit() || MD->isDefaulted()) && MD->isDefined())
        for (std::string &N : names(MD))
          C.Names.push_back(std::move(N));
  }
}

std::string Collector::declDisplay(const NamedDecl *D) {
  std::string Prefix = contextPrefix(D->getDeclContext());
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    return Prefix + recordName(RD);
  std::string Name = D->getName().str();
  if (Name.empty()) {
    if (const auto *TD = dyn_cast<TagDecl>(D)) {
      if (const TypedefNameDecl *TN = TD->getTypedefNameForAnonDecl())
        Name = TN->getName().str();
      else
        Name = (llvm::Twine("(anonymous ") + TD->getKindName() + ")").str();
    }
  }
  return Prefix + Name;
}

std::string Collector::projectFileOf(const Decl *D) {
  SourceLocation L = D->getLocation();
  if (L.isInvalid())
    return std::string();
  FileID FID = SM.getFileID(SM.getExpansionLoc(L));
  const FileRecord &R = record(FID);
  return R.Project ? R.Path : std::string();
}

std::string Collector::declKeyBody(const Decl *D) {
  // What a class holds belongs to the outermost class, except its static
  // data members.
  const Decl *Holder = D;
  const auto *VD = dyn_cast<VarDecl>(Holder);
  if (!VD || !VD->isStaticDataMember())
    while (const auto *Parent =
               dyn_cast<RecordDecl>(Holder->getDeclContext())) {
      if (const auto *CRD = dyn_cast<CXXRecordDecl>(Parent))
        if (CRD->isLambda())
          return std::string();
      Holder = Parent;
    }
  if (Holder->getParentFunctionOrMethod())
    return std::string();

  // Instantiations are their pattern.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Holder)) {
    if (isInstantiation(Spec->getSpecializationKind())) {
      auto From = Spec->getSpecializedTemplateOrPartial();
      if (auto *CTD = From.dyn_cast<ClassTemplateDecl *>())
        Holder = CTD->getTemplatedDecl();
      else if (auto *Partial =
                   From.dyn_cast<ClassTemplatePartialSpecializationDecl *>())
        Holder = Partial;
    }
  } else if (const auto *V = dyn_cast<VarDecl>(Holder)) {
    if (const VarDecl *From = V->getInstantiatedFromStaticDataMember())
      Holder = From;
    else if (const VarDecl *Pattern = V->getTemplateInstantiationPattern())
      Holder = Pattern;
  }

  std::string File = projectFileOf(Holder);
  if (File.empty())
    return std::string();
  const auto *ND = dyn_cast<NamedDecl>(Holder);
  if (!ND)
    return std::string();
  if (const auto *V = dyn_cast<VarDecl>(ND)) {
    std::string Mangled;
    if (!V->getDeclContext()->isDependentContext() && !V->isInvalidDecl() &&
        !V->getDescribedVarTemplate())
      Mangled = Gen.getName(V);
    if (!Mangled.empty())
      return V->isExternallyVisible() ? Mangled : File + ":" + Mangled;
  }
  if (ND->isExternallyVisible()) {
    std::string U = usr(ND);
    if (!U.empty())
      return U;
  }
  return File + ":" + declDisplay(ND);
}

std::string Collector::targetKey(const Decl *Target) {
  if (!Target)
    return std::string();
  if (const auto *FD = dyn_cast<FunctionDecl>(Target)) {
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
      FD = Pattern;
    else if (const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate())
      FD = Primary->getTemplatedDecl();
    if (FD->getParentFunctionOrMethod())
      return std::string();
    std::string File = projectFileOf(FD);
    if (File.empty())
      return std::string();
    auto It = ByDecl.find(FD->getCanonicalDecl());
    if (It != ByDecl.end())
      return "cpp:" + keyBody(It->second);
    if (const FunctionDecl *Def = FD->getDefinition()) {
      It = ByDecl.find(Def->getCanonicalDecl());
      if (It != ByDecl.end())
        return "cpp:" + keyBody(It->second);
    }
    return "cpp:" + functionKeyBody(FD, File);
  }
  const Decl *D = Target;
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(D))
    D = cast<Decl>(ECD->getDeclContext());
  else if (const auto *FD = dyn_cast<FieldDecl>(D))
    D = FD->getParent();
  else if (const auto *IFD = dyn_cast<IndirectFieldDecl>(D))
    D = cast<Decl>(IFD->getDeclContext());
  else if (const auto *TD = dyn_cast<TemplateDecl>(D))
    D = TD->getTemplatedDecl();
  if (!D)
    return std::string();
  if (const auto *VD = dyn_cast<VarDecl>(D))
    if (!isGlobalVariable(VD))
      return std::string();
  if (!isa<VarDecl>(D) && !isa<TagDecl>(D) && !isa<TypedefNameDecl>(D))
    return std::string();
  std::string Body = declKeyBody(D);
  return Body.empty() ? std::string() : "cpp:" + Body;
}

void Collector::reference(SourceLocation Loc, const Decl *Target,
                          ReferenceKind Kind, bool Layout) {
  if (Loc.isInvalid() || !Target)
    return;
  auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  if (FID.isInvalid() || !record(FID).Project)
    return;
  // The members the compiler writes (and "= default" ones) run the class's
  // field initialisers: using them is using the class.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Target))
    if (MD->isImplicit() || MD->isDefaulted()) {
      Target = MD->getParent();
      Kind = ReferenceKind::Type;
    }
  RawReference R;
  R.File = FID;
  R.Offset = Offset;
  R.Target = Target;
  R.Kind = Kind;
  R.Layout = Layout;
  Refs.push_back(std::move(R));
}

void Collector::typeReferences(SourceLocation Loc, QualType T,
                               bool ThroughPointers, bool Layout) {
  // Types nest (templates of templates); a small bound keeps pathological
  // ones cheap, and what it cuts off is still named where it is spelt.
  std::vector<std::pair<QualType, unsigned>> Work{{T, 0}};
  while (!Work.empty()) {
    auto [Q, Depth] = Work.back();
    Work.pop_back();
    if (Q.isNull() || Depth > 8)
      continue;
    if (const auto *TT = Q->getAs<TypedefType>())
      reference(Loc, TT->getDecl(), ReferenceKind::Type, Layout);
    const Type *C = Q.getCanonicalType().getTypePtr();
    if (C->isPointerType() || C->isReferenceType() ||
        C->isMemberPointerType()) {
      if (ThroughPointers)
        Work.push_back({C->getPointeeType(), Depth + 1});
      continue;
    }
    if (const auto *AT = dyn_cast<ArrayType>(C)) {
      Work.push_back({AT->getElementType(), Depth + 1});
      continue;
    }
    if (const auto *FT = dyn_cast<FunctionProtoType>(C)) {
      if (ThroughPointers) {
        Work.push_back({FT->getReturnType(), Depth + 1});
        for (QualType P : FT->param_types())
          Work.push_back({P, Depth + 1});
      }
      continue;
    }
    if (const auto *ET = dyn_cast<EnumType>(C)) {
      reference(Loc, ET->getDecl(), ReferenceKind::Type, Layout);
      continue;
    }
    const auto *RT = dyn_cast<RecordType>(C);
    if (!RT)
      continue;
    const RecordDecl *RD = RT->getDecl();
    reference(Loc, RD, ReferenceKind::Type, Layout);
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
    if (!Spec)
      continue;
    // An explicit specialisation for these arguments, added later, would
    // take this use: name it too.
    auto IsProjectArgument = [&](const TemplateArgument &A) {
      if (A.getKind() != TemplateArgument::Type)
        return false;
      QualType AT = A.getAsType().getCanonicalType();
      while (AT->isPointerType() || AT->isReferenceType())
        AT = AT->getPointeeType().getCanonicalType();
      const TagDecl *TD = AT->getAsTagDecl();
      return TD && !projectFileOf(TD).empty();
    };
    if (isInstantiation(Spec->getSpecializationKind()) &&
        Spec->isExternallyVisible() &&
        (!projectFileOf(Spec).empty() ||
         llvm::any_of(Spec->getTemplateArgs().asArray(), IsProjectArgument))) {
      std::string U = usr(Spec);
      auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
      if (!U.empty() && FID.isValid() && record(FID).Project) {
        RawReference R;
        R.File = FID;
        R.Offset = Offset;
        R.FixedTo = "cpp:" + U;
        R.Kind = ReferenceKind::Type;
        R.Layout = Layout;
        Refs.push_back(std::move(R));
      }
    }
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        Work.push_back({A.getAsType(), Depth + 1});
  }
}

} // namespace detail
} // namespace cpp
} // namespace tia
