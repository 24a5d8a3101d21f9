#include "core/ir/treespec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace pt2lint {
namespace {

// Thrown-free parser: every method returns false after recording the first error.
class TreeSpecReader {
 public:
  TreeSpecReader(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  TreeSpecShape read() {
    TreeSpecShape shape;
    std::int64_t protocol = 0;
    std::size_t leaves = 0;
    if (expect('[') && read_integer(protocol)) {
      if (protocol != 1) {
        fail(fmt::format("unknown treespec protocol {} (only 1 exists)", protocol));
      } else if (expect(',') && read_node(1, leaves, &shape) && expect(']')) {
        skip_space();
        if (pos_ != text_.size()) fail("trailing characters after the treespec");
      }
    }
    if (!error_.empty()) {
      shape.error = error_;
      shape.too_deep = too_deep_;
      return shape;
    }
    shape.ok = true;
    shape.nesting = static_cast<std::size_t>(deepest_node_ - 1);  // the root node is depth 1
    shape.leaves = leaves;
    return shape;
  }

 private:
  // {"type": str|null, "context": any, "children_spec": [node...]}, keys in any order.
  bool read_node(int depth, std::size_t& leaves, TreeSpecShape* root) {
    if (depth > max_depth_) return too_deep();
    deepest_node_ = std::max(deepest_node_, depth);
    if (!expect('{')) return false;
    bool type_is_null = false, saw_type = false;
    std::string type;
    std::size_t child_leaves = 0, children = 0;
    skip_space();
    if (peek() == '}') return fail("treespec node has no \"type\"");
    while (true) {
      std::string key;
      if (!read_string(key) || !expect(':')) return false;
      if (key == "type") {
        saw_type = true;
        skip_space();
        if (peek() == 'n') {
          if (!read_literal("null")) return false;
          type_is_null = true;
        } else if (!read_string(type)) {
          return false;
        }
      } else if (key == "children_spec") {
        if (!expect('[')) return false;
        skip_space();
        if (peek() == ']') {
          ++pos_;
        } else {
          while (true) {
            if (!read_node(depth + 1, child_leaves, nullptr)) return false;
            ++children;
            skip_space();
            if (peek() == ',') { ++pos_; continue; }
            if (!expect(']')) return false;
            break;
          }
        }
      } else if (!skip_value(depth + 1)) {
        return false;
      }
      skip_space();
      if (peek() == ',') { ++pos_; continue; }
      if (!expect('}')) return false;
      break;
    }
    if (!saw_type) return fail("treespec node has no \"type\"");
    // A leaf is a node whose type is null; it counts once whatever it claims as children.
    leaves += type_is_null ? 1 : child_leaves;
    if (root != nullptr) {
      root->root_type = type_is_null ? "" : type;
      root->root_children = children;
    }
    return true;
  }

  bool skip_value(int depth) {
    if (depth > max_depth_) return too_deep();
    skip_space();
    char c = peek();
    if (c == '"') { std::string ignored; return read_string(ignored); }
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++pos_;
      skip_space();
      if (peek() == close) { ++pos_; return true; }
      while (true) {
        if (c == '{') {
          std::string ignored;
          if (!read_string(ignored) || !expect(':')) return false;
        }
        if (!skip_value(depth + 1)) return false;
        skip_space();
        if (peek() == ',') { ++pos_; continue; }
        return expect(close);
      }
    }
    if (c == 'n') return read_literal("null");
    if (c == 't') return read_literal("true");
    if (c == 'f') return read_literal("false");
    if (c == '-' || (c >= '0' && c <= '9')) return skip_number();
    return fail(fmt::format("unexpected character at offset {}", pos_));
  }

  bool read_string(std::string& out) {
    if (!expect('"')) return false;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return true;
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        char escaped = text_[pos_++];
        switch (escaped) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u':
            // Type names are ASCII; a \u escape only needs to be stepped over correctly.
            if (pos_ + 4 > text_.size()) return fail("truncated \\u escape");
            pos_ += 4;
            out += '?';
            break;
          default: out += escaped; break;
        }
      } else {
        out += c;
      }
    }
    return fail("unterminated string");
  }

  bool read_integer(std::int64_t& value) {
    skip_space();
    std::size_t start = pos_;
    value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9' && pos_ - start < 18) {
      value = value * 10 + (text_[pos_++] - '0');
    }
    if (pos_ == start) return fail(fmt::format("expected the protocol number at offset {}", pos_));
    return true;
  }

  bool skip_number() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && std::string_view("+-.eE0123456789").find(text_[pos_]) !=
                                      std::string_view::npos) {
      ++pos_;
    }
    return pos_ > start || fail("bad number");
  }

  bool read_literal(std::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal)
      return fail(fmt::format("unexpected token at offset {}", pos_));
    pos_ += literal.size();
    return true;
  }

  bool expect(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    if (pos_ >= text_.size()) return fail(fmt::format("unexpected end, expected '{}'", c));
    return fail(fmt::format("expected '{}' at offset {}", c, pos_));
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  std::string_view text_;
  bool too_deep() {
    too_deep_ = true;
    return fail(fmt::format("treespec nested deeper than {}", max_depth_));
  }

  int max_depth_;
  int deepest_node_ = 1;
  bool too_deep_ = false;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

TreeSpecShape read_treespec(std::string_view json, int max_depth) {
  return TreeSpecReader(json, max_depth).read();
}

}  // namespace pt2lint
