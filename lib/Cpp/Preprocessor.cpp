//===- Preprocessor.cpp - macros, conditional regions and includes --------===//
//
// A PPCallbacks records, while Clang preprocesses, every #define and #undef,
// every macro expansion (nested ones included: each is reported where the
// outermost expansion sits), every test of a name with #ifdef, #ifndef or
// defined(), the #if ... #endif regions with the ranges they skipped, and
// the #include directives. Once the AST is complete the Collector turns
// them into macro and conditional elements and macro references.
//
// Keys (docs/Formats.md): macros "cpp:macro:NAME" (the name alone, so that
// a use and a definition meet whichever file defines it); conditional
// regions "cpp:FILE:#if:HASH", HASH being the token hash of the opening
// directive.
//
//===----------------------------------------------------------------------===//

#include "clang/Lex/Preprocessor.h"
#include "Collector.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"

namespace tia {
namespace cpp {
namespace detail {

using namespace clang;

namespace {

class Recorder : public PPCallbacks {
public:
  Recorder(SourceManager &SM, std::shared_ptr<PreprocessorRecord> Out)
      : SM(SM), Out(std::move(Out)) {}

  void LexedFileChanged(FileID FID, LexedFileChangeReason Reason,
                        SrcMgr::CharacteristicKind FileType, FileID PrevFID,
                        SourceLocation Loc) override {
    if (Reason == LexedFileChangeReason::EnterFile)
      Out->Entered.push_back(FID);
  }

  void MacroDefined(const Token &Name,
                    const clang::MacroDirective *MD) override {
    const MacroInfo *MI = MD ? MD->getMacroInfo() : nullptr;
    if (!MI || !Name.getLocation().isFileID())
      return;
    std::string Display = "#define " + name(Name);
    if (MI->isFunctionLike()) {
      Display += "(";
      bool First = true;
      for (const IdentifierInfo *P : MI->params()) {
        if (!First)
          Display += ", ";
        First = false;
        Display += P->getName() == "__VA_ARGS__" ? "..." : P->getName().str();
      }
      Display += ")";
    }
    Out->Macros.push_back({Name.getLocation(), name(Name), Display});
  }

  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const clang::MacroDirective *) override {
    if (Name.getLocation().isFileID())
      Out->Macros.push_back(
          {Name.getLocation(), name(Name), "#undef " + name(Name)});
  }

  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange,
                    const MacroArgs *) override {
    if (const MacroInfo *MI = MD.getMacroInfo())
      if (MI->getDefinitionLoc().isValid())
        Out->Uses.push_back(
            {Name.getLocation(), MI->getDefinitionLoc(), name(Name)});
  }

  void Defined(const Token &Name, const MacroDefinition &,
               SourceRange) override {
    check(Name);
  }

  void If(SourceLocation Loc, SourceRange, ConditionValueKind) override {
    open(Loc);
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &) override {
    check(Name);
    open(Loc);
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &) override {
    check(Name);
    open(Loc);
  }
  void Elif(SourceLocation Loc, SourceRange, ConditionValueKind,
            SourceLocation) override {
    add(Loc);
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &) override {
    check(Name);
    add(Loc);
  }
  void Elifdef(SourceLocation Loc, SourceRange, SourceLocation) override {
    add(Loc);
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &) override {
    check(Name);
    add(Loc);
  }
  void Elifndef(SourceLocation Loc, SourceRange, SourceLocation) override {
    add(Loc);
  }
  void Else(SourceLocation Loc, SourceLocation) override { add(Loc); }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (Open.empty())
      return;
    add(Loc);
    Out->Conditionals.push_back(std::move(Open.back()));
    Open.pop_back();
  }

  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    // Clang reports the range after the #endif that ends it, so a range may
    // belong to the region just closed rather than to the one still open.
    if (!Out->Conditionals.empty()) {
      PreprocessorRecord::Conditional &Last = Out->Conditionals.back();
      if (SM.isBeforeInTranslationUnit(Range.getBegin(),
                                       Last.Directives.back()) &&
          SM.isBeforeInTranslationUnit(Last.Directives.front(),
                                       Range.getEnd())) {
        Last.Skipped.push_back(Range);
        return;
      }
    }
    if (!Open.empty())
      Open.back().Skipped.push_back(Range);
  }

  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    Out->Includes.push_back({HashLoc, FileName.str(), IsAngled,
                             File ? File->getName().str() : std::string()});
  }

private:
  static std::string name(const Token &T) {
    const IdentifierInfo *II = T.getIdentifierInfo();
    return II ? II->getName().str() : std::string();
  }

  void check(const Token &Name) {
    if (!name(Name).empty())
      Out->Uses.push_back({Name.getLocation(), SourceLocation(), name(Name)});
  }
  void open(SourceLocation Loc) {
    Open.emplace_back();
    Open.back().Directives.push_back(Loc);
  }
  void add(SourceLocation Loc) {
    if (!Open.empty())
      Open.back().Directives.push_back(Loc);
  }

  SourceManager &SM;
  std::shared_ptr<PreprocessorRecord> Out;
  std::vector<PreprocessorRecord::Conditional> Open;
};

} // namespace

std::unique_ptr<PPCallbacks>
makePreprocessorRecorder(SourceManager &SM,
                         std::shared_ptr<PreprocessorRecord> Out) {
  return std::make_unique<Recorder>(SM, std::move(Out));
}

