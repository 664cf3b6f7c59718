//===- Json.cpp - reading JSON from outside -------------------------------===//

#include "tia/Support/Json.h"
#include "tia/Support/Error.h"

namespace tia {

llvm::Expected<llvm::json::Value> parseJson(llvm::StringRef Text,
                                            unsigned MaxNesting) {
  // Brackets inside strings do not nest; a backslash escapes the next
  // character. Unbalanced input is left for the parser to reject.
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxNesting)
        return makeErrorf("nested deeper than {0} levels at byte {1}",
                          MaxNesting, I);
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return llvm::json::parse(Text);
}

} // namespace tia
