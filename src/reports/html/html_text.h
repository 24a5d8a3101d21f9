// Text into HTML: escaping for element content and attribute values alike.
#pragma once

#include <string>
#include <string_view>

namespace pt2lint::html {

inline std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// `code` spans in finding messages become <code>; the rest is escaped.
inline std::string inline_code(std::string_view text) {
  std::string out;
  bool open = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '`') continue;
    out += escape(text.substr(start, i - start));
    if (i < text.size()) out += open ? "</code>" : "<code>";
    open = !open && i < text.size();
    start = i + 1;
  }
  if (open) out += "</code>";
  return out;
}

}  // namespace pt2lint::html
