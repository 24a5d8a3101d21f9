#include "support/http_url.h"

namespace pt2lint {

std::string safe_link_target(std::string_view url) {
  const auto lower_starts = [&](std::string_view prefix) {
    if (url.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      char c = url[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != prefix[i]) return false;
    }
    return true;
  };
  const std::size_t scheme = lower_starts("https://") ? 8 : lower_starts("http://") ? 7 : 0;
  if (scheme == 0 || url.size() == scheme) return {};
  for (char c : url) {
    const auto b = static_cast<unsigned char>(c);
    if (b <= 0x20 || b >= 0x7F || c == '"' || c == '\'' || c == '<' || c == '>' || c == '(' ||
        c == ')' || c == '\\' || c == '`') {
      return {};
    }
  }
  return std::string(url);
}

}  // namespace pt2lint
