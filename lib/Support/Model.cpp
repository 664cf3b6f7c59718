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
  }
  return "function";
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
  F.Tests.erase(std::unique(F.Tests.begin(), F.Tests.end(),
                            [](const TestDefinition &A,
                               const TestDefinition &B) {
                              return A.Framework == B.Framework &&
                                     A.Name == B.Name;
                            }),
                F.Tests.end());
}

llvm::StringRef testFramework(llvm::StringRef Id) {
  size_t Colon = Id.find(':');
  return Colon == llvm::StringRef::npos ? llvm::StringRef() : Id.take_front(Colon);
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
