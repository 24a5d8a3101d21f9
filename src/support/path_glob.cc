#include "support/path_glob.h"

namespace pt2lint {
namespace {

// Matches one `[...]` class at the front of `pattern` against `c`; `consumed` is its length.
bool match_class(std::string_view pattern, char c, std::size_t& consumed) {
  std::size_t i = 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool matched = false;
  bool first = true;
  for (; i < pattern.size() && (first || pattern[i] != ']'); ++i, first = false) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) matched = true;
      i += 2;
    } else if (pattern[i] == c) {
      matched = true;
    }
  }
  if (i >= pattern.size()) {  // no closing bracket: '[' is a literal
    consumed = 1;
    return c == '[';
  }
  consumed = i + 1;
  return matched != negate && c != '/';
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  while (!pattern.empty()) {
    char p = pattern.front();
    if (p == '*') {
      if (pattern.substr(0, 2) == "**") {
        std::string_view rest = pattern.substr(2);
        bool slash = !rest.empty() && rest.front() == '/';
        if (slash && glob_match(rest.substr(1), path)) return true;  // `**/` as no folder
        for (std::size_t i = 0; i <= path.size(); ++i)
          if (glob_match(rest, path.substr(i))) return true;
        return false;
      }
      std::string_view rest = pattern.substr(1);
      for (std::size_t i = 0; i <= path.size(); ++i) {
        if (glob_match(rest, path.substr(i))) return true;
        if (i < path.size() && path[i] == '/') return false;
      }
      return false;
    }
    if (path.empty()) return false;
    if (p == '?') {
      if (path.front() == '/') return false;
      pattern.remove_prefix(1);
    } else if (p == '[') {
      std::size_t consumed = 1;
      if (!match_class(pattern, path.front(), consumed)) return false;
      pattern.remove_prefix(consumed);
    } else {
      if (p != path.front()) return false;
      pattern.remove_prefix(1);
    }
    path.remove_prefix(1);
  }
  return path.empty();
}

bool path_matches(std::string_view pattern, std::string_view relative_path) {
  if (pattern.find('/') == std::string_view::npos) {
    std::size_t slash = relative_path.rfind('/');
    std::string_view name =
        slash == std::string_view::npos ? relative_path : relative_path.substr(slash + 1);
    return glob_match(pattern, name);
  }
  if (pattern.substr(0, 2) == "./") pattern.remove_prefix(2);
  return glob_match(pattern, relative_path);
}

}  // namespace pt2lint
