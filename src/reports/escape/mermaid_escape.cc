#include "reports/escape/mermaid_escape.h"

#include <fmt/format.h>

#include "reports/escape/text_escape.h"

namespace pt2lint {

std::string mermaid_label(std::string_view text) {
  const std::string visible = inert_text(text);
  std::string out;
  out.reserve(visible.size() + 16);
  for (char c : visible) {
    switch (c) {
      case '"': out += "#quot;"; break;
      case '`': out += '\''; break;
      case '<': out += "#lt;"; break;
      case '>': out += "#gt;"; break;
      case '&': out += "#amp;"; break;
      case '%': case '[': case ']': case '{': case '}': case '(': case ')': case '|':
      case '#': case ';':
        out += fmt::format("#{};", static_cast<int>(static_cast<unsigned char>(c)));
        break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace pt2lint
