//===- Files.cpp - from candidates to file indexes ------------------------===//
//
// Once the AST is complete: keys and displays for every candidate, then per
// project file the elements with their token hashes, the residual hash of
// what no element owns, the references of its elements and its includes.
//
// Which tokens an element owns (and so hashes):
//  - a function, a lambda, a macro: all of its range;
//  - a class, variable, enum, alias or declaration: its range without the
//    elements nested in it; a class keeps the declarator of a method that
//    shapes it (virtual, special member, conversion, friend) and loses only
//    its body, so that adding a virtual function changes the class while a
//    new non-virtual method is only a new element;
//  - a conditional region: its directive lines and the inactive code the
//    preprocessor skipped, not the active code between them, which belongs
//    to the elements there.
//
// A reference belongs to the innermost element around it (a directive line
// of a region belongs to the region); a class keeps only the type
// references that shape its layout (bases, fields held by value). A macro
// expanded where no element is (an #include, a namespace-scope invocation)
// belongs to the file's residual, named "cpp:file:PATH".
//
//===----------------------------------------------------------------------===//

#include "Collector.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

void Collector::finish(const PreprocessorRecord &PP, Extracted &Out) {
  Out.Ran = true;
  resolveInstantiations();
  numberLambdas();
  implicitMemberNames();
  preprocessor(PP);
  DisplayOf.resize(Candidates.size());
  for (size_t I = 0; I < Candidates.size(); ++I)
    DisplayOf[I] = display(Candidates[I]);
  Keys.assign(Candidates.size(), std::nullopt);

  std::vector<std::string> FinalKeys(Candidates.size());
  std::map<std::pair<std::string, std::string>, unsigned> Uses;
  for (size_t I = 0; I < Candidates.size(); ++I) {
    std::string Key = "cpp:" + keyBody(I);
    // Keys are unique within a file by construction, except for a name
    // defined twice in one file (#define, #undef, #define): the later one
    // is told apart rather than silently merged.
    unsigned N = ++Uses[{record(Candidates[I].File).Path, Key}];
    if (N > 1)
      Key += "#" + std::to_string(N);
    FinalKeys[I] = std::move(Key);
  }

  // One index per project file, whichever FileIDs it was read through.
  std::map<std::string, FileID> Files;
  auto Note = [&](FileID FID) {
    const FileRecord &R = record(FID);
    if (R.Project)
      Files.emplace(R.Path, FID);
  };
  Note(SM.getMainFileID());
  for (FileID FID : PP.Entered)
    Note(FID);
  for (const Candidate &C : Candidates)
    Note(C.File);

  std::map<std::string, std::vector<size_t>> Members;
  for (size_t I = 0; I < Candidates.size(); ++I)
    Members[record(Candidates[I].File).Path].push_back(I);
  std::map<std::string, std::vector<const RawReference *>> RefsOf;
  for (const RawReference &R : Refs)
    RefsOf[record(R.File).Path].push_back(&R);

  for (auto &[Path, FID] : Files) {
    FileIndex F;
    fileIndex(Path, FID, Members[Path], FinalKeys, RefsOf[Path], PP, F);
    normalize(F);
    Out.Dependencies.push_back({F.Path, F.ContentHash});
    Out.Files.push_back(std::move(F));
  }
}

namespace {

using Range = std::pair<unsigned, unsigned>;

/// [Begin, End) without \p Holes (sorted or not, possibly overlapping).
std::vector<Range> subtract(Range Whole, std::vector<Range> Holes) {
  std::sort(Holes.begin(), Holes.end());
  std::vector<Range> Out;
  unsigned At = Whole.first;
  for (const Range &H : Holes) {
    if (H.second <= At || H.first >= Whole.second)
      continue;
    if (H.first > At)
      Out.push_back({At, H.first});
    At = std::max(At, H.second);
  }
  if (At < Whole.second)
    Out.push_back({At, Whole.second});
  return Out;
}

bool contains(const std::vector<Range> &Ranges, unsigned Offset) {
  return llvm::any_of(Ranges, [&](const Range &R) {
    return R.first <= Offset && Offset < R.second;
  });
}

} // namespace

void Collector::fileIndex(llvm::StringRef Path, FileID FID,
                          const std::vector<size_t> &Members,
                          const std::vector<std::string> &FinalKeys,
                          const std::vector<const RawReference *> &FileRefs,
                          const PreprocessorRecord &PP, FileIndex &F) {
  F.Path = Path.str();
  llvm::StringRef Buf = SM.getBufferData(FID);
  F.ContentHash = gitBlobHash(Buf);
  const std::vector<RawToken> &Toks = tokens(FID);

  std::vector<Ranges> Owned = ownedRanges(Members);
  Ranges AllOwned;
  for (size_t A = 0; A < Members.size(); ++A) {
    const Candidate &C = Candidates[Members[A]];
    Element E;
    E.Key = FinalKeys[Members[A]];
    E.Kind = C.Kind;
    E.CompileTime = C.CompileTime;
    E.Display = DisplayOf[Members[A]];
    E.File = Path.str();
    E.BeginLine = C.BeginLine;
    E.EndLine = C.EndLine;
    E.Names = C.Names;
    TokenHasher H;
    Ranges Sorted = Owned[A];
    std::sort(Sorted.begin(), Sorted.end());
    for (const Range &R : Sorted) {
      auto It = Toks.begin() + firstTokenAt(Toks, R.first);
      for (; It != Toks.end() && It->Offset < R.second; ++It)
        addToken(H, Buf, *It);
    }
    E.Hash = H.hex();
    F.Elements.push_back(std::move(E));
    if (std::optional<TestDefinition> Test = testDefinedBy(C))
      F.Tests.push_back(std::move(*Test));
    AllOwned.insert(AllOwned.end(), Sorted.begin(), Sorted.end());
  }
  F.ResidualHash = residualHash(Path, FID, std::move(AllOwned));
  addOwnedReferences(Path, Members, FinalKeys, Owned, FileRefs, F);
  addNestingReferences(Members, FinalKeys, F);
  addIncludes(Path, PP, F);
}

