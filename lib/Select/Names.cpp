//===- Names.cpp - the names of fallbacks, scopes and rules ---------------===//
//
// The names that reports, JSON and explain print for a selection's
// fallback kinds, fallback scopes and rules.
//
//===----------------------------------------------------------------------===//

#include "tia/Select/Selection.h"

namespace tia {
namespace select {

llvm::StringRef fallbackName(FallbackKind K) {
  switch (K) {
  case FallbackKind::NonSourceFile:
    return "non-source-file";
  case FallbackKind::BinaryFile:
    return "binary-file";
  case FallbackKind::NotIndexed:
    return "not-indexed";
  case FallbackKind::Incomplete:
    return "incomplete";
  case FallbackKind::OutsideElements:
    return "outside-elements";
  case FallbackKind::CompileTime:
    return "compile-time";
  case FallbackKind::IncludeResolution:
    return "include-resolution";
  case FallbackKind::TriggerPath:
    return "trigger";
  case FallbackKind::StaleCoverage:
    return "stale-coverage";
  case FallbackKind::FullSuiteMarker:
    return "full-suite-marker";
  case FallbackKind::Requested:
    return "requested";
  case FallbackKind::NoCoverage:
    return "no-coverage";
  case FallbackKind::Registry:
    return "registry";
  case FallbackKind::DataFile:
    return "data-file";
  case FallbackKind::Boundary:
    return "boundary";
  }
  return "non-source-file";
}

llvm::StringRef scopeName(FallbackScope S) {
  switch (S) {
  case FallbackScope::All:
    return "all";
  case FallbackScope::Includers:
    return "includers";
  case FallbackScope::Readers:
    return "readers";
  }
  return "all";
}

llvm::StringRef ruleName(Rule R) {
  switch (R) {
  case Rule::Covers:
    return "covers";
  case Rule::SameName:
    return "same-name";
  case Rule::Override:
    return "override";
  case Rule::Declaration:
    return "declaration";
  case Rule::TypeUse:
    return "type-use";
  case Rule::VariableUse:
    return "variable-use";
  case Rule::Initializer:
    return "initializer";
  case Rule::MacroUse:
    return "macro-use";
  case Rule::MacroName:
    return "macro-name";
  case Rule::Region:
    return "region";
  case Rule::ConstexprCaller:
    return "constexpr-caller";
  case Rule::Fallback:
    return "fallback";
  case Rule::NameUse:
    return "name-use";
  case Rule::Reaches:
    return "reaches";
  case Rule::Reads:
    return "reads";
  case Rule::Boundary:
    return "boundary";
  }
  return "covers";
}

} // namespace select
} // namespace tia
