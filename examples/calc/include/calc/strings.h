//===- calc/strings.h - Splitting, joining and trimming ---------*- C++ -*-===//

#ifndef CALC_STRINGS_H
#define CALC_STRINGS_H

#include <string>
#include <string_view>
#include <vector>

namespace calc {
namespace strings {

/// Splits \p Text at every \p Separator. Empty fields are kept, so the result
/// has one more element than there are separators; "" gives {""}.
std::vector<std::string> split(std::string_view Text, char Separator);

/// Joins \p Parts with \p Separator between each pair; {} gives "".
std::string join(const std::vector<std::string> &Parts,
                 std::string_view Separator);

/// Returns \p Text without leading and trailing ASCII whitespace.
std::string trim(std::string_view Text);

/// True if \p Text begins with \p Prefix; every text starts with "".
inline bool startsWith(std::string_view Text, std::string_view Prefix) {
  return Text.substr(0, Prefix.size()) == Prefix;
}

} // namespace strings
} // namespace calc

#endif // CALC_STRINGS_H