std::pair<unsigned, unsigned> Collector::directiveExtent(FileID FID,
                                                         unsigned Offset) {
  const std::vector<RawToken> &Toks = tokens(FID);
  llvm::StringRef Buf = SM.getBufferData(FID);
  size_t I = firstTokenAt(Toks, Offset);
  if (I >= Toks.size())
    return {Offset, Offset};
  unsigned Begin = Toks[I].Offset;
  // Back to the '#' (a few tokens at most: "#", "define", NAME).
  for (size_t K = I, Steps = 0; Steps < 4; --K, ++Steps) {
    if (Toks[K].Length && Buf.substr(Toks[K].Offset, Toks[K].Length) == "#") {
      Begin = Toks[K].Offset;
      break;
    }
    if (K == 0 || !Toks[K - 1].Length)
      break;
  }
  size_t J = I;
  while (J < Toks.size() && Toks[J].Length)
    ++J;
  const RawToken &Last = Toks[J - 1 < Toks.size() ? J - 1 : Toks.size() - 1];
  return {Begin, Last.Offset + Last.Length};
}

bool Collector::insideElement(FileID FID, unsigned Begin, unsigned End) const {
  for (const Candidate &C : Candidates)
    if (C.File == FID && C.Kind != ElementKind::Macro &&
        C.Kind != ElementKind::Conditional && C.BeginOffset <= Begin &&
        End <= C.EndOffset)
      return true;
  return false;
}

void Collector::preprocessor(const PreprocessorRecord &PP) {
  auto LineOf = [&](FileID FID, unsigned Begin, unsigned End) {
    return std::make_pair(SM.getLineNumber(FID, Begin),
                          SM.getLineNumber(FID, End > Begin ? End - 1 : End));
  };

  // Conditional regions first, so that a macro defined inside one does not
  // count as an element holding it.
  for (const PreprocessorRecord::Conditional &Cond : PP.Conditionals) {
    SourceLocation First = Cond.Directives.front(),
                   Last = Cond.Directives.back();
    if (!First.isFileID() || !Last.isFileID())
      continue;
    auto [FID, FirstOff] = SM.getDecomposedLoc(First);
    auto [LastFID, LastOff] = SM.getDecomposedLoc(Last);
    if (FID != LastFID || !record(FID).Project)
      continue;
    auto Opening = directiveExtent(FID, FirstOff);
    unsigned End = directiveExtent(FID, LastOff).second;
    if (End <= Opening.first || insideElement(FID, Opening.first, End))
      continue;
    Candidate C;
    C.File = FID;
    C.Kind = ElementKind::Conditional;
    C.BeginOffset = Opening.first;
    C.EndOffset = C.BodyOffset = End;
    std::tie(C.BeginLine, C.EndLine) = LineOf(FID, C.BeginOffset, End);
    for (SourceLocation D : Cond.Directives)
      C.OwnOnly.push_back(directiveExtent(FID, SM.getFileOffset(D)));
    for (SourceRange R : Cond.Skipped) {
      if (!R.getBegin().isFileID() || !R.getEnd().isFileID())
        continue;
      auto [SFID, SBegin] = SM.getDecomposedLoc(R.getBegin());
      unsigned SEnd = SM.getFileOffset(R.getEnd());
      if (SFID == FID && SBegin < SEnd && !insideElement(FID, SBegin, SEnd))
        C.OwnOnly.push_back(
            {std::max(SBegin, C.BeginOffset), std::min(SEnd, C.EndOffset)});
    }
    // Named by its opening directive, which a change to the condition
    // changes: the region is then a deleted and an added one.
    const std::vector<RawToken> &Toks = tokens(FID);
    llvm::StringRef Buf = SM.getBufferData(FID);
    TokenHasher H;
    std::string Text;
    for (const RawToken &T : Toks) {
      if (T.Offset < Opening.first)
        continue;
      if (T.Offset >= Opening.second)
        break;
      addToken(H, Buf, T);
      if (!T.Length)
        continue;
      llvm::StringRef S = Buf.substr(T.Offset, T.Length);
      if (!Text.empty() && Text != "#")
        Text += " ";
      Text += S.str();
    }
    if (Text.size() > 60)
      Text = Text.substr(0, 57) + "...";
    C.FixedKey = record(FID).Path + ":#if:" + H.hex();
    C.FixedDisplay = Text;
    Candidates.push_back(std::move(C));
  }

  for (const PreprocessorRecord::MacroDirective &M : PP.Macros) {
    auto [FID, Offset] = SM.getDecomposedLoc(M.NameLoc);
    if (FID.isInvalid() || !record(FID).Project || M.Name.empty())
      continue;
    Candidate C;
    C.File = FID;
    C.Kind = ElementKind::Macro;
    std::tie(C.BeginOffset, C.EndOffset) = directiveExtent(FID, Offset);
    C.BodyOffset = C.EndOffset;
    std::tie(C.BeginLine, C.EndLine) = LineOf(FID, C.BeginOffset, C.EndOffset);
    C.FixedKey = "macro:" + M.Name;
    C.FixedDisplay = M.Display;
    Candidates.push_back(std::move(C));
  }

  for (const PreprocessorRecord::MacroUse &U : PP.Uses) {
    // Expansions of macros defined outside the project (system headers,
    // the command line) are not tracked; tests of a name are, whatever
    // defines it, since a project file may define it later.
    if (U.Definition.isValid()) {
      FileID DefFID = SM.getFileID(SM.getExpansionLoc(U.Definition));
      if (!record(DefFID).Project)
        continue;
    }
    auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(U.Loc));
    if (FID.isInvalid() || !record(FID).Project)
      continue;
    RawReference R;
    R.File = FID;
    R.Offset = Offset;
    R.FixedTo = "cpp:macro:" + U.Name;
    R.Kind = ReferenceKind::Macro;
    Refs.push_back(std::move(R));
  }
}

} // namespace detail
} // namespace cpp
} // namespace tia
