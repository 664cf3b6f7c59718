//===- NameRTS.h - name-based dependency propagation ------------*- C++ -*-===//
//
// Private to lib/Select. The static selection of Python tests: NameRTS
// (Wang, Pradel, Liu, "Names Are All You Need: Effective and Safe
// Regression Test Selection for Python", 2026). A project is a bipartite
// graph of names and code elements (NameNode): a definition edge from each
// name to the elements defined under it, a usage edge from each element to
// the names its bytecode uses. A test reaches what propagation from its
// names reaches (Algorithm 1), pruned by context (a name without a dot
// resolves to its own file's definition or its import; an attribute of
// self to the class hierarchy) and by runtime evidence (a critical
// function, one whose name expands the most, is followed only when the
// test file was seen calling it) (Algorithm 2). A test is selected when it
// reaches a changed element.
//
// Code that runs when a module is imported is reached by every test that
// imports it: the module's statements (with its decorators), assignments
// whose value runs code, classes with a metaclass or class keywords, and
// __init_subclass__ and __set_name__ methods. A changed binding that only
// binds a name is reached through that name, unless something reads it
// without naming it (see importWideWhy); then it runs at import too.
//
// Plain data in, plain data out: no store, no git, no Python.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_SELECT_NAMERTS_H
#define TIA_LIB_SELECT_NAMERTS_H

#include "tia/Support/Model.h"
#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tia {
namespace select {
namespace namerts {

/// How a node differs between the base and the head of the change.
enum class NodeChange : uint8_t { None, Modified, Added, Deleted };

/// Returns "modified", "added", "deleted" ("" for None).
llvm::StringRef nodeChangeName(NodeChange C);

/// One Python file of the graph, as of the head of the change; a file of
/// the base only (deleted, or moved to another module name) keeps its base
/// nodes, as Deleted, so that what still names them reaches them.
struct GraphFile {
  std::string Path;
  std::string Module;
  bool BaseOnly = false;
  std::vector<NameNode> Nodes;
  /// Parallel to Nodes; None when not given.
  std::vector<NodeChange> Changes;
  /// Why a node counts as changed besides its checksum ("the import of X
  /// changed"), parallel to Nodes; may be empty.
  std::vector<std::string> ChangeNotes;
  /// Per node: its header (decorators, defaults) changed, so a registry
  /// decorator may register it differently; may be empty.
  std::vector<uint8_t> HeaderChanged;
  std::vector<NameBinding> Bindings;
  std::vector<ImportRecord> Imports;
  /// The tests it defines (pytest node ids without "pytest:").
  std::vector<TestDefinition> Tests;
};

struct GraphOptions {
  /// Registry decorators: a decorator any part of whose dotted name
  /// contains one of these (case-insensitive) registers what it decorates.
  std::vector<std::string> RegistryKeywords{"register", "route", "router",
                                            "hook"};
  /// Names whose functions are followed only with runtime evidence.
  std::vector<std::string> CriticalNames;
  /// pytest's python_functions prefixes and globs: methods named so are
  /// run by the framework without being named (inherited test methods).
  std::vector<std::string> TestFunctionPatterns{"test"};
  /// Algorithm 2's context-aware matching (off: every definition of a name
  /// is a candidate, for measuring what it prunes).
  bool ContextMatching = true;
};

/// What the runs of one test file observed (RuntimeEvidence), already
/// checked to be usable: isolated and not stale.
struct FileEvidence {
  bool Present = false;
  /// Keys ("py:<module>:<qualified name>") of the probed functions, of
  /// those that ran (in the file or at import), of the modules importlib
  /// loaded, and the names reached dynamically.
  std::set<std::string> Probed, Invoked, Imports, Names;
  /// Per node: 1 when it changed since the evidence was recorded (between
  /// the run's commit and the base); null when nothing did. A file whose
  /// propagation reaches such a node cannot trust what the run saw, and is
  /// propagated again without pruning.
  const std::vector<uint8_t> *Stale = nullptr;
};

/// One changed node a test reaches, and how.
struct Hit {
  uint32_t Node = 0;
  /// "test_a.py::test_1 uses A1 -> m.A1 uses magnify -> m.A1.magnify".
  std::string Chain;
};

/// What propagation found for one test file.
struct FileOutcome {
  /// Every test of the file reaches Hits[0] from what all its tests share
  /// (module code, roots, runtime names); empty otherwise.
  std::vector<Hit> Shared;
  /// The tests that reach a changed node through their own names:
  /// (test name, hit).
  std::vector<std::pair<std::string, Hit>> Tests;
  /// The file as a whole reaches a changed node but a test could not be
  /// told apart (no definition found): these test names go by the file.
  std::vector<std::string> ByFile;
  /// The first changed node the file as a whole reaches, if any.
  std::optional<Hit> Whole;
  /// The evidence was given but is stale for this file: it was propagated
  /// without pruning.
  bool EvidenceStale = false;
  /// Number of nodes reached by the file as a whole and critical nodes
  /// pruned (for reports and benches).
  unsigned Reached = 0, PrunedCritical = 0;
};

class Graph {
public:
  Graph(std::vector<GraphFile> Files, const GraphOptions &O);

