//===- tia/Select/Graph.h - the C++ reference graph, in memory ------------===//
//
// The references of the latest index (Store::currentReferences) with the
// versions of changed files added, walked backwards: which elements reach
// a given one, and the shortest call path from each. A reference X -> Y
// means X may run or depend on Y; an Overrides edge D -> B means a call of
// B may run D, so the walk from D goes on to B's users. Static selection,
// untested changes and `tia context` share it (docs/Safety.md lists what
// it over-approximates and what it misses).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_GRAPH_H
#define TIA_SELECT_GRAPH_H

#include "tia/Select/Selection.h"
#include "tia/Support/Model.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tia {
class Store;

namespace select {

class ReferenceGraph {
public:
  struct Node {
    std::string Key;
    ElementKind Kind = ElementKind::Function;
    std::string Display;
    std::string File;
    unsigned BeginLine = 0, EndLine = 0;
  };

  /// The graph of \p S's latest revision.
  static llvm::Expected<ReferenceGraph> load(Store &S);

  /// Adds the elements and references of \p F (a version of a changed
  /// file): its elements replace those stored for its path, its edges join
  /// the stored ones (the union over-approximates both versions).
  void add(const FileIndex &F);
  void add(const Reference &R);

  /// The element \p Key; null when the index has none.
  const Node *node(llvm::StringRef Key) const;
  /// The elements of \p File, by begin line.
  std::vector<const Node *> elementsOf(llvm::StringRef File) const;
  /// Every file with elements.
  std::vector<std::string> files() const;

  /// Every element (and referencing file residual) from which one of
  /// \p Targets is reachable, mapped to the next step of a shortest path
  /// towards it (empty for the targets themselves).
  std::map<std::string, std::string>
  reachersOf(const std::vector<std::string> &Targets) const;

  /// The path from \p From along \p Next (a reachersOf answer).
  CallPath path(const std::map<std::string, std::string> &Next,
                llvm::StringRef From) const;

  /// True when function \p Key is defined in, or declared by a prototype
  /// in, a file \p Public accepts.
  bool isEntryPoint(llvm::StringRef Key,
                    llvm::function_ref<bool(llvm::StringRef)> Public) const;

  /// The functions whose display's qualified name is \p Name or ends with
  /// "::" + \p Name, or whose key is \p Name; sorted by key.
  std::vector<const Node *> find(llvm::StringRef Name) const;

  /// How a special member runs ("runs when a calc::Vector is destroyed");
  /// empty for other kinds.
  static std::string trigger(const Node &N);

private:
  void addNode(Node N);

  std::map<std::string, Node, std::less<>> Nodes;
  /// A file -> the keys of its elements.
  std::map<std::string, std::set<std::string>, std::less<>> ByFile;
  /// To -> the elements referencing it (any kind but Overrides).
  std::map<std::string, std::set<std::string>, std::less<>> Users;
  /// An overriding method -> the methods it overrides.
  std::map<std::string, std::set<std::string>, std::less<>> Overridden;
  /// A function -> the prototypes that declare it.
  std::map<std::string, std::set<std::string>, std::less<>> Declarations;
};

/// The default public headers (cpp.public-headers): a path with a
/// directory component named "include".
bool isDefaultPublicHeader(llvm::StringRef Path);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_GRAPH_H
