//===- PythonSelectTest.cpp - selection rules for Python files ------------===//

#include "PythonSelect.h"
#include "HeadTests.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

Element element(llvm::StringRef Key, ElementKind Kind, unsigned Begin,
                unsigned End) {
  Element E;
  E.Key = Key.str();
  E.Kind = Kind;
  E.Display = Key.rsplit(':').second.str();
  E.File = "t.py";
  E.BeginLine = Begin;
  E.EndLine = End;
  return E;
}

FileIndex pythonFile() {
  FileIndex F;
  F.Path = "t.py";
  F.Elements = {element("py:t:<module>", ElementKind::Module, 1, 20),
                element("py:t:test_a", ElementKind::Function, 3, 5),
                element("py:t:TestB", ElementKind::Class, 8, 20),
                element("py:t:TestB.test_c", ElementKind::Method, 10, 12)};
  F.Tests = {{"pytest", "t.py::test_a", 3, 5},
             {"pytest", "t.py::TestB::test_c", 10, 12}};
  F.Python = PythonFileInfo();
  return F;
}

TEST(PythonSelectTest, ChangedTestCodeSelectsItsTests) {
  FileIndex F = pythonFile();
  ChangedElement Fn{ElementChange::Modified, F.Elements[1], {4}};
  EXPECT_EQ(testsDefinedIn(F, Fn),
            std::vector<std::string>{"pytest:t.py::test_a"});
  ChangedElement Class{ElementChange::Modified, F.Elements[2], {9}};
  EXPECT_EQ(testsDefinedIn(F, Class),
            std::vector<std::string>{"pytest:t.py::TestB::test_c"});
  ChangedElement Gone{ElementChange::Deleted, F.Elements[1], {4}};
  EXPECT_TRUE(testsDefinedIn(F, Gone).empty());
}

TEST(PythonSelectTest, DeletedTopLevelFunctionChangesTheModule) {
  FileIndex F = pythonFile();
  FileComparison Cmp;
  Cmp.Elements.push_back({ElementChange::Deleted,
                          element("py:t:helper", ElementKind::Function, 21, 22),
                          {21, 22}});
  addLostNames(Cmp, &F, {21, 22});
  ASSERT_EQ(Cmp.Elements.size(), 2u);
  EXPECT_EQ(Cmp.Elements[1].Elem.Key, "py:t:<module>");

  // A deleted method leaves the module as it is.
  FileComparison Method;
  Method.Elements.push_back(
      {ElementChange::Deleted,
       element("py:t:TestB.helper", ElementKind::Method, 13, 14),
       {13, 14}});
  addLostNames(Method, &F, {13, 14});
  EXPECT_EQ(Method.Elements.size(), 1u);
}

TEST(PythonSelectTest, NewConftestAndPackagesFallBack) {
  git::FileChange C;
  C.Status = git::ChangeStatus::Added;
  C.NewPath = "tests/conftest.py";
  EXPECT_TRUE(pythonFileFallback(C).has_value());
  C.NewPath = "src/pkg/__init__.py";
  EXPECT_TRUE(pythonFileFallback(C).has_value());
  C.NewPath = "src/pkg/mod.py";
  EXPECT_FALSE(pythonFileFallback(C).has_value());
  C.Status = git::ChangeStatus::Modified;
  C.NewPath = "tests/conftest.py";
  EXPECT_FALSE(pythonFileFallback(C).has_value());
}

TEST(PythonSelectTest, OnlyMethodsHaveSiblings) {
  EXPECT_EQ(
      pythonSiblingName(element("py:m:m.A.area", ElementKind::Method, 1, 2)),
      "area");
  EXPECT_EQ(pythonSiblingName(element("py:m:f", ElementKind::Function, 1, 2)),
            "");
}

NameNode classNode(llvm::StringRef Qualified, std::vector<std::string> Bases) {
  NameNode N;
  N.Id = "class:" + Qualified.str();
  N.Kind = "class";
  N.Name = Qualified.rsplit('.').second.empty()
               ? Qualified.str()
               : Qualified.rsplit('.').second.str();
  N.Bases = std::move(Bases);
  return N;
}

TEST(OpenTestClassesTest, ABaseFromAnotherFileMayBringTests) {
  PythonFileInfo Info;
  Info.Nodes = {classNode("Local", {"object"}),
                classNode("TestPlain", {}),
                classNode("TestUnit", {"TestCase"}),
                classNode("TestLocal", {"Local"}),
                classNode("TestImported", {"BaseTests"}),
                classNode("TestThroughLocal", {"TestImported"}),
                classNode("TestImported.Inner", {"Mixin"})};
  std::vector<std::string> Open = openTestClasses("t.py", Info);
  EXPECT_EQ(Open, (std::vector<std::string>{"t.py::TestImported",
                                            "t.py::TestImported::Inner",
                                            "t.py::TestThroughLocal"}));
}

} // namespace
