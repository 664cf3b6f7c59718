//===- CaseFilters.cpp - running chosen cases of a C++ test binary --------===//

#include "tia/Support/CaseFilters.h"
#include "llvm/ADT/StringExtras.h"

namespace tia {

llvm::StringRef caseFrameworkName(CaseFramework F) {
  switch (F) {
  case CaseFramework::GTest:
    return "gtest";
  case CaseFramework::Catch2:
    return "catch2";
  case CaseFramework::Doctest:
    return "doctest";
  case CaseFramework::Boost:
    return "boost";
  }
  return "gtest";
}

std::optional<CaseFramework> caseFrameworkOfId(llvm::StringRef Id) {
  for (CaseFramework F : {CaseFramework::GTest, CaseFramework::Catch2,
                          CaseFramework::Doctest, CaseFramework::Boost})
    if (Id.starts_with((caseFrameworkName(F) + ":").str()))
      return F;
  return std::nullopt;
}

std::optional<CaseId> parseCaseId(llvm::StringRef Id) {
  std::optional<CaseFramework> F = caseFrameworkOfId(Id);
  if (!F)
    return std::nullopt;
  Id = Id.drop_front(caseFrameworkName(*F).size() + 1);
  auto [Binary, Name] = Id.split(':');
  if (Binary.empty() || Name.empty())
    return std::nullopt;
  return CaseId{*F, Binary.str(), Name.str()};
}

std::string catch2Escape(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    if (llvm::StringRef("\\,[]\"~*").contains(C))
      Out += '\\';
    Out += C;
  }
  return Out;
}

llvm::StringRef doctestTemplateName(llvm::StringRef Full) {
  // doctest names a template instance "name<type>".
  size_t Open = Full.find('<');
  if (Open == llvm::StringRef::npos || Open == 0 || !Full.ends_with(">"))
    return Full;
  return Full.take_front(Open);
}

std::string doctestEscape(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    if (C == ',' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

llvm::StringRef boostDefinitionName(llvm::StringRef Full) {
  // A data test case is a suite of samples "_0", "_1", ...
  auto [Parent, Last] = Full.rsplit('/');
  if (!Last.empty() && Last.size() > 1 && Last[0] == '_' &&
      Last.drop_front().find_first_not_of("0123456789") == Last.npos)
    return Parent;
  // A template case's instances are "name<type>".
  size_t Slash = Full.rfind('/');
  size_t Open = Full.find('<', Slash == Full.npos ? 0 : Slash + 1);
  if (Open == Full.npos || Open == 0 || Full[Open - 1] == '/' ||
      !Full.ends_with(">"))
    return Full;
  return Full.take_front(Open);
}

namespace {
/// Boost's list of filters, each one prefixed with \p Prefix ("!" to
/// exclude).
std::string boostList(llvm::ArrayRef<std::string> Cases,
                      llvm::StringRef Prefix) {
  std::string Out = "--run_test=";
  for (size_t I = 0; I < Cases.size(); ++I)
    Out += (I ? ":" : "") + Prefix.str() + Cases[I];
  return Out;
}

std::string doctestList(llvm::ArrayRef<std::string> Cases) {
  std::vector<std::string> Escaped;
  for (const std::string &C : Cases)
    Escaped.push_back(doctestEscape(C));
  return llvm::join(Escaped, ",");
}
} // namespace

std::vector<std::string>
caseFilterArguments(CaseFramework F, llvm::ArrayRef<std::string> Cases) {
  if (F == CaseFramework::GTest)
    return {"--gtest_filter=" +
            (Cases.empty() ? std::string("-*") : llvm::join(Cases, ":"))};
  if (F == CaseFramework::Doctest)
    return {Cases.empty() ? std::string("--test-case-exclude=*")
                          : "--test-case=" + doctestList(Cases)};
  if (F == CaseFramework::Boost)
    return {Cases.empty() ? std::string("--run_test=!*")
                          : boostList(Cases, "")};
  if (Cases.empty())
    return {"~*"};
  std::vector<std::string> Escaped;
  for (const std::string &C : Cases)
    Escaped.push_back(catch2Escape(C));
  return {llvm::join(Escaped, ",")};
}

std::vector<std::string>
caseExclusionArguments(CaseFramework F, llvm::ArrayRef<std::string> Cases) {
  if (Cases.empty())
    return {};
  if (F == CaseFramework::GTest)
    return {"--gtest_filter=-" + llvm::join(Cases, ":")};
  if (F == CaseFramework::Doctest)
    return {"--test-case-exclude=" + doctestList(Cases)};
  if (F == CaseFramework::Boost)
    return {boostList(Cases, "!")};
  std::vector<std::string> Out;
  for (const std::string &C : Cases)
    Out.push_back("~" + catch2Escape(C));
  // An exclusion alone lets Catch2 2.x run hidden ("[.]") cases too.
  Out.push_back("~[.]");
  return Out;
}

} // namespace tia
