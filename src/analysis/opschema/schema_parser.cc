#include "analysis/opschema/schema_parser.h"

#include <algorithm>
#include <map>

namespace pt2lint::opschema {
namespace {

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// `Tensor(a!)`, `Tensor(a -> *)`, `Tensor(*)`: the sets before `->` decide the alias set,
// `!` decides the write, as in the table generator.
struct AliasAnnotation {
  std::vector<std::string> sets;
  bool wildcard = false;
  bool write = false;
};

struct ParsedType {
  ValueType type = ValueType::kOther;
  std::optional<AliasAnnotation> alias;
};

struct Failure {
  std::size_t column;
  std::string message;
};

}  // namespace

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : text_(text) {}

  ParsedSchema parse() {
    ParsedSchema out;
    out.text_ = std::string(text_);
    parse_name(out);
    expect('(');
    parse_arguments(out);
    expect(')');
    skip_space();
    if (!consume("->")) fail("expected `->` after the arguments");
    parse_returns(out);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the returns");
    finish(out);
    return out;
  }

  std::size_t position() const { return pos_; }

 private:
  // The one exception of the analysis layer, on purpose: a failure at any depth of the
  // recursive descent unwinds to parse_schema, this file's only entry point, which turns it
  // into its result; nothing thrown here leaves the file (CONTRIBUTING.md, "Errors").
  [[noreturn]] void fail(std::string message) { throw Failure{pos_, std::move(message)}; }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool consume(std::string_view token) {
    skip_space();
    if (text_.substr(pos_).starts_with(token)) {
      pos_ += token.size();
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected `") + c + "`");
    ++pos_;
  }
  std::string_view identifier() {
    skip_space();
    std::size_t start = pos_;
    while (pos_ < text_.size() && is_identifier_char(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  void parse_name(ParsedSchema& out) {
    skip_space();
    std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '(' && text_[pos_] != ' ') ++pos_;
    std::string_view full = text_.substr(start, pos_ - start);
    std::size_t colons = full.find("::");
    std::size_t dot = full.find('.', colons == std::string_view::npos ? 0 : colons + 2);
    std::string_view name = full.substr(0, dot);
    std::string_view overload = dot == std::string_view::npos ? "" : full.substr(dot + 1);
    std::string_view base = colons == std::string_view::npos ? name : name.substr(colons + 2);
    if (base.empty() || !std::all_of(base.begin(), base.end(), is_identifier_char))
      fail("expected an operator name such as `mylib::update_cache`");
    if (colons != std::string_view::npos &&
        (colons == 0 || !std::all_of(name.begin(), name.begin() + colons, is_identifier_char)))
      fail("expected a namespace before `::`");
    if (!std::all_of(overload.begin(), overload.end(), is_identifier_char))
      fail("the overload name must be an identifier");
    out.record_.name = out.keep(name);
    out.record_.overload = out.keep(overload);
  }

  // `(T, U, ...)` at pos_: the types of a tuple or of a container's parameters (`what`).
  void parse_type_list(std::string_view what) {
    ++pos_;
    while (peek() != ')') {
      parse_type();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') fail("expected `,` or `)` in " + std::string(what));
    }
    ++pos_;
  }

  // Types: a name (`Tensor`, `int`, `__torch__.torch.classes.ns.Cls`), a container with
  // parenthesized parameters (`Dict(str, Tensor)`, `Future(t)`), or a tuple `(int, int)`;
  // then any of `(alias)`, `?`, `[]`, `[N]`.
  ParsedType parse_type() {
    // Types nest (`Dict(str, (int, Tensor))`); a hostile line must not exhaust the stack.
    if (++depth_ > kMaxDepth) fail("types nest too deeply");
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    ParsedType type;
    skip_space();
    if (peek() == '(') {
      parse_type_list("a tuple type");
    } else {
      std::size_t start = pos_;
      while (pos_ < text_.size() && (is_identifier_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
      std::string_view base = text_.substr(start, pos_ - start);
      if (base.empty()) fail("expected a type");
      if (base == "Tensor") type.type = ValueType::kTensor;
      static constexpr std::string_view kContainers[] = {"Dict", "Future", "Await", "RRef",
                                                         "Union", "Optional", "List", "Tuple"};
      if (std::find(std::begin(kContainers), std::end(kContainers), base) != std::end(kContainers) &&
          peek() == '(') {
        parse_type_list("a type's parameters");
      }
    }
    while (true) {
      char c = pos_ < text_.size() ? text_[pos_] : '\0';  // suffixes follow without spaces
      if (c == '(') {
        type.alias = parse_alias();
      } else if (c == '?') {
        ++pos_;
        type.type = type.type == ValueType::kTensor ? ValueType::kOptionalTensor : ValueType::kOther;
      } else if (c == '[') {
        ++pos_;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
        expect(']');
        if (type.type == ValueType::kTensor) type.type = ValueType::kTensorList;
        else if (type.type == ValueType::kOptionalTensor) type.type = ValueType::kOptionalTensorList;
        else type.type = ValueType::kOther;
      } else {
        return type;
      }
    }
  }

  AliasAnnotation parse_alias() {
    AliasAnnotation alias;
    expect('(');
    auto read_sets = [&](bool keep) {
      do {
        if (consume("*")) {
          if (keep) alias.wildcard = true;
          continue;
        }
        std::string_view set = identifier();
        if (set.empty()) fail("expected an alias set name such as `a`");
        if (keep) alias.sets.emplace_back(set);
      } while (consume("|"));
    };
    read_sets(true);
    if (consume("!")) alias.write = true;
    if (consume("->")) {
      read_sets(false);
      consume("!");
    }
    expect(')');
    return alias;
  }

  void skip_default() {
    int depth = 0;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '"' || c == '\'') {
        std::size_t i = pos_ + 1;
        while (i < text_.size() && text_[i] != c) i += text_[i] == '\\' ? 2 : 1;  // `\"` escapes
        if (i >= text_.size()) fail("unterminated string in a default value");
        pos_ = i + 1;
        continue;
      }
      if (c == '[' || c == '(') ++depth;
      if (c == ']' || c == ')') {
        if (depth == 0) return;
        --depth;
      }
      if (c == ',' && depth == 0) return;
      ++pos_;
    }
  }

  void parse_arguments(ParsedSchema& out) {
    bool kwarg_only = false;
    if (peek() == ')') return;
    while (true) {
      if (consume("*")) {
        kwarg_only = true;
      } else if (consume("...")) {
        // varargs (`aten::format(str self, ...)`): no named argument
      } else {
        ParsedType type = parse_type();
        std::string_view name = identifier();
        if (name.empty()) fail("expected an argument name");
        if (consume("=")) skip_default();
        ArgumentRecord arg{};
        arg.name = out.keep(name);
        arg.type = type.type;
        arg.kwarg_only = kwarg_only;
        read_alias(type, arg.alias_set, arg.writes);
        out.arguments_.push_back(arg);
      }
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      return;
    }
  }

  void parse_return(ParsedSchema& out, bool may_be_named) {
    if (consume("...")) return;
    ParsedType type = parse_type();
    ReturnRecord ret{};
    ret.type = type.type;
    ret.aliases_argument = -1;
    if (may_be_named) ret.name = out.keep(identifier());
    read_alias(type, ret.alias_set, ret.writes);
    out.returns_.push_back(ret);
  }

  void parse_returns(ParsedSchema& out) {
    if (peek() != '(') {
      parse_return(out, true);  // a single return may be named too: `-> Tensor(a!) out`
      return;
    }
    // `(...)` is a list of returns, not a tuple type.
    ++pos_;
    while (peek() != ')') {
      parse_return(out, true);
      if (peek() == ',') ++pos_;
      else if (peek() != ')') fail("expected `,` or `)` in the returns");
    }
    ++pos_;
  }

  // Numbers alias sets in order of first appearance; `(a|b)` takes the lowest number.
  void read_alias(const ParsedType& type, std::int8_t& set, bool& writes) {
    set = kNoAliasSet;
    writes = false;
    if (!type.alias) return;
    writes = type.alias->write;
    if (type.alias->wildcard) {
      set = kWildcardAliasSet;
      return;
    }
    int lowest = -1;
    for (const std::string& name : type.alias->sets) {
      auto [it, inserted] = numbers_.try_emplace(name, static_cast<int>(numbers_.size()));
      lowest = lowest < 0 ? it->second : std::min(lowest, it->second);
    }
    if (lowest > 126) fail("too many alias sets");
    set = static_cast<std::int8_t>(lowest);
  }

  void finish(ParsedSchema& out) {
    for (const ArgumentRecord& arg : out.arguments_) out.record_.is_mutable |= arg.writes;
    for (ReturnRecord& ret : out.returns_) {
      if (ret.alias_set < 0 || ret.alias_set == kWildcardAliasSet) continue;
      for (std::size_t i = 0; i < out.arguments_.size(); ++i) {
        if (out.arguments_[i].alias_set == ret.alias_set) {
          ret.aliases_argument = static_cast<std::int16_t>(i);
          break;
        }
      }
    }
    out.record_.argument_count = static_cast<std::uint16_t>(out.arguments_.size());
    out.record_.return_count = static_cast<std::uint16_t>(out.returns_.size());
    out.record_.functional_twin = kNoTwin;
    out.record_.inplace_twin = kNoTwin;
  }

  static constexpr int kMaxDepth = 32;
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::map<std::string, int> numbers_;
};

Expected<ParsedSchema> parse_schema(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  SchemaParser parser(text);
  try {
    return parser.parse();
  } catch (const Failure& failure) {
    return Status::error(failure.message + " at column " + std::to_string(failure.column + 1));
  }
}

}  // namespace pt2lint::opschema
