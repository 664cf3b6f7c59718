//===- SelectTest.cpp - range intersection and hunk mapping ---------------===//

#include "tia/Select/Changes.h"
#include "tia/Select/Selection.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::select;

namespace {

Element element(std::string Key, unsigned Begin, unsigned End, std::string Hash,
                std::string Display = "") {
  Element E;
  E.Key = Key;
  E.File = "a.cpp";
  E.BeginLine = Begin;
  E.EndLine = End;
  E.Hash = Hash;
  E.Display = Display.empty() ? Key + "()" : Display;
  return E;
}

FileIndex file(std::vector<Element> Elements, std::string Residual = "r") {
  FileIndex F;
  F.Path = "a.cpp";
  F.ResidualHash = Residual;
  F.Elements = std::move(Elements);
  return F;
}

TEST(ChangesTest, ModifiedElementKeepsItsNewSideLines) {
  FileIndex Old = file({element("f", 1, 3, "h1"), element("g", 5, 9, "h2")});
  FileIndex New = file({element("f", 1, 3, "h1"), element("g", 5, 10, "h3")});
  FileComparison C = compareVersions(&Old, &New, {7}, {7, 8});
  ASSERT_EQ(C.Elements.size(), 1u);
  EXPECT_EQ(C.Elements[0].Elem.Key, "g");
  EXPECT_EQ(C.Elements[0].Change, ElementChange::Modified);
  EXPECT_EQ(C.Elements[0].Lines, (std::vector<unsigned>{7, 8}));
  EXPECT_FALSE(C.OutsideElements);
}

TEST(ChangesTest, SameHashIsNoChangeEvenWhenLinesOverlap) {
  // A comment edit inside f: git reports the line, the tokens are equal.
  FileIndex Old = file({element("f", 1, 3, "h1")});
  FileIndex New = file({element("f", 1, 3, "h1")});
  FileComparison C = compareVersions(&Old, &New, {2}, {2});
  EXPECT_TRUE(C.Elements.empty());
  EXPECT_FALSE(C.OutsideElements);
}

TEST(ChangesTest, AddedAndDeletedElements) {
  FileIndex Old = file({element("f", 1, 3, "h1"), element("gone", 5, 6, "h2")});
  FileIndex New = file({element("f", 1, 3, "h1"), element("new", 5, 8, "h4")});
  FileComparison C = compareVersions(&Old, &New, {5, 6}, {5, 6, 7, 8});
  ASSERT_EQ(C.Elements.size(), 2u);
  // Sorted by (file, line, key): both start at line 5.
  EXPECT_EQ(C.Elements[0].Elem.Key, "gone");
  EXPECT_EQ(C.Elements[0].Change, ElementChange::Deleted);
  EXPECT_EQ(C.Elements[0].Lines, (std::vector<unsigned>{5, 6}));
  EXPECT_EQ(C.Elements[1].Elem.Key, "new");
  EXPECT_EQ(C.Elements[1].Change, ElementChange::Added);
}

TEST(ChangesTest, PureDeletionInsideElementUsesOldLines) {
  FileIndex Old = file({element("f", 1, 5, "h1")});
  FileIndex New = file({element("f", 1, 4, "h2")});
  FileComparison C = compareVersions(&Old, &New, {3}, {});
  ASSERT_EQ(C.Elements.size(), 1u);
  EXPECT_EQ(C.Elements[0].Lines, (std::vector<unsigned>{3}));
}

TEST(ChangesTest, ResidualChangeIsOutsideElements) {
  FileIndex Old = file({element("f", 3, 5, "h1")}, "r1");
  FileIndex New = file({element("f", 3, 5, "h1")}, "r2");
  FileComparison C = compareVersions(&Old, &New, {1}, {1, 4});
  EXPECT_TRUE(C.OutsideElements);
  EXPECT_EQ(C.LinesOutsideNew, (std::vector<unsigned>{1}));
  EXPECT_EQ(C.LinesOutsideOld, (std::vector<unsigned>{1}));
}

TEST(ChangesTest, DeletedFileDeletesEveryElement) {
  FileIndex Old = file({element("f", 1, 2, "h1"), element("g", 3, 4, "h2")});
  FileComparison C = compareVersions(&Old, nullptr, {1, 2, 3, 4}, {});
  ASSERT_EQ(C.Elements.size(), 2u);
  EXPECT_EQ(C.Elements[0].Change, ElementChange::Deleted);
  EXPECT_EQ(C.Elements[1].Change, ElementChange::Deleted);
  EXPECT_FALSE(C.OutsideElements);
}

TEST(ChangesTest, LinesInIsInclusive) {
  Element E = element("f", 3, 5, "h");
  EXPECT_EQ(linesIn(E, {1, 2, 3, 4, 5, 6}), (std::vector<unsigned>{3, 4, 5}));
}

TEST(ChangesTest, QualifiedName) {
  EXPECT_EQ(qualifiedName("ns::f(int) const"), "ns::f");
  EXPECT_EQ(qualifiedName("ns::max<T>(T, T)"), "ns::max<T>");
  EXPECT_EQ(qualifiedName("ns::P::operator()(int)"), "ns::P::operator()");
  EXPECT_EQ(qualifiedName("g"), "g");
  EXPECT_EQ(qualifiedName("ns::operator<(const A &, const A &)"),
            "ns::operator<");
  EXPECT_EQ(qualifiedName("ns::operator<<(int)"), "ns::operator<<");
  EXPECT_EQ(qualifiedName("A::operator bool() const"), "A::operator bool");
}

TEST(ChangesTest, UnqualifiedName) {
  EXPECT_EQ(unqualifiedName("ns::S::f(int) const"), "f");
  EXPECT_EQ(unqualifiedName("ns::twice<int>(int)"), "twice");
  EXPECT_EQ(unqualifiedName("ns::Box<T>::get() const"), "get");
  EXPECT_EQ(unqualifiedName("ns::operator<(const A &, const A &)"),
            "operator<");
  EXPECT_EQ(unqualifiedName("Derived::id() const"), "id");
  EXPECT_EQ(unqualifiedName("g()"), "g");
  EXPECT_EQ(unqualifiedName("ns::(anonymous namespace)::examine(int)"),
            "examine");
  EXPECT_EQ(unqualifiedName("(anonymous namespace)::Fix::run() const"), "run");
  EXPECT_EQ(unqualifiedName("f()::(lambda at a.cpp:1:2)::operator()() const"),
            "operator()");
}

TEST(ChangesTest, TouchedButUnchangedElementsAreNoSemanticChange) {
  FileIndex Old = file({element("f", 1, 3, "h1"), element("g", 5, 9, "h2")});
  FileIndex New = file({element("f", 1, 3, "h1"), element("g", 5, 9, "h3")});
  FileComparison C = compareVersions(&Old, &New, {2, 6}, {2, 6});
  ASSERT_EQ(C.Elements.size(), 1u);
  EXPECT_EQ(C.Elements[0].Elem.Key, "g");
  ASSERT_EQ(C.Unchanged.size(), 1u);
  EXPECT_EQ(C.Unchanged[0].Key, "f");
}

TEST(ChangesTest, AnElementAroundAChangedOneIsNotUnchanged) {
  // A class whose method changed: the class's own tokens did not.
  Element Class = element("S", 1, 10, "c1");
  Class.Kind = ElementKind::Class;
  FileIndex Old = file({Class, element("m", 3, 4, "m1")});
  FileIndex New = file({Class, element("m", 3, 4, "m2")});
  FileComparison C = compareVersions(&Old, &New, {3}, {3});
  ASSERT_EQ(C.Elements.size(), 1u);
  EXPECT_TRUE(C.Unchanged.empty());
}

TEST(ChangesTest, RegionsDoNotHideLinesOutsideElements) {
  Element Region = element("cpp:a.h:#if:0", 1, 20, "r");
  Region.Kind = ElementKind::Conditional;
  FileIndex Old = file({Region, element("f", 5, 6, "h")}, "r1");
  FileIndex New = file({Region, element("f", 5, 6, "h")}, "r2");
  FileComparison C = compareVersions(&Old, &New, {}, {3});
  EXPECT_TRUE(C.OutsideElements);
  EXPECT_EQ(C.LinesOutsideNew, (std::vector<unsigned>{3}));
}

TEST(SelectionTest, CppSources) {
  EXPECT_TRUE(isCppSource("src/a.cpp"));
  EXPECT_TRUE(isCppSource("include/a.h"));
  EXPECT_TRUE(isCppSource("x.hpp"));
  EXPECT_FALSE(isCppSource("CMakeLists.txt"));
  EXPECT_FALSE(isCppSource("a.py"));
  EXPECT_FALSE(isCppSource("README.md"));
}

TEST(SelectionTest, PrependedFallbacksKeepEveryReasonOnItsFallback) {
  Selection Sel;
  Sel.Fallbacks.push_back({FallbackKind::OutsideElements, "a.h", "scoped",
                           FallbackScope::Includers, {}});
  Sel.Tests.push_back({"gtest:t:A.Scoped", {{NoIndex, 0, "via a.cpp"}}});
  Sel.Tests.push_back({"gtest:t:A.Covers", {{0, NoIndex, ""}}});
  Sel.prependFallbacks(
      {{FallbackKind::Requested, "", "asked", FallbackScope::All, {}},
       {FallbackKind::StaleCoverage, "", "old", FallbackScope::All, {}}});
  ASSERT_EQ(Sel.Fallbacks.size(), 3u);
  EXPECT_EQ(Sel.Fallbacks[0].Kind, FallbackKind::Requested);
  const Reason &Scoped = Sel.Tests[0].Reasons[0];
  ASSERT_NE(Scoped.FallbackIndex, NoIndex);
  EXPECT_EQ(Sel.Fallbacks[Scoped.FallbackIndex].File, "a.h");
  EXPECT_EQ(Sel.Tests[1].Reasons[0].FallbackIndex, NoIndex);
  EXPECT_EQ(Sel.Tests[1].Reasons[0].Element, 0u);
}

} // namespace
