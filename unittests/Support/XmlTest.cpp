//===- XmlTest.cpp - the strict XML reader --------------------------------===//

#include "tia/Support/Xml.h"
#include "tia/Testing/Assertions.h"
#include "gtest/gtest.h"

using namespace tia;
using tia::testing::errorText;

namespace {

TEST(XmlTest, ElementsAttributesAndText) {
  ASSERT_VALUE(Root, xml::parse("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n"
                                "<!-- a report -->\n"
                                "<suites n='2'>\n"
                                "  <case name=\"a &amp; b\" time=\"0.5\"/>\n"
                                "  <case name=\"c\">\n"
                                "    <failure message=\"x&#x0A;&lt;y&gt;\">"
                                "<![CDATA[raw <text> & more]]> &#233;"
                                "</failure>\n"
                                "  </case>\n"
                                "</suites>\n"));
  EXPECT_EQ(Root->Name, "suites");
  EXPECT_EQ(Root->attribute("n"), llvm::StringRef("2"));
  EXPECT_EQ(Root->attribute("missing"), std::nullopt);
  ASSERT_EQ(Root->Children.size(), 2u);
  EXPECT_EQ(Root->Children[0].attribute("name"), llvm::StringRef("a & b"));
  EXPECT_EQ(Root->Children[0].Line, 4u);
  const xml::Element &Failure = Root->Children[1].Children.at(0);
  EXPECT_EQ(Failure.attribute("message"), llvm::StringRef("x\n<y>"));
  EXPECT_EQ(Failure.Text, "raw <text> & more \xC3\xA9");
  EXPECT_EQ(Failure.Line, 6u);
}

TEST(XmlTest, LiteralLineBreaksInAttributesAreSpaces) {
  ASSERT_VALUE(Root, xml::parse("<a m=\"x\ny\"/>"));
  EXPECT_EQ(Root->attribute("m"), llvm::StringRef("x y"));
}

TEST(XmlTest, MalformedDocuments) {
  EXPECT_EQ(errorText(xml::parse("")), "1:1: no root element");
  EXPECT_EQ(errorText(xml::parse("<a>")),
            "1:4: unexpected end of file: <a> (line 1) is not closed");
  EXPECT_EQ(errorText(xml::parse("<a>\n</b>")),
            "2:1: </b> closes <a> (line 1)");
  EXPECT_EQ(errorText(xml::parse("<a/><b/>")), "1:5: a second root element");
  EXPECT_EQ(errorText(xml::parse("<a/>x")), "1:5: text after the root element");
  EXPECT_EQ(errorText(xml::parse("x<a/>")),
            "1:1: text before the root element");
  EXPECT_EQ(errorText(xml::parse("<a b=c/>")),
            "1:6: expected a quoted value for attribute 'b'");
  EXPECT_EQ(errorText(xml::parse("<a b='1' b='2'/>")),
            "1:10: attribute 'b' given twice in <a>");
  EXPECT_EQ(errorText(xml::parse("<a b='1'c='2'/>")),
            "1:9: expected a space, '>' or '/>' in <a>");
  EXPECT_EQ(errorText(xml::parse("<a b='<'/>")),
            "1:7: '<' in the value of attribute 'b' (write &lt;)");
  EXPECT_EQ(errorText(xml::parse("<a>&nbsp;</a>")),
            "1:4: unknown entity &nbsp;");
  EXPECT_EQ(errorText(xml::parse("<a>a & b</a>")),
            "1:6: '&' that starts no entity (write &amp;)");
  EXPECT_EQ(errorText(xml::parse("<a>&#0;</a>")),
            "1:4: &#0; is not a valid character");
  EXPECT_EQ(errorText(xml::parse("<a>&#xD800;</a>")),
            "1:4: &#xD800; is not a valid character");
  EXPECT_EQ(errorText(xml::parse("<!DOCTYPE a [<!ENTITY x 'y'>]><a/>")),
            "1:1: DTDs are not supported");
  EXPECT_EQ(errorText(xml::parse("<a><!-- x</a>")),
            "1:4: unterminated comment");
  EXPECT_EQ(errorText(xml::parse("<a><![CDATA[x</a>")),
            "1:4: unterminated CDATA section");
  EXPECT_EQ(errorText(xml::parse("<1/>")),
            "1:2: expected an element name after '<'");
  EXPECT_EQ(errorText(xml::parse("<a")), "1:1: unterminated start tag <a>");
}

TEST(XmlTest, DepthIsLimited) {
  std::string Deep;
  for (int I = 0; I < 5; ++I)
    Deep += "<a>";
  EXPECT_EQ(errorText(xml::parse(Deep, 4)),
            "1:13: elements nested deeper than 4");
  // The default limit keeps the tree shallow enough to free recursively.
  std::string Ok;
  for (int I = 0; I < 256; ++I)
    Ok += "<a>";
  for (int I = 0; I < 256; ++I)
    Ok += "</a>";
  EXPECT_TRUE(static_cast<bool>(xml::parse(Ok)));
  EXPECT_EQ(errorText(xml::parse("<b>" + Ok + "</b>")),
            "1:769: elements nested deeper than 256");
}

} // namespace
