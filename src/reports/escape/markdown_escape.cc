#include "reports/escape/markdown_escape.h"

#include <algorithm>

#include "reports/escape/text_escape.h"

namespace pt2lint {
namespace {

constexpr std::string_view kZeroWidthSpace = "\u200b";

// ASCII punctuation with a meaning somewhere in CommonMark or GitHub Flavored Markdown
// (emphasis, links, images, code, headings, lists, tables, strikethrough, autolinks).
bool is_markup(char c) {
  switch (c) {
    case '\\': case '`': case '*': case '_': case '{': case '}': case '[': case ']':
    case '(': case ')': case '#': case '+': case '-': case '.': case '!': case '|':
    case '~': case ':': case '"': case '\'': case '=': case '$': case '%': case '^':
    case '/': case ';': case ',': case '?':
      return true;
    default:
      return false;
  }
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
  for (char c : visible) {
    if (c == '\n') {
      out += "<br>";
    } else if (is_markup(c)) {
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
