//===- NameRTSTest.cpp - name-based dependency propagation ----------------===//
//
// The NameRTS graph on plain data: a library module and a test file that
// imports from it, as the Python front end describes them.
//
//===----------------------------------------------------------------------===//

#include "NameRTS.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;
using namespace tia::select::namerts;

namespace {

NameNode node(llvm::StringRef Kind, llvm::StringRef Module,
              llvm::StringRef Name, llvm::StringRef Uses) {
  NameNode N;
  N.Kind = Kind.str();
  N.Name = Name.str();
  N.Id = Kind.str() + ":" + (Kind == "module" ? Module.str() : Name.str());
  N.Key = "py:" + Module.str() + ":" + (Kind == "module" ? "" : Name.str());
  N.Checksum = Name.str();
  N.Uses = Uses.str();
  return N;
}

/// lib.py defines magnify and shrink; tests/test_a.py imports both and
/// has one test calling each.
std::vector<GraphFile> project(NodeChange Magnify, NodeChange Shrink) {
  GraphFile Lib;
  Lib.Path = "lib.py";
  Lib.Module = "lib";
  Lib.Nodes = {node("module", "lib", "<module>", ""),
               node("function", "lib", "magnify", ""),
               node("function", "lib", "shrink", "")};
  Lib.Changes = {NodeChange::None, Magnify, Shrink};

  GraphFile Test;
  Test.Path = "tests/test_a.py";
  Test.Module = "tests.test_a";
  Test.Nodes = {node("module", "tests.test_a", "<module>", ""),
                node("function", "tests.test_a", "test_magnify", "n:magnify"),
                node("function", "tests.test_a", "test_shrink", "n:shrink")};
  Test.Changes.assign(Test.Nodes.size(), NodeChange::None);
  Test.Bindings = {{"magnify", "lib", "magnify"}, {"shrink", "lib", "shrink"}};
  Test.Imports = {{"lib", "magnify", 1}, {"lib", "shrink", 1}};
  Test.Tests = {{"pytest", "tests/test_a.py::test_magnify", 3, 4},
                {"pytest", "tests/test_a.py::test_shrink", 6, 7}};
  return {Lib, Test};
}

FileOutcome selectTestFile(const Graph &G) {
  int64_t F = G.fileIndex("tests/test_a.py");
  EXPECT_GE(F, 0);
  return G.select(static_cast<uint32_t>(F), FileEvidence());
}

std::vector<std::string> testsHit(const FileOutcome &Out) {
  std::vector<std::string> Names;
  for (const auto &[Test, H] : Out.Tests)
    Names.push_back(Test);
  return Names;
}

TEST(NameRTSTest, GraphHasANodePerDefinition) {
  Graph G(project(NodeChange::None, NodeChange::None), GraphOptions());
  EXPECT_EQ(G.numFiles(), 2u);
  EXPECT_EQ(G.numNodes(), 6u);
  EXPECT_EQ(G.testFiles(), (std::vector<uint32_t>{1}));
  EXPECT_EQ(G.fileIndex("missing.py"), -1);
}

TEST(NameRTSTest, NothingChangedReachesNothing) {
  Graph G(project(NodeChange::None, NodeChange::None), GraphOptions());
  FileOutcome Out = selectTestFile(G);
  EXPECT_FALSE(Out.Whole);
  EXPECT_TRUE(Out.Shared.empty());
  EXPECT_TRUE(Out.Tests.empty());
}

TEST(NameRTSTest, ATestReachesTheChangedFunctionItCalls) {
  Graph G(project(NodeChange::Modified, NodeChange::None), GraphOptions());
  FileOutcome Out = selectTestFile(G);
  ASSERT_TRUE(Out.Whole);
  EXPECT_TRUE(Out.Shared.empty());
  EXPECT_TRUE(Out.ByFile.empty());
  ASSERT_EQ(testsHit(Out),
            (std::vector<std::string>{"tests/test_a.py::test_magnify"}));
  const Hit &H = Out.Tests[0].second;
  EXPECT_EQ(G.nodeKey(H.Node), "py:lib:magnify");
  EXPECT_EQ(G.change(H.Node), NodeChange::Modified);
  EXPECT_NE(H.Chain.find("magnify"), std::string::npos) << H.Chain;
}

TEST(NameRTSTest, EachTestReachesOnlyWhatItNames) {
  Graph G(project(NodeChange::Modified, NodeChange::Modified), GraphOptions());
  FileOutcome Out = selectTestFile(G);
  ASSERT_EQ(testsHit(Out),
            (std::vector<std::string>{"tests/test_a.py::test_magnify",
                                      "tests/test_a.py::test_shrink"}));
  EXPECT_EQ(G.nodeKey(Out.Tests[0].second.Node), "py:lib:magnify");
  EXPECT_EQ(G.nodeKey(Out.Tests[1].second.Node), "py:lib:shrink");
}

TEST(NameRTSTest, ImportingADeletedNameReachesEveryTest) {
  // The test module's import of shrink fails now, whatever test runs.
  Graph G(project(NodeChange::None, NodeChange::Deleted), GraphOptions());
  FileOutcome Out = selectTestFile(G);
  ASSERT_EQ(Out.Shared.size(), 1u);
  EXPECT_EQ(G.nodeKey(Out.Shared[0].Node), "py:lib:shrink");
  EXPECT_TRUE(Out.Tests.empty());
}

TEST(NameRTSTest, ModuleCodeThatUsesAChangeReachesEveryTest) {
  std::vector<GraphFile> Files =
      project(NodeChange::Modified, NodeChange::None);
  // The test module calls magnify at import time.
  Files[1].Nodes[0].Uses = "n:magnify";
  Graph G(std::move(Files), GraphOptions());
  FileOutcome Out = selectTestFile(G);
  ASSERT_EQ(Out.Shared.size(), 1u);
  EXPECT_EQ(G.nodeKey(Out.Shared[0].Node), "py:lib:magnify");
  EXPECT_TRUE(Out.Tests.empty());
}

TEST(NameRTSTest, AnUnknownTestNameGoesByTheFile) {
  Graph G(project(NodeChange::Modified, NodeChange::None), GraphOptions());
  int64_t F = G.fileIndex("tests/test_a.py");
  FileOutcome Out = G.select(static_cast<uint32_t>(F), FileEvidence(),
                             {"tests/test_a.py::test_gone"});
  EXPECT_EQ(Out.ByFile,
            (std::vector<std::string>{"tests/test_a.py::test_gone"}));
}

/// lib.py with a module-level variable RATE (a pure binding unless
/// \p Effects) that magnify uses.
std::vector<GraphFile> withRate(bool Effects) {
  std::vector<GraphFile> Files = project(NodeChange::None, NodeChange::None);
  NameNode Rate = node("variable", "lib", "RATE", Effects ? "n:compute" : "");
  if (!Effects)
    Rate.Flags = {"pure"};
  Files[0].Nodes.push_back(Rate);
  Files[0].Changes.push_back(NodeChange::Modified);
  Files[0].Nodes[1].Uses = "n:RATE";
  return Files;
}

uint32_t nodeNamed(const Graph &G, llvm::StringRef Key) {
  for (uint32_t N = 0; N < G.numNodes(); ++N)
    if (G.nodeKey(N) == Key)
      return N;
  ADD_FAILURE() << "no node " << Key.str();
  return 0;
}

TEST(NameRTSTest, APureBindingReachesOnlyTheTestsUsingItsName) {
  Graph G(withRate(false), GraphOptions());
  uint32_t Rate = nodeNamed(G, "py:lib:RATE");
  EXPECT_EQ(G.importWideWhy(Rate), "");
  FileOutcome Out = selectTestFile(G);
  EXPECT_TRUE(Out.Shared.empty());
  EXPECT_EQ(testsHit(Out),
            (std::vector<std::string>{"tests/test_a.py::test_magnify"}));
  std::vector<uint32_t> Users = G.nameUsers(Rate);
  ASSERT_EQ(Users.size(), 1u);
  EXPECT_EQ(G.nodeKey(Users[0]), "py:lib:magnify");
}

TEST(NameRTSTest, ABindingThatRunsCodeReachesEveryImporter) {
  Graph G(withRate(true), GraphOptions());
  EXPECT_EQ(G.importWideWhy(nodeNamed(G, "py:lib:RATE")),
            "its value runs code at import");
  FileOutcome Out = selectTestFile(G);
  ASSERT_EQ(Out.Shared.size(), 1u);
  EXPECT_EQ(G.nodeKey(Out.Shared[0].Node), "py:lib:RATE");
}

TEST(NameRTSTest, AStarImportedModuleBindsEveryImporter) {
  std::vector<GraphFile> Files = withRate(false);
  Files[1].Bindings.push_back({"*", "lib", "*"});
  Graph G(std::move(Files), GraphOptions());
  EXPECT_EQ(G.importWideWhy(nodeNamed(G, "py:lib:RATE")),
            "lib is star-imported by tests/test_a.py");
  EXPECT_EQ(selectTestFile(G).Shared.size(), 1u);
}

TEST(NameRTSTest, AClassAttributeOfADecoratedClassReachesEveryImporter) {
  std::vector<GraphFile> Files = project(NodeChange::None, NodeChange::None);
  NameNode Class = node("class", "lib", "Shape", "");
  NameNode Label = node("variable", "lib", "label", "");
  Label.Class = "Shape";
  Label.Flags = {"pure"};
  Files[0].Nodes.push_back(Class);
  Files[0].Nodes.push_back(Label);
  Files[0].Changes.push_back(NodeChange::None);
  Files[0].Changes.push_back(NodeChange::Modified);
  {
    Graph G(Files, GraphOptions());
    EXPECT_EQ(G.importWideWhy(nodeNamed(G, "py:lib:label")), "");
    EXPECT_TRUE(selectTestFile(G).Shared.empty());
  }
  Files[0].Nodes[3].Decorators = {"dataclass"};
  Graph G(std::move(Files), GraphOptions());
  EXPECT_EQ(G.importWideWhy(nodeNamed(G, "py:lib:label")),
            "class lib.Shape is decorated (@dataclass)");
  EXPECT_EQ(selectTestFile(G).Shared.size(), 1u);
}

} // namespace
