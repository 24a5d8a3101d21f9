// The escaping modules of the report languages (src/reports/escape/), from the payloads of
// issue 24: names that try to be workflow commands, ANSI sequences, links, images, mentions,
// broken code spans and Mermaid directives.
#include <gtest/gtest.h>

#include <string>

#include "reports/escape/markdown_escape.h"
#include "reports/escape/mermaid_escape.h"
#include "reports/escape/text_escape.h"

namespace pt2lint {
namespace {

TEST(TextEscape, ControlsBecomeVisible) {
  EXPECT_EQ(inert_text("plain name"), "plain name");
  EXPECT_EQ(inert_text("a\n::add-mask::x"), "a\\n::add-mask::x");
  EXPECT_EQ(inert_text("\x1b[31mred\x07\r"), "\\x1b[31mred\\x07\\r");
  EXPECT_EQ(inert_text(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(inert_text("del\x7f"), "del\\x7f");
  EXPECT_EQ(inert_text("c1\xc2\x9b" "31m"), "c1\\u009b31m");  // CSI as a C1 control
  EXPECT_EQ(inert_text("ls\xe2\x80\xa8ps\xe2\x80\xa9"), "ls\\u2028ps\\u2029");
  EXPECT_EQ(inert_text("raw\x9b"), "raw\\x9b");  // not UTF-8: the byte
  EXPECT_EQ(inert_text("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");  // text stays
  EXPECT_EQ(inert_text("a\nb", Newlines::kKeep), "a\nb");
  EXPECT_EQ(inert_line_start("::error::x.pt2"), "./::error::x.pt2");
  EXPECT_EQ(inert_line_start("/abs/x.pt2"), "/abs/x.pt2");
}

TEST(MarkdownEscape, CodeSpansCannotBeBroken) {
  EXPECT_EQ(markdown_code("model.pt2"), "`model.pt2`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`x``"), "``` `x`` ```");
  EXPECT_EQ(markdown_code("a|b"), "`a\\|b`");
  EXPECT_EQ(markdown_code("x\ny"), "`x\\ny`");
}

TEST(MarkdownEscape, TextHasNoLiveMarkup) {
  const std::string out = markdown_text("![img](https://e/x.png) [l](javascript:x) @team <b>");
  EXPECT_EQ(out.find("!["), std::string::npos);
  EXPECT_EQ(out.find("[img]("), std::string::npos);  // every bracket escaped: no link forms
  EXPECT_EQ(out.find("<b>"), std::string::npos);
  EXPECT_EQ(out.find("@team"), std::string::npos);
  EXPECT_NE(out.find("\\!\\[img\\](https\\://"), std::string::npos) << out;
  EXPECT_EQ(markdown_text("a, b: c."), "a, b: c.");  // plain prose stays readable
  EXPECT_EQ(markdown_text("see #12 and www.x.io"), "see \\#12 and www\\.x.io");
  EXPECT_EQ(markdown_text("a\nb"), "a<br>b");
}

TEST(MarkdownEscape, MessagesKeepTheirOwnCodeSpans) {
  EXPECT_EQ(markdown_message("op `aten.add_` writes [x]"), "op `aten.add_` writes \\[x\\]");
  EXPECT_EQ(markdown_message("unbalanced ` tick"), "unbalanced \\` tick");
}

TEST(MarkdownEscape, HtmlTextForSummaries) {
  const std::string out = markdown_html_text("<img src=x onerror=alert(1)> @me `x`");
  EXPECT_EQ(out.find('<'), std::string::npos);
  EXPECT_EQ(out.find('`'), std::string::npos);
  EXPECT_EQ(out.find("@me"), std::string::npos);
}

TEST(MermaidEscape, NoDirectiveShapeOrQuoteEscapes) {
  const std::string out = mermaid_label("%%{init: {'theme':'dark'}}%%\"]) click x \"javascript:y\"\n");
  EXPECT_EQ(out.find('%'), std::string::npos);
  EXPECT_EQ(out.find('"'), std::string::npos);
  EXPECT_EQ(out.find(']'), std::string::npos);
  EXPECT_EQ(out.find('{'), std::string::npos);
  EXPECT_EQ(out.find('\n'), std::string::npos);
  EXPECT_EQ(mermaid_label("b_count"), "b_count");
}

}  // namespace
}  // namespace pt2lint
