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
}

} // namespace tia
