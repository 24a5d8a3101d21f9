// Text for Markdown (pull-request comments, job summaries): a name from a file must render
// as the characters it holds, never as a link, an image, a mention, HTML or table structure.
#pragma once

#include <string>
#include <string_view>

namespace pt2lint {

// Running text inside a line (a table cell): controls made visible (text_escape.h), inline
// markup backslash-escaped (\ ` * _ [ ] ! | ~ $), what GitHub autolinks broken ("://",
// "www.", "#123"), '<' '>' '&' as entities (GitHub's tag filter ignores backslashes), and '@'
// followed by a zero-width space so that no mention or e-mail autolink forms. Newlines become
// <br> (kept inside a table row).
std::string markdown_text(std::string_view text);

// A code span that holds `text` whole: its fence is one backtick longer than the longest
// run of backticks inside, padded with spaces when the text starts or ends with one, and
// '|' escaped (GitHub splits table cells before it reads code spans).
std::string markdown_code(std::string_view text);

// Text with the `code` spans pt2lint's own messages use: each span's content through
// markdown_code, the rest through markdown_text. An unbalanced backtick is plain text.
std::string markdown_message(std::string_view text);

// Text for inside an HTML element of a Markdown document (<summary>, <code>): HTML-escaped,
// controls visible, '@' broken as in markdown_text.
std::string markdown_html_text(std::string_view text);

}  // namespace pt2lint
