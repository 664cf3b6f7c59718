//===- Graph.cpp - the C++ reference graph, in memory ---------------------===//

#include "tia/Select/Graph.h"
#include "tia/Select/Changes.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include <algorithm>
#include <deque>

namespace tia {
namespace select {

namespace {

/// A readable name for a key that is no element (a pure virtual method, a
/// function declared only): its demangled linker name when it has one.
std::string displayOf(llvm::StringRef Key) {
  llvm::StringRef Name = Key;
  if (!Name.consume_front("cpp:"))
    return Key.str();
  // File-local names are "<path>:<mangled>".
  size_t Colon = Name.rfind(':');
  if (Colon != llvm::StringRef::npos && Name.find("_Z") > Colon)
    Name = Name.drop_front(Colon + 1);
  if (!Name.starts_with("_Z"))
    return Key.str();
  std::string D = llvm::demangle(Name);
  return D == Name ? Key.str() : D;
}

} // namespace

llvm::Expected<ReferenceGraph> ReferenceGraph::load(Store &S) {
  ReferenceGraph G;
  auto Elements = S.currentElements();
  if (!Elements)
    return Elements.takeError();
  for (GraphElement &E : *Elements)
    G.addNode({E.Key, E.Kind, E.Display, E.File, E.BeginLine, E.EndLine});
  auto Edges = S.currentReferences();
  if (!Edges)
    return Edges.takeError();
  for (const GraphEdge &E : *Edges)
    G.add(Reference{E.From, E.To, E.Kind});
  return G;
}

void ReferenceGraph::add(const Reference &R) {
  if (R.Kind == ReferenceKind::Overrides)
    Overridden[R.From].insert(R.To);
  else
    Users[R.To].insert(R.From);
  if (R.Kind == ReferenceKind::Declares)
    Declarations[R.From].insert(R.To);
}

void ReferenceGraph::addNode(Node N) {
  auto It = Nodes.find(N.Key);
  if (It != Nodes.end()) {
    auto Old = ByFile.find(It->second.File);
    Old->second.erase(N.Key);
    if (Old->second.empty())
      ByFile.erase(Old);
  }
  ByFile[N.File].insert(N.Key);
  std::string Key = N.Key;
  Nodes[Key] = std::move(N);
}

void ReferenceGraph::add(const FileIndex &F) {
  auto Old = ByFile.find(F.Path);
  if (Old != ByFile.end()) {
    for (const std::string &Key : Old->second)
      Nodes.erase(Key);
    ByFile.erase(Old);
  }
  for (const Element &E : F.Elements)
    addNode({E.Key, E.Kind, E.Display, E.File, E.BeginLine, E.EndLine});
  for (const Reference &R : F.References)
    add(R);
}

const ReferenceGraph::Node *ReferenceGraph::node(llvm::StringRef Key) const {
  auto It = Nodes.find(Key);
  return It == Nodes.end() ? nullptr : &It->second;
}

std::vector<const ReferenceGraph::Node *>
ReferenceGraph::elementsOf(llvm::StringRef File) const {
  std::vector<const Node *> Out;
  auto Keys = ByFile.find(File);
  if (Keys != ByFile.end())
    for (const std::string &Key : Keys->second)
      Out.push_back(&Nodes.find(Key)->second);
  std::sort(Out.begin(), Out.end(), [](const Node *A, const Node *B) {
    return std::tie(A->BeginLine, A->Key) < std::tie(B->BeginLine, B->Key);
  });
  return Out;
}

std::vector<std::string> ReferenceGraph::files() const {
  std::vector<std::string> Out;
  for (const auto &[File, Keys] : ByFile)
    Out.push_back(File);
  return Out;
}

std::map<std::string, std::string>
ReferenceGraph::reachersOf(const std::vector<std::string> &Targets) const {
  std::map<std::string, std::string> Next;
  std::deque<std::string> Work;
  for (const std::string &T : Targets)
    if (Next.emplace(T, "").second)
      Work.push_back(T);
  while (!Work.empty()) {
    std::string At = std::move(Work.front());
    Work.pop_front();
    auto Visit = [&](const std::set<std::string> &From) {
      for (const std::string &X : From)
        if (Next.emplace(X, At).second)
          Work.push_back(X);
    };
    // A call of a method this one overrides may run it.
    auto O = Overridden.find(At);
    if (O != Overridden.end())
      Visit(O->second);
    auto U = Users.find(At);
    if (U != Users.end())
      Visit(U->second);
  }
  return Next;
}

CallPath ReferenceGraph::path(const std::map<std::string, std::string> &Next,
                              llvm::StringRef From) const {
  CallPath P;
  std::string At = From.str();
  while (P.Keys.size() < 64) {
    P.Keys.push_back(At);
    const Node *N = node(At);
    P.Displays.push_back(N ? N->Display : displayOf(At));
    P.Files.push_back(N ? N->File : "");
    P.Lines.push_back(N ? N->BeginLine : 0);
    auto It = Next.find(At);
    if (It == Next.end() || It->second.empty())
      break;
    At = It->second;
  }
  return P;
}

bool ReferenceGraph::isEntryPoint(
    llvm::StringRef Key,
    llvm::function_ref<bool(llvm::StringRef)> Public) const {
  const Node *N = node(Key);
  if (!N || !isFunctionKind(N->Kind) || N->Kind == ElementKind::Lambda)
    return false;
  if (Public(N->File))
    return true;
  auto It = Declarations.find(Key);
  if (It != Declarations.end())
    for (const std::string &D : It->second)
      if (const Node *DN = node(D))
        if (Public(DN->File))
          return true;
  return false;
}

std::vector<const ReferenceGraph::Node *>
ReferenceGraph::find(llvm::StringRef Name) const {
  std::vector<const Node *> Out;
  for (const auto &[Key, N] : Nodes) {
    if (!isFunctionKind(N.Kind))
      continue;
    std::string Q = qualifiedName(N.Display);
    llvm::StringRef QR = Q;
    if (Key == Name || N.Display == Name || QR == Name ||
        (QR.ends_with(Name) && QR.drop_back(Name.size()).ends_with("::")))
      Out.push_back(&N);
  }
  return Out;
}

std::string ReferenceGraph::trigger(const Node &N) {
  std::string Class = qualifiedName(N.Display);
  llvm::StringRef C = Class;
  size_t Colons = C.rfind("::");
  llvm::StringRef Owner =
      Colons == llvm::StringRef::npos ? C : C.take_front(Colons);
  switch (N.Kind) {
  case ElementKind::Constructor:
    return ("runs when a " + Owner +
            " is constructed (a variable, a "
            "temporary, new, std::make_unique, a container element)")
        .str();
  case ElementKind::Destructor:
    return ("runs when a " + Owner +
            " is destroyed (end of scope, delete, "
            "the owner's destruction, a container's clear)")
        .str();
  case ElementKind::Operator:
    return "runs when the operator is applied to its operands (" +
           unqualifiedName(N.Display) + ")";
  case ElementKind::Conversion:
    return ("runs when a " + Owner + " converts implicitly or by a cast").str();
  default:
    return "";
  }
}

bool isDefaultPublicHeader(llvm::StringRef Path) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Path.split(Parts, '/');
  Parts.pop_back();
  return llvm::is_contained(Parts, "include");
}

} // namespace select
} // namespace tia
