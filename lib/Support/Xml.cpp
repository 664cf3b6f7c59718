//===- Xml.cpp - a small, strict XML reader -------------------------------===//
//
// One pass over the text with an explicit stack of open elements, so that
// nesting costs heap, not call stack. Errors carry the line and column of
// the offending byte.
//
//===----------------------------------------------------------------------===//

#include "tia/Support/Xml.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"

namespace tia {
namespace xml {

std::optional<llvm::StringRef> Element::attribute(llvm::StringRef Name) const {
  for (const auto &[Key, Value] : Attributes)
    if (Key == Name)
      return llvm::StringRef(Value);
  return std::nullopt;
}

namespace {

bool isSpace(char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r'; }

bool isNameStart(char C) {
  return llvm::isAlpha(C) || C == '_' || C == ':' ||
         static_cast<unsigned char>(C) >= 0x80;
}

bool isNameChar(char C) {
  return isNameStart(C) || llvm::isDigit(C) || C == '-' || C == '.';
}

class Parser {
public:
  Parser(llvm::StringRef Text, unsigned MaxDepth)
      : Text(Text), MaxDepth(MaxDepth) {}

  llvm::Expected<Element> run() {
    if (Text.starts_with("\xEF\xBB\xBF"))
      Pos = 3;
    std::optional<Element> Root;
    while (true) {
      size_t TextStart = Pos;
      while (Pos < Text.size() && Text[Pos] != '<')
        ++Pos;
      if (Pos > TextStart) {
        llvm::StringRef Chunk = Text.slice(TextStart, Pos);
        if (Open.empty()) {
          if (!Chunk.trim(" \t\r\n").empty())
            return fail(TextStart + Chunk.find_first_not_of(" \t\r\n"),
                        Root ? "text after the root element"
                             : "text before the root element");
        } else if (llvm::Error E =
                       decode(Chunk, TextStart, false, Open.back().Text)) {
          return E;
        }
      }
      if (Pos >= Text.size())
        break;

      llvm::StringRef Rest = Text.substr(Pos);
      if (Rest.starts_with("<!--")) {
        if (llvm::Error E = skipPast("-->", "unterminated comment"))
          return E;
      } else if (Rest.starts_with("<?")) {
        if (llvm::Error E =
                skipPast("?>", "unterminated processing instruction"))
          return E;
      } else if (Rest.starts_with("<![CDATA[")) {
        if (Open.empty())
          return fail(Pos, "CDATA section outside the root element");
        size_t End = Text.find("]]>", Pos + 9);
        if (End == llvm::StringRef::npos)
          return fail(Pos, "unterminated CDATA section");
        Open.back().Text += Text.slice(Pos + 9, End).str();
        Pos = End + 3;
      } else if (Rest.starts_with("<!DOCTYPE")) {
        return fail(Pos, "DTDs are not supported");
      } else if (Rest.starts_with("<!")) {
        return fail(Pos, "unexpected '<!'");
      } else if (Rest.starts_with("</")) {
        if (llvm::Error E = endTag(Root))
          return E;
      } else {
        if (Root)
          return fail(Pos, "a second root element");
        if (llvm::Error E = startTag(Root))
          return E;
      }
    }
    if (!Open.empty())
      return fail(Text.size(), "unexpected end of file: <" + Open.back().Name +
                                   "> (line " + llvm::Twine(Open.back().Line) +
                                   ") is not closed");
    if (!Root)
      return fail(Pos, "no root element");
    return std::move(*Root);
  }

private:
  llvm::Error fail(size_t At, const llvm::Twine &Why) const {
    unsigned Line = 1, Col = 1;
    for (size_t I = 0; I < At && I < Text.size(); ++I) {
      if (Text[I] == '\n') {
        ++Line;
        Col = 1;
      } else {
        ++Col;
      }
    }
    return makeError(llvm::Twine(Line) + ":" + llvm::Twine(Col) + ": " + Why);
  }

  /// The line of \p At; offsets asked for only grow.
  unsigned lineOf(size_t At) {
    for (; LineCountedTo < At; ++LineCountedTo)
      if (Text[LineCountedTo] == '\n')
        ++Line;
    return Line;
  }

  llvm::Error skipPast(llvm::StringRef End, llvm::StringRef Unterminated) {
    size_t Found = Text.find(End, Pos + 2);
    if (Found == llvm::StringRef::npos)
      return fail(Pos, Unterminated);
    Pos = Found + End.size();
    return llvm::Error::success();
  }

  void skipSpace() {
    while (Pos < Text.size() && isSpace(Text[Pos]))
      ++Pos;
  }

  llvm::Expected<std::string> name(llvm::StringRef What) {
    size_t Start = Pos;
    if (Pos >= Text.size() || !isNameStart(Text[Pos]))
      return fail(Pos, "expected " + What);
    while (Pos < Text.size() && isNameChar(Text[Pos]))
      ++Pos;
    return Text.slice(Start, Pos).str();
  }

  /// Appends \p Raw (which starts at offset \p At) to \p Out with its
  /// entities decoded; in attribute values, literal tabs and line breaks
  /// become spaces, as XML says.
  llvm::Error decode(llvm::StringRef Raw, size_t At, bool Attribute,
                     std::string &Out) {
    for (size_t I = 0; I < Raw.size(); ++I) {
      char C = Raw[I];
      if (C != '&') {
        if (Attribute && (C == '\t' || C == '\n' || C == '\r'))
          C = ' ';
        Out += C;
        continue;
      }
      size_t Semi = Raw.find(';', I);
      if (Semi == llvm::StringRef::npos || Semi - I > 12)
        return fail(At + I, "'&' that starts no entity (write &amp;)");
      llvm::StringRef Entity = Raw.slice(I + 1, Semi);
      if (Entity == "lt")
        Out += '<';
      else if (Entity == "gt")
        Out += '>';
      else if (Entity == "amp")
        Out += '&';
      else if (Entity == "quot")
        Out += '"';
      else if (Entity == "apos")
        Out += '\'';
      else if (Entity.starts_with("#")) {
        llvm::StringRef Digits = Entity.drop_front();
        unsigned Radix = 10;
        if (Digits.consume_front("x"))
          Radix = 16;
        uint64_t Code = 0;
        if (Digits.empty() || Digits.getAsInteger(Radix, Code) || Code == 0 ||
            Code > 0x10FFFF || (Code >= 0xD800 && Code <= 0xDFFF))
          return fail(At + I, "&" + Entity + "; is not a valid character");
        char Buf[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
        char *End = Buf;
        llvm::ConvertCodePointToUTF8(static_cast<unsigned>(Code), End);
        Out.append(Buf, End);
      } else {
        return fail(At + I, "unknown entity &" + Entity + ";");
      }
      I = Semi;
    }
    return llvm::Error::success();
  }

  llvm::Error startTag(std::optional<Element> &Root) {
    size_t TagStart = Pos;
    ++Pos;
    Element E;
    E.Line = lineOf(TagStart);
    auto Name = name("an element name after '<'");
    if (!Name)
      return Name.takeError();
    E.Name = std::move(*Name);
    while (true) {
      size_t BeforeSpace = Pos;
      skipSpace();
      if (Pos >= Text.size())
        return fail(TagStart, "unterminated start tag <" + E.Name + ">");
      if (Text[Pos] == '>' || Text.substr(Pos).starts_with("/>"))
        break;
      if (Pos == BeforeSpace)
        return fail(Pos, "expected a space, '>' or '/>' in <" + E.Name + ">");
      size_t AttrStart = Pos;
      auto Key = name("an attribute name");
      if (!Key)
        return Key.takeError();
      if (E.attribute(*Key))
        return fail(AttrStart,
                    "attribute '" + *Key + "' given twice in <" + E.Name + ">");
      skipSpace();
      if (Pos >= Text.size() || Text[Pos] != '=')
        return fail(Pos, "expected '=' after attribute '" + *Key + "'");
      ++Pos;
      skipSpace();
      if (Pos >= Text.size() || (Text[Pos] != '"' && Text[Pos] != '\''))
        return fail(Pos,
                    "expected a quoted value for attribute '" + *Key + "'");
      char Quote = Text[Pos++];
      size_t End = Text.find(Quote, Pos);
      if (End == llvm::StringRef::npos)
        return fail(AttrStart,
                    "unterminated value of attribute '" + *Key + "'");
      llvm::StringRef Raw = Text.slice(Pos, End);
      size_t Lt = Raw.find('<');
      if (Lt != llvm::StringRef::npos)
        return fail(Pos + Lt, "'<' in the value of attribute '" + *Key +
                                  "' (write &lt;)");
      std::string Value;
      if (llvm::Error Err = decode(Raw, Pos, true, Value))
        return Err;
      E.Attributes.emplace_back(std::move(*Key), std::move(Value));
      Pos = End + 1;
    }
    bool Empty = Text[Pos] == '/';
    Pos += Empty ? 2 : 1;
    if (Empty)
      return close(std::move(E), Root);
    if (Open.size() >= MaxDepth)
      return fail(TagStart,
                  "elements nested deeper than " + llvm::Twine(MaxDepth));
    Open.push_back(std::move(E));
    return llvm::Error::success();
  }

  llvm::Error endTag(std::optional<Element> &Root) {
    size_t TagStart = Pos;
    Pos += 2;
    auto Name = name("an element name after '</'");
    if (!Name)
      return Name.takeError();
    skipSpace();
    if (Pos >= Text.size() || Text[Pos] != '>')
      return fail(Pos, "expected '>' to end </" + *Name + ">");
    ++Pos;
    if (Open.empty())
      return fail(TagStart, "</" + *Name + "> closes no element");
    if (Open.back().Name != *Name)
      return fail(TagStart, "</" + *Name + "> closes <" + Open.back().Name +
                                "> (line " + llvm::Twine(Open.back().Line) +
                                ")");
    Element E = std::move(Open.back());
    Open.pop_back();
    return close(std::move(E), Root);
  }

  llvm::Error close(Element E, std::optional<Element> &Root) {
    if (Open.empty())
      Root = std::move(E);
    else
      Open.back().Children.push_back(std::move(E));
    return llvm::Error::success();
  }

  llvm::StringRef Text;
  unsigned MaxDepth;
  size_t Pos = 0;
  std::vector<Element> Open;
  unsigned Line = 1;
  size_t LineCountedTo = 0;
};

} // namespace

llvm::Expected<Element> parse(llvm::StringRef Text, unsigned MaxDepth) {
  return Parser(Text, MaxDepth).run();
}

} // namespace xml
} // namespace tia
