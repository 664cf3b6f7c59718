//===- GraphTest.cpp - the C++ reference graph in memory ------------------===//

#include "tia/Select/Graph.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

Element fn(const std::string &Key, const std::string &Display,
           const std::string &File, unsigned Line,
           ElementKind Kind = ElementKind::Function) {
  Element E;
  E.Key = Key;
  E.Display = Display;
  E.File = File;
  E.Kind = Kind;
  E.BeginLine = E.EndLine = Line;
  return E;
}

/// test -> Shape::area (virtual, no body); Circle::area overrides it;
/// api (declared in include/) -> helper.
ReferenceGraph graph() {
  FileIndex Src;
  Src.Path = "src/a.cpp";
  Src.Elements = {
      fn("cpp:circle", "Circle::area()", "src/a.cpp", 1, ElementKind::Method),
      fn("cpp:helper", "helper()", "src/a.cpp", 2),
      fn("cpp:api", "api()", "src/a.cpp", 3),
      fn("cpp:lonely", "lonely()", "src/a.cpp", 4)};
  Src.References = {{"cpp:circle", "cpp:shape", ReferenceKind::Overrides},
                    {"cpp:api", "cpp:helper", ReferenceKind::Call},
                    {"cpp:api", "cpp:decl:api", ReferenceKind::Declares}};
  FileIndex Hdr;
  Hdr.Path = "include/a.h";
  Hdr.Elements = {
      fn("cpp:decl:api", "api()", "include/a.h", 1, ElementKind::Declaration)};
  FileIndex Test;
  Test.Path = "tests/t.cpp";
  Test.Elements = {
      fn("cpp:test", "T::TestBody()", "tests/t.cpp", 1, ElementKind::Method)};
  Test.References = {{"cpp:test", "cpp:shape", ReferenceKind::Call}};
  ReferenceGraph G;
  G.add(Src);
  G.add(Hdr);
  G.add(Test);
  return G;
}

TEST(GraphTest, AVirtualCallReachesTheOverride) {
  ReferenceGraph G = graph();
  auto Next = G.reachersOf({"cpp:circle"});
  ASSERT_TRUE(Next.count("cpp:test"));
  CallPath P = G.path(Next, "cpp:test");
  EXPECT_EQ(P.Keys,
            (std::vector<std::string>{"cpp:test", "cpp:shape", "cpp:circle"}));
  // The override does not reach the base's other callers' callees.
  EXPECT_FALSE(G.reachersOf({"cpp:shape"}).count("cpp:circle"));
}

TEST(GraphTest, NothingReachesAnUnusedFunction) {
  ReferenceGraph G = graph();
  auto Next = G.reachersOf({"cpp:lonely"});
  EXPECT_EQ(Next.size(), 1u);
}

TEST(GraphTest, EntryPointsAreDeclaredInPublicHeaders) {
  ReferenceGraph G = graph();
  EXPECT_TRUE(G.isEntryPoint("cpp:api", isDefaultPublicHeader));
  EXPECT_FALSE(G.isEntryPoint("cpp:helper", isDefaultPublicHeader));
  EXPECT_FALSE(G.isEntryPoint(
      "cpp:api", [](llvm::StringRef P) { return P.starts_with("api/"); }));
  auto Next = G.reachersOf({"cpp:helper"});
  CallPath P = G.path(Next, "cpp:api");
  EXPECT_EQ(P.Displays, (std::vector<std::string>{"api()", "helper()"}));
}

TEST(GraphTest, FindsFunctionsByQualifiedOrBareName) {
  ReferenceGraph G = graph();
  auto Found = G.find("area");
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found.front()->Key, "cpp:circle");
  EXPECT_TRUE(G.find("rea").empty());
}

TEST(GraphTest, SpecialMembersSayHowTheyRun) {
  ReferenceGraph::Node N{"cpp:d", ElementKind::Destructor, "ns::W::~W()",
                         "src/w.cpp"};
  EXPECT_EQ(ReferenceGraph::trigger(N).substr(0, 33),
            "runs when a ns::W is destroyed (e");
  N.Kind = ElementKind::Function;
  EXPECT_EQ(ReferenceGraph::trigger(N), "");
}

TEST(GraphTest, DefaultPublicHeadersAreBelowInclude) {
  EXPECT_TRUE(isDefaultPublicHeader("include/calc/a.h"));
  EXPECT_TRUE(isDefaultPublicHeader("lib/include/a.h"));
  EXPECT_FALSE(isDefaultPublicHeader("src/include.h"));
}

} // namespace
