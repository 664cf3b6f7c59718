//===- tia/Support/Xml.h - a small, strict XML reader ---------------------===//
//
// Reads the XML that test runners write (JUnit reports) into a tree. It is a
// pure function over text: no files, no network, no DTDs, no external or
// custom entities, so that reading a hostile file can only fail. Structure
// is checked strictly (one root, matching tags, quoted attributes, known
// entities); character classes are not (any byte above 0x7f may appear in
// names and text, so that runners' raw test output does not make a report
// unreadable).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SUPPORT_XML_H
#define TIA_SUPPORT_XML_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace xml {

/// One element with its attributes, children and text.
struct Element {
  std::string Name;
  /// In document order, entities decoded.
  std::vector<std::pair<std::string, std::string>> Attributes;
  std::vector<Element> Children;
  /// The character data directly inside the element (text and CDATA
  /// sections, entities decoded), concatenated.
  std::string Text;
  /// 1-based line of the start tag.
  unsigned Line = 0;

  /// The value of attribute \p Name; std::nullopt when absent.
  std::optional<llvm::StringRef> attribute(llvm::StringRef Name) const;
};

/// Parses \p Text as one XML document. An XML declaration, comments and
/// processing instructions are skipped; a UTF-8 byte order mark is allowed.
/// Fails with "LINE:COL: REASON" for anything else that is not well-formed,
/// for a document type declaration ("DTDs are not supported"), and for
/// elements nested deeper than \p MaxDepth.
llvm::Expected<Element> parse(llvm::StringRef Text, unsigned MaxDepth = 256);

} // namespace xml
} // namespace tia

#endif // TIA_SUPPORT_XML_H
