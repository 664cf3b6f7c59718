//===- strings.cpp - Splitting, joining and trimming ----------------------===//

#include "calc/strings.h"

namespace calc {
namespace strings {

static bool isSpace(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
         C == '\v';
}

std::vector<std::string> split(std::string_view Text, char Separator) {
  std::vector<std::string> Parts;
  std::size_t Start = 0;
  for (std::size_t I = 0; I != Text.size(); ++I) {
    if (Text[I] != Separator)
      continue;
    Parts.emplace_back(Text.substr(Start, I - Start));
    Start = I + 1;
  }
  Parts.emplace_back(Text.substr(Start));
  return Parts;
}

std::string join(const std::vector<std::string> &Parts,
                 std::string_view Separator) {
  std::string Result;
  for (std::size_t I = 0; I != Parts.size(); ++I) {
    if (I != 0)
      Result += Separator;
    Result += Parts[I];
  }
  return Result;
}

std::string trim(std::string_view Text) {
  std::size_t Begin = 0;
  std::size_t End = Text.size();
  while (Begin != End && isSpace(Text[Begin]))
    ++Begin;
  while (End != Begin && isSpace(Text[End - 1]))
    --End;
  return std::string(Text.substr(Begin, End - Begin));
}

} // namespace strings
} // namespace calc
