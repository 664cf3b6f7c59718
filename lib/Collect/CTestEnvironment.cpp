//===- CTestEnvironment.cpp - a ctest test's environment ------------------===//

#include "CTestEnvironment.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

namespace tia {
namespace collect {

namespace {

/// \p Value joined after (or before) \p Current with \p Separator, which
/// an empty \p Current goes without.
std::string joined(const std::string &Current, llvm::StringRef Value,
                   llvm::StringRef Separator, bool Append) {
  if (Current.empty())
    return Value.str();
  return Append ? Current + Separator.str() + Value.str()
                : Value.str() + Separator.str() + Current;
}

} // namespace

std::optional<std::string> valueIn(const std::vector<std::string> &Environment,
                                   llvm::StringRef Name,
                                   std::optional<std::string> Outer) {
  for (llvm::StringRef Entry : Environment)
    if (Entry == Name)
      Outer.reset();
    else if (Entry.consume_front(Name) && Entry.consume_front("="))
      Outer = Entry.str();
  return Outer;
}

llvm::Expected<std::vector<std::string>>
modifiedEnvironment(const std::vector<std::string> &Modifications,
                    EnvironmentLookup Before) {
  // Each variable's value so far; none: unset. A variable missing here is
  // as before the modifications.
  std::map<std::string, std::optional<std::string>> Now;
  std::vector<std::string> Order;
  auto Current = [&](const std::string &Name) {
    auto It = Now.find(Name);
    if (It != Now.end() && It->second)
      return *It->second;
    // ctest 3.22 to 4.3 read an unset variable's value afresh, as before.
    return Before(Name).value_or("");
  };
  for (const std::string &Entry : Modifications) {
    if (!llvm::StringRef(Entry).contains('='))
      return makeErrorf("'{0}': no '=' after the variable's name", Entry);
    auto [Name, OpValue] = llvm::StringRef(Entry).split('=');
    if (!OpValue.contains(':'))
      return makeErrorf("'{0}': no ':' after the operation", Entry);
    if (Name.empty())
      continue; // ctest's setenv("") fails, and it goes on
    auto [Op, Value] = OpValue.split(':');
    std::string N = Name.str();
    if (!llvm::is_contained(Order, N))
      Order.push_back(N);
    if (Op == "reset")
      Now.erase(N);
    else if (Op == "set")
      Now[N] = Value.str();
    else if (Op == "unset")
      Now[N] = std::nullopt;
    else if (Op == "string_append" || Op == "string_prepend")
      Now[N] = Op == "string_append" ? Current(N) + Value.str()
                                     : Value.str() + Current(N);
    else if (Op == "path_list_append" || Op == "path_list_prepend")
      Now[N] = joined(Current(N), Value, ":", Op == "path_list_append");
    else if (Op == "cmake_list_append" || Op == "cmake_list_prepend")
      Now[N] = joined(Current(N), Value, ";", Op == "cmake_list_append");
    else
      return makeErrorf("'{0}': unknown operation '{1}'", Entry, Op);
  }
  std::vector<std::string> Out;
  for (const std::string &Name : Order) {
    auto It = Now.find(Name);
    if (It == Now.end())
      continue; // reset: as before
    Out.push_back(It->second ? Name + "=" + *It->second : Name);
  }
  return Out;
}

} // namespace collect
} // namespace tia
