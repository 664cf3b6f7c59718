//===- Model.cpp ----------------------------------------------------------===//

#include "tia/Support/Model.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <tuple>

namespace tia {

llvm::StringRef kindName(ElementKind K) {
  switch (K) {
  case ElementKind::Function:
    return "function";
  case ElementKind::Method:
    return "method";
  case ElementKind::Constructor:
    return "constructor";
  case ElementKind::Destructor:
    return "destructor";
  case ElementKind::Operator:
    return "operator";
  case ElementKind::Conversion:
    return "conversion";
  case ElementKind::Lambda:
    return "lambda";
  case ElementKind::FunctionTemplate:
    return "template";
  case ElementKind::Module:
    return "module";
  case ElementKind::Class:
    return "class";
  case ElementKind::Variable:
    return "variable";
  case ElementKind::Enum:
    return "enum";
  case ElementKind::Alias:
    return "alias";
  case ElementKind::Macro:
    return "macro";
  case ElementKind::Conditional:
    return "conditional";
  case ElementKind::Declaration:
    return "declaration";
  case ElementKind::Binding:
    return "binding";
  }
  return "function";
}

bool isFunctionKind(ElementKind K) {
  switch (K) {
  case ElementKind::Function:
  case ElementKind::Method:
  case ElementKind::Constructor:
  case ElementKind::Destructor:
  case ElementKind::Operator:
  case ElementKind::Conversion:
  case ElementKind::Lambda:
  case ElementKind::FunctionTemplate:
    return true;
  default:
    return false;
  }
}

llvm::StringRef referenceKindName(ReferenceKind K) {
  switch (K) {
  case ReferenceKind::Type:
    return "type";
  case ReferenceKind::Variable:
    return "variable";
  case ReferenceKind::Macro:
    return "macro";
  case ReferenceKind::Call:
    return "call";
  case ReferenceKind::Region:
    return "region";
  case ReferenceKind::Declares:
    return "declares";
  case ReferenceKind::Overrides:
    return "overrides";
  }
  return "type";
}

std::optional<ReferenceKind> parseReferenceKind(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ReferenceKind>>(Name)
      .Case("type", ReferenceKind::Type)
      .Case("variable", ReferenceKind::Variable)
      .Case("macro", ReferenceKind::Macro)
      .Case("call", ReferenceKind::Call)
      .Case("region", ReferenceKind::Region)
      .Case("declares", ReferenceKind::Declares)
      .Case("overrides", ReferenceKind::Overrides)
      .Default(std::nullopt);
}

bool Reference::operator<(const Reference &O) const {
  return std::tie(From, To, Kind) < std::tie(O.From, O.To, O.Kind);
}

bool Reference::operator==(const Reference &O) const {
  return From == O.From && To == O.To && Kind == O.Kind;
}

std::optional<ElementKind> parseKind(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ElementKind>>(Name)
      .Case("function", ElementKind::Function)
      .Case("method", ElementKind::Method)
      .Case("constructor", ElementKind::Constructor)
      .Case("destructor", ElementKind::Destructor)
      .Case("operator", ElementKind::Operator)
      .Case("conversion", ElementKind::Conversion)
      .Case("lambda", ElementKind::Lambda)
      .Case("template", ElementKind::FunctionTemplate)
      .Case("module", ElementKind::Module)
      .Case("class", ElementKind::Class)
      .Case("variable", ElementKind::Variable)
      .Case("enum", ElementKind::Enum)
      .Case("alias", ElementKind::Alias)
      .Case("macro", ElementKind::Macro)
      .Case("conditional", ElementKind::Conditional)
      .Case("declaration", ElementKind::Declaration)
      .Case("binding", ElementKind::Binding)
      .Default(std::nullopt);
}

void normalize(FileIndex &F) {
  for (Element &E : F.Elements) {
    std::sort(E.Names.begin(), E.Names.end());
    E.Names.erase(std::unique(E.Names.begin(), E.Names.end()), E.Names.end());
  }
  std::sort(F.Elements.begin(), F.Elements.end(),
            [](const Element &A, const Element &B) {
              return std::tie(A.BeginLine, A.EndLine, A.Key) <
                     std::tie(B.BeginLine, B.EndLine, B.Key);
            });
  std::sort(F.Tests.begin(), F.Tests.end(),
            [](const TestDefinition &A, const TestDefinition &B) {
              return std::tie(A.BeginLine, A.Framework, A.Name) <
                     std::tie(B.BeginLine, B.Framework, B.Name);
            });
  if (F.Python)
    std::sort(F.Python->Imports.begin(), F.Python->Imports.end(),
              [](const ImportRecord &A, const ImportRecord &B) {
                return std::tie(A.Line, A.Module, A.Name) <
                       std::tie(B.Line, B.Module, B.Name);
              });
  F.Tests.erase(
      std::unique(F.Tests.begin(), F.Tests.end(),
                  [](const TestDefinition &A, const TestDefinition &B) {
                    return A.Framework == B.Framework && A.Name == B.Name;
                  }),
      F.Tests.end());
  std::sort(F.References.begin(), F.References.end());
  F.References.erase(std::unique(F.References.begin(), F.References.end()),
                     F.References.end());
  std::sort(F.Includes.begin(), F.Includes.end(),
            [](const IncludeDirective &A, const IncludeDirective &B) {
              return std::tie(A.Line, A.Spelling) <
                     std::tie(B.Line, B.Spelling);
            });
}

llvm::StringRef testFramework(llvm::StringRef Id) {
  size_t Colon = Id.find(':');
  return Colon == llvm::StringRef::npos ? llvm::StringRef()
                                        : Id.take_front(Colon);
}

llvm::StringRef outcomeName(Outcome O) {
  switch (O) {
  case Outcome::Passed:
    return "passed";
  case Outcome::Failed:
    return "failed";
  case Outcome::Error:
    return "error";
  case Outcome::TimedOut:
    return "timed-out";
  case Outcome::Crashed:
    return "crashed";
  case Outcome::Skipped:
    return "skipped";
  }
  return "error";
}

std::optional<Outcome> parseOutcome(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Outcome>>(Name)
      .Case("passed", Outcome::Passed)
      .Case("failed", Outcome::Failed)
      .Case("error", Outcome::Error)
      .Case("timed-out", Outcome::TimedOut)
      .Case("crashed", Outcome::Crashed)
      .Case("skipped", Outcome::Skipped)
      .Default(std::nullopt);
}

bool isFailure(Outcome O) {
  return O == Outcome::Failed || O == Outcome::Error ||
         O == Outcome::TimedOut || O == Outcome::Crashed;
}

} // namespace tia