std::vector<Collector::Ranges>
Collector::ownedRanges(const std::vector<size_t> &Members) {
  std::vector<Ranges> Owned(Members.size());
  for (size_t A = 0; A < Members.size(); ++A) {
    const Candidate &C = Candidates[Members[A]];
    Range Whole{C.BeginOffset, C.EndOffset};
    if (C.Kind == ElementKind::Conditional) {
      Owned[A] = C.OwnOnly;
      continue;
    }
    if (isFunctionKind(C.Kind) || C.Kind == ElementKind::Macro) {
      Owned[A] = {Whole};
      continue;
    }
    Ranges Holes;
    for (size_t B = 0; B < Members.size(); ++B) {
      const Candidate &N = Candidates[Members[B]];
      // A binding is also a statement of the code that registers it (a
      // method table's entry): a changed one changes what runs at import.
      if (B == A || N.Kind == ElementKind::Conditional ||
          N.Kind == ElementKind::Binding || N.BeginOffset < C.BeginOffset ||
          N.EndOffset > C.EndOffset)
        continue;
      bool Same = N.BeginOffset == C.BeginOffset && N.EndOffset == C.EndOffset;
      if (Same && B < A)
        continue;
      if (C.Kind == ElementKind::Class && N.ShapesClass)
        Holes.push_back({N.BodyOffset, N.EndOffset});
      else
        Holes.push_back({N.BeginOffset, N.EndOffset});
    }
    Owned[A] = subtract(Whole, std::move(Holes));
  }
  return Owned;
}

std::optional<TestDefinition> Collector::testDefinedBy(const Candidate &C) {
  if (!C.FD || C.Lambda || !isFunctionKind(C.Kind))
    return std::nullopt;
  if (const auto *MD = llvm::dyn_cast<CXXMethodDecl>(C.FD))
    if (auto Test = googleTestName(*MD, SM, LangOpts))
      return TestDefinition{"gtest", *Test, C.BeginLine, C.EndLine};
  if (auto Test = catch2TestName(*C.FD, SM, LangOpts))
    return TestDefinition{"catch2", *Test, C.BeginLine, C.EndLine};
  if (auto Case = doctestTestName(*C.FD, SM, LangOpts))
    return TestDefinition{"doctest", *Case, C.BeginLine, C.EndLine};
  if (auto Path = boostTestName(*C.FD, SM, LangOpts))
    return TestDefinition{"boost", *Path, C.BeginLine, C.EndLine};
  return std::nullopt;
}

std::string Collector::residualHash(llvm::StringRef Path, FileID FID,
                                    Ranges AllOwned) {
  llvm::StringRef Buf = SM.getBufferData(FID);
  for (const auto &[BFID, R] : Brackets)
    if (record(BFID).Path == Path)
      AllOwned.push_back(R);
  std::sort(AllOwned.begin(), AllOwned.end());
  TokenHasher Residual;
  size_t R = 0;
  unsigned CoveredUntil = 0;
  for (const RawToken &T : tokens(FID)) {
    while (R < AllOwned.size() && AllOwned[R].first <= T.Offset) {
      if (AllOwned[R].second > T.Offset)
        CoveredUntil = std::max(CoveredUntil, AllOwned[R].second);
      ++R;
    }
    if (T.Offset >= CoveredUntil)
      addToken(Residual, Buf, T);
  }
  return Residual.hex();
}

