//===- ConfigTest.cpp - .tia.yaml and path patterns -----------------------===//

#include "tia/Config/Config.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::config;
using tia::testing::errorText;

namespace {

TEST(GlobTest, StarStaysInsideAComponent) {
  EXPECT_TRUE(globMatches("*.md", "README.md"));
  EXPECT_FALSE(globMatches("*.md", "docs/README.md"));
  EXPECT_TRUE(globMatches("docs/*.md", "docs/a.md"));
  EXPECT_FALSE(globMatches("docs/*.md", "docs/x/a.md"));
  EXPECT_TRUE(globMatches("a?c", "abc"));
  EXPECT_FALSE(globMatches("a?c", "a/c"));
}

TEST(GlobTest, DoubleStarCrossesDirectories) {
  EXPECT_TRUE(globMatches("docs/**", "docs/a/b.md"));
  EXPECT_TRUE(globMatches("**/*.md", "a/b/c.md"));
  EXPECT_TRUE(globMatches("**/*.md", "c.md"));
  EXPECT_TRUE(globMatches(".github/workflows/**", ".github/workflows/ci.yml"));
  EXPECT_FALSE(globMatches("docs/**", "src/docs.cpp"));
}

TEST(GlobTest, Sets) {
  EXPECT_TRUE(globMatches("requirements[-_]*.txt", "requirements-dev.txt"));
  EXPECT_TRUE(globMatches("[a-c]x", "bx"));
  EXPECT_FALSE(globMatches("[a-c]x", "dx"));
  EXPECT_TRUE(globMatches("[!a]x", "bx"));
  EXPECT_FALSE(globMatches("[!a]x", "ax"));
}

TEST(PathPatternsTest, NameOnlyPatternsMatchAnyComponent) {
  ASSERT_VALUE(P, PathPatterns::compile({"CMakeLists.txt", "vendor"}));
  EXPECT_TRUE(P->matches("CMakeLists.txt"));
  EXPECT_TRUE(P->matches("src/lib/CMakeLists.txt"));
  EXPECT_TRUE(P->matches("third/vendor/x.cpp"));
  EXPECT_FALSE(P->matches("src/vendored.cpp"));
  EXPECT_EQ(P->firstMatch("a/CMakeLists.txt"), "CMakeLists.txt");
  EXPECT_EQ(P->firstMatch("a/b.cpp"), "");
}

TEST(PathPatternsTest, RootedPatternsMatchTheirDirectory) {
  ASSERT_VALUE(P, PathPatterns::compile({"src/generated/", "/tools"}));
  EXPECT_TRUE(P->matches("src/generated/a.cpp"));
  EXPECT_TRUE(P->matches("tools/x/y.py"));
  EXPECT_FALSE(P->matches("lib/src/generated/a.cpp"));
  EXPECT_FALSE(P->matches("src/generated_x.cpp"));
}

TEST(PathPatternsTest, LeadingSlashAnchorsANameToTheRoot) {
  ASSERT_VALUE(P, PathPatterns::compile({"/conftest.py"}));
  EXPECT_TRUE(P->matches("conftest.py"));
  EXPECT_FALSE(P->matches("tests/conftest.py"));
}

TEST(PathPatternsTest, BadPatterns) {
  EXPECT_EQ(errorText(PathPatterns::compile({"a[b"})),
            "bad pattern 'a[b': '[' without its ']'");
  EXPECT_EQ(errorText(PathPatterns::compile({""})),
            "bad pattern '': a pattern cannot be empty");
}

TEST(ConfigTest, EmptyTextIsTheDefaults) {
  ASSERT_VALUE(C, parseConfig("# nothing yet\n", ".tia.yaml"));
  EXPECT_TRUE(C->Python.Docstrings);
  EXPECT_TRUE(C->isIncluded("any/file.cpp"));
}

TEST(ConfigTest, PathsAndPython) {
  ASSERT_VALUE(C, parseConfig("paths:\n"
                              "  include: [src, tests]\n"
                              "  exclude:\n"
                              "    - src/generated/**\n"
                              "python:\n"
                              "  docstrings: false\n",
                              ".tia.yaml"));
  EXPECT_FALSE(C->Python.Docstrings);
  EXPECT_TRUE(C->isIncluded("src/a.cpp"));
  EXPECT_TRUE(C->isIncluded("tests/t.py"));
  EXPECT_FALSE(C->isIncluded("docs/x.md"));
  EXPECT_FALSE(C->isIncluded("src/generated/g.cpp"));
  EXPECT_EQ(C->File, ".tia.yaml");
}

TEST(ConfigTest, SelectDefaults) {
  ASSERT_VALUE(C, parseConfig("", ".tia.yaml"));
  for (llvm::StringRef Trigger :
       {"CMakeLists.txt", "cmake/Deps.cmake", "CMakePresets.json",
        "conanfile.py", "vcpkg.json", "meson.build", "Makefile", "BUILD",
        "WORKSPACE", "tools/defs.bzl", "Dockerfile", ".github/workflows/ci.yml",
        "requirements-dev.txt", "pyproject.toml", "setup.py", "setup.cfg",
        "tox.ini", "pytest.ini", "conftest.py"})
    EXPECT_TRUE(C->Select.Triggers.matches(Trigger)) << Trigger.str();
  EXPECT_FALSE(C->Select.Triggers.matches("tests/conftest.py"));
  EXPECT_FALSE(C->Select.Triggers.matches("src/a.cpp"));
  for (llvm::StringRef Doc : {"README.md", "docs/guide.txt", "LICENSE",
                              "LICENSE.txt", "src/notes.rst"})
    EXPECT_TRUE(C->Select.Ignore.matches(Doc)) << Doc.str();
  EXPECT_FALSE(C->Select.Ignore.matches("src/a.cpp"));
  EXPECT_EQ(C->Select.MaxCoverageAge, 100u);
  EXPECT_EQ(C->Select.FullSuiteMarker, "[full-suite]");
  EXPECT_EQ(C->Output.Format, "ids");
  EXPECT_FALSE(C->Output.Exclusion);
}

TEST(ConfigTest, SelectAndOutput) {
  ASSERT_VALUE(C, parseConfig("select:\n"
                              "  base: origin/main\n"
                              "  triggers: [\"data/**\"]\n"
                              "  default_ignore: false\n"
                              "  ignore: [\"tools/**\"]\n"
                              "  max_coverage_age: 0\n"
                              "  max_tests: 20\n"
                              "  time_budget: 90.5\n"
                              "  full_suite_marker: \"[all]\"\n"
                              "output:\n"
                              "  format: markdown\n"
                              "  exclusion: true\n",
                              ".tia.yaml"));
  EXPECT_EQ(C->Select.Base, "origin/main");
  EXPECT_TRUE(C->Select.Triggers.matches("data/x.csv"));
  EXPECT_TRUE(C->Select.Triggers.matches("CMakeLists.txt"));
  EXPECT_EQ(C->Select.Triggers.firstMatch("data/x.csv"), "data/**");
  EXPECT_TRUE(C->Select.Ignore.matches("tools/x.py"));
  EXPECT_FALSE(C->Select.Ignore.matches("README.md"));
  EXPECT_EQ(C->Select.MaxCoverageAge, 0u);
  EXPECT_EQ(C->Select.MaxTests, 20u);
  EXPECT_DOUBLE_EQ(C->Select.TimeBudget, 90.5);
  EXPECT_EQ(C->Select.FullSuiteMarker, "[all]");
  EXPECT_EQ(C->Output.Format, "markdown");
  EXPECT_TRUE(C->Output.Exclusion);
}

TEST(ConfigTest, NoDefaultTriggers) {
  ASSERT_VALUE(C, parseConfig("select:\n  default_triggers: false\n", "c"));
  EXPECT_TRUE(C->Select.Triggers.empty());
}

TEST(ConfigTest, BadSelectAndOutputValues) {
  EXPECT_EQ(
      errorText(parseConfig("output:\n  format: xml\n", "c.yaml")),
      "c.yaml:2:11: unknown output format 'xml': use one of ids, json, "
      "ctest, ctest-list, gtest, pytest, pytest-files, markdown, github, "
      "catch2, doctest, boost, sarif, codequality, lit (see docs/Config.md)");
  EXPECT_EQ(errorText(parseConfig("report:\n  covered: loud\n", "c.yaml")),
            "c.yaml:2:3: report.covered must be note, warning or error, not "
            "'loud' (see docs/Config.md)");
  EXPECT_EQ(errorText(parseConfig("select:\n  max_tests: -1\n", "c.yaml")),
            "c.yaml:2:14: invalid number (see docs/Config.md)");
  EXPECT_EQ(errorText(parseConfig("select:\n  time_budget: -5\n", "c.yaml")),
            "c.yaml: select.time_budget is negative: give the seconds, or 0 "
            "for no limit (see docs/Config.md)");
  EXPECT_EQ(errorText(parseConfig("select:\n  triggers: ['[x']\n", "c.yaml")),
            "c.yaml: select.triggers: bad pattern '[x': '[' without its ']' "
            "(see docs/Config.md)");
}

TEST(ConfigTest, UnknownKeyNamesItsPosition) {
  EXPECT_EQ(errorText(parseConfig("paths:\n  exclud: [a]\n", ".tia.yaml")),
            ".tia.yaml:2:3: unknown key 'exclud' (see docs/Config.md)");
}

TEST(ConfigTest, WrongTypeNamesItsPosition) {
  EXPECT_EQ(errorText(parseConfig("python:\n  docstrings: maybe\n", "c.yaml")),
            "c.yaml:2:15: invalid boolean (see docs/Config.md)");
  EXPECT_EQ(errorText(parseConfig("paths: 3\n", "c.yaml")),
            "c.yaml:1:8: not a mapping (see docs/Config.md)");
}

TEST(ConfigTest, BadPatternNamesItsKey) {
  EXPECT_EQ(errorText(parseConfig("paths:\n  exclude: ['x[']\n", "c.yaml")),
            "c.yaml: paths.exclude: bad pattern 'x[': '[' without its ']' "
            "(see docs/Config.md)");
}

TEST(ConfigTest, StaticSelectionKeys) {
  ASSERT_VALUE(D, parseConfig("", ".tia.yaml"));
  EXPECT_EQ(D->Python.CriticalFunctions, 500u);
  EXPECT_EQ(D->Python.RegistryDecorators,
            (std::vector<std::string>{"register", "route", "router", "hook"}));
  ASSERT_VALUE(C, parseConfig("python:\n"
                              "  critical-functions: 0\n"
                              "  registry-decorators: [plugin]\n",
                              ".tia.yaml"));
  EXPECT_EQ(C->Python.CriticalFunctions, 0u);
  // A list replaces the defaults.
  EXPECT_EQ(C->Python.RegistryDecorators, (std::vector<std::string>{"plugin"}));
  EXPECT_EQ(errorText(parseConfig(
                "python:\n  registry-decorators: [route, ' ']\n", "c.yaml")),
            "c.yaml: python.registry-decorators: an empty keyword would "
            "match every decorator (see docs/Config.md)");
  EXPECT_NE(
      errorText(parseConfig("python:\n  critical-functions: many\n", "c.yaml"))
          .find("c.yaml:2:23:"),
      std::string::npos);
}

TEST(ConfigTest, PredictDefaultsAndKeys) {
  ASSERT_VALUE(D, parseConfig("", ".tia.yaml"));
  EXPECT_TRUE(D->Predict.Docs.matches("docs/guide.md"));
  EXPECT_TRUE(D->Predict.Docs.matches("README.md"));
  EXPECT_FALSE(D->Predict.Docs.matches("src/a.cpp"));
  EXPECT_EQ(D->Predict.FlakyWindowDays, 56u);
  ASSERT_VALUE(C, parseConfig("predict:\n  docs: ['*.txt']\n"
                              "  flaky-window-days: 7\n  max-files: 10\n"
                              "  validation-percent: 30\n",
                              ".tia.yaml"));
  EXPECT_TRUE(C->Predict.Docs.matches("notes.txt"));
  // select.ignore comes first: what never affects a test never causes a
  // failure either.
  EXPECT_TRUE(C->Predict.Docs.matches("README.md"));
  ASSERT_VALUE(I, parseConfig("select:\n  ignore: ['*.txt']\n"
                              "  default_ignore: false\n",
                              ".tia.yaml"));
  EXPECT_TRUE(I->Predict.Docs.matches("notes.txt"));
  EXPECT_FALSE(I->Predict.Docs.matches("README.md"));
  EXPECT_EQ(C->Predict.FlakyWindowDays, 7u);
  EXPECT_EQ(C->Predict.MaxFiles, 10u);
  EXPECT_EQ(C->Predict.ValidationPercent, 30u);
}

TEST(ConfigTest, PredictValuesOutOfRange) {
  EXPECT_EQ(
      errorText(parseConfig("predict:\n  validation-percent: 100\n", "c.yaml")),
      "c.yaml:2:3: predict.validation-percent must be between 1 and 99 "
      "(see docs/Config.md)");
  EXPECT_EQ(errorText(parseConfig("predict:\n  docs: ['x[']\n", "c.yaml")),
            "c.yaml: predict.docs: bad pattern 'x[': '[' without its ']' "
            "(see docs/Config.md)");
}

} // namespace