  size_t numFiles() const { return Files.size(); }
  const GraphFile &file(uint32_t F) const { return Files[F]; }
  size_t numNodes() const { return Nodes.size(); }
  /// The file and the index in it of node \p N.
  std::pair<uint32_t, uint32_t> where(uint32_t N) const {
    return {Nodes[N].File, Nodes[N].Index};
  }
  /// "py:<module>:<qualified name>" of node \p N (the identity probes and
  /// evidence use).
  std::string nodeKey(uint32_t N) const;
  /// "module.Class.method", or "module code of module".
  std::string display(uint32_t N) const;
  NodeChange change(uint32_t N) const { return Nodes[N].Change; }
  bool isVariable(uint32_t N) const { return Nodes[N].K == Kind::Variable; }
  /// Why a change to variable node \p N reaches every test that imports its
  /// file rather than those that use its name ("its value runs code at
  /// import", "shop.pricing defines __getattr__"...); empty when it does
  /// not, or \p N did not change.
  llvm::StringRef importWideWhy(uint32_t N) const;
  /// The functions and methods whose code uses variable node \p N,
  /// directly or through variables that only bind what uses it.
  std::vector<uint32_t> nameUsers(uint32_t N) const;
  /// Files defining at least one test.
  std::vector<uint32_t> testFiles() const;
  /// Index of the file at \p Path; -1 when none.
  int64_t fileIndex(llvm::StringRef Path) const;

  /// Algorithm 1 for test file \p F with its evidence \p E: which changed
  /// nodes the file's tests reach, test by test (Tests lists the test
  /// names to consider; all of the file's when empty).
  FileOutcome select(uint32_t F, const FileEvidence &E,
                     const std::vector<std::string> &Tests = {}) const;

  /// Propagation for the whole of test file \p F without critical
  /// pruning, adding to \p Gain[name] the number of names each name's
  /// definitions added (the aggregated expansion that ranks critical
  /// names).
  void addExpansion(uint32_t F, std::map<std::string, uint64_t> &Gain) const;

  /// The function and method nodes whose runtime evidence matters, as
  /// keys: those of critical names, operator and other double-underscore
  /// methods, and registry-decorated functions.
  std::vector<std::string> probeKeys() const;

  /// Every name defined in the graph (for filtering what runtime probes
  /// record).
  std::vector<std::string> definedNames() const;

private:
  enum : uint8_t {
    FRoot = 1,
    FRegistryFunction = 2,
    FDunder = 4,
    FCritical = 8,
    FNeverPrune = 16,
    /// A registered function that is new or registered differently.
    FReregistered = 32,
    /// Runs when its file is imported: reached by every test that imports
    /// the file, like the module's code.
    FImportTime = 64,
    /// A variable whose statement only binds names.
    FPure = 128,
  };
  enum class Kind : uint8_t { Module, Class, Function, Variable };
  enum class Use : uint8_t { NonAttr, SureAttr, AmbAttr };
  static constexpr uint32_t None = ~0u;

