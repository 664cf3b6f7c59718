//===- Relocation.cpp - stored paths that survive a move ------------------===//

#include "tia/Support/Relocation.h"

namespace tia {

namespace {

constexpr llvm::StringLiteral RootMarker = "${root}";
constexpr llvm::StringLiteral BuildMarker = "${build}";

/// What may come before a path, or after a base that ends a path.
constexpr llvm::StringLiteral Separators = " ,:;='\"";

bool isSeparator(char C) { return Separators.contains(C); }

/// Whether a path may start at \p At of \p Text: at its start, after a
/// separator, or after an option spelling with no '/' in it that starts
/// the word ("-I", "-isystem", or '@' of a response file). The word is what
/// follows the last separator: a whole command line or a JSON array is
/// many words.
bool mayStartPath(llvm::StringRef Text, size_t At) {
  if (At == 0 || isSeparator(Text[At - 1]))
    return true;
  llvm::StringRef Before = Text.take_front(At);
  size_t WordStart = Before.find_last_of(Separators);
  llvm::StringRef Word = WordStart == llvm::StringRef::npos
                             ? Before
                             : Before.drop_front(WordStart + 1);
  return (Word.starts_with("-") || Word == "@") && !Word.contains('/');
}

/// Whether \p Base is a directory that starts \p Rest as a whole path
/// component: "/repo" starts "/repo/a" and "/repo=x", not "/repo2".
bool startsWithDirectory(llvm::StringRef Rest, llvm::StringRef Base) {
  // "/" or nothing would match every absolute path or none usefully.
  if (Base.size() < 2 || !Rest.starts_with(Base))
    return false;
  return Rest.size() == Base.size() || Rest[Base.size()] == '/' ||
         isSeparator(Rest[Base.size()]);
}

} // namespace

std::string relocatable(llvm::StringRef Text, const PathBases &B) {
  // The longer base first: a build directory inside the root is "${build}".
  // A build in the root itself is the root: "${build}" would move sources
  // into another checkout's build directory.
  std::pair<llvm::StringRef, llvm::StringRef> Bases[] = {
      {B.BuildDir, BuildMarker}, {B.Root, RootMarker}};
  if (Bases[1].first.size() >= Bases[0].first.size())
    std::swap(Bases[0], Bases[1]);
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size();) {
    bool Replaced = false;
    if (Text[I] == '/' && mayStartPath(Text, I))
      for (auto [Base, Marker] : Bases)
        if (startsWithDirectory(Text.substr(I), Base)) {
          Out += Marker;
          I += Base.size();
          Replaced = true;
          break;
        }
    if (!Replaced)
      Out += Text[I++];
  }
  return Out;
}

std::string resolved(llvm::StringRef Text, const PathBases &B) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size();) {
    llvm::StringRef Rest = Text.substr(I);
    if (Rest.starts_with(RootMarker) && !B.Root.empty()) {
      Out += B.Root;
      I += RootMarker.size();
    } else if (Rest.starts_with(BuildMarker) && !B.BuildDir.empty()) {
      Out += B.BuildDir;
      I += BuildMarker.size();
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

} // namespace tia
