//===- Impact.cpp - from changed elements through the reference graph -----===//
//
// A change to an element that runs no code of its own (a class, variable,
// enum, alias, macro, #if region, declaration) reaches tests through the
// elements that reference it: the reference graph is walked backwards from
// the changed element; a function reached selects the tests that cover it
// and ends the walk there (coverage already says who runs it), unless it is
// constexpr, whose callers are followed too (compile-time evaluation leaves
// no coverage); an element that is not a function is affected in turn and
// its users are followed. Code outside every element that uses the change
// (a macro expanded in an #include) selects the tests of the translation
// units that read its file.
//
//===----------------------------------------------------------------------===//

#include "SelectInternal.h"
#include "tia/Cpp/FrontEnd.h"
#include <deque>

namespace tia {
namespace select {
namespace detail {

namespace {

constexpr llvm::StringLiteral FilePrefix = "cpp:file:";
constexpr llvm::StringLiteral MacroPrefix = "cpp:macro:";

} // namespace

std::string referenceKey(const Element &E) {
  llvm::StringRef Key = E.Key;
  if (E.Kind == ElementKind::Macro && Key.starts_with(MacroPrefix))
    return Key.take_front(Key.find('#', MacroPrefix.size())).str();
  return E.Key;
}

Rule ruleFor(ElementKind K) {
  switch (K) {
  case ElementKind::Class:
  case ElementKind::Enum:
  case ElementKind::Alias:
    return Rule::TypeUse;
  case ElementKind::Variable:
    return Rule::VariableUse;
  case ElementKind::Macro:
    return Rule::MacroUse;
  case ElementKind::Conditional:
    return Rule::Region;
  case ElementKind::Declaration:
    return Rule::Declaration;
  default:
    return Rule::ConstexprCaller;
  }
}

void Impact::addVersion(const FileIndex &F) {
  std::map<std::string, const Element *> ByKey;
  for (const Element &E : F.Elements) {
    ByKey[E.Key] = &E;
    Displays[E.Key] = E.Display;
  }
  for (const Reference &R : F.References) {
    User U;
    U.Key = R.From;
    U.File = F.Path;
    U.Kind = R.Kind;
    auto It = ByKey.find(R.From);
    if (It != ByKey.end()) {
      U.ElemKind = It->second->Kind;
      U.Display = It->second->Display;
      U.CompileTime = It->second->CompileTime;
    }
    VersionUsers[R.To].push_back(std::move(U));
  }
}

llvm::Expected<std::vector<Impact::User>> Impact::usersOf(llvm::StringRef Key) {
  auto Stored = S.referencesTo(Key);
  if (!Stored)
    return Stored.takeError();
  std::vector<User> Out;
  for (ReferenceFrom &R : *Stored)
    Out.push_back({std::move(R.From), std::move(R.File),
                   std::move(R.FromDisplay), R.Kind, R.FromKind,
                   R.FromCompileTime});
  auto It = VersionUsers.find(Key);
  if (It != VersionUsers.end())
    Out.insert(Out.end(), It->second.begin(), It->second.end());
  return Out;
}

llvm::Expected<const std::vector<std::string> *>
Impact::covering(llvm::StringRef Key) {
  auto It = Covering.find(Key);
  if (It != Covering.end())
    return &It->second;
  auto Tests =
      Snapshot ? S.testsCovering(Key, *Snapshot) : S.testsCovering(Key);
  if (!Tests)
    return Tests.takeError();
  return &(Covering[Key.str()] = std::move(*Tests));
}

llvm::Expected<bool> Impact::select(size_t I, Rule R, llvm::StringRef Key,
                                    llvm::StringRef Via) {
  auto Tests = covering(Key);
  if (!Tests)
    return Tests.takeError();
  for (const std::string &T : **Tests) {
    std::vector<Reason> &Reasons = ByTest[T];
    // One reason per element and rule is enough to explain a selection.
    if (llvm::any_of(Reasons, [&](const Reason &Old) {
          return Old.Element == I && Old.Applied == R;
        }))
      continue;
    Reasons.push_back({I, NoIndex, Via.str(), R});
  }
  if (!(*Tests)->empty())
    Reached.insert(I);
  return !(*Tests)->empty();
}

llvm::Error Impact::walk(size_t I, Rule R, llvm::StringRef Start,
                         bool StartIsFunction) {
  struct Step {
    std::string Key;
    bool IsFunction;
    std::string Through; ///< the first element passed on the way, for people
  };
  std::deque<Step> Work{{Start.str(), StartIsFunction, ""}};
  std::set<std::string> Seen{Start.str()};
  const std::string &Changed = Sel.Elements[I].Elem.File;
  while (!Work.empty()) {
    Step At = std::move(Work.front());
    Work.pop_front();
    auto Users = usersOf(At.Key);
    if (!Users)
      return Users.takeError();
    for (const User &U : *Users) {
      // A function is affected as a callee: only its callers follow.
      if (At.IsFunction && U.Kind != ReferenceKind::Call)
        continue;
      if (llvm::StringRef(U.Key).starts_with(FilePrefix)) {
        std::string File = U.Key.substr(FilePrefix.size());
        if (llvm::Error E =
                includers(FallbackKind::OutsideElements, File,
                          Sel.Elements[I].Elem.Display + " (" + Changed +
                              ") is used outside every element of " + File))
          return E;
        continue;
      }
      std::string Shown = U.Display.empty() ? U.Key : U.Display;
      std::string Via = "covers " + Shown +
                        (At.Through.empty() ? "" : ", through " + At.Through);
      if (U.Kind == ReferenceKind::Declares) {
        // U is the function the affected declaration declares. A function
        // nothing covers (defined outside the project) reaches tests through
        // its callers.
        auto Any = select(I, R, U.Key,
                          "covers the function it declares" +
                              (At.Through.empty() ? std::string()
                                                  : ", through " + At.Through));
        if (!Any)
          return Any.takeError();
        if (!*Any && Seen.insert(U.Key).second)
          Work.push_back({U.Key, true, At.Through});
        continue;
      }
      if (U.ElemKind && isFunctionKind(*U.ElemKind)) {
        auto Any = select(I, R, U.Key, Via);
        if (!Any)
          return Any.takeError();
        if (U.CompileTime && Seen.insert(U.Key).second)
          Work.push_back(
              {U.Key, true, At.Through.empty() ? Shown : At.Through});
        continue;
      }
      // Not a function (or not known here): affected in turn. It may still
      // carry coverage of its own (a class's implicit members).
      auto Any = select(I, R, U.Key, Via);
      if (!Any)
        return Any.takeError();
      if (Seen.insert(U.Key).second)
        Work.push_back({U.Key, false, At.Through.empty() ? Shown : At.Through});
    }
  }
  return llvm::Error::success();
}

llvm::Error Impact::follow(size_t I) {
  const ChangedElement &CE = Sel.Elements[I];
  const Element &E = CE.Elem;
  Rule R = ruleFor(E.Kind);
  if (isFunctionKind(E.Kind))
    return walk(I, Rule::ConstexprCaller, E.Key, /*IsFunction=*/true);

  // Coverage of its own: the implicit members of a class.
  auto Own = select(I, Rule::Covers, E.Key, "");
  if (!Own)
    return Own.takeError();

  // What a variable's initialiser calls runs before main in every program
  // that links it, whoever reads the variable.
  if (E.Kind == ElementKind::Variable)
    for (auto &[Target, Users] : VersionUsers)
      for (const User &U : Users)
        if (U.Key == E.Key && U.Kind == ReferenceKind::Call) {
          auto Shown = Displays.find(Target);
          auto Any = select(
              I, Rule::Initializer, Target,
              "covers " + (Shown == Displays.end() ? Target : Shown->second) +
                  ", which its initializer calls");
          if (!Any)
            return Any.takeError();
        }
  return walk(I, R, referenceKey(E), /*IsFunction=*/false);
}

llvm::Error Impact::followCallers(size_t I, llvm::StringRef FunctionKey) {
  return walk(I, Rule::ConstexprCaller, FunctionKey, /*IsFunction=*/true);
}

llvm::Error Impact::followUsers(size_t I, Rule R, llvm::StringRef Key) {
  return walk(I, R, Key, /*IsFunction=*/false);
}

llvm::Error Impact::scan(const NameScan &N) {
  auto TUs = S.translationUnitsReading(N.File);
  if (!TUs)
    return TUs.takeError();
  if (TUs->empty())
    return includers(FallbackKind::OutsideElements, N.File,
                     "new macro " + N.Name +
                         " in a file no indexed translation unit reads");
  std::map<std::string, std::string> Files;
  for (const StoredTranslationUnit &TU : *TUs)
    for (const FileVersionRef &D : TU.Dependencies)
      Files.emplace(D.first, D.second);
  for (const auto &[Path, Hash] : Files) {
    std::optional<std::string> Content;
    std::optional<FileIndex> Index;
    auto Head = Heads.find(Path);
    if (Head != Heads.end()) {
      Content = Head->second.Content;
      Index = Head->second.Index;
    } else {
      auto Got = Read(Path, Hash);
      if (!Got)
        return Got.takeError();
      auto FI = S.getFileIndex(Path, Hash);
      if (!FI)
        return FI.takeError();
      Content = std::move(*Got);
      Index = std::move(*FI);
    }
    if (!Content || !Index) {
      if (llvm::Error E =
              includers(FallbackKind::OutsideElements, N.File,
                        "new macro " + N.Name + ": cannot read " + Path +
                            " to find "
                            "its uses"))
        return E;
      continue;
    }
    for (unsigned Line : cpp::identifierLines(*Content, N.Name)) {
      if (Path == N.File && Line <= N.Line)
        continue;
      // The innermost elements holding the line; a region only when nothing
      // inside it does.
      std::vector<const Element *> Holders;
      for (const Element &E : Index->Elements)
        if (E.containsLine(Line))
          Holders.push_back(&E);
      auto Inner = [&](const Element *A) {
        return llvm::none_of(Holders, [&](const Element *B) {
          return B != A && A->BeginLine <= B->BeginLine &&
                 B->EndLine <= A->EndLine &&
                 (B->EndLine - B->BeginLine < A->EndLine - A->BeginLine) &&
                 !(B->Kind == ElementKind::Conditional);
        });
      };
      bool Any = false;
      for (const Element *E : Holders) {
        if (!Inner(E) || (E->Kind == ElementKind::Conditional &&
                          llvm::any_of(Holders, [&](const Element *B) {
                            return B->Kind != ElementKind::Conditional;
                          })))
          continue;
        Any = true;
        if (isFunctionKind(E->Kind)) {
          auto Got =
              select(N.Element, Rule::MacroName, E->Key,
                     "covers " + E->Display + ", which spells " + N.Name +
                         " (" + Path + ":" + std::to_string(Line) + ")");
          if (!Got)
            return Got.takeError();
        } else if (llvm::Error Err =
                       walk(N.Element, Rule::MacroName, referenceKey(*E),
                            /*IsFunction=*/false)) {
          return Err;
        }
      }
      if (!Any)
        if (llvm::Error E =
                includers(FallbackKind::OutsideElements, Path,
                          "new macro " + N.Name +
                              " is spelt outside every element (line " +
                              std::to_string(Line) + ")"))
          return E;
    }
  }
  return llvm::Error::success();
}

llvm::Error Impact::includers(FallbackKind K, llvm::StringRef File,
                              const llvm::Twine &Detail,
                              const std::vector<std::string> &More) {
  for (const Fallback &F : Sel.Fallbacks)
    if (F.Kind == K && F.File == File)
      return llvm::Error::success();
  auto It = Readers.find(File);
  if (It == Readers.end()) {
    auto TUs = S.translationUnitsReading(File);
    if (!TUs)
      return TUs.takeError();
    It = Readers.emplace(File.str(), std::move(*TUs)).first;
  }
  Fallback F{K, File.str(), Detail.str(), FallbackScope::Includers, {}};
  F.Scope = FallbackScope::Includers;
  for (const StoredTranslationUnit &TU : It->second)
    F.TranslationUnits.push_back(TU.Path);
  for (const std::string &M : More) {
    auto TUs = S.translationUnitsReading(M);
    if (!TUs)
      return TUs.takeError();
    for (StoredTranslationUnit &TU : *TUs) {
      F.TranslationUnits.push_back(TU.Path);
      It->second.push_back(std::move(TU));
    }
  }
  std::sort(F.TranslationUnits.begin(), F.TranslationUnits.end());
  F.TranslationUnits.erase(
      std::unique(F.TranslationUnits.begin(), F.TranslationUnits.end()),
      F.TranslationUnits.end());
  if (F.TranslationUnits.empty())
    F.Scope = FallbackScope::All; // in doubt, everything
  Sel.Fallbacks.push_back(std::move(F));
  return llvm::Error::success();
}

llvm::Error Impact::resolveScoped() {
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> Cache;
  for (size_t FI = 0; FI < Sel.Fallbacks.size(); ++FI) {
    const Fallback &F = Sel.Fallbacks[FI];
    if (F.Scope != FallbackScope::Includers)
      continue;
    const std::vector<StoredTranslationUnit> &TUs = Readers[F.File];
    for (const StoredTranslationUnit &TU : TUs)
      for (const FileVersionRef &D : TU.Dependencies) {
        auto It = Cache.find(D);
        if (It == Cache.end()) {
          auto Tests = Snapshot
                           ? S.testsCoveringFile(D.first, D.second, *Snapshot)
                           : S.testsCoveringFile(D.first, D.second);
          if (!Tests)
            return Tests.takeError();
          It = Cache.emplace(D, std::move(*Tests)).first;
        }
        for (const std::string &T : It->second) {
          std::vector<Reason> &Reasons = ByTest[T];
          if (llvm::any_of(Reasons, [&](const Reason &R) {
                return R.FallbackIndex == FI;
              }))
            continue;
          Reasons.push_back({NoIndex, FI, "covers code compiled in " + TU.Path,
                             Rule::Fallback});
        }
      }
  }
  return llvm::Error::success();
}

} // namespace detail
} // namespace select
} // namespace tia
