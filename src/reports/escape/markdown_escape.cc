#include "reports/escape/markdown_escape.h"

#include <algorithm>

#include "reports/escape/text_escape.h"

namespace pt2lint {
namespace {

constexpr std::string_view kZeroWidthSpace = "\u200b";

// Punctuation that is markup anywhere inside a line (a table cell holds inline content only):
// emphasis, code, links and images, table cells, strikethrough, GitHub's $math$, and the
// backslash itself. Line-start markup (#, -, +, 1.) cannot occur inside a cell.
bool is_markup(char c) {
  switch (c) {
    case '\\': case '`': case '*': case '_': case '[': case ']': case '!': case '|':
    case '~': case '$':
      return true;
    default:
      return false;
  }
}

// Whether text[i] starts what GitHub turns into a link by itself: a URL scheme's "://", a
// "www." host, or an issue reference "#123".
bool autolinks_at(std::string_view text, std::size_t i) {
  const char c = text[i];
  if (c == ':') return text.substr(i, 3) == "://";
  if (c == '.') return i >= 3 && text.substr(i - 3, 3) == "www";
  if (c == '#') return i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9';
  return false;
}

void append_entity_or(std::string& out, char c) {
  switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '@': out += "@"; out += kZeroWidthSpace; break;
    default: out += c;
  }
}

}  // namespace

std::string markdown_text(std::string_view text) {
  const std::string visible = inert_text(text, Newlines::kKeep);
  std::string out;
  out.reserve(visible.size() * 2);
  for (std::size_t i = 0; i < visible.size(); ++i) {
    const char c = visible[i];
    if (c == '\n') {
      out += "<br>";
    } else if (is_markup(c) || autolinks_at(visible, i)) {
      out += '\\';
      out += c;
    } else {
      append_entity_or(out, c);
    }
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  const std::string visible = inert_text(text);
  std::size_t longest = 0, run = 0;
  for (char c : visible) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = visible.empty() || visible.front() == '`' || visible.back() == '`' ||
                   visible.front() == ' ' || visible.back() == ' ';
  std::string out = fence;
  if (pad) out += ' ';
  for (char c : visible) {
    if (c == '|') {
      out += "\\|";
    } else {
      out += c;
    }
  }
  if (pad) out += ' ';
  return out + fence;
}

std::string markdown_message(std::string_view text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t open = text.find('`', start);
    const std::size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) {
      out += markdown_text(text.substr(start));
      break;
    }
    out += markdown_text(text.substr(start, open - start));
    out += markdown_code(text.substr(open + 1, close - open - 1));
    start = close + 1;
  }
  return out;
}

std::string markdown_html_text(std::string_view text) {
  const std::string visible = inert_text(text);
  std::string out;
  out.reserve(visible.size() + 16);
  for (char c : visible) {
    switch (c) {
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '`': out += "&#96;"; break;
      case '|': out += "&#124;"; break;
      case '[': out += "&#91;"; break;
      case ']': out += "&#93;"; break;
      case '*': out += "&#42;"; break;
      case '_': out += "&#95;"; break;
      case '~': out += "&#126;"; break;
      case '\\': out += "&#92;"; break;
      case ':': out += "&#58;"; break;
      default: append_entity_or(out, c);
    }
  }
  return out;
}

}  // namespace pt2lint