void Collector::addOwnedReferences(
    llvm::StringRef Path, const std::vector<size_t> &Members,
    const std::vector<std::string> &FinalKeys, const std::vector<Ranges> &Owned,
    const std::vector<const RawReference *> &FileRefs, FileIndex &F) {
  std::vector<size_t> ByBegin; // indexes into Members, not regions
  std::vector<size_t> Regions;
  for (size_t A = 0; A < Members.size(); ++A)
    (Candidates[Members[A]].Kind == ElementKind::Conditional ? Regions
                                                             : ByBegin)
        .push_back(A);
  std::sort(ByBegin.begin(), ByBegin.end(), [&](size_t X, size_t Y) {
    return Candidates[Members[X]].BeginOffset <
           Candidates[Members[Y]].BeginOffset;
  });
  std::vector<unsigned> MaxEnd(ByBegin.size());
  for (size_t K = 0; K < ByBegin.size(); ++K)
    MaxEnd[K] = std::max(K ? MaxEnd[K - 1] : 0u,
                         Candidates[Members[ByBegin[K]]].EndOffset);
  auto Owner = [&](unsigned Offset) -> std::optional<size_t> {
    for (size_t A : Regions)
      if (contains(Owned[A], Offset))
        return A;
    size_t K = std::upper_bound(ByBegin.begin(), ByBegin.end(), Offset,
                                [&](unsigned O, size_t X) {
                                  return O < Candidates[Members[X]].BeginOffset;
                                }) -
               ByBegin.begin();
    std::optional<size_t> Best;
    while (K-- > 0 && MaxEnd[K] > Offset) {
      const Candidate &C = Candidates[Members[ByBegin[K]]];
      if (Offset >= C.EndOffset)
        continue;
      if (!Best || C.EndOffset - C.BeginOffset <
                       Candidates[Members[*Best]].EndOffset -
                           Candidates[Members[*Best]].BeginOffset)
        Best = ByBegin[K];
    }
    return Best;
  };
  for (const RawReference *Ref : FileRefs) {
    std::optional<size_t> A = Owner(Ref->Offset);
    std::string From;
    if (A) {
      const Candidate &C = Candidates[Members[*A]];
      if (C.Kind == ElementKind::Class && Ref->Kind == ReferenceKind::Type &&
          !Ref->Layout)
        continue;
      From = FinalKeys[Members[*A]];
    } else if (Ref->Kind == ReferenceKind::Macro) {
      From = "cpp:file:" + Path.str();
    } else {
      continue;
    }
    std::string To = Ref->Target ? targetKey(Ref->Target) : Ref->FixedTo;
    if (To.empty() || To == From)
      continue;
    F.References.push_back({From, std::move(To), Ref->Kind});
  }
}

void Collector::addNestingReferences(const std::vector<size_t> &Members,
                                     const std::vector<std::string> &FinalKeys,
                                     FileIndex &F) {
  for (size_t A = 0; A < Members.size(); ++A) {
    const Candidate &Region = Candidates[Members[A]];
    if (Region.Kind != ElementKind::Conditional)
      continue;
    for (size_t B = 0; B < Members.size(); ++B) {
      const Candidate &C = Candidates[Members[B]];
      if (B != A && C.BeginOffset >= Region.BeginOffset &&
          C.BeginOffset < Region.EndOffset &&
          !(C.Kind == ElementKind::Conditional &&
            C.BeginOffset == Region.BeginOffset))
        F.References.push_back({FinalKeys[Members[B]], FinalKeys[Members[A]],
                                ReferenceKind::Region});
    }
  }
  // A lambda runs when the code around it calls it or hands it on (to an
  // algorithm, a callback): the innermost element around it reaches it.
  for (size_t B = 0; B < Members.size(); ++B) {
    const Candidate &L = Candidates[Members[B]];
    if (L.Kind != ElementKind::Lambda)
      continue;
    std::optional<size_t> Around;
    for (size_t A = 0; A < Members.size(); ++A) {
      const Candidate &C = Candidates[Members[A]];
      if (A == B || C.Kind == ElementKind::Conditional ||
          C.BeginOffset > L.BeginOffset || C.EndOffset < L.EndOffset ||
          (C.BeginOffset == L.BeginOffset && C.EndOffset == L.EndOffset))
        continue;
      if (!Around || C.EndOffset - C.BeginOffset <
                         Candidates[Members[*Around]].EndOffset -
                             Candidates[Members[*Around]].BeginOffset)
        Around = A;
    }
    if (Around)
      F.References.push_back({FinalKeys[Members[*Around]],
                              FinalKeys[Members[B]], ReferenceKind::Call});
  }
  // The function depends on what its declarations say (default arguments,
  // noexcept, attributes); the reference is kept with the declaration,
  // which may be in another file than the function.
  for (size_t I : Members)
    if (Candidates[I].Kind == ElementKind::Declaration) {
      std::string Function = targetKey(Candidates[I].Decl);
      if (!Function.empty())
        F.References.push_back(
            {Function, FinalKeys[I], ReferenceKind::Declares});
    }
}

void Collector::addIncludes(llvm::StringRef Path, const PreprocessorRecord &PP,
                            FileIndex &F) {
  for (const PreprocessorRecord::Include &Inc : PP.Includes) {
    if (!Inc.HashLoc.isFileID())
      continue;
    auto [IFID, Offset] = SM.getDecomposedLoc(Inc.HashLoc);
    if (record(IFID).Path != Path || !record(IFID).Project)
      continue;
    IncludeDirective D;
    D.Line = SM.getLineNumber(IFID, Offset);
    D.Spelling = Inc.Spelling;
    D.Angled = Inc.Angled;
    if (!Inc.File.empty())
      if (auto Rel = Paths.relative(Inc.File))
        D.Resolved = *Rel;
    F.Includes.push_back(std::move(D));
  }
}

} // namespace detail
} // namespace cpp
} // namespace tia
