//===- DiffFuzzer.cpp - fuzz the mapping of a diff's lines to elements ----===//
//
// tia gets a diff from libgit2 as hunks of deleted and added line numbers
// and maps them onto the elements of the two indexed versions of a file
// (select::compareVersions). The input describes both, one record a line:
//
//   old KEY KIND BEGIN END BODY HASH   an element of the base version
//   new KEY KIND BEGIN END BODY HASH   an element of the new version
//   residual old|new HASH              the tokens outside every element
//   -LINE / +LINE                      a deleted (old-side) / added line
//   no-old / no-new                    the file is added / deleted
//
// Unreadable records are skipped. Besides not crashing, the result must
// keep its promises: every changed element's lines lie inside it and are
// ascending, and every changed line lies in an element or is reported as
// outside them.
//
//===----------------------------------------------------------------------===//

#include "tia/Select/Changes.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cstdlib>

using namespace tia;

namespace {

bool readElement(llvm::ArrayRef<llvm::StringRef> F, Element &E) {
  if (F.size() != 7)
    return false;
  E.Key = F[1].str();
  E.Kind = parseKind(F[2]).value_or(ElementKind::Function);
  E.Display = E.Key;
  E.File = "a.cpp";
  E.Hash = F[6].str();
  return !F[3].getAsInteger(10, E.BeginLine) &&
         !F[4].getAsInteger(10, E.EndLine) &&
         !F[5].getAsInteger(10, E.BodyLine);
}

void check(bool Promise) {
  if (!Promise)
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  FileIndex Old, New;
  Old.Path = New.Path = "a.cpp";
  bool HasOld = true, HasNew = true;
  std::vector<unsigned> Deleted, Added;
  llvm::SmallVector<llvm::StringRef, 8> Fields;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Fields.clear();
    Line.split(Fields, ' ', -1, /*KeepEmpty=*/false);
    if (Fields.empty())
      continue;
    unsigned N = 0;
    Element E;
    if (Fields[0] == "old" && readElement(Fields, E))
      Old.Elements.push_back(E);
    else if (Fields[0] == "new" && readElement(Fields, E))
      New.Elements.push_back(E);
    else if (Fields[0] == "residual" && Fields.size() == 3)
      (Fields[1] == "old" ? Old : New).ResidualHash = Fields[2].str();
    else if (Fields[0] == "no-old")
      HasOld = false;
    else if (Fields[0] == "no-new")
      HasNew = false;
    else if (Fields[0].starts_with("-") &&
             !Fields[0].drop_front().getAsInteger(10, N))
      Deleted.push_back(N);
    else if (Fields[0].starts_with("+") &&
             !Fields[0].drop_front().getAsInteger(10, N))
      Added.push_back(N);
  }
  // libgit2 gives each side's lines ascending and distinct.
  for (std::vector<unsigned> *L : {&Deleted, &Added}) {
    std::sort(L->begin(), L->end());
    L->erase(std::unique(L->begin(), L->end()), L->end());
  }
  normalize(Old);
  normalize(New);

  select::FileComparison C = select::compareVersions(
      HasOld ? &Old : nullptr, HasNew ? &New : nullptr, Deleted, Added);
  for (const select::ChangedElement &CE : C.Elements) {
    check(std::is_sorted(CE.Lines.begin(), CE.Lines.end()));
    if (CE.Change != select::ElementChange::Modified)
      for (unsigned L : CE.Lines)
        check(CE.Elem.containsLine(L));
  }
  for (unsigned L : C.LinesOutsideNew)
    check(std::binary_search(Added.begin(), Added.end(), L));
  for (unsigned L : C.LinesOutsideOld)
    check(std::binary_search(Deleted.begin(), Deleted.end(), L));
  for (const select::ChangedElement &CE : C.Elements) {
    (void)select::qualifiedName(CE.Elem.Display);
    (void)select::unqualifiedName(CE.Elem.Display);
  }
  return 0;
}
