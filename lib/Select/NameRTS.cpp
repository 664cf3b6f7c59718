//===- NameRTS.cpp - name-based dependency propagation --------------------===//
//
// Building the graph resolves every use once (Algorithm 2's context-aware
// matching does not depend on the test), so that propagation for a test
// file only walks precomputed candidate lists, filtered by what the file
// can see, by the reachability of their classes and by critical pruning.
//
//===----------------------------------------------------------------------===//

#include "NameRTS.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace tia {
namespace select {
namespace namerts {

llvm::StringRef nodeChangeName(NodeChange C) {
  switch (C) {
  case NodeChange::Modified:
    return "modified";
  case NodeChange::Added:
    return "added";
  case NodeChange::Deleted:
    return "deleted";
  case NodeChange::None:
    break;
  }
  return "";
}

namespace {

/// Methods the test frameworks call without naming them.
const char *const FrameworkNames[] = {
    "setUp",        "tearDown",        "setUpClass",     "tearDownClass",
    "setUpModule",  "tearDownModule",  "asyncSetUp",     "asyncTearDown",
    "setup_method", "teardown_method", "setup_class",    "teardown_class",
    "setup_module", "teardown_module", "setup_function", "teardown_function",
    "setup",        "teardown",        "runTest"};

bool isDunder(llvm::StringRef Name) {
  return Name.size() > 4 && Name.starts_with("__") && Name.ends_with("__");
}

/// Methods Python calls when a class statement runs, at import.
bool runsAtClassCreation(llvm::StringRef Name) {
  return Name == "__init_subclass__" || Name == "__set_name__";
}

/// Built-in bases that read none of a subclass's own attributes besides
/// those Python reads anyway (double-underscore names).
bool plainBuiltinBase(llvm::StringRef Name) {
  static const char *const Plain[] = {"object",
                                      "Exception",
                                      "BaseException",
                                      "ValueError",
                                      "TypeError",
                                      "RuntimeError",
                                      "KeyError",
                                      "IndexError",
                                      "LookupError",
                                      "AttributeError",
                                      "OSError",
                                      "IOError",
                                      "ArithmeticError",
                                      "NotImplementedError",
                                      "Warning",
                                      "UserWarning",
                                      "DeprecationWarning",
                                      "int",
                                      "float",
                                      "str",
                                      "bytes",
                                      "tuple",
                                      "list",
                                      "dict",
                                      "set",
                                      "frozenset"};
  return llvm::is_contained(Plain, Name);
}

/// "function:A.f#2" -> "A.f".
llvm::StringRef qualOf(llvm::StringRef Id) {
  return Id.split(':').second.split('#').first;
}

bool matchesPattern(llvm::StringRef Name, llvm::StringRef Pattern) {
  if (Pattern.find_first_of("*?[") == llvm::StringRef::npos)
    return Name.starts_with(Pattern);
  // pytest's globs here are simple: '*' and '?' only.
  std::function<bool(size_t, size_t)> Match = [&](size_t N, size_t P) {
    if (P == Pattern.size())
      return N == Name.size();
    if (Pattern[P] == '*')
      return Match(N, P + 1) || (N < Name.size() && Match(N + 1, P));
    return N < Name.size() && (Pattern[P] == '?' || Pattern[P] == Name[N]) &&
           Match(N + 1, P + 1);
  };
  return Match(0, 0);
}

} // namespace

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

Graph::Graph(std::vector<GraphFile> FilesIn, const GraphOptions &O)
    : Files(std::move(FilesIn)) {
  buildNodes(O);
  findCallbacks();
  buildImports();
  buildHierarchy();
  buildResolutions(O);
  markNeverPrune();
  markImportWide();
}

uint32_t Graph::intern(llvm::StringRef Name) {
  auto [It, New] = NameIds.try_emplace(Name, Names.size());
  if (New) {
    Names.push_back(Name.str());
    Defs.emplace_back();
  }
  return It->second;
}

uint32_t Graph::lookup(llvm::StringRef Name) const {
  auto It = NameIds.find(Name);
  return It == NameIds.end() ? None : It->second;
}

void Graph::buildNodes(const GraphOptions &O) {
  Info.resize(Files.size());
  std::vector<std::string> Keywords;
  for (const std::string &K : O.RegistryKeywords)
    Keywords.push_back(llvm::StringRef(K).lower());
  std::set<std::string> Critical(O.CriticalNames.begin(),
                                 O.CriticalNames.end());
  for (uint32_t F = 0; F < Files.size(); ++F) {
    GraphFile &GF = Files[F];
    GF.Changes.resize(GF.Nodes.size(), NodeChange::None);
    GF.ChangeNotes.resize(GF.Nodes.size());
    GF.HeaderChanged.resize(GF.Nodes.size(), 0);
    Info[F].Test = !GF.Tests.empty() && !GF.BaseOnly;
    std::map<std::string, uint32_t> ClassNodes;
    for (uint32_t I = 0; I < GF.Nodes.size(); ++I) {
      const NameNode &NN = GF.Nodes[I];
      Node N;
      N.File = F;
      N.Index = I;
      N.Change = GF.BaseOnly ? NodeChange::Deleted : GF.Changes[I];
      N.K = NN.Kind == "module"     ? Kind::Module
            : NN.Kind == "class"    ? Kind::Class
            : NN.Kind == "variable" ? Kind::Variable
                                    : Kind::Function;
      N.Name = intern(NN.Name);
      if (!NN.Class.empty())
        N.Class = intern(NN.Class);
      if (llvm::is_contained(NN.Flags, "root"))
        N.Flags |= FRoot;
      bool Registry = false;
      for (const std::string &D : NN.Decorators) {
        std::string Lower = llvm::StringRef(D).lower();
        for (const std::string &K : Keywords)
          Registry |= llvm::StringRef(Lower).contains(K);
      }
      if (Registry)
        N.Flags |= N.K == Kind::Class ? FRoot : FRegistryFunction;
      if (Registry && (N.Change == NodeChange::Added || GF.HeaderChanged[I]))
        N.Flags |= FReregistered;
      if (N.K == Kind::Function && N.Class != None && isDunder(NN.Name))
        N.Flags |= FDunder;
      if (N.K == Kind::Function && Critical.count(NN.Name))
        N.Flags |= FCritical;
      if (N.K == Kind::Variable && llvm::is_contained(NN.Flags, "pure"))
        N.Flags |= FPure;
      if ((N.K == Kind::Variable && !(N.Flags & FPure)) ||
          (N.K == Kind::Class && llvm::is_contained(NN.Flags, "keywords")) ||
          (N.K == Kind::Function && N.Class != None &&
           runsAtClassCreation(NN.Name)))
        N.Flags |= FImportTime;
      uint32_t Id = Nodes.size();
      Nodes.push_back(N);
      Info[F].Nodes.push_back(Id);
      if (N.Flags & FImportTime)
        ImportTime.push_back(Id);
      if (N.K == Kind::Module)
        continue;
      Defs[N.Name].push_back(Id);
      for (const std::string &A : NN.Aliases)
        Defs[intern(A)].push_back(Id);
      if (N.K == Kind::Class)
        ClassNodes[NN.Name] = Id;
      if (N.Flags & FRoot)
        Roots.push_back(Id);
      if (N.Flags & FRegistryFunction)
        RegistryFunctions.push_back(Id);
    }
    for (uint32_t Id : Info[F].Nodes)
      if (Nodes[Id].Flags & FDunder) {
        auto It = ClassNodes.find(Names[Nodes[Id].Class]);
        if (It != ClassNodes.end())
          DundersOf[It->second].push_back(Id);
      }
  }
  for (const char *Name : FrameworkNames)
    if (uint32_t N = lookup(Name); N != None)
      ImplicitNames.push_back(N);
  for (uint32_t N = 0; N < Names.size(); ++N)
    if (llvm::any_of(Defs[N],
                     [&](uint32_t D) {
                       return Nodes[D].K == Kind::Function &&
                              Nodes[D].Class != None;
                     }) &&
        llvm::any_of(O.TestFunctionPatterns, [&](const std::string &P) {
          return matchesPattern(Names[N], P);
        }))
      TestNames.push_back(N);
}

/// Bases whose code calls no method of a subclass by a name the subclass
/// defines (tests' own classes are run by the framework anyway).
static bool callsNoSubclassMethod(llvm::StringRef Base) {
  return Base == "object" || Base == "ABC" || Base == "Protocol" ||
         Base == "Generic" || Base == "TestCase" ||
         Base == "IsolatedAsyncioTestCase";
}

void Graph::findCallbacks() {
  // A class extending one from outside the project hands its methods to
  // code tia does not read: logging calls a Handler's emit, threading a
  // Thread's run, json an Encoder's default. Reached, such a class reaches
  // all its methods.
  std::set<std::string> ProjectClasses;
  for (const GraphFile &GF : Files)
    for (const NameNode &NN : GF.Nodes)
      if (NN.Kind == "class")
        ProjectClasses.insert(NN.Name);
  for (uint32_t F = 0; F < Files.size(); ++F) {
    std::map<uint32_t, uint32_t> Open; // class name -> class node
    for (uint32_t Id : Info[F].Nodes) {
      if (Nodes[Id].K != Kind::Class)
        continue;
      const NameNode &NN = Files[F].Nodes[Nodes[Id].Index];
      if (llvm::any_of(NN.Bases, [&](const std::string &B) {
            return !ProjectClasses.count(B) && !callsNoSubclassMethod(B);
          }))
        Open[Nodes[Id].Name] = Id;
    }
    if (Open.empty())
      continue;
    for (uint32_t Id : Info[F].Nodes) {
      const Node &N = Nodes[Id];
      if (N.K != Kind::Function || N.Class == None || (N.Flags & FDunder))
        continue;
      auto It = Open.find(N.Class);
      if (It != Open.end())
        CallbacksOf[It->second].push_back(Id);
    }
  }
}

int64_t Graph::moduleFile(llvm::StringRef Module) const {
  auto It = ModuleFiles.find(Module.str());
  return It == ModuleFiles.end() ? -1 : static_cast<int64_t>(It->second);
}

int64_t Graph::fileIndex(llvm::StringRef Path) const {
  for (uint32_t F = 0; F < Files.size(); ++F)
    if (Files[F].Path == Path && !Files[F].BaseOnly)
      return F;
  return -1;
}

void Graph::buildImports() {
  // Head files claim their module names first; a file of the base only
  // keeps its old name when nothing took it.
  for (bool BaseOnly : {false, true})
    for (uint32_t F = 0; F < Files.size(); ++F)
      if (Files[F].BaseOnly == BaseOnly)
        ModuleFiles.emplace(Files[F].Module, F);
  std::map<std::string, uint32_t> ByPath;
  for (uint32_t F = 0; F < Files.size(); ++F)
    if (!Files[F].BaseOnly)
      ByPath.emplace(Files[F].Path, F);
  for (uint32_t F = 0; F < Files.size(); ++F) {
    std::set<uint32_t> To;
    auto Add = [&](llvm::StringRef Module) {
      int64_t T = moduleFile(Module);
      if (T >= 0 && static_cast<uint32_t>(T) != F)
        To.insert(static_cast<uint32_t>(T));
    };
    for (const ImportRecord &I : Files[F].Imports) {
      // "import a.b.c" runs a, a.b and a.b.c; "from a import b" also a.b
      // when it is a module.
      llvm::StringRef M = I.Module;
      for (size_t Dot = M.find('.');; Dot = M.find('.', Dot + 1)) {
        Add(M.take_front(Dot));
        if (Dot == llvm::StringRef::npos)
          break;
      }
      if (!I.Name.empty() && I.Name != "*")
        Add(I.Module + "." + I.Name);
    }
    Info[F].Imports.assign(To.begin(), To.end());
    // Importing a module runs the __init__.py of its packages first.
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(Files[F].Path);
         !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
      auto It = ByPath.find((Dir + "/__init__.py").str());
      if (It != ByPath.end() && It->second != F)
        Info[F].Implied.push_back(It->second);
    }
  }
}

void Graph::buildHierarchy() {
  Bases.assign(Names.size(), {});
  Derived.assign(Names.size(), {});
  for (uint32_t Id = 0; Id < Nodes.size(); ++Id) {
    if (Nodes[Id].K != Kind::Class)
      continue;
    const NameNode &NN = Files[Nodes[Id].File].Nodes[Nodes[Id].Index];
    for (const std::string &B : NN.Bases) {
      uint32_t BaseName = intern(B);
      Bases.resize(Names.size());
      Derived.resize(Names.size());
      Bases[Nodes[Id].Name].push_back(BaseName);
      Derived[BaseName].push_back(Nodes[Id].Name);
    }
  }
  Bases.resize(Names.size());
  Derived.resize(Names.size());
}

std::set<uint32_t> Graph::hierarchy(uint32_t Class) {
  auto Cached = Hierarchies.find(Class);
  if (Cached != Hierarchies.end())
    return Cached->second;
  // Every class that can share an object with Class: its subclasses and
  // everything they inherit from (so a mixin sees the methods of the
  // classes it is mixed with, not only its own bases).
  auto Closure = [&](std::vector<uint32_t> Work,
                     const std::vector<std::vector<uint32_t>> &Edges) {
    std::set<uint32_t> Seen(Work.begin(), Work.end());
    while (!Work.empty()) {
      uint32_t C = Work.back();
      Work.pop_back();
      if (C < Edges.size())
        for (uint32_t Next : Edges[C])
          if (Seen.insert(Next).second)
            Work.push_back(Next);
    }
    return Seen;
  };
  std::set<uint32_t> Down = Closure({Class}, Derived);
  std::set<uint32_t> All =
      Closure(std::vector<uint32_t>(Down.begin(), Down.end()), Bases);
  return Hierarchies[Class] = All;
}

Graph::Target Graph::resolveModule(llvm::StringRef Module, uint32_t Name,
                                   unsigned Depth) const {
  Target T;
  int64_t F = moduleFile(Module);
  if (F >= 0)
    T = resolveIn(static_cast<uint32_t>(F), Name, Depth + 1);
  if (T.Nodes.empty() && !T.Module &&
      moduleFile((Module + "." + Names[Name]).str()) >= 0) {
    T = Target();
    T.Module = true;
  }
  if (F < 0 && !T.Module)
    T.Unknown = true;
  return T;
}

Graph::Target Graph::resolveIn(uint32_t File, uint32_t Name,
                               unsigned Depth) const {
  Target T;
  if (Depth > 8) {
    T.Unknown = true;
    return T;
  }
  for (uint32_t N : Info[File].Nodes)
    if (Nodes[N].Name == Name && Nodes[N].Class == None &&
        Nodes[N].K != Kind::Module)
      T.Nodes.push_back(N);
  if (!T.Nodes.empty())
    return T;
  const std::string &Local = Names[Name];
  bool Bound = false;
  for (const NameBinding &B : Files[File].Bindings) {
    if (B.Local != Local)
      continue;
    Bound = true;
    if (B.Name.empty()) {
      T.Module = true;
      continue;
    }
    uint32_t Imported = lookup(B.Name);
    if (Imported == None) {
      T.Unknown = true;
      continue;
    }
    Target Sub = resolveModule(B.Module, Imported, Depth);
    T.Nodes.insert(T.Nodes.end(), Sub.Nodes.begin(), Sub.Nodes.end());
    T.Module |= Sub.Module;
    T.Unknown |= Sub.Unknown || (Sub.Nodes.empty() && !Sub.Module);
  }
  if (Bound)
    return T;
  for (const NameBinding &B : Files[File].Bindings) {
    if (B.Local != "*")
      continue;
    Target Sub = resolveModule(B.Module, Name, Depth);
    T.Nodes.insert(T.Nodes.end(), Sub.Nodes.begin(), Sub.Nodes.end());
    T.Module |= Sub.Module;
    // A star import of code outside the project may bind anything.
    T.Unknown |= Sub.Unknown;
  }
  if (T.Nodes.empty() && !T.Module)
    T.Unknown = true;
  return T;
}

std::vector<uint32_t> Graph::candidates(Use U, uint32_t Name, uint32_t File,
                                        uint32_t Class) {
  std::vector<uint32_t> All = Defs[Name];
  if (U == Use::AmbAttr)
    return All;
  if (U == Use::SureAttr) {
    if (Class == None)
      return All;
    std::set<uint32_t> H = hierarchy(Class);
    std::vector<uint32_t> Out;
    for (uint32_t N : All)
      if (Nodes[N].Class != None && H.count(Nodes[N].Class))
        Out.push_back(N);
    return Out;
  }
  // A name without a dot: its own file's definition (a class body also
  // sees its class's names), else what its import binds, else all.
  std::vector<uint32_t> Same;
  for (uint32_t N : Info[File].Nodes)
    if (Nodes[N].Name == Name && Nodes[N].K != Kind::Module &&
        (Nodes[N].Class == None || Nodes[N].Class == Class))
      Same.push_back(N);
  bool Bound = llvm::any_of(Files[File].Bindings, [&](const NameBinding &B) {
    return B.Local == Names[Name];
  });
  Target T;
  if (Bound) {
    // resolveIn would stop at the same-file definition; bindings go too.
    for (const NameBinding &B : Files[File].Bindings) {
      if (B.Local != Names[Name])
        continue;
      if (B.Name.empty()) {
        T.Module = true;
        continue;
      }
      uint32_t Imported = lookup(B.Name);
      Target Sub = Imported == None ? Target{{}, false, true}
                                    : resolveModule(B.Module, Imported, 0);
      T.Nodes.insert(T.Nodes.end(), Sub.Nodes.begin(), Sub.Nodes.end());
      T.Module |= Sub.Module;
      T.Unknown |= Sub.Unknown || (Sub.Nodes.empty() && !Sub.Module);
    }
  }
  if (!Same.empty()) {
    Same.insert(Same.end(), T.Nodes.begin(), T.Nodes.end());
    return Same;
  }
  if (Bound) {
    if (T.Unknown)
      return All;
    return T.Nodes;
  }
  Target Star = resolveIn(File, Name, 0);
  if (!Star.Unknown)
    return Star.Nodes;
  return All;
}

uint32_t Graph::resolution(Use U, uint32_t Name, uint32_t File,
                           uint32_t Class) {
  std::string Key =
      std::to_string(static_cast<int>(U)) + ":" + std::to_string(Name);
  if (U == Use::NonAttr)
    Key += ":" + std::to_string(File) + ":" + std::to_string(Class);
  else if (U == Use::SureAttr)
    Key += ":" + std::to_string(Class);
  auto [It, New] = ResIds.try_emplace(Key, Res.size());
  if (New) {
    Resolution R;
    R.Name = Name;
    R.U = U;
    R.Candidates = candidates(U, Name, File, Class);
    std::sort(R.Candidates.begin(), R.Candidates.end());
    R.Candidates.erase(std::unique(R.Candidates.begin(), R.Candidates.end()),
                       R.Candidates.end());
    Res.push_back(std::move(R));
  }
  return It->second;
}

void Graph::buildResolutions(const GraphOptions &O) {
  for (uint32_t N = 0; N < Names.size(); ++N)
    AmbRes.push_back(resolution(Use::AmbAttr, N, 0, None));
  for (uint32_t Id = 0; Id < Nodes.size(); ++Id) {
    Node &N = Nodes[Id];
    const GraphFile &GF = Files[N.File];
    N.UseBegin = UseRes.size();
    llvm::SmallVector<llvm::StringRef, 16> Uses;
    llvm::StringRef(GF.Nodes[N.Index].Uses).split(Uses, ' ', -1, false);
    for (llvm::StringRef U : Uses) {
      auto [Kind, Name] = U.split(':');
      if (Name.empty())
        continue;
      Use K = Kind == "s"   ? Use::SureAttr
              : Kind == "a" ? Use::AmbAttr
                            : Use::NonAttr;
      uint32_t NameId = intern(Name);
      if (NameId >= AmbRes.size())
        AmbRes.push_back(resolution(Use::AmbAttr, NameId, 0, None));
      if (!O.ContextMatching)
        K = Use::AmbAttr;
      UseRes.push_back(K == Use::AmbAttr
                           ? AmbRes[NameId]
                           : resolution(K, NameId, N.File, N.Class));
    }
    // An import of a name that is gone breaks the importing module at
    // import time: its module code reaches what the import named.
    if (N.K == Kind::Module && !GF.BaseOnly)
      for (const NameBinding &B : GF.Bindings) {
        if (B.Name.empty() || B.Local == "*")
          continue;
        uint32_t Imported = lookup(B.Name);
        if (Imported == None)
          continue;
        Target T = resolveModule(B.Module, Imported, 0);
        if (T.Nodes.empty() || !llvm::all_of(T.Nodes, [&](uint32_t C) {
              return Nodes[C].Change == NodeChange::Deleted;
            }))
          continue;
        Resolution R;
        R.Name = Imported;
        R.U = Use::NonAttr;
        R.Candidates = T.Nodes;
        UseRes.push_back(Res.size());
        Res.push_back(std::move(R));
      }
    N.UseEnd = UseRes.size();
  }
}

void Graph::markNeverPrune() {
  // A method whose overriding implementation was deleted may now be called
  // where the override was: what the runs saw of it does not hold.
  for (const Node &D : Nodes) {
    if (D.Change != NodeChange::Deleted || D.K != Kind::Function ||
        D.Class == None)
      continue;
    std::set<uint32_t> Up;
    std::vector<uint32_t> Work{D.Class};
    while (!Work.empty()) {
      uint32_t C = Work.back();
      Work.pop_back();
      for (uint32_t B : Bases[C])
        if (Up.insert(B).second)
          Work.push_back(B);
    }
    for (uint32_t N : Defs[D.Name])
      if (Nodes[N].Class != None && Up.count(Nodes[N].Class))
        Nodes[N].Flags |= FNeverPrune;
  }
}

void Graph::markImportWide() {
  std::set<uint32_t> Changed;
  for (uint32_t N = 0; N < Nodes.size(); ++N)
    if (Nodes[N].K == Kind::Variable && Nodes[N].Change != NodeChange::None)
      Changed.insert(N);
  if (Changed.empty())
    return;
  findUsers(Changed);
  for (uint32_t N : Changed) {
    std::set<uint32_t> Seen{N};
    std::string Why = importWideReason(N, Seen);
    if (Why.empty())
      continue;
    ImportWide[N] = std::move(Why);
    if (!(Nodes[N].Flags & FImportTime)) {
      Nodes[N].Flags |= FImportTime;
      ImportTime.push_back(N);
    }
  }
}

void Graph::findUsers(std::set<uint32_t> Targets) {
  // One pass over every use per round; a round adds the variables that
  // only bind what uses a target, whose own users count too.
  std::set<uint32_t> Done;
  while (!Targets.empty()) {
    llvm::BitVector Wanted(Nodes.size());
    for (uint32_t T : Targets) {
      Wanted.set(T);
      UsersOf[T];
    }
    for (uint32_t M = 0; M < Nodes.size(); ++M)
      for (uint32_t U = Nodes[M].UseBegin; U < Nodes[M].UseEnd; ++U)
        for (uint32_t C : Res[UseRes[U]].Candidates)
          if (Wanted[C] && C != M && !llvm::is_contained(UsersOf[C], M))
            UsersOf[C].push_back(M);
    Done.insert(Targets.begin(), Targets.end());
    std::set<uint32_t> Next;
    for (uint32_t T : Targets)
      for (uint32_t M : UsersOf[T])
        if (Nodes[M].K == Kind::Variable && (Nodes[M].Flags & FPure) &&
            !Done.count(M))
          Next.insert(M);
    Targets = std::move(Next);
  }
}

std::string Graph::importWideReason(uint32_t N,
                                    std::set<uint32_t> &Seen) const {
  const Node &Nd = Nodes[N];
  const GraphFile &GF = Files[Nd.File];
  const NameNode &NN = GF.Nodes[Nd.Index];
  if (!(Nd.Flags & FPure))
    return "its value runs code at import";
  if (isDunder(NN.Name))
    return "Python reads " + NN.Name + " without naming it";
  if (Info[Nd.File].Test || llvm::sys::path::filename(GF.Path) == "conftest.py")
    return "pytest reads the names of " + GF.Path + " without naming them";
  for (uint32_t M : Info[Nd.File].Nodes)
    if (Nodes[M].K == Kind::Function && Nodes[M].Class == None &&
        (Names[Nodes[M].Name] == "__getattr__" ||
         Names[Nodes[M].Name] == "__dir__"))
      return GF.Module + " defines a module " + Names[Nodes[M].Name];
  for (const GraphFile &Other : Files)
    if (!Other.BaseOnly && llvm::any_of(Other.Bindings, [&](const auto &B) {
          return B.Local == "*" && B.Module == GF.Module;
        }))
      return GF.Module + " is star-imported by " + Other.Path;
  if (Nd.Class != None) {
    std::string Why = hierarchyReason(Nd.File, Nd.Class);
    if (!Why.empty())
      return Why;
  }
  auto Users = UsersOf.find(N);
  if (Users == UsersOf.end())
    return std::string();
  for (uint32_t M : Users->second) {
    if (Nodes[M].K == Kind::Class)
      return "the class statement of " + display(M) + " uses it at import";
    if (Nodes[M].K != Kind::Variable || !(Nodes[M].Flags & FPure) ||
        !Seen.insert(M).second)
      continue;
    std::string Why = importWideReason(M, Seen);
    if (!Why.empty())
      return display(M) + " uses it, and " + Why;
  }
  return std::string();
}

std::string Graph::hierarchyReason(uint32_t File, uint32_t Class) const {
  // The class itself and its bases (classReason follows them), and every
  // subclass: a decorated subclass (@dataclass) reads inherited attributes
  // as its own.
  std::set<uint32_t> Classes;
  for (uint32_t C : Info[File].Nodes)
    if (Nodes[C].K == Kind::Class && Nodes[C].Name == Class) {
      std::string Why = classReason(C, Classes);
      if (!Why.empty())
        return Why;
    }
  std::set<uint32_t> Below{Class};
  std::vector<uint32_t> Work{Class};
  while (!Work.empty()) {
    uint32_t Name = Work.back();
    Work.pop_back();
    for (uint32_t Sub : Derived[Name]) {
      if (!Below.insert(Sub).second)
        continue;
      Work.push_back(Sub);
      for (uint32_t C : Defs[Sub])
        if (Nodes[C].K == Kind::Class) {
          std::string Why = classReason(C, Classes);
          if (!Why.empty())
            return Why;
        }
    }
  }
  return std::string();
}

std::string Graph::classReason(uint32_t C, std::set<uint32_t> &Seen) const {
  if (!Seen.insert(C).second)
    return std::string();
  const NameNode &CN = Files[Nodes[C].File].Nodes[Nodes[C].Index];
  std::string Class = "class " + display(C);
  if (!CN.Decorators.empty())
    return Class + " is decorated (@" + CN.Decorators.front() + ")";
  if (llvm::is_contained(CN.Flags, "keywords"))
    return Class + " has a metaclass or class keywords";
  if (llvm::is_contained(CN.Flags, "unnamed-bases"))
    return Class + " has a base tia cannot name";
  for (uint32_t M : Info[Nodes[C].File].Nodes)
    if (Nodes[M].K == Kind::Function && Nodes[M].Class == Nodes[C].Name &&
        runsAtClassCreation(Names[Nodes[M].Name]))
      return Class + " defines " + Names[Nodes[M].Name];
  for (const std::string &B : CN.Bases) {
    uint32_t Name = lookup(B);
    std::vector<uint32_t> Defined;
    if (Name != None)
      for (uint32_t D : Defs[Name])
        if (Nodes[D].K == Kind::Class)
          Defined.push_back(D);
    if (Defined.empty()) {
      if (plainBuiltinBase(B))
        continue;
      return Class + " derives from " + B + ", which is not the project's";
    }
    for (uint32_t D : Defined) {
      std::string Why = classReason(D, Seen);
      if (!Why.empty())
        return Why;
    }
  }
  return std::string();
}

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

llvm::StringRef Graph::importWideWhy(uint32_t N) const {
  auto It = ImportWide.find(N);
  return It == ImportWide.end() ? llvm::StringRef() : It->second;
}

std::vector<uint32_t> Graph::nameUsers(uint32_t N) const {
  std::vector<uint32_t> Out;
  std::set<uint32_t> Seen{N};
  std::vector<uint32_t> Work{N};
  while (!Work.empty()) {
    uint32_t T = Work.back();
    Work.pop_back();
    auto It = UsersOf.find(T);
    if (It == UsersOf.end())
      continue;
    for (uint32_t M : It->second) {
      if (!Seen.insert(M).second)
        continue;
      if (Nodes[M].K == Kind::Function)
        Out.push_back(M);
      else if (Nodes[M].K == Kind::Variable && (Nodes[M].Flags & FPure))
        Work.push_back(M);
    }
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::string Graph::nodeKey(uint32_t N) const {
  const GraphFile &F = Files[Nodes[N].File];
  llvm::StringRef Id = F.Nodes[Nodes[N].Index].Id;
  return "py:" + F.Module + ":" + Id.split(':').second.str();
}

std::string Graph::display(uint32_t N) const {
  const GraphFile &F = Files[Nodes[N].File];
  if (Nodes[N].K == Kind::Module)
    return "module code of " + F.Module;
  return F.Module + "." + qualOf(F.Nodes[Nodes[N].Index].Id).str();
}

std::vector<uint32_t> Graph::testFiles() const {
  std::vector<uint32_t> Out;
  for (uint32_t F = 0; F < Files.size(); ++F)
    if (Info[F].Test)
      Out.push_back(F);
  return Out;
}

std::vector<std::string> Graph::probeKeys() const {
  std::vector<std::string> Out;
  for (uint32_t N = 0; N < Nodes.size(); ++N)
    if (Nodes[N].Change != NodeChange::Deleted &&
        (Nodes[N].Flags & (FCritical | FDunder | FRegistryFunction)))
      Out.push_back(nodeKey(N));
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::vector<std::string> Graph::definedNames() const {
  std::vector<std::string> Out;
  for (uint32_t N = 0; N < Names.size(); ++N)
    if (!Defs[N].empty())
      Out.push_back(Names[N]);
  return Out;
}

//===----------------------------------------------------------------------===//
// Propagation (Algorithm 1, with Algorithm 2 in consider())
//===----------------------------------------------------------------------===//

/// How a node was reached.
enum SeedKind : uint8_t {
  ByName = 0,      ///< through a use, from PredNode (or a seeded name)
  TestCode,        ///< defined in the test (or the test file)
  ModuleCode,      ///< module code of a file the test imports
  RootNode,        ///< an autouse fixture, hook, registry class...
  RegistryRan,     ///< a registry-decorated function the test ran
  RegistryUnknown, ///< a registry-decorated function without evidence
  ImplicitByClass, ///< a double-underscore method of a reached class
  CallbackByClass, ///< a method of a reached class with an outside base
  ImportTimeCode,  ///< code that runs when a file the test imports does
};

/// Who pushed a name.
enum NameSource : uint8_t { FromNode = 0, Runtime, Framework };

class Graph::State {
public:
  State(const Graph &G, const std::vector<uint8_t> &Visible,
        const FileEvidence &E, const std::vector<uint8_t> &Evidence)
      : Reached(G.Nodes.size()), Pruned(G.Nodes.size()), ResDone(G.Res.size()),
        NameReached(G.Names.size()), Visible(&Visible), E(&E),
        Evidence(&Evidence) {}

  struct NodeInfo {
    uint32_t Round = 0;
    uint32_t PredRes = ~0u;
    uint32_t PredNode = ~0u;
    SeedKind Seed = ByName;
  };
  struct ResInfo {
    uint32_t From = ~0u;
    NameSource Source = FromNode;
  };

  llvm::BitVector Reached, Pruned, ResDone, NameReached;
  llvm::DenseMap<uint32_t, NodeInfo> Nodes;
  llvm::DenseMap<uint32_t, ResInfo> Res;
  std::vector<uint32_t> Stack;
  std::vector<std::pair<uint32_t, uint32_t>> Deferred;
  std::vector<uint32_t> Order; ///< reached nodes in order
  uint32_t Round = 0;
  unsigned PrunedCount = 0;
  const std::vector<uint8_t> *Visible;
  const FileEvidence *E;
  /// Per node: bit 0 probed, bit 1 ran.
  const std::vector<uint8_t> *Evidence;
  std::map<std::string, uint64_t> *Gain = nullptr;
};

std::vector<uint8_t> Graph::visibleFiles(uint32_t F,
                                         const FileEvidence &E) const {
  std::vector<uint8_t> Seen(Files.size(), 0);
  std::vector<uint32_t> Work;
  auto Add = [&](uint32_t T) {
    if (!Seen[T]) {
      Seen[T] = 1;
      Work.push_back(T);
    }
  };
  Add(F);
  // pytest loads the conftest.py of every directory above a test.
  std::map<std::string, uint32_t> ByPath;
  for (uint32_t G = 0; G < Files.size(); ++G)
    if (!Files[G].BaseOnly &&
        llvm::sys::path::filename(Files[G].Path) == "conftest.py")
      ByPath.emplace(Files[G].Path, G);
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(Files[F].Path);;
       Dir = llvm::sys::path::parent_path(Dir)) {
    auto It =
        ByPath.find(Dir.empty() ? "conftest.py" : (Dir + "/conftest.py").str());
    if (It != ByPath.end())
      Add(It->second);
    if (Dir.empty())
      break;
  }
  for (const std::string &M : E.Imports) {
    llvm::StringRef Module = M;
    for (size_t Dot = Module.find('.');; Dot = Module.find('.', Dot + 1)) {
      int64_t T = moduleFile(Module.take_front(Dot));
      if (T >= 0)
        Add(static_cast<uint32_t>(T));
      if (Dot == llvm::StringRef::npos)
        break;
    }
  }
  while (!Work.empty()) {
    uint32_t G = Work.back();
    Work.pop_back();
    for (uint32_t T : Info[G].Imports)
      Add(T);
    for (uint32_t T : Info[G].Implied)
      Add(T);
  }
  return Seen;
}

FileOutcome Graph::select(uint32_t F, const FileEvidence &E,
                          const std::vector<std::string> &TestsIn) const {
  FileOutcome Out;
  std::vector<uint8_t> Visible = visibleFiles(F, E);
  std::vector<uint8_t> Evidence(Nodes.size(), 0);
  if (E.Present) {
    // Keys to nodes, once per file.
    std::map<llvm::StringRef, uint8_t> Bits;
    for (const std::string &K : E.Probed)
      Bits[K] |= 1;
    for (const std::string &K : E.Invoked)
      Bits[K] |= 2;
    for (uint32_t N = 0; N < Nodes.size(); ++N)
      if (Nodes[N].Flags & (FCritical | FDunder | FRegistryFunction)) {
        auto It = Bits.find(nodeKey(N));
        if (It != Bits.end())
          Evidence[N] = It->second;
      }
  }

  State S0(*this, Visible, E, Evidence);
  seedShared(S0, F, E);
  run(S0);
  auto FirstChange = [&](const State &S) -> std::optional<uint32_t> {
    for (uint32_t N : S.Order)
      if (Nodes[N].Change != NodeChange::None)
        return N;
    return std::nullopt;
  };
  if (std::optional<uint32_t> N = FirstChange(S0)) {
    bool Stale =
        E.Present && E.Stale &&
        llvm::any_of(S0.Order, [&](uint32_t M) { return (*E.Stale)[M]; });
    if (!Stale) {
      Out.Shared.push_back({*N, chain(S0, *N)});
      Out.Whole = Out.Shared.front();
      Out.Reached = S0.Order.size();
      Out.PrunedCritical = S0.PrunedCount;
      return Out;
    }
  }

  // The whole file first: when it reaches nothing changed, none of its
  // tests does (each test's start is a part of the file's).
  State Whole = S0;
  for (uint32_t N : Info[F].Nodes)
    reach(Whole, N, TestCode, ~0u, ~0u);
  for (uint32_t N : TestNames)
    push(Whole, AmbRes[N], ~0u, Framework);
  run(Whole);
  if (E.Present && E.Stale &&
      llvm::any_of(Whole.Order, [&](uint32_t N) { return (*E.Stale)[N]; })) {
    // What the run saw may have changed since: no pruning with it.
    FileEvidence Without = E;
    Without.Present = false;
    Without.Stale = nullptr;
    FileOutcome Again = select(F, Without, TestsIn);
    Again.EvidenceStale = true;
    return Again;
  }
  Out.Reached = Whole.Order.size();
  Out.PrunedCritical = Whole.PrunedCount;
  std::optional<uint32_t> WholeHit = FirstChange(Whole);
  if (!WholeHit)
    return Out;
  Out.Whole = Hit{*WholeHit, chain(Whole, *WholeHit)};

  std::vector<std::string> Tests = TestsIn;
  if (Tests.empty())
    for (const TestDefinition &T : Files[F].Tests)
      Tests.push_back(T.Name);
  for (const std::string &T : Tests) {
    State S = S0;
    llvm::StringRef Name = T;
    if (!seedTest(S, F, Name.split("::").second)) {
      Out.ByFile.push_back(T);
      continue;
    }
    run(S);
    if (std::optional<uint32_t> N = FirstChange(S))
      Out.Tests.push_back({T, {*N, chain(S, *N)}});
  }
  return Out;
}

void Graph::push(State &S, uint32_t R, uint32_t From, uint8_t Source) const {
  if (S.ResDone[R])
    return;
  S.ResDone.set(R);
  S.NameReached.set(Res[R].Name);
  S.Res[R] = {From, static_cast<NameSource>(Source)};
  S.Stack.push_back(R);
}

void Graph::reach(State &S, uint32_t N, uint8_t Seed, uint32_t PredRes,
                  uint32_t PredNode) const {
  if (S.Reached[N])
    return;
  S.Reached.set(N);
  S.Order.push_back(N);
  S.Nodes[N] = {S.Round, PredRes, PredNode, static_cast<SeedKind>(Seed)};
  const Node &Nd = Nodes[N];
  size_t Before = S.Stack.size();
  // The first name used ends on top of the stack: names are followed in
  // the order the code uses them.
  for (uint32_t U = Nd.UseEnd; U-- > Nd.UseBegin;)
    push(S, UseRes[U], N, FromNode);
  if (S.Gain && PredRes != ~0u)
    (*S.Gain)[Names[Res[PredRes].Name]] += S.Stack.size() - Before;
  if (Nd.K != Kind::Class)
    return;
  // A reached class is a reachable name: its members may be reached.
  S.NameReached.set(Nd.Name);
  // Its double-underscore methods run without being named (construction,
  // operators, iteration...); with evidence from a run, only those that
  // ran (their names are runtime names), unless the run did not probe one.
  auto It = DundersOf.find(N);
  if (It != DundersOf.end())
    for (uint32_t D : It->second)
      if (!S.E->Present || !((*S.Evidence)[D] & 1))
        reach(S, D, ImplicitByClass, ~0u, N);
  auto Callbacks = CallbacksOf.find(N);
  if (Callbacks != CallbacksOf.end())
    for (uint32_t M : Callbacks->second)
      reach(S, M, CallbackByClass, ~0u, N);
}

bool Graph::pruned(const State &S, uint32_t C) const {
  const Node &N = Nodes[C];
  if (!(N.Flags & FCritical) || (N.Flags & FNeverPrune) || !S.E->Present ||
      N.Change == NodeChange::Added)
    return false;
  uint8_t Bits = (*S.Evidence)[C];
  return (Bits & 1) && !(Bits & 2);
}

void Graph::consider(State &S, uint32_t C, uint32_t R) const {
  if (S.Reached[C] || S.Pruned[C] || !(*S.Visible)[Nodes[C].File])
    return;
  uint32_t Class = Nodes[C].Class;
  if (Class != None && !S.NameReached[Class]) {
    S.Deferred.push_back({C, R});
    return;
  }
  if (pruned(S, C)) {
    S.Pruned.set(C);
    ++S.PrunedCount;
    return;
  }
  reach(S, C, ByName, R, ~0u);
}

void Graph::run(State &S) const {
  while (true) {
    while (!S.Stack.empty()) {
      uint32_t R = S.Stack.back();
      S.Stack.pop_back();
      for (uint32_t C : Res[R].Candidates)
        consider(S, C, R);
    }
    // The stack is empty: refill it with the names of class members whose
    // class has become reachable since they were first met.
    std::vector<std::pair<uint32_t, uint32_t>> Waiting;
    std::vector<std::pair<uint32_t, uint32_t>> Ready;
    for (auto [C, R] : S.Deferred)
      if (S.Reached[C] || S.Pruned[C])
        continue;
      else if (S.NameReached[Nodes[C].Class])
        Ready.push_back({C, R});
      else
        Waiting.push_back({C, R});
    S.Deferred = std::move(Waiting);
    if (Ready.empty())
      return;
    ++S.Round;
    for (auto [C, R] : Ready)
      consider(S, C, R);
  }
}

void Graph::seedShared(State &S, uint32_t F, const FileEvidence &E) const {
  for (uint32_t G = 0; G < Files.size(); ++G)
    if ((*S.Visible)[G])
      for (uint32_t N : Info[G].Nodes)
        if (Nodes[N].K == Kind::Module)
          reach(S, N, ModuleCode, ~0u, ~0u);
  for (uint32_t N : ImportTime)
    if ((*S.Visible)[Nodes[N].File])
      reach(S, N, ImportTimeCode, ~0u, ~0u);
  for (uint32_t N : Roots)
    if ((*S.Visible)[Nodes[N].File])
      reach(S, N, RootNode, ~0u, ~0u);
  for (uint32_t N : RegistryFunctions) {
    if (!(*S.Visible)[Nodes[N].File])
      continue;
    uint8_t Bits = (*S.Evidence)[N];
    if (!E.Present || !(Bits & 1) || (Nodes[N].Flags & FReregistered))
      reach(S, N, RegistryUnknown, ~0u, ~0u);
    else if (Bits & 2)
      reach(S, N, RegistryRan, ~0u, ~0u);
  }
  for (const std::string &Name : E.Names)
    if (uint32_t Id = lookup(Name); Id != None)
      push(S, AmbRes[Id], ~0u, Runtime);
  // The double-underscore methods that ran: their names were reached.
  for (uint32_t N = 0; N < Nodes.size(); ++N)
    if ((Nodes[N].Flags & FDunder) && ((*S.Evidence)[N] & 2))
      push(S, AmbRes[Nodes[N].Name], ~0u, Runtime);
  for (uint32_t N : ImplicitNames)
    push(S, AmbRes[N], ~0u, Framework);
}

bool Graph::seedTest(State &S, uint32_t F, llvm::StringRef Test) const {
  // "TestA::TestB::test_x[1]": classes TestA and TestA.TestB, method
  // TestA.TestB.test_x.
  Test = Test.split('[').first;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Test.split(Parts, "::");
  if (Parts.empty() || Parts.back().empty())
    return false;
  auto Find = [&](Kind K, const std::string &Qual) -> uint32_t {
    for (uint32_t N : Info[F].Nodes)
      if (Nodes[N].K == K && qualOf(Files[F].Nodes[Nodes[N].Index].Id) == Qual)
        return N;
    return None;
  };
  std::string Qual;
  bool Found = false;
  for (size_t I = 0; I + 1 < Parts.size(); ++I) {
    Qual += (Qual.empty() ? "" : ".") + Parts[I].str();
    uint32_t C = Find(Kind::Class, Qual);
    if (C == None)
      return false;
    reach(S, C, TestCode, ~0u, ~0u);
  }
  Qual += (Qual.empty() ? "" : ".") + Parts.back().str();
  uint32_t T = Find(Kind::Function, Qual);
  if (T != None) {
    reach(S, T, TestCode, ~0u, ~0u);
    Found = true;
  } else if (Parts.size() > 1) {
    // Inherited from a base class: the framework calls it by name.
    if (uint32_t Name = lookup(Parts.back()); Name != None) {
      push(S, AmbRes[Name], ~0u, Framework);
      Found = true;
    }
  }
  return Found;
}

std::string Graph::chain(const State &S, uint32_t N) const {
  // Walk back to the seed, then print from it.
  std::vector<std::string> Steps;
  auto Round = [&](uint32_t M) {
    const auto &I = S.Nodes.find(M)->second;
    return I.Round ? " (after refill " + std::to_string(I.Round) + ")"
                   : std::string();
  };
  uint32_t Cur = N;
  for (unsigned Guard = 0; Guard < 10000; ++Guard) {
    auto It = S.Nodes.find(Cur);
    if (It == S.Nodes.end())
      break;
    const State::NodeInfo &I = It->second;
    std::string Here = display(Cur) + Round(Cur);
    switch (I.Seed) {
    case TestCode:
      Steps.push_back("test code " + Here);
      break;
    case ModuleCode:
      Steps.push_back(Here);
      break;
    case ImportTimeCode: {
      llvm::StringRef Why = importWideWhy(Cur);
      Steps.push_back(Here + " (runs at import" +
                      (Why.empty() ? std::string() : ": " + Why.str()) + ")");
      break;
    }
    case RootNode:
      Steps.push_back("always-run " + Here);
      break;
    case RegistryRan:
      Steps.push_back("registered " + Here + " (ran in the test file)");
      break;
    case RegistryUnknown:
      Steps.push_back("registered " + Here);
      break;
    case ImplicitByClass:
      Steps.push_back("-> " + Here + " (called implicitly)");
      Cur = I.PredNode;
      continue;
    case CallbackByClass:
      Steps.push_back("-> " + Here +
                      " (its class extends one from outside the project, "
                      "whose code may call it)");
      Cur = I.PredNode;
      continue;
    case ByName: {
      const auto &R = S.Res.find(I.PredRes)->second;
      const std::string &Name = Names[Res[I.PredRes].Name];
      if (R.From == ~0u) {
        Steps.push_back(std::string(R.Source == Runtime
                                        ? "runtime access of "
                                        : "framework call of ") +
                        Name + " -> " + Here);
        break;
      }
      Steps.push_back("uses " + Name + " -> " + Here);
      Cur = R.From;
      continue;
    }
    }
    break;
  }
  std::reverse(Steps.begin(), Steps.end());
  // Long chains keep their two ends.
  if (Steps.size() > 10) {
    Steps.erase(Steps.begin() + 3, Steps.end() - 6);
    Steps.insert(Steps.begin() + 3, "...");
  }
  std::string Out;
  for (const std::string &Step : Steps)
    Out += (Out.empty() ? "" : " ") + Step;
  return Out;
}

void Graph::addExpansion(uint32_t F,
                         std::map<std::string, uint64_t> &Gain) const {
  FileEvidence None;
  std::vector<uint8_t> Visible = visibleFiles(F, None);
  std::vector<uint8_t> Evidence(Nodes.size(), 0);
  State S(*this, Visible, None, Evidence);
  S.Gain = &Gain;
  seedShared(S, F, None);
  for (uint32_t N : Info[F].Nodes)
    reach(S, N, TestCode, ~0u, ~0u);
  for (uint32_t N : TestNames)
    push(S, AmbRes[N], ~0u, Framework);
  run(S);
}

} // namespace namerts
} // namespace select
} // namespace tia
