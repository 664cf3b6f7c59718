//===- Bindings.cpp - the names extension modules bind for Python ---------===//
//
// Part of the Collector (Collector.h). A binding declaration makes a C or
// C++ callable visible to Python under a name: pybind11's and nanobind's
// .def family on a module or class, and the entries of CPython's
// PyMethodDef and PyGetSetDef tables. Each becomes an element of its own
// (ElementKind::Binding) spanning the call from the method's name to its
// closing parenthesis, or the table entry's braces: what the name runs
// (a function's address, a lambda) is referenced from there, the innermost
// element, and not from the function that registers the bindings. Static
// selection then reaches it through the Python name a test uses, not
// through the module's initialiser (lib/Select/CppStatic.cpp).
//
//===----------------------------------------------------------------------===//

#include "Collector.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSet.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

/// The outermost namespace \p D is declared in ("pybind11" for
/// pybind11::class_<T>::def); empty at global scope.
llvm::StringRef outermostNamespace(const Decl *D) {
  llvm::StringRef Name;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Name = NS->getName();
  return Name;
}

/// The methods of pybind11's and nanobind's module_, class_ and enum_ that
/// bind a name: the name is their first argument.
bool isBindingMethod(llvm::StringRef Library, llvm::StringRef Method) {
  static const llvm::StringSet<> Pybind11 = {"def",
                                             "def_static",
                                             "def_readwrite",
                                             "def_readonly",
                                             "def_readwrite_static",
                                             "def_readonly_static",
                                             "def_property",
                                             "def_property_readonly",
                                             "def_property_static",
                                             "def_property_readonly_static",
                                             "value"};
  static const llvm::StringSet<> Nanobind = {"def",
                                             "def_static",
                                             "def_rw",
                                             "def_ro",
                                             "def_rw_static",
                                             "def_ro_static",
                                             "def_prop_rw",
                                             "def_prop_ro",
                                             "def_prop_rw_static",
                                             "def_prop_ro_static",
                                             "value"};
  if (Library == "pybind11")
    return Pybind11.contains(Method);
  if (Library == "nanobind")
    return Nanobind.contains(Method);
  return false;
}

const StringLiteral *asStringLiteral(const Expr *E) {
  return E ? dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()) : nullptr;
}

/// The Python name of the class whose binding object \p Object is: the
/// string given to `py::class_<T>(m, "Name")`, through a chain of .def
/// calls or a variable it initialises. Empty when it cannot be told.
std::string classNameOf(const Expr *Object) {
  for (unsigned Depth = 0; Object && Depth < 64; ++Depth) {
    Object = Object->IgnoreImplicit()->IgnoreParens();
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Object)) {
      Object = Call->getImplicitObjectArgument();
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Object)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      Object = Var ? Var->getInit() : nullptr;
      continue;
    }
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Object)) {
      Object = Cast->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Object)) {
      if (Construct->getNumArgs() >= 2)
        if (const StringLiteral *S = asStringLiteral(Construct->getArg(1)))
          return S->getString().str();
      return "";
    }
    return "";
  }
  return "";
}

/// A constructor binding's argument: nanobind's `init<...>`, pybind11's
/// `init<...>()` (a detail::initimpl::constructor) and its factories.
bool isConstructor(const Expr *Arg) {
  QualType T = Arg->IgnoreImplicit()->getType();
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  const auto *Parent = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return RD->getName().starts_with("init") ||
         (Parent && Parent->getName() == "initimpl");
}

/// The Python name a binding call gives: its first argument's string; for
/// a constructor (`py::init<...>()`, `nb::init<...>()`) the class's name;
/// "*" when it cannot be told (an operator through `py::self`, a name
/// computed at run time): such a binding is reached by every test that
/// imports an extension.
std::string boundName(const CXXMemberCallExpr *Call) {
  if (Call->getNumArgs() == 0)
    return "*";
  if (const StringLiteral *S = asStringLiteral(Call->getArg(0)))
    return S->getString().str();
  if (isConstructor(Call->getArg(0))) {
    std::string Class = classNameOf(Call->getImplicitObjectArgument());
    if (!Class.empty())
      return Class;
  }
  return "*";
}

/// "PyMethodDef" for an entry of a CPython method table, "PyGetSetDef" for
/// an attribute table's; empty otherwise.
llvm::StringRef tableEntryType(const InitListExpr *E) {
  QualType T = E->getType();
  const RecordDecl *RD = T.isNull() ? nullptr : T->getAsRecordDecl();
  if (!RD || !RD->getIdentifier())
    return "";
  llvm::StringRef Name = RD->getName();
  if (Name == "PyMethodDef" || Name == "PyGetSetDef")
    return Name;
  return "";
}

} // namespace

void Collector::bindingCall(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method || !Method->getIdentifier())
    return;
  llvm::StringRef Library = outermostNamespace(Method);
  if (!isBindingMethod(Library, Method->getName()))
    return;
  const auto *Member = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
  if (!Member)
    return;
  std::string How = (Library + " " + Method->getName()).str();
  binding(Member->getMemberLoc(), Call->getRParenLoc(), boundName(Call), How);
}

void Collector::bindingTableEntry(const InitListExpr *Entry) {
  llvm::StringRef Type = tableEntryType(Entry);
  if (Type.empty() || Entry->getNumInits() < 2)
    return;
  const StringLiteral *Name = asStringLiteral(Entry->getInit(0));
  if (!Name)
    return; // the {NULL, NULL, 0, NULL} sentinel
  binding(Entry->getLBraceLoc(), Entry->getRBraceLoc(), Name->getString().str(),
          Type.str());
}

void Collector::binding(SourceLocation Begin, SourceLocation End,
                        const std::string &Name, const std::string &How) {
  // Written in a macro (the binding's text is not the file's): the
  // references stay with the function around it, which reaches them all.
  if (Begin.isInvalid() || End.isInvalid() || !Begin.isFileID() ||
      !End.isFileID())
    return;
  auto [FID, BeginOffset] = SM.getDecomposedLoc(Begin);
  auto [EndFID, EndToken] = SM.getDecomposedLoc(End);
  if (FID != EndFID || EndToken < BeginOffset || !record(FID).Project)
    return;
  // A template's instantiations and an initialiser list's two forms come
  // here more than once.
  if (!BindingsSeen.insert({FID, BeginOffset}).second)
    return;
  Candidate C;
  C.File = FID;
  C.BeginOffset = BeginOffset;
  C.EndOffset = tokenEnd(FID, EndToken, End);
  C.BeginLine = SM.getLineNumber(FID, BeginOffset);
  C.EndLine = SM.getLineNumber(FID, EndToken);
  C.Kind = ElementKind::Binding;
  C.FixedKey = record(FID).Path + ":binding:" + Name;
  C.FixedDisplay = "\"" + Name + "\" (" + How + " in " + record(FID).Path + ")";
  Candidates.push_back(std::move(C));
}

} // namespace detail
} // namespace cpp
} // namespace tia
