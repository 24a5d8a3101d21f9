// A small streaming JSON writer: correct escaping, no DOM, commas handled for the caller.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, bool pretty = false) : out_(out), pretty_(pretty) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(std::size_t number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // Shorthand for key(name).value(v).
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  // key(name), then `items` as an array of strings.
  JsonWriter& string_array(std::string_view name, const std::vector<std::string>& items);

  static void write_escaped(std::ostream& out, std::string_view text);

 private:
  void before_value();
  void newline();
  void close(char bracket);

  std::ostream& out_;
  bool pretty_;
  // Per open container: whether it already holds an element.
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace pt2lint
