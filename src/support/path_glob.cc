#include "support/path_glob.h"

#include <algorithm>
#include <vector>

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

// The pattern as tokens, matched by simulating the automaton they form: every pattern position
// that can be reached after each byte of the path, so the time is (pattern × path) whatever
// the stars, never the exponential backtracking `a*a*a*…b` costs a recursive matcher.
struct Token {
  enum Kind : unsigned char { kLiteral, kAny, kClass, kStar, kDoubleStar, kFolders };
  Token(Kind k, char c = 0, std::string_view t = {}) : kind(k), literal(c), text(t) {}
  Kind kind;
  char literal;
  std::string_view text;  // a class, from its '['
};

std::vector<Token> tokenize(std::string_view pattern) {
  std::vector<Token> tokens;
  while (!pattern.empty()) {
    const char p = pattern.front();
    if (p == '*') {
      if (pattern.substr(0, 3) == "**/") {
        tokens.emplace_back(Token::kFolders);  // `**/`: no folder, or any run ending in '/'
        pattern.remove_prefix(3);
      } else if (pattern.substr(0, 2) == "**") {
        tokens.emplace_back(Token::kDoubleStar);
        pattern.remove_prefix(2);
      } else {
        tokens.emplace_back(Token::kStar);
        pattern.remove_prefix(1);
      }
    } else if (p == '?') {
      tokens.emplace_back(Token::kAny);
      pattern.remove_prefix(1);
    } else if (p == '[') {
      std::size_t consumed = 1;
      match_class(pattern, '\0', consumed);  // how far the class reaches depends on the pattern only
      if (consumed == 1) {
        tokens.emplace_back(Token::kLiteral, '[');
      } else {
        tokens.emplace_back(Token::kClass, '\0', pattern.substr(0, consumed));
      }
      pattern.remove_prefix(consumed);
    } else {
      tokens.emplace_back(Token::kLiteral, p);
      pattern.remove_prefix(1);
    }
  }
  return tokens;
}

// Marks position `i` reached, with the positions after it that empty-matching tokens make
// reachable too.
void reach(const std::vector<Token>& tokens, std::size_t i, std::vector<char>& states) {
  for (; i <= tokens.size(); ++i) {
    if (states[i]) return;
    states[i] = 1;
    if (i == tokens.size()) return;
    const Token::Kind kind = tokens[i].kind;
    if (kind != Token::kStar && kind != Token::kDoubleStar && kind != Token::kFolders) return;
  }
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  const std::vector<Token> tokens = tokenize(pattern);
  std::vector<char> current(tokens.size() + 1, 0), next(tokens.size() + 1, 0);
  reach(tokens, 0, current);
  for (const char c : path) {
    std::fill(next.begin(), next.end(), 0);
    bool any = false;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (!current[i]) continue;
      const Token& t = tokens[i];
      switch (t.kind) {
        case Token::kLiteral:
          if (c == t.literal) reach(tokens, i + 1, next), any = true;
          break;
        case Token::kAny:
          if (c != '/') reach(tokens, i + 1, next), any = true;
          break;
        case Token::kClass: {
          std::size_t consumed = 1;
          if (match_class(t.text, c, consumed)) reach(tokens, i + 1, next), any = true;
          break;
        }
        case Token::kStar:
          if (c != '/') reach(tokens, i, next), any = true;
          break;
        case Token::kDoubleStar:
          reach(tokens, i, next), any = true;
          break;
        case Token::kFolders:
          next[i] = 1, any = true;  // inside the folders: only a '/' leads on
          if (c == '/') reach(tokens, i + 1, next);
          break;
      }
    }
    if (!any) return false;
    current.swap(next);
  }
  return current[tokens.size()] != 0;
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
