//===- Changes.cpp - from changed lines to changed elements ---------------===//

#include "tia/Select/Changes.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace tia {
namespace select {

llvm::StringRef changeName(ElementChange C) {
  switch (C) {
  case ElementChange::Modified:
    return "modified";
  case ElementChange::Added:
    return "added";
  case ElementChange::Deleted:
    return "deleted";
  }
  return "modified";
}

std::vector<unsigned> linesIn(const Element &E,
                              const std::vector<unsigned> &Lines) {
  std::vector<unsigned> Out;
  for (unsigned L : Lines)
    if (E.containsLine(L))
      Out.push_back(L);
  return Out;
}

std::string qualifiedName(llvm::StringRef Display) {
  // An operator's name runs to its parameter list; its '<', '>' and '()'
  // are not brackets.
  size_t Op = Display.find("operator");
  if (Op != llvm::StringRef::npos) {
    size_t Name = Op + strlen("operator");
    llvm::StringRef After = Display.substr(Name).ltrim();
    size_t From = Display.size() - After.size();
    if (After.starts_with("()"))
      From += 2;
    return Display.substr(0, Display.find('(', From)).str();
  }
  // Otherwise the first '(' outside template brackets that is not a scope
  // of its own ("(anonymous namespace)::", "(lambda at a.cpp:1:2)::").
  int Angle = 0;
  for (size_t I = 0; I < Display.size(); ++I) {
    char C = Display[I];
    if (C == '<') {
      ++Angle;
    } else if (C == '>' && Angle > 0) {
      --Angle;
    } else if (C == '(' && Angle == 0) {
      if (I == 0 || Display.substr(0, I).ends_with("::")) {
        size_t Close = Display.find(')', I);
        if (Close != llvm::StringRef::npos &&
            Display.substr(Close + 1).starts_with("::")) {
          I = Close;
          continue;
        }
      }
      return Display.substr(0, I).str();
    }
  }
  return Display.str();
}

std::string unqualifiedName(llvm::StringRef Display) {
  std::string Q = qualifiedName(Display);
  llvm::StringRef Name = Q;
  // Drop trailing template arguments ("twice<int>" -> "twice"), but not the
  // '<' of an operator's name.
  if (Name.ends_with(">") && !Name.contains("operator")) {
    int Depth = 0;
    for (size_t I = Name.size(); I-- > 0;) {
      if (Name[I] == '>')
        ++Depth;
      else if (Name[I] == '<' && --Depth == 0) {
        Name = Name.take_front(I);
        break;
      }
    }
  }
  // The last "::" outside template brackets.
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I + 1 < Name.size(); ++I) {
    if (Name[I] == '<')
      ++Depth;
    else if (Name[I] == '>' && Depth > 0)
      --Depth;
    else if (Depth == 0 && Name[I] == ':' && Name[I + 1] == ':') {
      Start = I + 2;
      if (Name.substr(Start).starts_with("operator"))
        break;
    }
  }
  return Name.substr(Start).str();
}

namespace {

std::vector<unsigned> outside(const FileIndex *FI,
                              const std::vector<unsigned> &Lines) {
  std::vector<unsigned> Out;
  for (unsigned L : Lines) {
    bool In = FI && std::any_of(FI->Elements.begin(), FI->Elements.end(),
                                [&](const Element &E) {
                                  return E.Kind != ElementKind::Conditional &&
                                         E.containsLine(L);
                                });
    if (!In)
      Out.push_back(L);
  }
  return Out;
}

} // namespace

FileComparison compareVersions(const FileIndex *Old, const FileIndex *New,
                               const std::vector<unsigned> &DeletedLines,
                               const std::vector<unsigned> &AddedLines) {
  FileComparison Out;
  std::map<std::string, const Element *> OldByKey, NewByKey;
  if (Old)
    for (const Element &E : Old->Elements)
      OldByKey.emplace(E.Key, &E);
  if (New)
    for (const Element &E : New->Elements)
      NewByKey.emplace(E.Key, &E);

  for (auto &[Key, E] : NewByKey) {
    auto It = OldByKey.find(Key);
    if (It == OldByKey.end())
      Out.Elements.push_back(
          {ElementChange::Added, *E, linesIn(*E, AddedLines)});
    else if (It->second->Hash != E->Hash)
      Out.Elements.push_back(
          {ElementChange::Modified, *E, linesIn(*E, AddedLines)});
    else if (E->Kind != ElementKind::Conditional &&
             (!linesIn(*E, AddedLines).empty() ||
              !linesIn(*It->second, DeletedLines).empty()))
      Out.Unchanged.push_back(*E);
  }
  for (auto &[Key, E] : OldByKey)
    if (!NewByKey.count(Key))
      Out.Elements.push_back(
          {ElementChange::Deleted, *E, linesIn(*E, DeletedLines)});

  // An element around a changed one (a class around its method) is not a
  // "no semantic change": the change is just not its own.
  llvm::erase_if(Out.Unchanged, [&](const Element &U) {
    return llvm::any_of(Out.Elements, [&](const ChangedElement &C) {
      return C.Change != ElementChange::Deleted &&
             U.BeginLine <= C.Elem.BeginLine && C.Elem.EndLine <= U.EndLine;
    });
  });

  // A modified element whose edit only removed lines has no new-side lines;
  // name the old-side ones instead so the report can point at them.
  for (ChangedElement &C : Out.Elements)
    if (C.Change == ElementChange::Modified && C.Lines.empty())
      if (const Element *O = OldByKey[C.Elem.Key])
        C.Lines = linesIn(*O, DeletedLines);

  std::sort(Out.Elements.begin(), Out.Elements.end(),
            [](const ChangedElement &A, const ChangedElement &B) {
              return std::tie(A.Elem.File, A.Elem.BeginLine, A.Elem.Key) <
                     std::tie(B.Elem.File, B.Elem.BeginLine, B.Elem.Key);
            });

  Out.OutsideElements = Old && New && Old->ResidualHash != New->ResidualHash;
  Out.LinesOutsideNew = outside(New, AddedLines);
  Out.LinesOutsideOld = outside(Old, DeletedLines);
  return Out;
}

} // namespace select
} // namespace tia
