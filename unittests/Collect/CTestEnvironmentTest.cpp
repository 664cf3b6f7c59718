//===- CTestEnvironmentTest.cpp - ctest's ENVIRONMENT_MODIFICATION --------===//

#include "CTestEnvironment.h"
#include "gtest/gtest.h"
#include <map>

using namespace tia;
using namespace tia::collect;

namespace {

using Strings = std::vector<std::string>;

/// The entries \p Mods leave over the variables in \p Before.
Strings modified(const Strings &Mods,
                 const std::map<std::string, std::string> &Before = {}) {
  auto Out = modifiedEnvironment(
      Mods, [&](llvm::StringRef Name) -> std::optional<std::string> {
        auto It = Before.find(Name.str());
        if (It == Before.end())
          return std::nullopt;
        return It->second;
      });
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return {};
  }
  return *Out;
}

std::string refusal(const Strings &Mods) {
  auto Out = modifiedEnvironment(
      Mods, [](llvm::StringRef) -> std::optional<std::string> {
        return std::nullopt;
      });
  return Out ? "" : llvm::toString(Out.takeError());
}

TEST(CTestEnvironmentTest, PathListsJoinWithColonsAndCMakeListsWithSemicolons) {
  EXPECT_EQ(modified({"PATH=path_list_prepend:/b/bin",
                      "PYTHONPATH=path_list_append:/b/py",
                      "L=cmake_list_append:x", "L=cmake_list_prepend:w"},
                     {{"PATH", "/usr/bin"}}),
            (Strings{"PATH=/b/bin:/usr/bin", "PYTHONPATH=/b/py", "L=w;x"}));
}

TEST(CTestEnvironmentTest, AListStartsWithoutSeparatorWhenEmptyOrUnset) {
  EXPECT_EQ(modified({"P=path_list_prepend:/a", "E=path_list_append:/b"},
                     {{"E", ""}}),
            (Strings{"P=/a", "E=/b"}));
}

TEST(CTestEnvironmentTest, StringsAppendAndPrependWithoutSeparator) {
  EXPECT_EQ(modified({"S=string_append:c", "S=string_prepend:a"}, {{"S", "b"}}),
            (Strings{"S=abc"}));
}

TEST(CTestEnvironmentTest, SetUnsetAndResetWorkInOrder) {
  EXPECT_EQ(modified({"A=set:1", "B=unset:", "C=set:lost", "C=reset:"},
                     {{"B", "was"}, {"C", "kept"}}),
            (Strings{"A=1", "B"})); // C is as before: no entry
  // After a reset, a variable is modified from its value before.
  EXPECT_EQ(modified({"C=set:lost", "C=reset:", "C=string_append:!"},
                     {{"C", "kept"}}),
            (Strings{"C=kept!"}));
  // ctest 3.22 to 4.3 append to an unset variable's value before, as they
  // read it (4.4 starts from empty).
  EXPECT_EQ(modified({"B=unset:", "B=string_append:x"}, {{"B", "was"}}),
            (Strings{"B=wasx"}));
}

TEST(CTestEnvironmentTest, ValuesKeepTheirColonsAndEquals) {
  EXPECT_EQ(modified({"OPTS=set:a=b:c"}), (Strings{"OPTS=a=b:c"}));
}

TEST(CTestEnvironmentTest, RefusesWhatCTestRefuses) {
  EXPECT_EQ(refusal({"PATH"}), "'PATH': no '=' after the variable's name");
  EXPECT_EQ(refusal({"PATH=/x"}), "'PATH=/x': no ':' after the operation");
  EXPECT_EQ(refusal({"PATH=push:/x"}),
            "'PATH=push:/x': unknown operation 'push'");
  EXPECT_EQ(refusal({"X=:v"}), "'X=:v': unknown operation ''");
}

TEST(CTestEnvironmentTest, IgnoresAnEntryWithoutName) {
  EXPECT_EQ(modified({"=set:x", "A=set:1"}), (Strings{"A=1"}));
}

TEST(CTestEnvironmentTest, ValueInReadsTheLastEntryOverTheOuterValue) {
  Strings Env = {"A=1", "B=2", "A=3", "C"};
  EXPECT_EQ(valueIn(Env, "A", "outer"), "3");
  EXPECT_EQ(valueIn(Env, "B", std::nullopt), "2");
  EXPECT_EQ(valueIn(Env, "C", "outer"), std::nullopt); // "C" alone: unset
  EXPECT_EQ(valueIn(Env, "D", "outer"), "outer");
  EXPECT_EQ(valueIn({"AB=1"}, "A", std::nullopt), std::nullopt);
}

} // namespace
