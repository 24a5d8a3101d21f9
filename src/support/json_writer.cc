#include "support/json_writer.h"

#include <cstdio>

namespace pt2lint {

namespace {

// Length of the well-formed UTF-8 sequence starting at text[at] (RFC 3629: no overlong forms,
// no surrogates, nothing above U+10FFFF); 0 when it is not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) length = 3, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
  else if (lead >= 0xF0 && lead <= 0xF4) length = 4, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (at + length > text.size() || byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  return length;
}

}  // namespace

// Names in a program can hold any bytes (a textproto's escapes, an archive's member names);
// JSON must be UTF-8, so a byte that starts no well-formed sequence becomes U+FFFD.
void JsonWriter::write_escaped(std::ostream& out, std::string_view text) {
  out << '"';
  for (std::size_t at = 0; at < text.size(); ++at) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      case '\b': out << "\\b"; break;
      case '\f': out << "\\f"; break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out << buffer;
        } else if (c < 0x80) {
          out << static_cast<char>(c);
        } else if (const std::size_t length = utf8_sequence_length(text, at); length != 0) {
          out << text.substr(at, length);
          at += length - 1;
        } else {
          out << "\\ufffd";
        }
    }
  }
  out << '"';
}

void JsonWriter::newline() {
  if (!pretty_) return;
  out_ << '\n';
  for (std::size_t i = 0; i < has_element_.size(); ++i) out_ << "  ";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_element_.empty()) {
    if (has_element_.back()) out_ << ',';
    has_element_.back() = true;
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ << '{';
  has_element_.push_back(false);
  return *this;
}

void JsonWriter::close(char bracket) {
  bool had = has_element_.back();
  has_element_.pop_back();
  if (had) newline();
  out_ << bracket;
}

JsonWriter& JsonWriter::end_object() {
  close('}');
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ << '[';
  has_element_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  write_escaped(out_, name);
  out_ << (pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  write_escaped(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  before_value();
  out_ << number;
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ << (flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ << "null";
  return *this;
}

JsonWriter& JsonWriter::string_array(std::string_view name, const std::vector<std::string>& items) {
  key(name).begin_array();
  for (const std::string& item : items) value(item);
  return end_array();
}

}  // namespace pt2lint
