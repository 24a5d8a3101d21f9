#include "io/writers/python_json_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

namespace pt2lint {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_u16_escape(std::string& out, unsigned unit) {
  out += "\\u";
  out += kHex[(unit >> 12) & 0xf];
  out += kHex[(unit >> 8) & 0xf];
  out += kHex[(unit >> 4) & 0xf];
  out += kHex[unit & 0xf];
}

// Decodes one UTF-8 sequence at text[i]; returns its length, or 0 when it is not valid UTF-8
// (the IR's strings are checked by protobuf, so this only guards against misuse).
std::size_t decode_utf8(std::string_view text, std::size_t i, unsigned& code_point) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  code_point = lead & (0x7f >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xc0) != 0x80) return 0;
    code_point = (code_point << 6) | (next & 0x3f);
  }
  return length;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    switch (c) {
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      case '\b': out += "\\b"; ++i; continue;
      case '\f': out += "\\f"; ++i; continue;
      default: break;
    }
    if (c < 0x80) {
      append_u16_escape(out, c);
      ++i;
      continue;
    }
    unsigned code_point = 0;
    const std::size_t length = decode_utf8(text, i, code_point);
    if (length == 0) {
      append_u16_escape(out, 0xfffd);
      ++i;
      continue;
    }
    if (code_point >= 0x10000) {
      const unsigned v = code_point - 0x10000;
      append_u16_escape(out, 0xd800 | (v >> 10));
      append_u16_escape(out, 0xdc00 | (v & 0x3ff));
    } else {
      append_u16_escape(out, code_point);
    }
    i += length;
  }
  out += '"';
}

void append_python_float(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  // Shortest round-trip digits in scientific form, then laid out by CPython's float_repr
  // rule: positional when -4 < exponent + 1 <= 16, scientific otherwise.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value,
                                    std::chars_format::scientific);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  const std::size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  const int point = exponent + 1;  // digits d1d2... mean 0.d1d2... * 10^point
  if (negative) out += '-';
  if (point > -4 && point <= 16) {
    if (point <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-point), '0');
      out += digits;
    } else if (static_cast<std::size_t>(point) >= digits.size()) {
      out += digits;
      out.append(static_cast<std::size_t>(point) - digits.size(), '0');
      out += ".0";
    } else {
      out.append(digits, 0, static_cast<std::size_t>(point));
      out += '.';
      out.append(digits, static_cast<std::size_t>(point));
    }
    return;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out.append(digits, 1);
  }
  out += 'e';
  out += exponent < 0 ? '-' : '+';
  const int magnitude = std::abs(exponent);
  if (magnitude < 10) out += '0';
  append_int(out, magnitude);
}

void append_int(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

}  // namespace pt2lint