  struct Node {
    uint32_t File = 0, Index = 0;
    uint32_t Name = None, Class = None;
    Kind K = Kind::Function;
    NodeChange Change = NodeChange::None;
    uint8_t Flags = 0;
    uint32_t UseBegin = 0, UseEnd = 0; ///< into UseRes
  };
  struct Resolution {
    uint32_t Name = None;
    Use U = Use::AmbAttr;
    std::vector<uint32_t> Candidates;
  };
  struct FileInfo {
    std::vector<uint32_t> Nodes;
    std::vector<uint32_t> Imports; ///< files it imports directly
    std::vector<uint32_t> Implied; ///< conftest.py and __init__.py it runs
    bool Test = false;
  };
  /// What an import binding leads to.
  struct Target {
    std::vector<uint32_t> Nodes;
    bool Module = false;  ///< a module, not an element
    bool Unknown = false; ///< outside the project, or not understood
  };
  class State;

  uint32_t intern(llvm::StringRef Name);
  uint32_t lookup(llvm::StringRef Name) const;
  void buildNodes(const GraphOptions &O);
  void findCallbacks();
  void buildImports();
  void buildHierarchy();
  void buildResolutions(const GraphOptions &O);
  uint32_t resolution(Use U, uint32_t Name, uint32_t File, uint32_t Class);
  std::vector<uint32_t> candidates(Use U, uint32_t Name, uint32_t File,
                                   uint32_t Class);
  Target resolveIn(uint32_t File, uint32_t Name, unsigned Depth) const;
  Target resolveModule(llvm::StringRef Module, uint32_t Name,
                       unsigned Depth) const;
  int64_t moduleFile(llvm::StringRef Module) const;
  std::set<uint32_t> hierarchy(uint32_t Class);
  void markNeverPrune();
  void markImportWide();
  void findUsers(std::set<uint32_t> Targets);
  std::string importWideReason(uint32_t N, std::set<uint32_t> &Seen) const;
  std::string hierarchyReason(uint32_t File, uint32_t Class) const;
  std::string classReason(uint32_t Class, std::set<uint32_t> &Seen) const;

  std::vector<uint8_t> visibleFiles(uint32_t F, const FileEvidence &E) const;
  void seedShared(State &S, uint32_t F, const FileEvidence &E) const;
  bool seedTest(State &S, uint32_t F, llvm::StringRef Test) const;
  void push(State &S, uint32_t R, uint32_t From, uint8_t Source) const;
  void reach(State &S, uint32_t N, uint8_t Seed, uint32_t PredRes,
             uint32_t PredNode) const;
  bool pruned(const State &S, uint32_t C) const;
  void consider(State &S, uint32_t C, uint32_t R) const;
  void run(State &S) const;
  std::string chain(const State &S, uint32_t N) const;

  std::vector<GraphFile> Files;
  std::vector<FileInfo> Info;
  std::vector<Node> Nodes;
  std::vector<std::string> Names;
  llvm::StringMap<uint32_t> NameIds;
  std::vector<std::vector<uint32_t>> Defs; ///< per name: nodes defined so
  std::vector<uint32_t> UseRes;
  std::vector<Resolution> Res;
  std::map<std::string, uint32_t> ResIds;
  std::vector<uint32_t> AmbRes; ///< per name
  std::map<std::string, uint32_t> ModuleFiles;
  /// Class name -> the names of its bases, and of the classes naming it
  /// as a base.
  std::vector<std::vector<uint32_t>> Bases, Derived;
  std::map<uint32_t, std::set<uint32_t>> Hierarchies;
  /// Class nodes -> their double-underscore methods.
  std::map<uint32_t, std::vector<uint32_t>> DundersOf;
  /// Class nodes with a base from outside the project -> their other
  /// methods, which that base's code may call (findCallbacks).
  std::map<uint32_t, std::vector<uint32_t>> CallbacksOf;
  std::vector<uint32_t> ImplicitNames, TestNames, Roots, RegistryFunctions;
  /// Nodes that run at import (FImportTime), and why a changed binding
  /// does.
  std::vector<uint32_t> ImportTime;
  std::map<uint32_t, std::string> ImportWide;
  /// Changed variables, and the variables that use them -> the nodes whose
  /// uses resolve to them.
  std::map<uint32_t, std::vector<uint32_t>> UsersOf;
};

} // namespace namerts
} // namespace select
} // namespace tia

#endif // TIA_LIB_SELECT_NAMERTS_H
